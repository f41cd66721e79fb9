'use strict';
// The C engine of kind rate (perf/c/rate_client.c through perf/lib/engines/rate_client.js)
// against real servers on real sockets: what every engine of kind rate does
// (test/support/rate_engine_suite.js: the schedule, a stall shown as latency, the pool, the same
// request bytes, connections warmed before time zero), then its own: its lag and CPU, errors by kind (refused, timeout), HEAD, a new
// connection per request, a run at its fd limit, Ctrl-C, its usage errors, the records it
// writes, and which engine the runner chooses for kind rate and the ramps' steps.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { performance } = require('node:perf_hooks');
const { rateClientEngine, addRecords, binary, RECORD_BYTES, ENV_VAR } = require('../../../perf/lib/engines/rate_client');
const { MONO_OFFSET } = require('../../../perf/lib/measure/runtime_events');
const { engineFor, rateClientBuilt, rateClientLine } = require('../../../perf/lib/engines');
const { stepScenario, loadRamps } = require('../../../perf/lib/plan/ramps');
const { loadScenarios } = require('../../../perf/lib/plan/scenarios');
const { EngineUnavailable } = require('../../../perf/lib/engines/external');
const { Samples } = require('../../../perf/lib/measure/samples');
const { summarizeSamples } = require('../../../perf/lib/measure/stats');
const { useStandin, HELLO, rowsOf, makeTmpDir } = require('../../support/runner_helpers');
const { describeRateEngine, describeWarmConnections, recorder, NO_ERRORS } = require('../../support/rate_engine_suite');

/** One run of the engine as the runner makes it: { result, samples }. */
async function run(port, { request = HELLO, connections, rate, requests, timeout_s = 10, signal = null, env = process.env }) {
  const samples = new Samples();
  samples.start();
  const scenario = { kind: 'rate', request, connections, rate, requests, timeout_s };
  const result = await rateClientEngine.run({ host: '127.0.0.1', port, scenario, samples, signal, env });
  return { result, samples };
}

// npm test builds it (scripts/setup.sh --engines); where it is not built these fail with the one line that says how.
describeRateEngine('rate_client engine', (port, { timeoutMs, ...options }) => run(port, { ...options, timeout_s: timeoutMs === undefined ? undefined : timeoutMs / 1000 }));
describeWarmConnections('rate_client engine', rateClientEngine);

describe('rate_client engine', () => {
  describe('its own figures, errors and ending', function () {
    this.timeout(30000);
    const server = useStandin();

    it('its lag is all of its own lateness, its CPU the load generator\'s, its command line said', async () => {
      const { result } = await run(server.port, { connections: 4, rate: 200, requests: 100 });
      assert.ok(result.schedule_lag_ms.mean < 5 && result.schedule_lag_ms.mean <= result.schedule_lag_ms.p99 + 0.01 && result.schedule_lag_ms.p99 <= result.schedule_lag_ms.max + 0.01, JSON.stringify(result.schedule_lag_ms));
      assert.equal(result.client_loop_delay_ms, null, 'replies are timed by the kernel: no event-loop delay in them');
      assert.ok(result.client_cpu && result.client_cpu.user_s + result.client_cpu.system_s >= 0);
      assert.equal(typeof result.client_cpu_pct, 'number');
      assert.match(result.engine_command, /^rate_client --host 127\.0\.0\.1 --port \d+ --connections 4 --rate 200 --requests 100 --timeout-ms 10000 --request request\.http --out records\.bin$/);
    });

    it('a host name: looked up, and named in the Host header as given', async () => {
      const rec = await recorder();
      try {
        const samples = new Samples();
        samples.start();
        await rateClientEngine.run({ host: 'localhost', port: rec.port, scenario: { kind: 'rate', request: HELLO, connections: 1, rate: 100, requests: 2, timeout_s: 10 }, samples });
        assert.deepEqual(rec.seen.map((x) => x.host), [`localhost:${rec.port}`, `localhost:${rec.port}`]);
        await assert.rejects(rateClientEngine.run({ host: 'no-such-host.invalid', port: rec.port, scenario: { kind: 'rate', request: HELLO, connections: 1, rate: 100, requests: 2, timeout_s: 10 }, samples }), /^Error: rate_client connects over IPv4, and no-such-host\.invalid has no IPv4 address \(ENOTFOUND\)$/);
      } finally {
        await rec.close();
      }
    });

    it('HEAD: replies without a body end at their header', async () => {
      const { samples } = await run(server.port, { request: { ...HELLO, method: 'HEAD' }, connections: 2, rate: 100, requests: 6, timeout_s: 2 });
      const stats = summarizeSamples(samples);
      assert.deepEqual([stats.replies, stats.errors], [6, NO_ERRORS]);
      assert.ok(stats.latency_ms.max < 1000, 'no reply waited for a body that never comes');
    });

    it('a reply that does not come in time: a timeout, and the next request on a new connection', async () => {
      const { result, samples } = await run(server.port, { request: { ...HELLO, path: '/delay?ms=1500' }, connections: 1, rate: 10, requests: 2, timeout_s: 0.3 });
      const rows = rowsOf(samples);
      assert.deepEqual(rows.map((r) => r.error), ['timeout', 'timeout']);
      rows.forEach((r) => assert.ok(r.latency_ms >= 300 && r.latency_ms < 500, `timed out after ${r.latency_ms} ms`));
      assert.equal(result.reconnects, 1);
    });

    it('no server listening: every request refused', async () => {
      const rec = await recorder();
      await rec.close();
      const { samples } = await run(rec.port, { connections: 2, rate: 200, requests: 8 });
      assert.deepEqual(summarizeSamples(samples).errors, { ...NO_ERRORS, refused: 8 });
    });

    it('stopped (Ctrl-C): the engine is killed at once and the run abandoned', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      const t0 = performance.now();
      await assert.rejects(run(server.port, { request: { ...HELLO, path: '/delay?ms=5000' }, connections: 4, rate: 20, requests: 100, signal: controller.signal }), (err) => err.aborted === true);
      assert.ok(performance.now() - t0 < 2000, 'it did not wait for the stalled replies');
    });
  });

  describe('a new connection per request (kind open, the per-connection ramp\'s steps)', function () {
    this.timeout(30000);

    it('opens connection i at i ÷ rate, one request on each asking to close, and ends when the server has closed them', async () => {
      const rec = await recorder();
      try {
        const samples = new Samples();
        samples.start();
        const t0 = performance.now();
        const scenario = { kind: 'open', request: HELLO, connections: 6, requests_per_connection: 1, rate: 200, timeout_s: 10 };
        const result = await rateClientEngine.run({ host: '127.0.0.1', port: rec.port, scenario, samples });
        assert.ok(performance.now() - t0 < 900, 'it did not wait out its 1 s for a close that came');
        assert.equal(result.launched, 6);
        assert.equal(rec.sockets(), 6);
        assert.ok(rec.seen.every((s) => s.connection === 'close'));
        assert.deepEqual(rowsOf(samples).map((r) => [r.t_ms, r.conn, r.status, r.connect_ms !== null]), [0, 5, 10, 15, 20, 25].map((t, i) => [t, i + 1, 200, true]));
      } finally {
        await rec.close();
      }
    });
  });

  describe('at its fd limit', function () {
    this.timeout(30000);
    const server = useStandin();

    it('counts the requests it could not open (each an error of kind other) and keeps the replies to those it sent', async () => {
      const dir = makeTmpDir('rate-client-limit-');
      const wrapper = path.join(dir, 'rate_client');
      fs.writeFileSync(wrapper, `#!/bin/sh\nulimit -n 16\nexec '${binary()}' "$@"\n`, { mode: 0o755 });
      try {
        // 40 new connections in 0.1 s, each held 300 ms by the server: more than 16 descriptors hold.
        const { result, samples } = await run(server.port, { request: { ...HELLO, path: '/delay?ms=300' }, connections: 40, rate: 400, requests: 40, env: { ...process.env, [ENV_VAR]: wrapper } });
        const stats = summarizeSamples(samples);
        assert.ok(result.fd_failures > 0 && result.fd_failures < 40, `${result.fd_failures} of 40 not opened`);
        assert.deepEqual([stats.requests, stats.errors.other, stats.status['2xx']], [40, result.fd_failures, 40 - result.fd_failures], 'every request a sample: those not sent errors of kind other, the rest answered');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('its command line', () => {
    it('a bad option or value: exit 2 and one line saying which', () => {
      const bad = spawnSync(binary(), ['--host', '127.0.0.1', '--port', '80', '--connections', '2', '--rate', 'fast', '--requests', '3', '--request', '/dev/null', '--out', '/dev/null'], { encoding: 'utf8' });
      assert.deepEqual([bad.status, bad.stderr], [2, "rate_client: --rate must be a number from 0.001 to 1e+08, not 'fast'\n"]);
      const unknown = spawnSync(binary(), ['--burst', '3'], { encoding: 'utf8' });
      assert.deepEqual([unknown.status, unknown.stderr], [2, "rate_client: unknown option '--burst'\n"]);
    });
  });
});

describe('rate_client engine: the records', () => {
  it('become samples: request i started when due (i ÷ rate), ended at its record, only those with an outcome', () => {
    const buffer = Buffer.alloc(3 * RECORD_BYTES);
    const write = (i, { end, connect, status, error, done, conn }) => {
      const at = i * RECORD_BYTES;
      buffer.writeDoubleLE(end, at);
      buffer.writeFloatLE(connect, at + 8);
      buffer.writeUInt16LE(status, at + 12);
      buffer.writeUInt8(error, at + 14);
      buffer.writeUInt8(done, at + 15);
      buffer.writeUInt32LE(conn, at + 16);
    };
    write(0, { end: 1.5, connect: 0.25, status: 200, error: 0, done: 1, conn: 1 });
    write(1, { end: 30, connect: NaN, status: 0, error: 3, done: 1, conn: 2 });
    write(2, { end: 0, connect: NaN, status: 0, error: 0, done: 0, conn: 0 });
    const samples = new Samples();
    samples.start(1000);
    assert.equal(addRecords(buffer, { rate: 100, samples }), 3);
    assert.deepEqual(rowsOf(samples).map((r) => [r.t_ms, r.latency_ms, r.connect_ms, r.status, r.error, r.conn]), [
      [0, 1.5, 0.25, 200, '', 1],
      [10, 20, null, 0, 'timeout', 2],
    ]);
    // Its t0 on CLOCK_MONOTONIC (t0_ms) becomes the samples' time zero on the runner's clock,
    // where the servers' runtime events are: the client started after the run's time zero.
    const moved = new Samples();
    moved.start(1000);
    addRecords(buffer, { rate: 100, samples: moved, t0Ms: 1025 + MONO_OFFSET });
    assert.equal(moved.origin, 1025);
    assert.deepEqual(rowsOf(moved).map((r) => r.t_ms), [0, 10]);
  });
});

describe('rate_client engine: chosen for kind rate and the ramps\' steps where it is built', () => {
  const rate = { name: 'r', kind: 'rate', request: HELLO, connections: 10, rate: 100, requests: 100 };
  const [keepAliveRamp, perConnectionRamp] = ['hello_keepalive', 'hello_per_connection'].map((name) => loadRamps({ names: [name] })[0]);
  const seedOpen = loadScenarios({ names: ['concurrent_2000_20'] })[0];
  let saved;
  beforeEach(() => {
    saved = process.env[ENV_VAR];
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[ENV_VAR];
    else process.env[ENV_VAR] = saved;
  });

  it('not built (or $RATE_CLIENT_BIN names nothing): the Node engines send them, and the run says why in one line', () => {
    process.env[ENV_VAR] = '/nonexistent/rate_client';
    assert.throws(() => binary(), (err) => err instanceof EngineUnavailable && /^rate_client not found at \/nonexistent\/rate_client \(from \$RATE_CLIENT_BIN\); build it with: scripts\/setup\.sh --lighter-engines/.test(err.message));
    assert.equal(rateClientBuilt(), false);
    assert.deepEqual([rate, stepScenario(keepAliveRamp, 1000), stepScenario(perConnectionRamp, 100)].map(engineFor), ['constant_rate', 'constant_rate', 'open_loop']);
    assert.match(rateClientLine(true), /^rate_client: the built-in Node engines send kind rate and the ramps' steps, .*\(rate_client not found at/);
    assert.equal(rateClientLine(false), null, 'no line where nothing would use it');
  });

  it('built: it sends kind rate and every ramp step, not a request with a body, nor the seeds\' open loops; no line is said', () => {
    assert.equal(rateClientBuilt(), true, 'npm test builds it (scripts/setup.sh)');
    assert.deepEqual([rate, stepScenario(keepAliveRamp, 1000), stepScenario(perConnectionRamp, 100)].map(engineFor), ['rate_client', 'rate_client', 'rate_client']);
    assert.equal(engineFor({ ...rate, request: { ...HELLO, method: 'POST', upload_bytes: 100 } }), 'constant_rate');
    assert.equal(engineFor(seedOpen), 'open_loop');
    assert.equal(rateClientLine(true), null);
  });
});
