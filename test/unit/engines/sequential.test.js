'use strict';
// The sequential engine (perf/lib/engines/sequential.js) against a real stand-in server: each
// client opens its next connection only after the previous one is done, a count or a duration
// bounds the run, and which scenarios it runs.

const assert = require('node:assert/strict');
const { performance } = require('node:perf_hooks');
const { runSequential } = require('../../../perf/lib/engines/sequential');
const { Samples } = require('../../../perf/lib/measure/samples');
const { startStandin } = require('../../support/runner_helpers');

const HELLO = { method: 'GET', path: '/hello', headers: {}, upload_bytes: null };
const rowsOf = (samples) => Array.from({ length: samples.length }, (_, i) => samples.row(i));

describe('perf drivers: against the stand-in server', function () {
  this.timeout(30000);
  let server;
  before(async () => {
    server = await startStandin();
  });
  after(() => server && server.stop());

  it('sequential: each connection opens after the previous one is done', async () => {
    const samples = new Samples();
    samples.start();
    const res = await runSequential({ host: server.host, port: server.port, request: HELLO, concurrency: 1, requests: 25, samples });
    assert.equal(res.connections, 25);
    const rows = rowsOf(samples).sort((a, b) => a.t_ms - b.t_ms);
    assert.equal(new Set(rows.map((r) => r.conn)).size, 25);
    for (let i = 1; i < rows.length; i++) assert.ok(rows[i].t_ms >= rows[i - 1].t_ms + rows[i - 1].latency_ms);
    assert.ok(rows.every((r) => r.status === 200 && r.connect_ms !== null));
  });

  it('sequential with a duration: stops starting requests at the end', async () => {
    const samples = new Samples();
    const t0 = samples.start();
    await runSequential({ host: server.host, port: server.port, request: HELLO, concurrency: 4, durationMs: 300, samples });
    assert.ok(samples.length > 4);
    assert.ok(rowsOf(samples).every((r) => r.t_ms < 300 + 5));
    assert.ok(performance.now() - t0 < 5000);
  });
});
