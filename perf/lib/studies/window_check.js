'use strict';
// The window check: a ramp's answer on a server whose loop pauses on a timer must not depend on
// where the pauses fall (perf/lib/run/pause_window.js). The C stand-in (perf/c/pausing_server.c:
// no collector, BUSY_US of CPU a request, a PAUSE_MS busy pause every PAUSE_EVERY_MS from a random
// phase each start) searched `searches` times on a keep-alive ramp, each search on a server started
// afresh (a new phase), through the runner as any ramp: the sustainable rates, their spread
// against the search's resolution (a rate bisected to within `precision`: neighbouring answers are
// 1 + precision apart). With fixedSteps every step keeps step_s, as steps were judged before the
// rule, for the comparison.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { execFileSync } = require('node:child_process');
const { runScenarios } = require('../run/runner');
const { MAX_STEP_S } = require('../plan/ramps');
const { mean, variance } = require('../measure/stats');
const { PROJECT_ROOT } = require('../project_root');

const C_DIR = path.join(PROJECT_ROOT, 'perf', 'c');
const SOURCE = path.join(C_DIR, 'pausing_server.c');
const DEFAULTS = { searches: 10, stepS: 2, maxStepS: MAX_STEP_S, pauseMs: 20, everyMs: 3000, busyUs: 100, connections: 10, precision: 0.05, fromRps: 500, toRps: 16000 };

/**
 * The stand-in's binary: perf/c/build/pausing_server where it is built from the source as it is,
 * else built into the temporary folder (one build per version of the source) with the system's
 * compiler; throws with the compiler's message where it cannot build.
 */
function pausingServerBinary() {
  const built = path.join(C_DIR, 'build', 'pausing_server');
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= fs.statSync(SOURCE).mtimeMs) return built;
  const digest = crypto.createHash('sha256').update(fs.readFileSync(SOURCE)).digest('hex').slice(0, 12);
  const bin = path.join(os.tmpdir(), `em-vs-node-pausing-server-${digest}`);
  if (!fs.existsSync(bin)) {
    const partial = `${bin}.${process.pid}`;
    try {
      execFileSync(process.env.CC || 'cc', ['-O2', '-Wall', '-Wextra', '-o', partial, SOURCE], { stdio: 'pipe' });
    } catch (err) {
      throw new Error(`the pausing stand-in did not build (${String(err.stderr || err.message).trim().split('\n')[0]}): install a C compiler (apt-get install gcc)`, { cause: err });
    }
    fs.renameSync(partial, bin);
  }
  return bin;
}

/** A server definition (perf/servers.json format) of the stand-in pausing pauseMs every everyMs, busyUs of CPU a /hello. */
function pausingDefinition({ pauseMs, everyMs, busyUs = DEFAULTS.busyUs }) {
  return { description: `C stand-in pausing ${pauseMs} ms every ${everyMs} ms`, command: pausingServerBinary(), args: ['--host', '{host}', '--port', '{port}'], cwd: '.', env: { PAUSE_MS: String(pauseMs), PAUSE_EVERY_MS: String(everyMs), BUSY_US: String(busyUs) }, ready: 'listening on http://', serves: ['hello'] };
}

/** What the searches found: their rates, and how far apart against the search's resolution. */
function summarize(searches, precision) {
  const counted = searches.filter((s) => !s.incomplete && s.sustainable_rps > 0);
  const rates = counted.map((s) => s.sustainable_rps);
  if (!rates.length) return { searches: searches.length, counted: 0, rates, geo_mean_rps: null, sd_ln: null, max_over_min: null, resolution: 1 + precision, within_resolution: null };
  const logs = rates.map(Math.log);
  const sd = logs.length > 1 ? Math.sqrt(variance(logs)) : 0;
  const spread = Math.max(...rates) / Math.min(...rates);
  const steps = counted.flatMap((s) => s.steps);
  return {
    searches: searches.length,
    counted: counted.length,
    rates: rates.map(Math.round),
    brackets: counted.map((s) => (s.bracket ? s.bracket.map(Math.round) : null)),
    geo_mean_rps: Math.round(Math.exp(mean(logs))),
    sd_ln: Math.round(sd * 1000) / 1000,
    max_over_min: Math.round(spread * 1000) / 1000,
    resolution: 1 + precision,
    within_resolution: spread <= (1 + precision) * (1 + 1e-9),
    steps: steps.length,
    steps_judged_over_periods: steps.filter((st) => st.window && st.window.periods > 0).length,
    steps_lengthened: steps.filter((st) => st.lengthened_from).length,
    mean_step_s: Math.round((steps.reduce((t, st) => t + st.load_s, 0) / (steps.length || 1)) * 100) / 100,
  };
}

/** "10 searches: 5,907/s geometric mean, 5,657–5,907/s (1.044×, the resolution 1.05×): within it". */
function summaryLine(s) {
  if (!s.counted) return `${s.searches} searches, none with an answer`;
  const fmt = (x) => Math.round(x).toLocaleString('en-US');
  const verdict = s.within_resolution ? 'within it' : 'wider than it: the answer depends on where the pauses fell';
  return `${s.counted} searches: ${fmt(s.geo_mean_rps)}/s geometric mean, ${fmt(Math.min(...s.rates))}–${fmt(Math.max(...s.rates))}/s (${s.max_over_min}×, the resolution ${s.resolution}×): ${verdict}; ${s.steps_judged_over_periods} of ${s.steps} steps judged over whole periods, ${s.steps_lengthened} measured again longer, ${s.mean_step_s} s a step on average`;
}

/**
 * Runs the check: options as DEFAULTS, fixedSteps, outDir (where the runner writes results.json and
 * this writes window_check.json), log(line), signal. Resolves { summary, line, file, interrupted }.
 */
async function runWindowCheck({ outDir, fixedSteps = false, log = () => {}, signal = null, ...asked } = {}) {
  const o = { ...DEFAULTS, ...asked };
  fs.mkdirSync(outDir, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'window-check-'));
  const [scenariosDir, rampsDir] = ['scenarios', 'ramps'].map((d) => fs.mkdirSync(path.join(work, d)) || path.join(work, d));
  // The runner's paired rounds come first; a scenario of a few requests keeps them short.
  fs.writeFileSync(path.join(scenariosDir, 'few.json'), JSON.stringify({ description: 'a few requests', kind: 'closed', concurrency: 2, requests: 20 }));
  // Searched by bisection (approximation_steps 0), not the ramps' stochastic approximation: on
  // the stand-in's sharp edge its answers fall on a grid 1 + precision apart, so answers farther
  // apart than one grid step can only come from where the pauses fell. The approximation's
  // answer carries its own noise (perf/README.md, "Ramps"), which would blur that line.
  const ramp = { description: `GET /hello over ${o.connections} keep-alive connections, rising`, connection: 'keep-alive', connections: o.connections, from_rps: o.fromRps, to_rps: o.toRps, step_s: o.stepS, max_step_s: fixedSteps ? o.stepS : o.maxStepS, precision: o.precision, approximation_steps: 0, warmup_requests: 2000 };
  fs.writeFileSync(path.join(rampsDir, 'paused.json'), JSON.stringify(ramp));
  const definitions = { pausing: pausingDefinition(o) };
  try {
    // One search per start: each start draws a new phase for the pauses.
    for (let i = 0; i < o.searches && !(signal && signal.aborted); i++) {
      log(`window check: search ${i + 1} of ${o.searches} (a new start, a new phase)`);
      await runScenarios({ definitions, servers: ['pausing'], scenariosDir, rampsDir, ramps: ['paused'], rampRepeat: 1, outDir: path.join(outDir, `search-${i + 1}`), pin: false, repeat: 1, warmup: 0, lighterEngines: false, signal, log: (l) => (l.startsWith('paused ') ? log(l) : null) });
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const searches = [];
  for (let i = 0; i < o.searches; i++) {
    const file = path.join(outDir, `search-${i + 1}`, 'results.json');
    if (!fs.existsSync(file)) continue;
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    const found = doc.ramps && doc.ramps.ramps[0] && doc.ramps.ramps[0].servers.pausing;
    if (found) searches.push(...found.searches);
  }
  const summary = summarize(searches, o.precision);
  const file = path.join(outDir, 'window_check.json');
  fs.writeFileSync(file, JSON.stringify({ design: { ...o, fixed_steps: fixedSteps, ramp }, host: { cpu: os.cpus()[0] && os.cpus()[0].model, kernel: os.release() }, summary }, null, 2) + '\n');
  return { summary, line: summaryLine(summary), file, interrupted: Boolean(signal && signal.aborted) };
}

module.exports = { runWindowCheck, pausingDefinition, pausingServerBinary, summarize, summaryLine, DEFAULTS };
