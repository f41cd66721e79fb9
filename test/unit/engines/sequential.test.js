'use strict';
// The sequential engine (perf/lib/engines/sequential.js) against a real stand-in server: each
// client opens its next connection only after the previous one is done, a count shared by the
// clients or a duration bounds the run, aborting, and which scenarios it runs.

const assert = require('node:assert/strict');
const { performance } = require('node:perf_hooks');
const { runSequential, sequentialEngine } = require('../../../perf/lib/engines/sequential');
const { Samples } = require('../../../perf/lib/measure/samples');
const { useStandin, HELLO, rowsOf } = require('../../support/runner_helpers');

describe('perf drivers: against the stand-in server', function () {
  this.timeout(30000);
  const server = useStandin();

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

  it('several clients share the count: exactly that many requests, each on its own connection', async () => {
    const samples = new Samples();
    samples.start();
    const seen = [];
    const res = await runSequential({ host: server.host, port: server.port, request: HELLO, concurrency: 3, requests: 10, samples, onProgress: (p) => seen.push(p) });
    assert.equal(res.connections, 10);
    const rows = rowsOf(samples);
    assert.deepEqual(rows.map((r) => r.conn).sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.ok(rows.every((r) => r.status === 200 && r.connect_ms !== null));
    assert.deepEqual(seen.map((p) => p.done), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.ok(seen.every((p) => p.total === 10));
  });

  it('needs a count or a duration', async () => {
    const samples = new Samples();
    samples.start();
    await assert.rejects(runSequential({ host: server.host, port: server.port, request: HELLO, concurrency: 1, samples }), /^Error: runSequential: requests or durationMs required$/);
  });

  it('aborted: ends the requests in flight (as other errors) and starts no more', async () => {
    const controller = new AbortController();
    const samples = new Samples();
    samples.start();
    setTimeout(() => controller.abort(), 200);
    const t0 = performance.now();
    const res = await runSequential({ host: server.host, port: server.port, request: { ...HELLO, path: '/delay?ms=5000' }, concurrency: 2, requests: 50, samples, signal: controller.signal });
    assert.ok(performance.now() - t0 < 2000, 'it did not wait for the stalled replies');
    assert.equal(res.connections, 2);
    assert.deepEqual(rowsOf(samples).map((r) => r.error), ['other', 'other']);
    const before = new Samples();
    before.start();
    assert.deepEqual(await runSequential({ host: server.host, port: server.port, request: HELLO, concurrency: 2, requests: 5, samples: before, signal: AbortSignal.abort() }), { connections: 0 });
    assert.equal(before.length, 0);
  });
});

describe('sequential engine: which scenarios it runs', () => {
  it('closed loops with a new connection per request', () => {
    assert.equal(sequentialEngine.supports({ kind: 'closed', keep_alive: false }), true);
    assert.equal(sequentialEngine.supports({ kind: 'closed', keep_alive: true }), false);
    assert.equal(sequentialEngine.supports({ kind: 'open', keep_alive: false }), false);
  });
});
