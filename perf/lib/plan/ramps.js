'use strict';
// Ramps (perf/ramps/*.json): a load that rises until the server breaks, as data like the
// scenarios. Each step of a ramp offers one rate on a schedule, either one request per new
// connection (a scenario of kind open) or requests over a pool of keep-alive connections (kind
// rate), which the runner measures like any other (stepScenario); the search over the rates is perf/lib/run/capacity.js, the stage that runs it
// perf/lib/run/ramp.js.

const fs = require('node:fs');
const path = require('node:path');
const SCHEMA = require('../../schemas/ramp.schema.json');
const { compileSchema, schemaFailure, normalizeRequest, ScenarioError } = require('./scenarios');
const { RAMP_FACTOR, DEFAULT_PRECISION, FAIL_CONFIRMATIONS, CONFIRM_ATTEMPTS, APPROXIMATION_STEPS } = require('../method');

const RAMPS_DIR = path.resolve(__dirname, '..', '..', 'ramps');
// Requests that warm a server up before its first step after a start. A runtime's first
// thousands of requests are not its steady state, and a ramp that starts low would otherwise
// measure them at its lowest rates: Node 24's heap grows by three major collections at fixed
// counts of new connections (about 1,100, 5,200 and 11,300, at 640, 1,280 and 2,560 a second
// alike; none in the next 40,000), and a step a 22 ms collection falls in fails p99 ≤ 10 ms
// (a cold node failed 1,280/s three times, each step with one, and passed 9,390/s warm:
// RESULTS.md, "Warm before the first step").
const WARMUP_REQUESTS = 20000;
// The warm-up's concurrency with a new connection per request: a closed loop paces itself to
// the server, so no server is overrun before its search.
const WARMUP_CONNECTIONS = 32;
// What the plan assumes a closed loop warms at, for its estimate only (node, em: 6,000-11,000/s).
const WARMUP_ESTIMATE_RPS = 5000;
// The longest a step may grow to hold two of its server's pause periods (perf/lib/run/pause_window.js):
// the longest periods seen at the servers' keep-alive edges are 5-6 s (Node 24, Ruby 3.3 + YJIT,
// 2026-11-29), and a search near its edge takes ten steps or more.
const MAX_STEP_S = 15;
// Seconds each step offers its rate before its window, not judged (the step's lead-in: the
// scenario's warm-up at the step's rate, perf/lib/run/run_one.js). A server meets a step's rate
// after settling from the last, and a runtime takes a while to size itself to a new rate: of
// node's failing keep-alive steps at 17,448-22,627/s (2026-11-30, AMD EPYC), the first 3 s had
// a p99 of 69-394 ms and the rest 6-12 ms, a backlog built in its first second and drained by
// the third. Without a lead-in such a step measures how a server meets a jump in its load, not
// what it sustains; wrk2 likewise leaves its first seconds out (its calibration).
const LEAD_S = 2;
const DEFAULTS = { precision: DEFAULT_PRECISION, connection: 'new', connections: 100, step_s: 2, max_step_s: MAX_STEP_S, lead_s: LEAD_S, min_requests: 200, max_steps: 30, timeout_s: 10, warmup_requests: WARMUP_REQUESTS, fail_confirmations: FAIL_CONFIRMATIONS, approximation_steps: APPROXIMATION_STEPS };
const validate = compileSchema(SCHEMA);

/** One raw ramp checked (the schema, then from ≤ to) and with its defaults: the ramp as run. */
function normalizeRamp(raw, where, fileName) {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ScenarioError(`${where}: must be a JSON object`);
  const problem = schemaFailure(where, raw, validate);
  if (problem) throw new ScenarioError(problem);
  const name = raw.name ?? fileName;
  if (fileName && name !== fileName) throw new ScenarioError(`${where}: 'name' is '${name}' but the file is ${fileName}.json; they must match`);
  if (raw.to_rps < raw.from_rps) throw new ScenarioError(`${where}: 'to_rps' (${raw.to_rps}) must be at least 'from_rps' (${raw.from_rps})`);
  return {
    name,
    description: raw.description,
    source: raw.source ?? null,
    request: normalizeRequest(raw.request, `${where}: request`, { method: 'GET', path: '/hello' }),
    connection: raw.connection ?? DEFAULTS.connection,
    connections: raw.connection === 'keep-alive' ? raw.connections ?? DEFAULTS.connections : null,
    from_rps: raw.from_rps,
    to_rps: raw.to_rps,
    step_s: raw.step_s ?? DEFAULTS.step_s,
    max_step_s: Math.max(raw.step_s ?? DEFAULTS.step_s, raw.max_step_s ?? DEFAULTS.max_step_s),
    lead_s: raw.lead_s ?? DEFAULTS.lead_s,
    min_requests: raw.min_requests ?? DEFAULTS.min_requests,
    max_steps: raw.max_steps ?? DEFAULTS.max_steps,
    precision: raw.precision ?? DEFAULTS.precision,
    timeout_s: raw.timeout_s ?? DEFAULTS.timeout_s,
    warmup_requests: raw.warmup_requests ?? DEFAULTS.warmup_requests,
    fail_confirmations: raw.fail_confirmations ?? DEFAULTS.fail_confirmations,
    approximation_steps: raw.approximation_steps ?? DEFAULTS.approximation_steps,
  };
}

/**
 * The ramps of perf/ramps (or dir), full size or with their `quick` values; names: those only,
 * in that order (an unknown name is a usage error). Sorted by name otherwise.
 */
function loadRamps({ dir = RAMPS_DIR, quick = false, names = null } = {}) {
  let files;
  try {
    files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  } catch (err) {
    throw new ScenarioError(`cannot read the ramps directory ${dir}: ${err.code || err.message}`);
  }
  const ramps = files.map((f) => {
    const file = path.join(dir, f);
    const where = path.relative(process.cwd(), file) || file;
    let raw;
    try {
      raw = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      throw new ScenarioError(`${where}: not valid JSON (${err.message})`);
    }
    const name = path.basename(f, '.json');
    const { quick: quickValues, ...full } = raw;
    normalizeRamp(full, where, name); // the full-size ramp must be valid on its own
    // A quick step keeps its length unless the quick values say otherwise (its caveat says what that measures).
    const quickSteps = quickValues && quickValues.step_s !== undefined && quickValues.max_step_s === undefined ? { max_step_s: quickValues.step_s } : {};
    return quick && quickValues ? normalizeRamp({ ...full, ...quickSteps, ...quickValues }, `${where} (with --quick)`, name) : normalizeRamp(full, where, name);
  });
  if (!names) return ramps;
  const byName = new Map(ramps.map((r) => [r.name, r]));
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length) {
    const err = new ScenarioError(`unknown ramp${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `'${n}'`).join(', ')} (known: ${[...byName.keys()].join(', ') || 'none'})`);
    err.usage = true;
    throw err;
  }
  return names.map((n) => byName.get(n));
}

/**
 * Seconds a step at `rate` offers before its server's pauses are known: step_s, or longer where
 * step_s would send fewer than min_requests (perf/lib/run/pause_window.js stepLength makes it longer
 * still, up to max_step_s, for a server that pauses less often).
 */
function stepSeconds(ramp, rate) {
  return Math.max(ramp.step_s, ramp.min_requests / rate);
}

/**
 * One step of a ramp as a scenario (ramp_step: the C rate_client sends it wherever it is built,
 * perf/lib/engines/index.js), its lead-in the scenario's warm-up (warmup_s: lead_s seconds of the
 * step's own load, not judged; a server's first step after a start is warmed by warmupLoad
 * instead: perf/lib/run/ramp.js): of kind
 * open, `rate` new connections a second, one request each; or with keep-alive of kind rate,
 * `rate` requests a second over the ramp's connections, opened and each sent one request
 * (warm_connections, not counted) before the step's time zero, so that its schedule starts on
 * open connections rather than on their handshakes and first replies (a connection per request
 * has nothing to warm: its connect is each request's own). With Tsung's load hosts (--engine
 * tsung) the rate is the hosts' together: Tsung spreads its arrivals over them.
 */
function stepScenario(ramp, rate, seconds = stepSeconds(ramp, rate)) {
  const step = { name: ramp.name, description: `${ramp.description}: a step at ${Math.round(rate)}/s`, source: ramp.source, timeout_s: ramp.timeout_s, warmup_s: ramp.lead_s, request: ramp.request, rate, ramp_step: true };
  if (ramp.engine) step.engine = ramp.engine; // --engine's, where it runs the ramp (run_plan.js rampsForEngine)
  const count = Math.max(1, Math.round(rate * seconds));
  if (ramp.connection === 'keep-alive') return { ...step, kind: 'rate', connections: ramp.connections, requests: count, warm_connections: true };
  return { ...step, kind: 'open', connections: count, requests_per_connection: 1 };
}

/**
 * The load that warms a server up before its first step after a start, not measured: the ramp's
 * request, warmup_requests of them in a closed loop (over its keep-alive connections, or
 * WARMUP_CONNECTIONS at a time each on a new one), which paces itself to the server; null where
 * warmup_requests is 0.
 */
function warmupLoad(ramp) {
  if (!(ramp.warmup_requests > 0)) return null;
  const keepAlive = ramp.connection === 'keep-alive';
  const concurrency = Math.min(ramp.warmup_requests, keepAlive ? ramp.connections : WARMUP_CONNECTIONS);
  // The built-in engine sends it, whatever engine measures the steps (Tsung's load hosts are set up for the steps only).
  return { name: `${ramp.name} (warm-up)`, description: `${ramp.description}: the warm-up`, kind: 'closed', concurrency, keep_alive: keepAlive, requests: ramp.warmup_requests, requests_per_connection: null, duration_s: null, timeout_s: ramp.timeout_s, warmup_s: 0, request: ramp.request };
}

/**
 * The most connections a ramp's step holds open at once: its keep-alive pool, or with a new
 * connection per request those of its top rate opened within its timeout (a server past its
 * edge answers late: each waits until its reply or the timeout), at most the step's count.
 * (nginx at 40,960 a second: the load generator ran out of descriptors at 12,310 and 19,523 open
 * connections, under the limit of 20,000 the scenarios had set.)
 */
function rampConnections(ramp) {
  if (ramp.connection === 'keep-alive') return ramp.connections;
  return Math.ceil(ramp.to_rps * Math.min(ramp.timeout_s, stepSeconds(ramp, ramp.to_rps)));
}

/** What a ramp's rate counts, for its chart and its lines: "new connections" or "requests". */
function rateUnit(ramp) {
  return ramp.connection === 'keep-alive' ? `requests (over ${ramp.connections} keep-alive connections)` : 'new connections';
}

/**
 * Seconds a step takes beyond its load, on average: the run's start (its connections opened
 * and warmed) and end, the server settling after it, and a failing step of new connections
 * waiting for the replies to the SYNs its full accept queue dropped (retransmitted after 1 s:
 * 1.5-1.75 s for a 0.5 s step). Five quick runs of both ramps on node and em, 2026-11-28 (AMD
 * EPYC): 102-132 steps of 0.5 s in 84-108 s, warm-ups included.
 */
const STEP_OVERHEAD_S = 0.35;

/**
 * Steps a search should take: every doubling step from from_rps to to_rps (a server failing
 * sooner takes fewer), one failing step of the rate above, the climb's top measured whole, the
 * confirmations of the climb's failure, and the approximation's steps
 * (perf/lib/run/capacity.js); with approximation_steps 0, the
 * bisection to the ramp's precision (a step a rate), the confirmations of the rate that bounds
 * the answer (only that rate's failure is confirmed), and the answer's confirming steps.
 */
function stepsPerSearch(ramp) {
  let doubling = 0;
  for (let rate = ramp.from_rps; doubling < ramp.max_steps; rate = Math.min(ramp.to_rps, rate * RAMP_FACTOR)) {
    doubling++;
    if (rate >= ramp.to_rps) break;
  }
  const bisections = Math.ceil(Math.log2(Math.log(RAMP_FACTOR) / Math.log(1 + ramp.precision)));
  const climb = Math.min(ramp.max_steps, doubling + 1);
  // Approximating: the climb's top whole and its failing rate's fail_confirmations − 1 more steps, then the approximation.
  const whole = ramp.approximation_steps > 0 ? ramp.fail_confirmations + ramp.approximation_steps : bisections + ramp.fail_confirmations - 1 + CONFIRM_ATTEMPTS;
  return { climb, whole: Math.min(ramp.max_steps - climb, whole) };
}

/**
 * Seconds a ramp should take for `servers` servers and `repeat` searches each (stepsPerSearch:
 * each step after its lead-in, the climb's at the base length, each after it at max_step_s, as a server that
 * pauses asks: every runtime here collects garbage, and near their edges the whole steps of a
 * full run were all 15 s, 2026-11-30; each step with its overhead), and each server's warm-up
 * once. longest: the most it can take, every search using its max_steps. Near a fuzzy edge a
 * search takes more than the likely count (the first keep-alive searches of three servers on
 * 2026-11-30 took 15-25 steps, 145-215 s of load), so the bound is said beside it.
 */
function estimateRampS(ramp, { servers, repeat, longest = false }) {
  const typical = Math.sqrt(ramp.from_rps * ramp.to_rps);
  const baseS = stepSeconds(ramp, typical);
  const wholeS = Math.max(ramp.max_step_s, baseS);
  const { climb, whole } = stepsPerSearch(ramp);
  const after = longest ? ramp.max_steps - climb : whole;
  const searchS = climb * (baseS + ramp.lead_s + STEP_OVERHEAD_S) + after * (wholeS + ramp.lead_s + STEP_OVERHEAD_S);
  return servers * (repeat * searchS + ramp.warmup_requests / WARMUP_ESTIMATE_RPS);
}

module.exports = { loadRamps, normalizeRamp, stepScenario, warmupLoad, rampConnections, stepSeconds, estimateRampS, rateUnit, RAMPS_DIR, WARMUP_REQUESTS, MAX_STEP_S };
