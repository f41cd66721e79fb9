'use strict';
// The wrk engine (--engine wrk): closed-loop throughput scenarios that stop after a duration,
// as seed 004 ran them:
//
//   keep-alive            wrk -t 1 -c C -d Ds --latency --timeout Ts URL
//   one request per conn  wrk -t 1 -c C -d Ds --latency --timeout Ts -H 'Connection: close' URL
//
// One thread (-t 1): the load generator is pinned to one CPU, and more threads on one CPU only
// add switching. wrk prints aggregates: latency mean, stdev, max and the 50/75/90/99th
// percentiles (--latency). Note that wrk 4 "corrects" its latency histogram for coordinated
// omission: for every latency L above twice the mean interval I between a connection's
// requests it adds synthetic samples L-I, L-2I, ... So its mean and percentiles describe a
// fixed-rate client, not only the replies it received; its max is a real reply. What each
// number means: perf/ENGINES.md.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { findBinary, debianVersion, shellQuote, runEngineProcess, clientCpuPct, firstComplaint } = require('./external');

const NAME = 'wrk';
const ENV_VAR = 'WRK_BIN';

/** Why wrk cannot run scenario s faithfully, or null when it can. */
function whyNot(s) {
  if (s.kind === 'slow_clients') return 'wrk cannot pace a client\'s reading or sending (slow clients)';
  if (s.kind === 'rate') return 'wrk is closed-loop: it cannot send requests on a schedule (a constant request rate; wrk2\'s -R could, Debian ships wrk 4)';
  if (s.kind === 'open') return 'wrk is closed-loop: it cannot open connections on a schedule (open-loop arrivals; wrk2\'s -R could, Debian ships wrk 4)';
  if (s.duration_s === null) return 'wrk stops after a duration (-d), not after a number of requests';
  if (!Number.isInteger(s.duration_s)) return `wrk takes whole seconds for -d (the scenario runs ${s.duration_s} s)`;
  return null;
}

function supports(s) {
  return whyNot(s) === null;
}

/** A Lua script for requests that are not a plain GET: method and body. */
function luaScript(req) {
  const lines = [];
  if (req.method !== 'GET') lines.push(`wrk.method = ${JSON.stringify(req.method)}`);
  if (req.upload_bytes) lines.push(`wrk.body = string.rep("a", ${req.upload_bytes})`);
  return lines.length ? lines.join('\n') + '\n' : null;
}

/**
 * The wrk arguments for scenario s: { args, script (Lua text or null), note }. The URL is the
 * last argument; with a script, '-s FILE' must be added by the caller (see run()).
 */
function plan(s, { host, port }) {
  const reason = whyNot(s);
  if (reason) throw new Error(`wrk cannot run ${s.name}: ${reason}`);
  const timeout = Math.ceil(s.timeout_s);
  const args = ['-t', '1', '-c', String(s.concurrency), '-d', `${s.duration_s}s`, '--latency', '--timeout', `${timeout}s`];
  for (const [k, v] of Object.entries(s.request.headers || {})) args.push('-H', `${k}: ${v}`);
  if (!s.keep_alive) args.push('-H', 'Connection: close');
  const url = `http://${host}:${port}${s.request.path}`;
  const note = timeout !== s.timeout_s ? `wrk takes whole seconds for --timeout: ${timeout} s instead of ${s.timeout_s} s` : null;
  return { args, url, script: luaScript(s.request), note };
}

const UNIT_US = { us: 1, ms: 1e3, s: 1e6, m: 60e6, h: 3600e6 };
const UNIT_METRIC = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15 };
const UNIT_BYTES = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4, PB: 1024 ** 5 };

/** "7.50ms" → 7.5 (ms); "717.76us" → 0.71776; null when it is not a time. */
function timeMs(text) {
  const m = /^(-?nan|[-+]?\d+(?:\.\d+)?)(us|ms|s|m|h)$/.exec(text || '');
  if (!m) return null;
  const v = Number(m[1]);
  return Number.isFinite(v) ? Math.round(v * UNIT_US[m[2]] * 1000) / 1e6 : null;
}

function metric(text) {
  const m = /^([-+]?\d+(?:\.\d+)?)([kMGTP]?)$/.exec(text || '');
  return m ? Number(m[1]) * UNIT_METRIC[m[2]] : null;
}

function bytes(text) {
  const m = /^([-+]?\d+(?:\.\d+)?)(B|KB|MB|GB|TB|PB)$/.exec(text || '');
  return m ? Math.round(Number(m[1]) * UNIT_BYTES[m[2]]) : null;
}

function pct(text) {
  const m = /^([-+]?\d+(?:\.\d+)?)%$/.exec(text || '');
  return m ? Number(m[1]) : null;
}

/** Parses wrk's output. Throws when it has no summary (e.g. "unable to connect …"). */
function parseWrk(text) {
  const done = /^\s*(\d+) requests in (\S+), (\S+) read\s*$/m.exec(text);
  if (!done) {
    const complaint = text.split('\n').map((l) => l.trim()).find((l) => /unable to|invalid|error/i.test(l));
    throw new Error(complaint ? `wrk printed no summary: ${complaint}` : 'wrk printed no summary (no "N requests in T" line)');
  }
  const out = {
    url: (/^Running \S+ test @ (\S+)/m.exec(text) || [])[1] || null,
    threads: null,
    connections: null,
    latency: null,
    req_per_sec: null,
    percentiles: {},
    requests: Number(done[1]),
    duration_s: timeMs(done[2]) !== null ? timeMs(done[2]) / 1000 : null,
    bytes_read: bytes(done[3]),
    socket_errors: { connect: 0, read: 0, write: 0, timeout: 0 },
    non_2xx_3xx: 0,
    requests_per_sec: null,
    transfer_per_sec_b: null,
  };
  const tc = /^\s*(\d+) threads and (\d+) connections/m.exec(text);
  if (tc) [out.threads, out.connections] = [Number(tc[1]), Number(tc[2])];
  const lat = /^\s*Latency\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$/m.exec(text);
  if (lat) out.latency = { mean_ms: timeMs(lat[1]), stdev_ms: timeMs(lat[2]), max_ms: timeMs(lat[3]), within_stdev_pct: pct(lat[4]) };
  const rps = /^\s*Req\/Sec\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$/m.exec(text);
  if (rps) out.req_per_sec = { mean: metric(rps[1]), stdev: metric(rps[2]), max: metric(rps[3]), within_stdev_pct: pct(rps[4]) };
  const lines = text.split('\n');
  const distAt = lines.findIndex((l) => /^\s*Latency Distribution\s*$/.test(l));
  if (distAt >= 0) {
    for (const line of lines.slice(distAt + 1)) {
      const m = /^\s*(\d+(?:\.\d+)?)%\s+(\S+)\s*$/.exec(line);
      if (!m) break;
      out.percentiles[m[1]] = timeMs(m[2]);
    }
  }
  const se = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  if (se) out.socket_errors = { connect: Number(se[1]), read: Number(se[2]), write: Number(se[3]), timeout: Number(se[4]) };
  const non = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  if (non) out.non_2xx_3xx = Number(non[1]);
  const r = /^Requests\/sec:\s+([-+]?\d+(?:\.\d+)?)/m.exec(text);
  if (r) out.requests_per_sec = Number(r[1]);
  const t = /^Transfer\/sec:\s+(\S+)/m.exec(text);
  if (t) out.transfer_per_sec_b = bytes(t[1]);
  return out;
}

const BASIS =
  'wrk latency: from writing the request (on an open connection: connect not included) to the end of the reply; mean and percentiles include wrk 4\'s coordinated-omission fill-in (synthetic samples for stalls), max is a real reply; printed with two decimals of its unit (10 µs for times in ms)';

/**
 * Maps parsed wrk output to the runner's fields: { summary, fields }.
 * wrk counts a reply slower than --timeout as a "timeout" and still as a completed request;
 * here it is a timeout error and not a reply, as the runner's own engines count it. wrk only
 * counts replies with status 400 or more ("Non-2xx or 3xx"): they are in engine_totals, and
 * status '2xx' holds every other reply (1xx and 3xx do not occur in these scenarios).
 */
function toRunFields(parsed, { note = null } = {}) {
  const se = parsed.socket_errors;
  const replies = Math.max(0, parsed.requests - se.timeout);
  const errors = { refused: se.connect, reset: se.read + se.write, timeout: se.timeout, other: 0 };
  const errorTotal = se.connect + se.read + se.write + se.timeout;
  const p = parsed.percentiles;
  const lat = parsed.latency || {};
  const latency = { min: null, mean: null, p50: null, p90: null, p99: null, p999: null, max: null };
  if (replies > 0) {
    Object.assign(latency, { mean: lat.mean_ms ?? null, p50: p['50'] ?? null, p90: p['90'] ?? null, p99: p['99'] ?? null, max: lat.max_ms ?? null });
  }
  // The run's length: wrk prints it with two decimals; requests / Requests/sec is exact.
  let durationS = parsed.duration_s;
  if (parsed.requests > 0 && parsed.requests_per_sec > 0) durationS = parsed.requests / parsed.requests_per_sec;
  const non = parsed.non_2xx_3xx;
  const summary = {
    requests: replies + errorTotal,
    replies,
    errors,
    status: { '1xx': null, '2xx': Math.max(0, replies - non), '3xx': null, '4xx': null, '5xx': null },
    latency_ms: latency,
    connect_ms: { mean: null, p99: null },
    first_start_ms: 0,
    last_end_ms: durationS !== null ? durationS * 1000 : null,
  };
  const fields = {
    latency_basis: BASIS,
    status_note: 'wrk counts only replies with status 400 or more (engine_totals.non_2xx_3xx); status 2xx holds all other replies, 4xx and 5xx are not told apart',
    engine_latency: {
      stdev_ms: lat.stdev_ms ?? null,
      p75_ms: p['75'] ?? null,
      within_stdev_pct: lat.within_stdev_pct ?? null,
      co_corrected: true,
    },
    engine_totals: {
      requests: parsed.requests,
      duration_s: parsed.duration_s,
      requests_per_sec: parsed.requests_per_sec,
      non_2xx_3xx: non,
      bytes_read: parsed.bytes_read,
      transfer_per_sec_b: parsed.transfer_per_sec_b,
      threads: parsed.threads,
      connections: parsed.connections,
      thread_req_per_sec: parsed.req_per_sec,
    },
    engine_errors: se,
  };
  if (note) fields.engine_note = note;
  return { summary, fields };
}

/** The runner's engine: run(ctx) resolves { summary, ...fields } (see perf/lib/run/runner.js). */
async function run({ host, port, scenario, signal, env = process.env }) {
  const bin = findBinary({ name: NAME, envVar: ENV_VAR, env });
  const p = plan(scenario, { host, port });
  let scriptDir = null;
  const args = [...p.args];
  const shown = [...p.args];
  if (p.script) {
    scriptDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wrk-'));
    const file = path.join(scriptDir, 'request.lua');
    fs.writeFileSync(file, p.script);
    args.push('-s', file);
    shown.push('-s', 'request.lua');
  }
  args.push(p.url);
  shown.push(p.url);
  const command = shellQuote(['wrk', ...shown]);
  let result;
  try {
    result = await runEngineProcess({ bin, args, signal, env });
  } finally {
    if (scriptDir) fs.rmSync(scriptDir, { recursive: true, force: true });
  }
  let parsed;
  try {
    parsed = parseWrk(result.stdout);
  } catch (err) {
    const why = firstComplaint(result.stderr, result.stdout);
    throw new Error(`${err.message}${why && !err.message.includes(why) ? `: ${why}` : ''} (exit ${result.code}; ${command})`, { cause: err });
  }
  const { summary, fields } = toRunFields(parsed, p);
  return {
    summary,
    engine_command: command,
    engine_script: p.script,
    engine_version: debianVersion('wrk'),
    engine_cpus: result.cpus,
    ...fields,
    samples: null,
    samples_note: 'wrk reports aggregates only: no per-request samples',
    client_cpu_pct: clientCpuPct(result.cpu, result.wallMs),
    client_cpu: result.cpu,
    client_loop_delay_ms: null,
  };
}

const wrkEngine = { external: true, envVar: ENV_VAR, supports, whyNot, run };

module.exports = { wrkEngine, plan, parseWrk, toRunFields, whyNot, supports, timeMs, BASIS, ENV_VAR };
