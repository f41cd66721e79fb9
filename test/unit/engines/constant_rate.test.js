'use strict';
// The constant-rate engine (perf/lib/engines/constant_rate.js) against real servers on real
// sockets: requests due on a schedule over a pool of keep-alive connections, latency counted
// from when each was due (a stalled server raises latency, it does not stretch the schedule),
// the pool reused and opened again where the server closes, aborting, and which scenarios it runs.

const assert = require('node:assert/strict');
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const { runConstantRate, constantRateEngine } = require('../../../perf/lib/engines/constant_rate');
const { Samples } = require('../../../perf/lib/measure/samples');
const { summarizeSamples } = require('../../../perf/lib/measure/stats');
const { startStandin, useStandin, HELLO, rowsOf } = require('../../support/runner_helpers');

/** An HTTP server that records each request's socket and Connection header; closeEvery: the server closes after that many replies on a connection. */
async function recorder({ closeEvery = 0 } = {}) {
  const seen = [];
  const perSocket = new Map();
  const server = http.createServer((req, res) => {
    const n = (perSocket.get(req.socket) || 0) + 1;
    perSocket.set(req.socket, n);
    seen.push({ socket: req.socket, connection: req.headers.connection || null });
    if (closeEvery && n % closeEvery === 0) res.setHeader('Connection', 'close');
    res.end('ok');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, seen, close: () => new Promise((resolve) => server.close(resolve)), sockets: () => new Set(seen.map((s) => s.socket)).size };
}

const run = (port, options) => {
  const samples = new Samples();
  samples.start();
  return runConstantRate({ host: '127.0.0.1', port, request: HELLO, samples, ...options }).then((result) => ({ result, samples }));
};

describe('constant-rate engine: against a server that stalls for 800 ms', function () {
  this.timeout(30000);
  let server;
  let samples;
  let result;
  before(async () => {
    // The stand-in blocks its event loop for 800 ms on its 20th request (~190 ms in).
    server = await startStandin({ STANDIN_STALL_AT: '20', STANDIN_STALL_MS: '800' });
    ({ samples, result } = await run(server.port, { connections: 4, rate: 100, requests: 150, timeoutMs: 10000 }));
  });
  after(() => server && server.stop());

  it('hands every request to its connection on schedule anyway (the schedule is not stretched)', () => {
    assert.equal(result.launched, 150);
    assert.equal(samples.length, 150);
    assert.ok(result.schedule_lag_ms.max < 250, `a request handed over ${result.schedule_lag_ms.max} ms behind schedule`);
  });

  it('counts latency from when each request was due: i × 10 ms, request i on connection i mod 4', () => {
    const rows = rowsOf(samples).sort((a, b) => a.t_ms - b.t_ms);
    rows.forEach((r, i) => {
      assert.ok(Math.abs(r.t_ms - i * 10) < 1e-6, `request ${i} starts at ${r.t_ms}`);
      assert.equal(r.conn, (i % 4) + 1);
    });
  });

  it('shows the stall as latency: requests due during it wait for it, behind their busy connection', () => {
    const rows = rowsOf(samples);
    assert.ok(rows.every((r) => r.status === 200), 'every request answered 200');
    assert.ok(rows.filter((r) => r.latency_ms > 300).length >= 40, 'requests due during the stall waited');
    const tail = rows.filter((r) => r.t_ms >= 1400);
    assert.ok(tail.length > 0 && tail.every((r) => r.latency_ms < 300), 'fast again after it');
  });
});

describe('constant-rate engine: the pool', function () {
  this.timeout(30000);
  const server = useStandin();

  it('carries every request on the pool\'s keep-alive connections, no more connections than asked', async () => {
    const rec = await recorder();
    try {
      const { result, samples } = await run(rec.port, { connections: 3, rate: 200, requests: 20 });
      assert.deepEqual([result.launched, result.reconnects, samples.length], [20, 0, 20]);
      assert.equal(rec.sockets(), 3);
      assert.ok(rec.seen.every((s) => s.connection === null), 'no request asks to close (HTTP/1.1 keeps it by default)');
      assert.deepEqual(rowsOf(samples).filter((r) => r.connect_ms !== null).length, 3, 'the first request on each connection times its connect');
    } finally {
      await rec.close();
    }
  });

  it('opens a connection again where the server closed it, and loses no request', async () => {
    const rec = await recorder({ closeEvery: 2 });
    try {
      const { result, samples } = await run(rec.port, { connections: 2, rate: 200, requests: 12 });
      assert.equal(samples.length, 12);
      assert.deepEqual(summarizeSamples(samples).errors, { refused: 0, reset: 0, timeout: 0, other: 0 });
      assert.equal(rec.sockets(), 6, 'two requests a connection');
      assert.equal(result.reconnects, 0, 'a close the server announced is not a reconnect after a failure');
    } finally {
      await rec.close();
    }
  });

  it('fewer requests than connections: one connection a request', async () => {
    const rec = await recorder();
    try {
      await run(rec.port, { connections: 10, rate: 100, requests: 3 });
      assert.equal(rec.sockets(), 3);
    } finally {
      await rec.close();
    }
  });

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
