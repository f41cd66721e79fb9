'use strict';
// The load drivers against a real stand-in server on real sockets: the open-loop schedule
// (a stalled server raises latency, it does not stretch the schedule), error kinds, the
// closed-loop drivers' connection accounting, read and upload pacing, the slow-client driver.

const assert = require('node:assert/strict');
const net = require('node:net');
const { performance } = require('node:perf_hooks');
const { openLoopSchedule, runOpenLoop } = require('../../../perf/lib/engines/open_loop');
const { runSequential } = require('../../../perf/lib/engines/sequential');
const { runAutocannon } = require('../../../perf/lib/engines/autocannon');
const { runSlowClients } = require('../../../perf/lib/engines/slow_clients');
const { HttpConnection } = require('../../../perf/lib/engines/http_exchange');
const { Samples } = require('../../../perf/lib/measure/samples');
const { summarizeSamples } = require('../../../perf/lib/measure/stats');
const { normalizeScenario } = require('../../../perf/lib/plan/scenarios');
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

  it('autocannon: every request recorded, one connect time per connection', async () => {
    const samples = new Samples();
    samples.start();
    const res = await runAutocannon({ host: server.host, port: server.port, request: HELLO, concurrency: 8, requestsPerConnection: 10, samples });
    const rows = rowsOf(samples);
    assert.equal(rows.length, 80);
    assert.ok(rows.every((r) => r.status === 200));
    assert.equal(new Set(rows.map((r) => r.conn)).size, 8);
    assert.equal(rows.filter((r) => r.connect_ms !== null).length, 8);
    assert.equal(res.engine_totals.replies, 80);
  });

  it('autocannon: a POST body', async () => {
    const samples = new Samples();
    samples.start();
    await runAutocannon({ host: server.host, port: server.port, request: { method: 'POST', path: '/upload', headers: {}, upload_bytes: 5000 }, concurrency: 2, requests: 10, samples });
    assert.equal(samples.length, 10);
    assert.ok(rowsOf(samples).every((r) => r.status === 200));
  });

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

  it('reads a reply no faster than readBytesPerS', async () => {
    const conn = new HttpConnection({ host: server.host, port: server.port });
    const t0 = performance.now();
    const res = await conn.request({ path: '/data/random-1m.bin', readBytesPerS: 512 * 1024, deadlineAt: t0 + 20000 });
    const took = performance.now() - t0;
    conn.destroy();
    assert.equal(res.status, 200);
    assert.equal(res.bodyBytes, 1048576);
    assert.ok(took >= 1500, `1 MiB at 512 KiB/s took only ${took} ms`);
  });

  it('trickles an upload body at uploadBytesPerS', async () => {
    const conn = new HttpConnection({ host: server.host, port: server.port });
    const t0 = performance.now();
    const res = await conn.request({ method: 'POST', path: '/upload', uploadBytes: 256 * 1024, uploadBytesPerS: 256 * 1024, deadlineAt: t0 + 20000 });
    const took = performance.now() - t0;
    conn.destroy();
    assert.equal(res.status, 200);
    assert.equal(res.sentBytes, 256 * 1024);
    assert.ok(took >= 800, `256 KiB at 256 KiB/s took only ${took} ms`);
  });

  it('slow clients: probe samples, slow transfers cut at the window end, active periods, phases', async () => {
    const scenario = normalizeScenario(
      {
        description: 'test',
        kind: 'slow_clients',
        probe: { rate: 40, duration_s: 2 },
        slow: { mode: 'read', request: { path: '/data/random-1m.bin' }, clients: 3, bytes_per_s: 65536, start_s: 0.5, active_s: 1 },
      },
      'test',
      null,
    );
    const samples = new Samples();
    samples.start();
    const res = await runSlowClients({ host: server.host, port: server.port, scenario, samples });
    const rows = rowsOf(samples);
    assert.equal(rows.filter((r) => r.role === 'probe').length, 80);
    const slow = rows.filter((r) => r.role === 'slow');
    assert.equal(slow.length, 3);
    assert.ok(slow.every((r) => r.error === 'cut' && r.t_ms >= 490 && r.t_ms + r.latency_ms <= 1600));
    assert.equal(res.slow_clients.transfers, 3);
    assert.deepEqual(res.slow_clients.outcomes, { cut: 3 });
    assert.deepEqual(res.slow_clients.active_periods.map((p) => p.client).sort(), [1, 2, 3]);
    assert.ok(res.slow_clients.active_periods.every((p) => p.bytes > 0 && p.bytes < 1048576));
    const phases = res.probe_by_phase;
    assert.equal(phases.before.replies + phases.during.replies + phases.after.replies, 80);
    assert.ok(phases.before.replies >= 15 && phases.during.replies >= 30 && phases.after.replies >= 15);
  });
});
