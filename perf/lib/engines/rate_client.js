'use strict';
// The C engine for requests on a schedule (perf/c/rate_client.c): the schedule and the samples
// of ./constant_rate.js (request i due at i/rate on connection i mod connections, latency from
// when it was due, one sample per request), or of ./open_loop.js with one request a connection
// (connection i opened at i/rate), at about half the CPU a request on one core, so that a ramp
// reaches where a server saturates before the load generator does (perf/ENGINES.md,
// "rate_client"). It is the built-in choice for kind `rate` and for the ramps' steps wherever
// it is built (./index.js engineFor); scripts/setup.sh builds it.
//
// The runner gives it the request's exact bytes (./http_exchange.js buildRequestHead, as its own
// engines send them) and reads back one fixed-size record per request (RECORD_BYTES, laid out
// as perf/c/rate_client.c's struct record), which become the run's samples.

const dns = require('node:dns');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { EngineUnavailable, isExecutable, runEngineProcess, clientCpuPct, firstComplaint, shellQuote } = require('./external');
const { buildRequestHead } = require('./http_exchange');
const { ERROR_CODES } = require('../measure/samples');
const { MONO_OFFSET } = require('../measure/runtime_events');

const NAME = 'rate_client';
const ENV_VAR = 'RATE_CLIENT_BIN';
const BUILT = path.resolve(__dirname, '..', '..', 'c', 'build', NAME);
const HOW = 'build it with: scripts/setup.sh --lighter-engines (it needs Debian\'s libhttp-parser-dev, gcc and make)';

// struct record: double end_ms, float connect_ms, uint16 status, uint8 error, uint8 done, uint32 conn, uint32 reserved.
const RECORD_BYTES = 24;

/** The binary: $RATE_CLIENT_BIN when set (it must exist), else perf/c/build/rate_client. Throws EngineUnavailable in one line. */
function binary(env = process.env) {
  const file = env[ENV_VAR] || BUILT;
  if (isExecutable(file)) return file;
  if (env[ENV_VAR]) throw new EngineUnavailable(`${NAME} not found at ${file} (from $${ENV_VAR}); ${HOW}, or point $${ENV_VAR} at it`);
  throw new EngineUnavailable(`${NAME} is not built (${path.relative(process.cwd(), BUILT) || BUILT}); ${HOW}`);
}

/**
 * Why it cannot run scenario s faithfully, or null: requests with no body on a schedule, over
 * keep-alive connections (kind rate) or one on each new connection (kind open, one request a
 * connection: its connections are its requests).
 */
function whyNot(s) {
  if (s.kind !== 'rate' && !(s.kind === 'open' && s.requests_per_connection === 1)) return 'it sends requests on a schedule over keep-alive connections, or one on each new connection, only';
  if (s.request && s.request.upload_bytes !== null && s.request.upload_bytes !== undefined) return 'it sends no request bodies';
  return null;
}

/** Its pool and count: kind rate's, or for kind open a connection a request. */
const shape = (s) => (s.kind === 'open' ? { connections: s.connections, requests: s.connections, keepAlive: false } : { connections: s.connections, requests: s.requests, keepAlive: true });

/**
 * The run's samples from the records file: request i started when it was due (samples.origin +
 * i × 1000 ÷ rate: the client's t0 is the run's time zero) and ended at its record's end_ms.
 * t0Ms, the client's t0 on CLOCK_MONOTONIC, moves the samples' time zero to it where they have
 * none yet: the client starts a process's spawn after the run's time zero, and the servers'
 * runtime events are lined up with the samples on that clock. Only requests with an outcome
 * (done) are samples.
 */
function addRecords(buffer, { rate, samples, t0Ms = null }) {
  if (t0Ms !== null && samples.length === 0) samples.start(t0Ms - MONO_OFFSET);
  const origin = samples.origin;
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const count = Math.floor(buffer.byteLength / RECORD_BYTES);
  for (let i = 0; i < count; i++) {
    const at = i * RECORD_BYTES;
    if (view.getUint8(at + 15) !== 1) continue;
    const connect = view.getFloat32(at + 8, true);
    const error = view.getUint8(at + 14);
    samples.add({
      startAt: origin + (i * 1000) / rate,
      endAt: origin + view.getFloat64(at, true),
      connectMs: Number.isNaN(connect) ? null : connect,
      status: view.getUint16(at + 12, true),
      error: error ? ERROR_CODES[error] : null,
      conn: view.getUint32(at + 16, true),
    });
  }
  return count;
}

/**
 * Whether it warms scenario s's connections before its time zero (--warm): kind rate with
 * warm_connections (the keep-alive ramps' steps). A connection per request has nothing to warm:
 * each request's connect is its own.
 */
const warms = (s) => Boolean(s.warm_connections) && shape(s).keepAlive;

/** The engine's arguments for scenario s against host:port, the request and records in dir. */
function argsFor(s, { host, port, dir }) {
  const { connections, requests } = shape(s);
  const args = ['--host', host, '--port', String(port), '--connections', String(connections), '--rate', String(s.rate), '--requests', String(requests), '--timeout-ms', String(s.timeout_s * 1000), '--request', path.join(dir, 'request.http'), '--out', path.join(dir, 'records.bin')];
  if (s.request.method === 'HEAD') args.push('--head');
  if (warms(s)) args.push('--warm');
  return args;
}

/** The runner's engine: the requests of scenario s as samples; resolves the run's fields. */
async function run({ host, port, scenario: s, samples, signal, env = process.env }) {
  const bin = binary(env);
  // It connects to an IPv4 address; a host name (--target http://localhost:P) is looked up here.
  let address = host;
  if (!net.isIPv4(host)) {
    try {
      ({ address } = await dns.promises.lookup(host, { family: 4 }));
    } catch (err) {
      throw new Error(`${NAME} connects over IPv4, and ${host} has no IPv4 address (${err.code || err.message})`, { cause: err });
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rate-client-'));
  try {
    fs.writeFileSync(path.join(dir, 'request.http'), buildRequestHead({ method: s.request.method, path: s.request.path, host: `${host}:${port}`, headers: s.request.headers || {}, keepAlive: shape(s).keepAlive }));
    const args = argsFor(s, { host: address, port, dir });
    const command = shellQuote([NAME, ...args.map((a) => (a.startsWith(dir) ? path.basename(a) : a))]);
    const result = await runEngineProcess({ bin, args, signal, env });
    const last = result.stdout.trim().split('\n').pop() || '';
    let totals = null;
    if (result.code === 0) {
      try {
        totals = JSON.parse(last);
      } catch {
        // said below, as a failure
      }
    }
    if (!totals) throw new Error(`${NAME} failed (exit ${result.code ?? result.signal}): ${firstComplaint(result.stderr, result.stdout) || 'no output'} (${command})`);
    addRecords(fs.readFileSync(path.join(dir, 'records.bin')), { rate: s.rate, samples, t0Ms: typeof totals.t0_ms === 'number' ? totals.t0_ms : null });
    return {
      launched: totals.launched,
      reconnects: totals.reconnects,
      // Its own lateness in the latencies: a reply's time is the kernel's receive time, whenever
      // it was read, so no event-loop delay is in any latency (null), only this lag.
      schedule_lag_ms: { mean: totals.lag_mean_ms, p99: totals.lag_p99_ms, max: totals.lag_max_ms },
      client_loop_delay_ms: null,
      client_cpu_pct: clientCpuPct(result.cpu, result.wallMs),
      client_cpu: result.cpu,
      engine_command: command,
      engine_cpus: result.cpus,
      // Requests it could not send for want of a descriptor (each a sample of error 'other'):
      // the runner fails the run for it and a ramp's step judges the requests that were sent
      // (perf/lib/run/ramp.js stepOf).
      fd_failures: totals.fd_failures,
      // --warm: the connections open and answered before time zero, and how long that took.
      ...(warms(s) ? { warmed: { connections: totals.warmed, ms: totals.warm_ms } } : {}),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Its samples start when each request was due, time zero the schedule's (after --warm).
const rateClientEngine = { external: true, keepsSamples: true, envVar: ENV_VAR, binary, supports: (s) => whyNot(s) === null, whyNot, run, samplesOnSchedule: () => true };

module.exports = { rateClientEngine, addRecords, argsFor, binary, RECORD_BYTES, ENV_VAR };
