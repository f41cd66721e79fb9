'use strict';
// The open-loop engine (perf/lib/engines/open_loop.js) against a real stand-in server on real
// sockets: the schedule (a stalled server raises latency, it does not stretch the schedule),
// latency counted from the scheduled start, error kinds, keep-alive sessions, progress,
// aborting, and which scenarios it runs.

const assert = require('node:assert/strict');
const http = require('node:http');
const net = require('node:net');
const { performance } = require('node:perf_hooks');
const { openLoopSchedule, runOpenLoop, openLoopEngine } = require('../../../perf/lib/engines/open_loop');
const { Samples } = require('../../../perf/lib/measure/samples');
const { summarizeSamples } = require('../../../perf/lib/measure/stats');
const { startStandin, useStandin, HELLO, rowsOf } = require('../../support/runner_helpers');

const STALLED = { ...HELLO, path: '/delay?ms=5000' };

describe('perf drivers: open-loop schedule', () => {
  it('openLoopSchedule: i / rate, from the offset', () => {
    assert.deepEqual(Array.from(openLoopSchedule(4, 20)), [0, 50, 100, 150]);
    assert.deepEqual(Array.from(openLoopSchedule(3, 200, 1000)), [1000, 1005, 1010]);
    assert.equal(openLoopSchedule(0, 5).length, 0);
    assert.throws(() => openLoopSchedule(3, 0));
  });

  describe('against a server that stalls for 800 ms', function () {
    this.timeout(30000);
    let server;
    let samples;
    let result;
    before(async () => {
      // The stand-in blocks its event loop for 800 ms on its 20th request (~190 ms in).
      server = await startStandin({ STANDIN_STALL_AT: '20', STANDIN_STALL_MS: '800' });
      samples = new Samples();
      samples.start();
      result = await runOpenLoop({ host: server.host, port: server.port, request: HELLO, connections: 150, rate: 100, timeoutMs: 10000, samples });
    });
    after(() => server && server.stop());

    it('opens every connection on schedule anyway (the schedule is not stretched)', () => {
      assert.equal(result.launched, 150);
      assert.equal(samples.length, 150);
      assert.ok(result.schedule_lag_ms.max < 250, `a connection opened ${result.schedule_lag_ms.max} ms behind schedule`);
    });

    it('counts latency from the scheduled start: each sample starts at (conn - 1) × 10 ms', () => {
      for (const r of rowsOf(samples)) assert.ok(Math.abs(r.t_ms - (r.conn - 1) * 10) < 1e-6, `conn ${r.conn} starts at ${r.t_ms}`);
    });

    it('shows the stall as latency: requests arriving during it wait for it to end', () => {
      const rows = rowsOf(samples);
      assert.ok(rows.every((r) => r.status === 200), 'every request answered 200');
      const slow = rows.filter((r) => r.latency_ms > 300);
      assert.ok(slow.length >= 40, `only ${slow.length} requests waited more than 300 ms`);
      const max = Math.max(...rows.map((r) => r.latency_ms));
      assert.ok(max >= 600, `the longest wait was ${max} ms`);
      // After the stall the server is fast again.
      const tail = rows.filter((r) => r.t_ms >= 1300);
      assert.ok(tail.length > 0 && tail.every((r) => r.latency_ms < 300));
    });
  });
});

describe('perf drivers: against the stand-in server', function () {
  this.timeout(30000);
  const server = useStandin();

  it('error kinds: refused (nobody listening) and timeout (no reply in time)', async () => {
    const closedPort = await new Promise((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address();
        probe.close(() => resolve(port));
      });
    });
    const samples = new Samples();
    samples.start();
    await runOpenLoop({ host: '127.0.0.1', port: closedPort, request: HELLO, connections: 10, rate: 200, samples });
    assert.deepEqual(summarizeSamples(samples).errors, { refused: 10, reset: 0, timeout: 0, other: 0 });

    const slow = new Samples();
    slow.start();
    await runOpenLoop({ host: server.host, port: server.port, request: { ...HELLO, path: '/delay?ms=3000' }, connections: 3, rate: 100, timeoutMs: 200, samples: slow });
    const sum = summarizeSamples(slow);
    assert.equal(sum.errors.timeout, 3);
    assert.ok(rowsOf(slow).every((r) => r.latency_ms >= 190 && r.latency_ms < 2000));
  });

  it('keep-alive sessions: each connection\'s requests in a row, the first one timing the connect', async () => {
    const samples = new Samples();
    samples.start();
    const res = await runOpenLoop({ host: server.host, port: server.port, request: HELLO, connections: 4, rate: 100, requestsPerConnection: 3, samples });
    assert.equal(res.launched, 4);
    const rows = rowsOf(samples);
    assert.equal(rows.length, 12);
    assert.ok(rows.every((r) => r.status === 200));
    for (let conn = 1; conn <= 4; conn++) {
      const own = rows.filter((r) => r.conn === conn).sort((a, b) => a.t_ms - b.t_ms);
      assert.deepEqual(own.map((r) => r.connect_ms !== null), [true, false, false], `conn ${conn}`);
      assert.ok(Math.abs(own[0].t_ms - (conn - 1) * 10) < 1e-6, 'the first request starts on schedule');
      for (let i = 1; i < 3; i++) assert.ok(own[i].t_ms >= own[i - 1].t_ms + own[i - 1].latency_ms, 'the next starts when the previous ended');
    }
  });

  it('keep-alive sessions: the last request asks the server to close the connection', async () => {
    const seen = [];
    const recorder = http.createServer((req, res) => {
      seen.push(`${req.socket.remotePort} ${req.headers.connection || 'keep-alive'}`);
      res.end('ok');
    });
    await new Promise((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    try {
      const samples = new Samples();
      samples.start();
      await runOpenLoop({ host: '127.0.0.1', port: recorder.address().port, request: HELLO, connections: 2, rate: 100, requestsPerConnection: 3, samples });
    } finally {
      recorder.close();
    }
    const byConnection = new Map();
    for (const line of seen) {
      const [port, connection] = line.split(' ');
      byConnection.set(port, [...(byConnection.get(port) || []), connection]);
    }
    assert.deepEqual([...byConnection.values()], [['keep-alive', 'keep-alive', 'close'], ['keep-alive', 'keep-alive', 'close']]);
  });

  it('says its progress, each connection done of all', async () => {
    const samples = new Samples();
    samples.start();
    const seen = [];
    await runOpenLoop({ host: server.host, port: server.port, request: HELLO, connections: 5, rate: 200, samples, onProgress: (p) => seen.push(p) });
    assert.deepEqual(seen.map((p) => p.done).sort((a, b) => a - b), [1, 2, 3, 4, 5]);
    assert.ok(seen.every((p) => p.total === 5));
  });

  it('aborted: opens no more connections, ends those open (as other errors), and resolves', async () => {
    const controller = new AbortController();
    const samples = new Samples();
    samples.start();
    setTimeout(() => controller.abort(), 300);
    const t0 = performance.now();
    const res = await runOpenLoop({ host: server.host, port: server.port, request: STALLED, connections: 100, rate: 20, samples, signal: controller.signal });
    assert.ok(performance.now() - t0 < 2000, 'it did not wait for the stalled replies');
    assert.ok(res.launched > 0 && res.launched < 20, `launched ${res.launched} of 100`);
    assert.equal(samples.length, res.launched);
    assert.deepEqual(summarizeSamples(samples).errors, { refused: 0, reset: 0, timeout: 0, other: res.launched });
  });

  it('aborted before it starts: nothing launched', async () => {
    const samples = new Samples();
    samples.start();
    const res = await runOpenLoop({ host: server.host, port: server.port, request: HELLO, connections: 10, rate: 100, samples, signal: AbortSignal.abort() });
    assert.deepEqual(res, { launched: 0, schedule_lag_ms: { mean: null, max: null } });
    assert.equal(samples.length, 0);
  });
});

describe('open-loop engine: which scenarios it runs', () => {
  it('the open ones', () => {
    assert.equal(openLoopEngine.supports({ kind: 'open' }), true);
    for (const kind of ['closed', 'slow_clients']) assert.equal(openLoopEngine.supports({ kind, keep_alive: false }), false, kind);
  });
});
