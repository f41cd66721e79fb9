'use strict';
// The constant-rate engine (perf/lib/engines/constant_rate.js) against real servers on real
// sockets: what every engine of kind rate does (test/support/rate_engine_suite.js: the schedule,
// the stall shown as latency, the pool), then its progress, aborting, and which scenarios it runs.

const assert = require('node:assert/strict');
const { performance } = require('node:perf_hooks');
const { runConstantRate, constantRateEngine } = require('../../../perf/lib/engines/constant_rate');
const { Samples } = require('../../../perf/lib/measure/samples');
const { summarizeSamples } = require('../../../perf/lib/measure/stats');
const { useStandin, HELLO } = require('../../support/runner_helpers');
const { describeRateEngine, describeWarmConnections } = require('../../support/rate_engine_suite');

const run = (port, options) => {
  const samples = new Samples();
  samples.start();
  return runConstantRate({ host: '127.0.0.1', port, request: HELLO, samples, ...options }).then((result) => ({ result, samples }));
};

describeRateEngine('constant-rate engine', run);
describeWarmConnections('constant-rate engine', constantRateEngine);

describe('constant-rate engine: progress and aborting', function () {
  this.timeout(30000);
  const server = useStandin();

  it('says its progress, each request done of all', async () => {
    const seen = [];
    await run(server.port, { connections: 2, rate: 200, requests: 5, onProgress: (p) => seen.push(p) });
    assert.deepEqual(seen.map((p) => p.done), [1, 2, 3, 4, 5]);
    assert.ok(seen.every((p) => p.total === 5));
  });

  it('aborted: hands over no more requests, ends those in flight (as other errors), and resolves', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const t0 = performance.now();
    const { result, samples } = await run(server.port, { request: { ...HELLO, path: '/delay?ms=5000' }, connections: 4, rate: 20, requests: 100, signal: controller.signal });
    assert.ok(performance.now() - t0 < 2000, 'it did not wait for the stalled replies');
    assert.ok(result.launched > 0 && result.launched < 20, `launched ${result.launched} of 100`);
    assert.equal(samples.length, 4, 'the four requests in flight, each ended');
    assert.deepEqual(summarizeSamples(samples).errors, { refused: 0, reset: 0, timeout: 0, other: 4 });
  });

  it('aborted before it starts: nothing handed over', async () => {
    const { result, samples } = await run(server.port, { connections: 2, rate: 100, requests: 10, signal: AbortSignal.abort() });
    assert.deepEqual(result, { launched: 0, reconnects: 0, schedule_lag_ms: { mean: null, max: null } });
    assert.equal(samples.length, 0);
  });
});

describe('constant-rate engine: which scenarios it runs', () => {
  it('the rate ones', () => {
    assert.equal(constantRateEngine.supports({ kind: 'rate' }), true);
    for (const kind of ['closed', 'open', 'slow_clients']) assert.equal(constantRateEngine.supports({ kind }), false, kind);
  });
});
