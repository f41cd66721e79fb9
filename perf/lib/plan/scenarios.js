'use strict';
// Scenarios are data: one JSON file per scenario in perf/scenarios/. This module loads them,
// checks them against their JSON Schema (perf/schemas/scenario.schema.json, with ajv) and the
// rules that span several fields, says what is wrong in one line naming the file and the
// field, fills in defaults and applies --quick. The fields are documented in perf/REFERENCE.md, "Scenarios".

const fs = require('node:fs');
const path = require('node:path');
const { compiledSchema } = require('../store/compiled_schema');

const SCENARIOS_DIR = path.resolve(__dirname, '..', '..', 'scenarios');
const QUICK_FACTOR = 20;
const SCHEMA_FILE = path.resolve(__dirname, '..', '..', 'schemas', 'scenario.schema.json');
const SCHEMA = JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8'));

// Bounds that keep every run possible (a count this process can hold per-request samples for,
// 32 bytes each; a rate its timers can keep; a run that ends within a day) are in the schema;
// the totals over several fields are held to the same bounds here.
const MAX_COUNT = SCHEMA.$defs.count.maximum; // requests, connections (in total, per run)
const MAX_DURATION_S = SCHEMA.$defs.duration.maximum;
const MAX_WARMUP_S = SCHEMA.properties.warmup_s.maximum;
// Warm-up before each measured run (not counted), unless the scenario says otherwise: at least
// 2 s, on past them while the rate still rises (below); --quick scales it as it scales
// durations (1 s).
const DEFAULT_WARMUP_S = 2;
// A closed loop's warm-up goes in slices, and on past warmup_s until a slice's rate is no more
// than WARMUP_STEADY above the one before (a fresh Node needs 2-3 s of bigfile_100k's load to
// reach its steady rate: RESULTS.md, "Warm-up"), beginning no slice after WARMUP_CAP times
// warmup_s. wrk takes whole seconds.
const WARMUP_SLICE_S = { builtin: 0.5, wrk: 1 };
const WARMUP_STEADY = 0.1;
const WARMUP_CAP = 4;

class ScenarioError extends Error {}

function fail(where, message) {
  throw new ScenarioError(`${where}: ${message}`);
}

function isObject(x) {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/** A quantity derived from several fields (e.g. connections / rate) must not exceed max. */
function atMost(value, max, what, where, advice) {
  if (value > max) fail(where, `${what} is ${value}; it must be at most ${max} (${advice})`);
}

// `unit` and `mustBe` only annotate the schema, for the one-line errors below.
// strictRequired off: each kind's required fields (allOf / then) are defined once, at the top.
/** A data file's schema compiled for schemaFailure (scenarios here, ramps in ./ramps.js). */
function compileSchema(schema) {
  return compiledSchema(schema, { options: { allErrors: false, strict: true, strictRequired: false, verbose: true }, keywords: ['unit', 'mustBe'] });
}
const validate = compileSchema(SCHEMA);

const TYPE_WORDS = { integer: 'an integer', number: 'a number', boolean: 'true or false', string: 'a non-empty string', object: 'a JSON object' };

/** "between 0.1 and 1000000 connections per second", "greater than 0 and at most 3600 s", "at least 0". */
function rangeWords(schema) {
  const unit = schema.unit || '';
  if (schema.exclusiveMinimum !== undefined) return `greater than ${schema.exclusiveMinimum}${schema.maximum !== undefined ? ` and at most ${schema.maximum}` : ''}${unit}`;
  return schema.maximum !== undefined ? `between ${schema.minimum} and ${schema.maximum}${unit}` : `at least ${schema.minimum}${unit}`;
}

/**
 * The first way raw breaks the schema, as one line: "probe: 'rate' must be between 0.1 and
 * 1000000 connections per second, not 0". where: the file (and what contains the field); check:
 * a compiled schema (compileSchema), the scenarios' by default.
 */
function schemaFailure(where, raw, check = validate) {
  if (check(raw)) return null;
  const [e] = check.errors;
  const trail = e.instancePath.split('/').slice(1);
  const inside = e.keyword === 'required' || e.keyword === 'additionalProperties' ? trail : trail.slice(0, -1);
  const at = [where, ...inside].join(': ');
  const key = trail[trail.length - 1];
  const s = e.parentSchema || {};
  const was = (v) => (typeof v === 'string' ? JSON.stringify(v) : String(v));
  // A property name the schema's propertyNames refuses: name it, not the object holding it.
  if (e.propertyName !== undefined) return `${[where, ...trail].join(': ')}: name ${JSON.stringify(e.propertyName)} must ${s.mustBe || e.message}`;
  switch (e.keyword) {
    case 'required':
      return `${at}: '${e.params.missingProperty}' is required${trail.length === 0 && raw.kind ? ` for kind '${raw.kind}'` : ''}`;
    case 'additionalProperties':
      return `${at}: unknown field '${e.params.additionalProperty}' (known: ${Object.keys(s.properties || {}).join(', ')})`;
    case 'type': {
      const types = [].concat(s.type);
      if (s.mustBe) return `${at}: '${key}' must ${s.mustBe}`;
      return `${at}: '${key}' must be ${types.filter((t) => t !== 'null').map((t) => TYPE_WORDS[t]).join(' or ')}${types.includes('null') ? ' or null' : ''}, not ${JSON.stringify(e.data)}`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
      return `${at}: '${key}' must be ${rangeWords(s)}, not ${e.data}`;
    case 'enum':
      return `${at}: '${key}' must be one of ${s.enum.join(', ')}, not ${was(e.data)}`;
    case 'minLength':
      return `${at}: '${key}' must be a non-empty string`;
    default:
      return `${at}: '${key}' must ${s.mustBe || e.message}`;
  }
}

/** A request with its defaults: method (POST with a body, else dflt's), path, headers, upload_bytes. */
function normalizeRequest(raw, where, dflt) {
  const req = raw || {};
  const uploadBytes = req.upload_bytes ?? null;
  const headers = req.headers || {};
  for (const h of Object.keys(headers)) {
    if (['host', 'content-length', 'connection'].includes(h.toLowerCase())) {
      fail(where, `header '${h}' is set by the runner (use keep_alive / upload_bytes instead)`);
    }
  }
  return { method: req.method || (uploadBytes !== null ? 'POST' : dflt.method), path: req.path || dflt.path, headers, upload_bytes: uploadBytes };
}

const COMMON_KEYS = ['name', 'description', 'source', 'kind', 'request', 'timeout_s', 'warmup_s', 'in_quick', 'quick', 'baseline'];
const KEYS_BY_KIND = {
  closed: ['concurrency', 'keep_alive', 'requests', 'requests_per_connection', 'duration_s', 'request'],
  open: ['connections', 'rate', 'requests_per_connection', 'request'],
  slow_clients: ['probe', 'slow'],
};
const GET_HELLO = { method: 'GET', path: '/hello' };

/**
 * Checks one raw scenario object (the schema, then the rules across fields) and returns it
 * with defaults filled in. where: what to name in an error (the file); fileName: the name
 * the file gives it.
 */
function normalizeScenario(raw, where, fileName) {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) fail(where, 'must be a JSON object');
  // A field of another kind is named as such before the schema, which knows every kind's fields.
  if (KEYS_BY_KIND[raw.kind]) {
    for (const key of Object.keys(raw)) {
      if (!COMMON_KEYS.includes(key) && !KEYS_BY_KIND[raw.kind].includes(key) && Object.values(KEYS_BY_KIND).some((keys) => keys.includes(key))) fail(where, `'${key}' does not apply to kind '${raw.kind}'`);
    }
  }
  const problem = schemaFailure(where, raw);
  if (problem) throw new ScenarioError(problem);
  const name = raw.name === undefined ? fileName : raw.name;
  if (fileName && name !== fileName) fail(where, `'name' is '${name}' but the file is ${fileName}.json; they must match`);
  const out = {
    name,
    description: raw.description,
    source: raw.source ?? null,
    kind: raw.kind,
    timeout_s: raw.timeout_s ?? 10,
    warmup_s: raw.warmup_s ?? DEFAULT_WARMUP_S,
  };
  if (raw.baseline !== undefined) {
    if (raw.baseline === name) fail(where, `'baseline' names the scenario itself`);
    out.baseline = raw.baseline;
  }
  if (raw.kind === 'closed') {
    out.request = normalizeRequest(raw.request, `${where}: request`, GET_HELLO);
    out.concurrency = raw.concurrency;
    out.keep_alive = raw.keep_alive ?? true;
    const stops = ['requests', 'requests_per_connection', 'duration_s'].filter((k) => raw[k] !== undefined);
    if (stops.length !== 1) fail(where, `give exactly one of 'requests', 'requests_per_connection', 'duration_s' (got ${stops.length ? stops.join(', ') : 'none'})`);
    out.requests = raw.requests ?? null;
    out.requests_per_connection = raw.requests_per_connection ?? null;
    out.duration_s = raw.duration_s ?? null;
    if (out.requests_per_connection !== null) {
      atMost(out.concurrency * out.requests_per_connection, MAX_COUNT, `'concurrency' × 'requests_per_connection' (requests in all)`, where, 'fewer connections or requests per connection');
    }
    if (out.requests_per_connection !== null && !out.keep_alive) fail(where, `'requests_per_connection' needs keep_alive: true (without keep-alive every connection carries one request)`);
    if (out.requests !== null && out.requests < out.concurrency) fail(where, `'requests' (${out.requests}) must be at least 'concurrency' (${out.concurrency})`);
  } else if (raw.kind === 'open') {
    out.request = normalizeRequest(raw.request, `${where}: request`, GET_HELLO);
    out.connections = raw.connections;
    out.rate = raw.rate;
    out.requests_per_connection = raw.requests_per_connection ?? 1;
    atMost(out.connections * out.requests_per_connection, MAX_COUNT, `'connections' × 'requests_per_connection' (requests in all)`, where, 'fewer connections or requests per connection');
    atMost(out.connections / out.rate, MAX_DURATION_S, `'connections' / 'rate' (the run's length in s)`, where, 'fewer connections or a higher rate: a run must end within 24 h');
  } else if (raw.kind === 'rate') {
    out.request = normalizeRequest(raw.request, `${where}: request`, GET_HELLO);
    out.connections = raw.connections;
    out.rate = raw.rate;
    out.requests = raw.requests;
    atMost(out.requests / out.rate, MAX_DURATION_S, `'requests' / 'rate' (the run's length in s)`, where, 'fewer requests or a higher rate: a run must end within 24 h');
  } else {
    const probeWhere = `${where}: probe`;
    out.probe = { request: normalizeRequest(raw.probe.request, `${probeWhere}: request`, GET_HELLO), rate: raw.probe.rate, duration_s: raw.probe.duration_s };
    atMost(out.probe.rate * out.probe.duration_s, MAX_COUNT, `'rate' × 'duration_s' (probe requests in all)`, probeWhere, 'a lower rate or a shorter duration');
    const slowWhere = `${where}: slow`;
    const { mode } = raw.slow;
    const request = normalizeRequest(raw.slow.request, `${slowWhere}: request`, mode === 'read' ? { method: 'GET', path: '/data/random-1m.bin' } : { method: 'POST', path: '/upload' });
    if (mode === 'upload' && !(request.upload_bytes > 0)) fail(`${slowWhere}: request`, `'upload_bytes' (a positive integer) is required for mode 'upload'`);
    if (mode === 'read' && request.upload_bytes) fail(`${slowWhere}: request`, `'upload_bytes' does not apply to mode 'read'`);
    out.slow = { mode, request, clients: raw.slow.clients, bytes_per_s: raw.slow.bytes_per_s ?? null, start_s: raw.slow.start_s, active_s: raw.slow.active_s, repeat: raw.slow.repeat ?? false };
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
  } else if (s.kind === 'rate') {
    if (typeof s.requests === 'number') s.requests = ceilDiv(s.requests, factor);
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
function loadScenarios({ dir: asked = null, quick = false, names = null, factor = QUICK_FACTOR } = {}) {
  const dir = asked ?? SCENARIOS_DIR; // null or absent: the project's own
  // A quick run leaves out what is marked in_quick: false, unless it is asked for by name.
  const files = readScenarioFiles(dir).filter(({ raw }) => !(quick && !names && raw && raw.in_quick === false));
  const scenarios = files.map(({ name, file, raw }) => {
    const where = path.relative(process.cwd(), file) || file;
    const full = normalizeScenario(raw, where, name); // the full-size scenario must be valid on its own
    const effective = quick ? quickScale(raw, factor) : { ...raw };
    delete effective.quick;
    const scenario = normalizeScenario(effective, quick ? `${where} (with --quick)` : where, name);
    // A quick run that holds fewer slow clients at once than the full one measures a smaller
    // memory load: recorded (the run's params), so that its peak RSS is not judged (rule/compare.js).
    if (scenario.slow && scenario.slow.clients !== full.slow.clients) scenario.full_size = { slow_clients: full.slow.clients };
    scenario.file = file;
    return scenario;
  });
  const byName = new Map(scenarios.map((s) => [s.name, s]));
  // A baseline knows what it is the baseline of (its runs' params say so: judge/backends.js).
  for (const s of scenarios) {
    if (!s.baseline) continue;
    const base = byName.get(s.baseline);
    if (!base) throw new ScenarioError(`${path.relative(process.cwd(), s.file) || s.file}: 'baseline' names '${s.baseline}', which is not a scenario in ${dir}`);
    base.baseline_of = s.name;
  }
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

/** The seed studies' scenarios first (the 2011 study's four tests in its order, then the other seeds' and the slow clients), then the waiting-requests and backend ones; user-added ones follow by name. */
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
  'index_500',
  // requests that wait on the server's timer, held by thousands of connections
  'wait_keepalive_1000',
  'wait_keepalive_5000',
  'wait_keepalive_10000',
  'wait_open_1000',
  'wait_open_5000',
  'wait_open_10000',
  // a real service behind the request, each beside its baseline
  'backend_upstream',
  'backend_upstream_timer',
  'backend_db',
  'backend_db_none',
];

/**
 * The load that warms the server up before scenario s is measured, or null when there is none.
 * It is the scenario's own request, through the engine that measures it: a runtime's JIT warms
 * to the exchange it is served, and Node served httperf's first 2,000 connections at half its
 * speed after 15,000 of the built-in engine's, which ask for Connection: close (RESULTS.md,
 * "Warm-up"). A closed loop runs at its concurrency in slices the runner repeats for warmup_s
 * and on until its rate stops rising (run_one.js warmUp): bounded by a time where its engine can
 * stop after one (WARMUP_SLICE_S: the built-in ones, wrk), else the scenario itself (httperf
 * stops only after a count). An open loop or a constant rate runs once, at its rate for warmup_s. A slow-client
 * scenario is warmed by its probe alone: the slow clients are the disturbance measured before,
 * during and after their window, and warming with them would leave their after-effects
 * (buffers, memory) in the 'before'. A scenario that names its warm-up (warmup_load: a ramp's
 * first step after a start, perf/lib/plan/ramps.js warmupLoad) is warmed by that. Tsung's load hosts are not set up for a warm-up: the
 * built-in engine sends it. It is not measured, only sent.
 */
function warmupScenario(s) {
  if (s.warmup_load) return s.warmup_load;
  if (!(s.warmup_s > 0)) return null;
  const engine = s.engine === 'httperf' || s.engine === 'wrk' ? s.engine : null;
  const base = { ...s, name: `${s.name} (warm-up)`, engine, warmup_s: 0 };
  if (s.kind === 'closed') {
    if (engine === 'httperf') return base;
    return { ...base, requests: null, requests_per_connection: null, duration_s: engine === 'wrk' ? WARMUP_SLICE_S.wrk : Math.min(WARMUP_SLICE_S.builtin, s.warmup_s) };
  }
  if (s.kind === 'rate') return { ...base, requests: Math.max(1, Math.ceil(s.rate * s.warmup_s - 1e-9)) };
  const open = s.kind === 'open' ? base : { ...base, kind: 'open', request: s.probe.request, rate: s.probe.rate, requests_per_connection: 1, probe: undefined, slow: undefined };
  // (- 1e-9: 50/s × 0.2 s is 10 connections, whatever the floating point says.)
  return { ...open, connections: Math.max(1, Math.ceil(open.rate * s.warmup_s - 1e-9)) };
}

/**
 * Seconds scenario s's warm-up should take, for the plan's estimates: an open loop's warmup_s;
 * a closed loop's in whole slices, at least two, and one more (the rate has usually stopped
 * rising by then: RESULTS.md, "Warm-up"); httperf's, warmup_s and a quarter (its last run ends
 * past it).
 */
function expectedWarmupS(s) {
  const warm = warmupScenario(s);
  if (!warm) return 0;
  if (warm.kind !== 'closed') return s.warmup_s;
  if (warm.duration_s === null) return 1.25 * s.warmup_s;
  return (Math.max(2, Math.ceil(s.warmup_s / warm.duration_s - 1e-9)) + 1) * warm.duration_s;
}

module.exports = {
  compileSchema,
  schemaFailure,
  normalizeRequest,
  loadScenarios,
  normalizeScenario,
  quickScale,
  warmupScenario,
  expectedWarmupS,
  ScenarioError,
  QUICK_FACTOR,
  ORDER,
  MAX_WARMUP_S,
  DEFAULT_WARMUP_S,
  WARMUP_STEADY,
  WARMUP_CAP,
};
