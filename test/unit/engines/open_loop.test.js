'use strict';
// The open-loop engine (perf/lib/engines/open_loop.js) against a real stand-in server on real
// sockets: the schedule (a stalled server raises latency, it does not stretch the schedule),
// latency counted from the scheduled start, error kinds, keep-alive sessions, aborting.

const assert = require('node:assert/strict');
const net = require('node:net');
const { openLoopSchedule, runOpenLoop } = require('../../../perf/lib/engines/open_loop');
const { Samples } = require('../../../perf/lib/measure/samples');
const { summarizeSamples } = require('../../../perf/lib/measure/stats');
const { startStandin } = require('../../support/runner_helpers');

const HELLO = { method: 'GET', path: '/hello', headers: {}, upload_bytes: null };
const rowsOf = (samples) => Array.from({ length: samples.length }, (_, i) => samples.row(i));

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
  let server;
  before(async () => {
    server = await startStandin();
  });
  after(() => server && server.stop());

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
});
