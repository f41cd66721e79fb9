'use strict';
// Scenarios are data: one JSON file per scenario in perf/scenarios/. This module loads them,
// validates them (one clear line per mistake, naming the file and the field), fills in
// defaults and applies --quick. The fields are documented in perf/README.md.

const fs = require('node:fs');
const path = require('node:path');

const SCENARIOS_DIR = path.resolve(__dirname, '..', 'scenarios');
const QUICK_FACTOR = 20;
const KINDS = ['closed', 'open', 'slow_clients'];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT'];
const NAME_RE = /^[a-z0-9][a-z0-9_.-]*$/;

// Bounds that keep every run possible: a count this process can hold per-request samples
// for (32 bytes each), a rate its timers can keep, a run that ends within a day.
const MAX_COUNT = 1e7; // requests, connections (in total, per run)
const MAX_CONCURRENCY = 10000; // connections open at once
const MIN_RATE = 0.1; // per second
const MAX_RATE = 1e6;
const MAX_DURATION_S = 86400;
const MAX_TIMEOUT_S = 3600;
const MAX_UPLOAD_BYTES = 1024 ** 3;
const MAX_BYTES_PER_S = 1e10;
const MAX_WARMUP_S = 600;
// Warm-up before each measured run (not counted), unless the scenario says otherwise: Node's
// JIT settles within the first second of load (measured: perf/README.md, results.json,
// "Warm-up"); 2 s leaves a margin. --quick scales it as it scales durations (1 s).
const DEFAULT_WARMUP_S = 2;

class ScenarioError extends Error {}

function fail(where, message) {
  throw new ScenarioError(`${where}: ${message}`);
}

function isObject(x) {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

function checkKeys(obj, allowed, where) {
  if (!isObject(obj)) fail(where, 'must be a JSON object');
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) fail(where, `unknown field '${key}' (known: ${allowed.join(', ')})`);
  }
}

function number(obj, key, where, { integer = false, min = 0, exclusiveMin = false, max = Infinity, unit = '', required = true, dflt, nullable = false } = {}) {
  const v = obj[key];
  if (v === undefined) {
    if (required) fail(where, `'${key}' is required`);
    return dflt;
  }
  if (v === null && nullable) return null;
  const kindWord = integer ? 'an integer' : 'a number';
  if (typeof v !== 'number' || !Number.isFinite(v) || (integer && !Number.isInteger(v))) {
    fail(where, `'${key}' must be ${kindWord}${nullable ? ' or null' : ''}, not ${JSON.stringify(v)}`);
  }
  if ((exclusiveMin ? v <= min : v < min) || v > max) {
    const low = `${exclusiveMin ? 'greater than' : 'at least'} ${min}`;
    const range = max === Infinity ? low : exclusiveMin ? `${low} and at most ${max}` : `between ${min} and ${max}`;
    fail(where, `'${key}' must be ${range}${unit}, not ${v}`);
  }
  return v;
}

/** A quantity derived from several fields (e.g. connections / rate) must not exceed max. */
function atMost(value, max, what, where, advice) {
  if (value > max) fail(where, `${what} is ${value}; it must be at most ${max} (${advice})`);
}

function bool(obj, key, where, dflt) {
  const v = obj[key];
  if (v === undefined) return dflt;
  if (typeof v !== 'boolean') fail(where, `'${key}' must be true or false`);
  return v;
}

function string(obj, key, where, { required = true, dflt } = {}) {
  const v = obj[key];
  if (v === undefined) {
    if (required) fail(where, `'${key}' is required`);
    return dflt;
  }
  if (typeof v !== 'string' || v.length === 0) fail(where, `'${key}' must be a non-empty string`);
  return v;
}

function normalizeRequest(raw, where, dflt) {
  const req = raw === undefined ? {} : raw;
  checkKeys(req, ['method', 'path', 'headers', 'upload_bytes'], where);
  const uploadBytes = number(req, 'upload_bytes', where, { integer: true, max: MAX_UPLOAD_BYTES, unit: ' bytes', required: false, dflt: null });
  const method = string(req, 'method', where, { required: false, dflt: uploadBytes !== null ? 'POST' : dflt.method });
  if (!METHODS.includes(method)) fail(where, `'method' must be one of ${METHODS.join(', ')}`);
  const p = string(req, 'path', where, { required: false, dflt: dflt.path });
  if (!p.startsWith('/') || /[\s]/.test(p)) fail(where, `'path' must start with / and contain no spaces`);
  const headers = req.headers === undefined ? {} : req.headers;
  if (!isObject(headers) || Object.values(headers).some((h) => typeof h !== 'string')) {
    fail(where, `'headers' must be an object of strings`);
  }
  for (const h of Object.keys(headers)) {
    if (['host', 'content-length', 'connection'].includes(h.toLowerCase())) {
      fail(where, `header '${h}' is set by the runner (use keep_alive / upload_bytes instead)`);
    }
  }
  return { method, path: p, headers, upload_bytes: uploadBytes };
}

const COMMON_KEYS = ['name', 'description', 'source', 'kind', 'request', 'timeout_s', 'warmup_s', 'quick'];

/** Validates one raw scenario object and returns it with defaults filled in. */
function normalizeScenario(raw, where, fileName) {
  checkKeys(raw, [...COMMON_KEYS, 'concurrency', 'keep_alive', 'requests', 'requests_per_connection', 'duration_s', 'connections', 'rate', 'probe', 'slow'], where);
  const name = raw.name === undefined ? fileName : string(raw, 'name', where);
  if (!NAME_RE.test(name)) fail(where, `name '${name}' must be lower case letters, digits, '_', '-' or '.'`);
  if (fileName && name !== fileName) fail(where, `'name' is '${name}' but the file is ${fileName}.json; they must match`);
  const kind = string(raw, 'kind', where);
  if (!KINDS.includes(kind)) fail(where, `'kind' must be one of ${KINDS.join(', ')}, not '${kind}'`);
  const out = {
    name,
    description: string(raw, 'description', where),
    source: string(raw, 'source', where, { required: false, dflt: null }),
    kind,
    timeout_s: number(raw, 'timeout_s', where, { min: 0, exclusiveMin: true, max: MAX_TIMEOUT_S, unit: ' s', required: false, dflt: 10 }),
    warmup_s: number(raw, 'warmup_s', where, { min: 0, max: MAX_WARMUP_S, unit: ' s', required: false, dflt: DEFAULT_WARMUP_S }),
  };
  const allowedByKind = {
    closed: ['concurrency', 'keep_alive', 'requests', 'requests_per_connection', 'duration_s', 'request'],
    open: ['connections', 'rate', 'requests_per_connection', 'request'],
    slow_clients: ['probe', 'slow'],
  };
  for (const key of Object.keys(raw)) {
    if (!COMMON_KEYS.includes(key) && !allowedByKind[kind].includes(key)) fail(where, `'${key}' does not apply to kind '${kind}'`);
  }
  if (kind === 'closed') {
    out.request = normalizeRequest(raw.request, `${where}: request`, { method: 'GET', path: '/hello' });
    out.concurrency = number(raw, 'concurrency', where, { integer: true, min: 1, max: MAX_CONCURRENCY });
    out.keep_alive = bool(raw, 'keep_alive', where, true);
    const stops = ['requests', 'requests_per_connection', 'duration_s'].filter((k) => raw[k] !== undefined);
    if (stops.length !== 1) fail(where, `give exactly one of 'requests', 'requests_per_connection', 'duration_s' (got ${stops.length ? stops.join(', ') : 'none'})`);
    out.requests = number(raw, 'requests', where, { integer: true, min: 1, max: MAX_COUNT, required: false, dflt: null });
    out.requests_per_connection = number(raw, 'requests_per_connection', where, { integer: true, min: 1, max: MAX_COUNT, required: false, dflt: null });
    out.duration_s = number(raw, 'duration_s', where, { min: 0, exclusiveMin: true, max: MAX_DURATION_S, unit: ' s', required: false, dflt: null });
    if (out.requests_per_connection !== null) {
      atMost(out.concurrency * out.requests_per_connection, MAX_COUNT, `'concurrency' × 'requests_per_connection' (requests in all)`, where, 'fewer connections or requests per connection');
    }
    if (out.requests_per_connection !== null && !out.keep_alive) fail(where, `'requests_per_connection' needs keep_alive: true (without keep-alive every connection carries one request)`);
    if (out.requests !== null && out.requests < out.concurrency) fail(where, `'requests' (${out.requests}) must be at least 'concurrency' (${out.concurrency})`);
  } else if (kind === 'open') {
    out.request = normalizeRequest(raw.request, `${where}: request`, { method: 'GET', path: '/hello' });
    out.connections = number(raw, 'connections', where, { integer: true, min: 1, max: MAX_COUNT });
    out.rate = number(raw, 'rate', where, { min: MIN_RATE, max: MAX_RATE, unit: ' connections per second' });
    out.requests_per_connection = number(raw, 'requests_per_connection', where, { integer: true, min: 1, max: MAX_COUNT, required: false, dflt: 1 });
    atMost(out.connections * out.requests_per_connection, MAX_COUNT, `'connections' × 'requests_per_connection' (requests in all)`, where, 'fewer connections or requests per connection');
    atMost(out.connections / out.rate, MAX_DURATION_S, `'connections' / 'rate' (the run's length in s)`, where, 'fewer connections or a higher rate: a run must end within 24 h');
  } else {
    const probeWhere = `${where}: probe`;
    const probe = raw.probe;
    if (probe === undefined) fail(where, `'probe' is required for kind 'slow_clients'`);
    checkKeys(probe, ['request', 'rate', 'duration_s'], probeWhere);
    out.probe = {
      request: normalizeRequest(probe.request, `${probeWhere}: request`, { method: 'GET', path: '/hello' }),
      rate: number(probe, 'rate', probeWhere, { min: MIN_RATE, max: MAX_RATE, unit: ' connections per second' }),
      duration_s: number(probe, 'duration_s', probeWhere, { min: 0, exclusiveMin: true, max: MAX_DURATION_S, unit: ' s' }),
    };
    atMost(out.probe.rate * out.probe.duration_s, MAX_COUNT, `'rate' × 'duration_s' (probe requests in all)`, probeWhere, 'a lower rate or a shorter duration');
    const slowWhere = `${where}: slow`;
    const slow = raw.slow;
    if (slow === undefined) fail(where, `'slow' is required for kind 'slow_clients'`);
    checkKeys(slow, ['mode', 'request', 'clients', 'bytes_per_s', 'start_s', 'active_s', 'repeat'], slowWhere);
    const mode = string(slow, 'mode', slowWhere);
    if (!['read', 'upload'].includes(mode)) fail(slowWhere, `'mode' must be 'read' or 'upload', not '${mode}'`);
    const request = normalizeRequest(slow.request, `${slowWhere}: request`, mode === 'read' ? { method: 'GET', path: '/data/random-1m.bin' } : { method: 'POST', path: '/upload' });
    if (mode === 'upload' && !(request.upload_bytes > 0)) fail(`${slowWhere}: request`, `'upload_bytes' (a positive integer) is required for mode 'upload'`);
    if (mode === 'read' && request.upload_bytes) fail(`${slowWhere}: request`, `'upload_bytes' does not apply to mode 'read'`);
    out.slow = {
      mode,
      request,
      clients: number(slow, 'clients', slowWhere, { integer: true, min: 1, max: MAX_CONCURRENCY }),
      bytes_per_s: number(slow, 'bytes_per_s', slowWhere, { min: 1, max: MAX_BYTES_PER_S, required: false, dflt: null, nullable: true }),
      start_s: number(slow, 'start_s', slowWhere, { min: 0 }),
      active_s: number(slow, 'active_s', slowWhere, { min: 0, exclusiveMin: true }),
      repeat: bool(slow, 'repeat', slowWhere, false),
    };
    if (out.slow.start_s + out.slow.active_s > out.probe.duration_s) {
      fail(where, `the slow clients' window (start_s + active_s = ${out.slow.start_s + out.slow.active_s} s) must end within the probe's duration_s (${out.probe.duration_s} s)`);
    }
  }
  return out;
}

function deepMerge(base, over) {
  const out = { ...base };
  for (const [k, v] of Object.entries(over)) {
    out[k] = isObject(v) && isObject(base[k]) ? deepMerge(base[k], v) : v;
  }
  return out;
}

const ceilDiv = (x, f) => Math.max(1, Math.ceil(x / f));
const scaleDuration = (s, f) => Math.max(1, Math.round((s / f) * 10) / 10);

/**
 * The --quick version of a raw scenario: counts divided by `factor` (rounded up, at least 1),
 * durations divided by `factor` (at least 1 s), rates, sizes and concurrency unchanged; then
 * the scenario's own `quick` object, whose values win outright.
 */
function quickScale(raw, factor = QUICK_FACTOR) {
  const s = JSON.parse(JSON.stringify(raw));
  delete s.quick;
  // A warm-up is a duration, but a quick one is never longer than the full one (and 0 stays 0).
  if (s.warmup_s === undefined) s.warmup_s = DEFAULT_WARMUP_S;
  if (typeof s.warmup_s === 'number' && s.warmup_s > 0) s.warmup_s = Math.min(s.warmup_s, scaleDuration(s.warmup_s, factor));
  if (s.kind === 'closed') {
    if (typeof s.requests === 'number') s.requests = Math.max(ceilDiv(s.requests, factor), s.concurrency || 1);
    if (typeof s.requests_per_connection === 'number') s.requests_per_connection = ceilDiv(s.requests_per_connection, factor);
    if (typeof s.duration_s === 'number') s.duration_s = scaleDuration(s.duration_s, factor);
  } else if (s.kind === 'open') {
    if (typeof s.connections === 'number') s.connections = ceilDiv(s.connections, factor);
  } else if (s.kind === 'slow_clients') {
    if (isObject(s.probe) && typeof s.probe.duration_s === 'number') s.probe.duration_s = scaleDuration(s.probe.duration_s, factor);
    if (isObject(s.slow)) {
      if (typeof s.slow.clients === 'number') s.slow.clients = ceilDiv(s.slow.clients, factor);
      if (typeof s.slow.start_s === 'number') s.slow.start_s = s.slow.start_s / factor;
      if (typeof s.slow.active_s === 'number') s.slow.active_s = s.slow.active_s / factor;
    }
  }
  return isObject(raw.quick) ? deepMerge(s, raw.quick) : s;
}

/** Reads every perf/scenarios/*.json: [{ name, file, raw }] sorted by name. */
function readScenarioFiles(dir = SCENARIOS_DIR) {
  let entries;
  try {
    entries = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch (err) {
    throw new ScenarioError(`cannot read the scenarios directory ${dir}: ${err.code || err.message}`);
  }
  return entries.sort().map((f) => {
    const file = path.join(dir, f);
    let raw;
    try {
      raw = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      throw new ScenarioError(`${path.relative(process.cwd(), file) || file}: not valid JSON (${err.message})`);
    }
    return { name: path.basename(f, '.json'), file, raw };
  });
}

/**
 * Loads, validates and (with quick) scales scenarios. Returns them in the canonical order
 * (ORDER first, then any others by name), or only `names` in the given order.
 */
function loadScenarios({ dir = SCENARIOS_DIR, quick = false, names = null, factor = QUICK_FACTOR } = {}) {
  const files = readScenarioFiles(dir);
  const scenarios = files.map(({ name, file, raw }) => {
    const where = path.relative(process.cwd(), file) || file;
    if (raw.quick !== undefined && !isObject(raw.quick)) fail(where, `'quick' must be an object`);
    normalizeScenario(raw, where, name); // the full-size scenario must be valid on its own
    const effective = quick ? quickScale(raw, factor) : { ...raw };
    delete effective.quick;
    const scenario = normalizeScenario(effective, quick ? `${where} (with --quick)` : where, name);
    scenario.file = file;
    return scenario;
  });
  const byName = new Map(scenarios.map((s) => [s.name, s]));
  if (names) {
    const unknown = names.filter((n) => !byName.has(n));
    if (unknown.length) {
      const err = new ScenarioError(`unknown scenario${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `'${n}'`).join(', ')} (known: ${[...byName.keys()].join(', ')})`);
      err.usage = true;
      throw err;
    }
    return names.map((n) => byName.get(n));
  }
  const rank = (s) => {
    const i = ORDER.indexOf(s.name);
    return i < 0 ? ORDER.length : i;
  };
  return scenarios.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** The seed scenarios first, in the issue's order; user-added ones follow by name. */
const ORDER = [
  'sequential_6000',
  'concurrent_2000_20',
  'concurrent_2000_100',
  'concurrent_3000_200',
  'keepalive_400x100',
  'bigfile_100k',
  'long_conn_256',
  'short_conn_256',
  'slow_read',
  'slow_upload',
  'big_upload',
];

/** Rough length of the load phase in seconds (null when it depends on the server's speed). */
function expectedDurationS(s) {
  if (s.kind === 'open') return s.connections / s.rate;
  if (s.kind === 'slow_clients') return s.probe.duration_s;
  return s.duration_s;
}

/**
 * The load that warms the server up before scenario s is measured, for warmup_s seconds, or
 * null when there is none. It is the scenario's own request at its own concurrency (closed
 * loop, bounded by time instead of its count) or rate (open loop). A slow-client scenario is
 * warmed by its probe alone: the slow clients are the disturbance measured before, during and
 * after their window, and warming with them would leave their after-effects (buffers, memory)
 * in the 'before'. The runner runs it with the built-in engine whatever --engine says: it is
 * not measured, only sent.
 */
function warmupScenario(s) {
  if (!(s.warmup_s > 0)) return null;
  const base = { ...s, name: `${s.name} (warm-up)`, engine: null, warmup_s: 0 };
  if (s.kind === 'closed') return { ...base, requests: null, requests_per_connection: null, duration_s: s.warmup_s };
  const open = s.kind === 'open' ? base : { ...base, kind: 'open', request: s.probe.request, rate: s.probe.rate, requests_per_connection: 1, probe: undefined, slow: undefined };
  // (- 1e-9: 50/s × 0.2 s is 10 connections, whatever the floating point says.)
  return { ...open, connections: Math.max(1, Math.ceil(open.rate * s.warmup_s - 1e-9)) };
}

/** A closed-loop scenario as the options of a closed-loop engine (runAutocannon, runSequential). */
function closedLoopOptions(s) {
  return {
    request: s.request,
    concurrency: s.concurrency,
    requests: s.requests,
    requestsPerConnection: s.requests_per_connection,
    durationMs: s.duration_s === null ? null : s.duration_s * 1000,
    timeoutMs: s.timeout_s * 1000,
  };
}

/** Serialisable copy of the effective parameters (what results.json records). */
function scenarioParams(s) {
  const copy = JSON.parse(JSON.stringify(s));
  delete copy.file;
  return copy;
}

module.exports = {
  closedLoopOptions,
  loadScenarios,
  normalizeScenario,
  quickScale,
  expectedDurationS,
  warmupScenario,
  scenarioParams,
  ScenarioError,
  SCENARIOS_DIR,
  QUICK_FACTOR,
  ORDER,
  MAX_WARMUP_S,
  DEFAULT_WARMUP_S,
};
