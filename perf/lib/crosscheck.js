'use strict';
// Cross-check: the same scenarios, on the same servers, measured by two load generators
// (e.g. the built-in engines and httperf), N trials each, interleaved (trial 1 of every
// engine, then trial 2, … with the engines' order alternating), then, per server, scenario
// and metric: do the engines agree, beyond what the trials' own spread explains?
//
// Per metric, with each engine's N trial values: the ratio B / A of their geometric means
// with Welch's 95% interval on the log scale (perf/lib/confidence.js compareTrials). Verdict:
//   agree               the interval contains 1
//   agree (resolution)  the centres are closer than the coarser engine's printed resolution
//                       (httperf prints times in steps of 0.1 ms; server CPU is counted in
//                       10 ms ticks), even if the interval excludes 1
//   differ              the interval excludes 1
//   n/a                 one engine does not measure it
//   too few trials      fewer than two usable trials on a side
// Where the engines define a metric differently (perf/ENGINES.md), the row says so: a
// "differ" there may be the definition, not the server.

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { loadScenarios } = require('./scenarios');
const { ENGINES, selectEngine, ENGINE_CHOICES } = require('./engines');
const { METRICS } = require('./metrics');
const { readResultsFile, RESULTS_FILE } = require('./results_doc');
const { summarizeTrials, compareTrials } = require('./confidence');
const { writeFileAtomic, RESULTS_ROOT } = require('./results_store');
const { PROJECT_ROOT } = require('./server_process');
const { RESOLUTION_MS: HTTPERF_RESOLUTION_MS } = require('./engines/httperf');

const CPU_TICK_S = 0.01; // /proc CPU times are in 10 ms ticks

/** What each engine's latency means (external engines record their own in latency_basis). */
const BUILTIN_BASIS = {
  autocannon: 'autocannon (through the runner\'s hooks): from writing the request to the last byte of the reply; connect not included; exact, every reply',
  sequential: 'sequential engine: from opening the connection (connect included) to the last byte of the reply; exact, every reply',
  open_loop: 'open-loop engine: from the connection\'s scheduled start (connect and any schedule lag included) to the last byte of the reply; exact, every reply',
  slow_clients: 'slow-client engine: the probe\'s latency from its scheduled start',
};

/** Mean latency counted from the actual (not the scheduled) start of each connection. */
function meanFromActualStart(r) {
  if (!r.latency_ms || r.latency_ms.mean === null || r.latency_ms.mean === undefined) return null;
  if (r.engine !== 'open_loop') return r.latency_ms.mean;
  return r.schedule_lag_ms && Number.isFinite(r.schedule_lag_ms.mean) ? Math.max(0, r.latency_ms.mean - r.schedule_lag_ms.mean) : null;
}

function errorTotal(r) {
  return r.errors ? Object.values(r.errors).reduce((a, b) => a + (Number(b) || 0), 0) : null;
}

/**
 * The metrics compared: the shared ones (perf/lib/metrics.js) and what only the agreement of two
 * engines needs (halfStep() says how precisely each engine reports them).
 */
const CROSSCHECK_METRICS = [
  { key: 'throughput_rps', label: METRICS.throughput_rps.label, get: METRICS.throughput_rps.get },
  { key: 'mean_ms', label: METRICS.mean_ms.label, latency: true, get: METRICS.mean_ms.get },
  // The open-loop engine counts from the scheduled start; without its mean schedule lag, its
  // mean counts from the actual start of the connection, as httperf's does. Shown only for
  // open-loop runs.
  { key: 'mean_ms_from_actual_start', label: 'mean ms, lag removed', latency: true, onlyIf: (r) => r.engine === 'open_loop', get: meanFromActualStart },
  { key: 'p50_ms', label: METRICS.p50_ms.label, latency: true, get: METRICS.p50_ms.get },
  { key: 'p90_ms', label: 'p90 ms', latency: true, get: (r) => r.latency_ms && r.latency_ms.p90 },
  { key: 'p99_ms', label: METRICS.p99_ms.label, latency: true, get: METRICS.p99_ms.get },
  { key: 'max_ms', label: 'max ms', latency: true, get: (r) => r.latency_ms && r.latency_ms.max },
  { key: 'connect_ms', label: 'connect ms', latency: true, get: (r) => r.connect_ms && r.connect_ms.mean },
  { key: 'cpu_ms_per_request', label: 'server CPU ms/req', cpu: true, get: METRICS.cpu_ms_per_request.get },
  { key: 'errors', label: 'errors', count: true, get: errorTotal },
  { key: 'client_cpu_pct', label: 'client CPU %', info: true, get: (r) => r.client_cpu_pct },
].map((m) => ({ ...m, get: (r) => num(m.get(r)) }));

function num(x) {
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

/**
 * How far from the truth run r's value of metric m can be from the way it is reported alone
 * (half a printed step): httperf prints ms with one decimal (±0.05 ms), wrk two decimals of its
 * unit (±0.005 ms for times in ms), the built-in engines are exact (µs); server CPU comes from
 * /proc ticks of 10 ms, read before and after the run for user and system time (±2 ticks over
 * the run's replies).
 */
function halfStep(m, r) {
  if (m.latency) {
    if (r.engine === 'httperf') return HTTPERF_RESOLUTION_MS / 2;
    if (r.engine === 'wrk') return 0.005;
    return 0.0005;
  }
  if (m.cpu) return r.replies > 0 ? (2 * CPU_TICK_S * 1000) / r.replies : 0;
  return 0;
}

/** The ratio cNum/cDen when each may be off by its half step: [lowest, highest]. */
function quantisedBounds(cNum, cDen, hNum, hDen) {
  const lo = Math.max(0, cNum - hNum) / (cDen + hDen);
  const hi = cDen - hDen > 0 ? (cNum + hNum) / (cDen - hDen) : Infinity;
  return [lo, hi];
}

/**
 * compareTrials(num, den) with the interval widened to cover the values' reporting steps
 * (hNum, hDen): a step-quantised value (httperf's "0.2") otherwise gives a falsely narrow
 * interval. Returns { ratio, ci95, significant, widened } or null (fewer than two positive
 * values on a side).
 */
function compareWithSteps(num, den, hNum, hDen) {
  const cmp = compareTrials(num, den);
  if (!cmp) return null;
  const cNum = summarizeTrials(num).centre;
  const cDen = summarizeTrials(den).centre;
  const q = hNum > 0 || hDen > 0 ? quantisedBounds(cNum, cDen, hNum, hDen) : cmp.ci95;
  const ci95 = [Math.min(cmp.ci95[0], q[0]), Math.max(cmp.ci95[1], q[1])];
  const significant = ci95[0] > 1 || ci95[1] < 1;
  return { ratio: cmp.ratio, ci95, significant, widened: cmp.significant && !significant };
}

function basisOf(run) {
  return run.latency_basis || BUILTIN_BASIS[run.engine] || run.engine;
}

/**
 * Definitional differences between how engine A's run and engine B's run measure metric m:
 * a list of short notes (empty when they measure the same thing the same way).
 */
function definitionNotes(m, a, b) {
  const notes = [];
  const engines = [a.engine, b.engine];
  const has = (e) => engines.includes(e);
  const oneRequestPerConn = a.params && (a.params.kind === 'open' ? a.params.requests_per_connection === 1 : a.params.keep_alive === false);
  if (m.latency && m.key !== 'connect_ms' && basisOf(a) !== basisOf(b)) {
    if (has('httperf') && oneRequestPerConn) notes.push('httperf: connection time, connect() to the end of the connection; 0.1 ms steps');
    else if (has('httperf')) notes.push('httperf: reply time = response + transfer (mean only); 0.1 ms steps');
    if (has('open_loop') && m.key !== 'mean_ms_from_actual_start') notes.push('open loop: counted from the scheduled start, so schedule lag is inside');
    if (has('open_loop') && m.key === 'mean_ms_from_actual_start') notes.push('open loop: mean minus the mean schedule lag, i.e. from the actual start of the connection');
    if (has('sequential')) notes.push('sequential: counted from opening the connection');
    if (has('wrk')) notes.push('wrk: excludes connect, adds coordinated-omission fill-in samples');
  }
  if (m.key === 'connect_ms' && has('httperf')) notes.push('httperf: mean connect() time of its connections, 0.1 ms steps; the built-in engines time it in Node, up to the connect callback');
  if (has('httperf') && oneRequestPerConn && (m.latency || m.cpu)) {
    notes.push('httperf closes the connection itself (no Connection: close); the built-in engine asks the server to close');
  }
  if (has('wrk') && a.params && a.params.keep_alive === false && (m.latency || m.cpu)) {
    notes.push('wrk closes the connection itself after the reply and reconnects');
  }
  const bigReplies = [a, b].some((r) => r.engine === 'httperf' && r.engine_totals && r.engine_totals.reply_size_b && r.engine_totals.reply_size_b.total > 16384);
  if (bigReplies && (m.key === 'throughput_rps' || m.cpu || m.latency)) {
    notes.push('httperf reads with a 16 KiB receive buffer (its --recv-buffer default), so a larger reply arrives in several windows: more server CPU and time per reply');
  }
  if (m.key === 'errors' && has('httperf')) notes.push('httperf counts a failed connection (or session) once, not each request it carried');
  if (m.key === 'errors' && has('wrk')) notes.push('wrk: connect errors count as refused, read/write errors as reset, replies slower than --timeout as timeouts');
  if (m.key === 'throughput_rps' && a.params && a.params.kind === 'open') notes.push('open loop: the rate is set by the schedule, both should match it');
  if (m.key === 'client_cpu_pct') {
    if (has('httperf')) notes.push('httperf busy-polls: about 100% whatever the load');
    if (engines.some((e) => BUILTIN_BASIS[e])) notes.push('built-in: the runner process (Node), not an external tool');
  }
  return notes;
}

function fmt(x) {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  const ax = Math.abs(x);
  if (ax === 0) return '0';
  if (ax >= 1000) return Math.round(x).toString();
  if (ax >= 100) return x.toFixed(0);
  if (ax >= 10) return x.toFixed(1);
  if (ax >= 1) return x.toFixed(2);
  return x.toPrecision(2);
}

function fmtRatio(x) {
  return x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(3);
}

function fmtCi(ci) {
  return ci ? `[${fmtRatio(ci[0])}, ${fmtRatio(ci[1])}]` : '–';
}

/** Plain mean of the finite values (for counts and for showing zeros, which logs cannot). */
function plainMean(values) {
  const v = values.filter((x) => x !== null);
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
}

/**
 * Compares one metric between engine A's and engine B's runs (trials) of one server and
 * scenario. Returns a row: { metric, label, a: {...}, b: {...}, ratio (B/A), ci95, significant,
 * verdict, half_step, notes }.
 */
function compareMetric(m, runsA, runsB) {
  const side = (runs) => {
    const values = runs.map((r) => m.get(r));
    const present = values.filter((v) => v !== null);
    const t = summarizeTrials(present);
    return {
      engine_run: runs[0] ? runs[0].engine : null,
      n: present.length,
      values,
      centre: t.centre !== null ? t.centre : plainMean(present),
      ci95: t.ci95,
      half_step: runs.length ? Math.max(...runs.map((r) => halfStep(m, r))) : 0,
    };
  };
  const a = side(runsA);
  const b = side(runsB);
  const row = { metric: m.key, label: m.label, a, b, ratio: null, ci95: null, significant: null, verdict: null, notes: [] };
  if (runsA[0] && runsB[0]) row.notes = definitionNotes(m, runsA[0], runsB[0]);
  if (a.n === 0 || b.n === 0) {
    row.verdict = 'n/a';
    row.notes = [a.n === 0 && b.n === 0 ? 'neither engine measures it' : `${a.n === 0 ? a.engine_run : b.engine_run} does not measure it`];
    return row;
  }
  if (m.info) {
    row.ratio = a.centre > 0 ? b.centre / a.centre : null;
    row.verdict = 'info';
    return row;
  }
  const va = a.values.filter((v) => v !== null);
  const vb = b.values.filter((v) => v !== null);
  const cmp = compareWithSteps(vb, va, b.half_step, a.half_step);
  if (cmp) Object.assign(row, { ratio: cmp.ratio, ci95: cmp.ci95, significant: cmp.significant });
  else row.ratio = a.centre > 0 ? b.centre / a.centre : a.centre === b.centre ? 1 : null;
  if (a.centre === b.centre) row.verdict = 'agree';
  else if (cmp) row.verdict = cmp.significant ? 'differ' : cmp.widened ? 'agree (resolution)' : 'agree';
  else if (va.length < 2 || vb.length < 2) row.verdict = 'too few trials';
  else {
    // Zeros (no errors, httperf's "0.0 ms") cannot go on a log scale: compare the ranges,
    // each value widened by its reporting step.
    const apart = Math.max(...va) + a.half_step < Math.min(...vb) - b.half_step || Math.max(...vb) + b.half_step < Math.min(...va) - a.half_step;
    row.verdict = apart ? 'differ' : 'agree';
    row.notes = ['compared by the trials\' ranges (a zero cannot go on the log scale)', ...row.notes];
  }
  return row;
}

/** The rows for one server and scenario (metrics neither engine measures are left out). */
function compareRuns(runsA, runsB) {
  return CROSSCHECK_METRICS.filter((m) => !m.onlyIf || [...runsA, ...runsB].some(m.onlyIf))
    .map((m) => compareMetric(m, runsA, runsB))
    .filter((r) => r.a.n > 0 || r.b.n > 0);
}

/** The scenarios both engines can run faithfully, and the others with the reason. */
function commonScenarios(scenarios, engines) {
  let kept = scenarios;
  const skipped = [];
  for (const engine of engines) {
    if (engine === 'autocannon') continue;
    const def = ENGINES[engine];
    const next = [];
    for (const s of kept) {
      const why = def.whyNot(s);
      if (why) skipped.push({ engine, scenario: s.name, reason: why });
      else next.push(s);
    }
    kept = next;
  }
  return { scenarios: kept, skipped };
}

const CLI = path.join(PROJECT_ROOT, 'perf', 'cli.js');
const liveChildren = new Set();
let exitHook = false;

/**
 * One trial of one engine: perf/cli.js in a child process (each pins itself afresh: the runner
 * moves its own process to the client CPU, which a second run in the same process would
 * inherit). Its progress lines go to log, its summary table is left out. Resolves
 * { doc (results.json or null), code, interrupted, why }.
 */
function runChild({ engine, servers, names, quick, outDir, pin, serversFile, signal, log, env = process.env }) {
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const c of liveChildren) c.kill('SIGKILL');
    });
  }
  const args = [CLI, '--engine', engine, '--servers', servers.join(','), '--scenarios', names.join(','), '--repeat', '1', '--out', outDir, '--no-report', '--no-lighter-engines'];
  if (quick) args.push('--quick');
  if (!pin) args.push('--no-pin');
  if (serversFile) args.push('--servers-file', serversFile);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    liveChildren.add(child);
    let inSummary = false;
    let pending = '';
    const onLine = (line) => {
      // The runner prints its summary table after a blank line, then "results: <file>".
      if (!line.trim()) inSummary = true;
      else if (/^results: /.test(line)) inSummary = false;
      else if (!inSummary) log(line);
    };
    child.stdout.on('data', (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      lines.forEach(onLine);
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 65536) stderr += chunk;
    });
    let killer = null;
    const onAbort = () => {
      child.kill('SIGINT'); // the runner stops, keeps what finished, writes results.json
      killer = setTimeout(() => child.kill('SIGKILL'), 10000);
    };
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
    child.once('close', (code, sig) => {
      liveChildren.delete(child);
      if (killer) clearTimeout(killer);
      if (signal) signal.removeEventListener('abort', onAbort);
      if (pending) onLine(pending);
      for (const line of stderr.split('\n').filter(Boolean)) log(line);
      let doc;
      try {
        doc = readResultsFile(path.join(outDir, RESULTS_FILE));
      } catch {
        doc = null; // the child's exit says why
      }
      const why = sig ? `signal ${sig}` : `exit code ${code}${stderr.trim() ? `: ${stderr.trim().split('\n')[0]}` : ''}`;
      resolve({ doc, code, interrupted: code === 130 || code === 143 || (signal && signal.aborted), why });
    });
  });
}

function usageError(message) {
  const err = new Error(message);
  err.usage = true;
  return err;
}

function stamp(now = new Date()) {
  return now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
}

/**
 * Runs the cross-check. options: { engines: [A, B], servers, scenarios (names or null: all
 * both can run), repeat (default 3, 2 with quick), quick, outDir, pin, serversFile (server
 * definitions for the runner, default perf/servers.json), signal, log, env }.
 * Resolves { dir, report, text, markdown, interrupted, failures }.
 */
async function runCrosscheck(options = {}) {
  const engines = options.engines || ['autocannon', 'httperf'];
  if (engines.length !== 2) throw usageError(`--engines takes exactly two engines (got ${engines.length}: ${engines.join(', ')})`);
  if (engines[0] === engines[1]) throw usageError(`--engines names '${engines[0]}' twice; cross-check two different engines`);
  for (const e of engines) if (!ENGINE_CHOICES.includes(e)) throw usageError(`unknown engine '${e}' (known: ${ENGINE_CHOICES.join(', ')})`);
  const servers = options.servers || ['node', 'em'];
  const quick = !!options.quick;
  const repeat = options.repeat ?? (quick ? 2 : 3);
  if (!Number.isInteger(repeat) || repeat < 2) throw usageError(`--repeat must be 2 or more for a comparison with intervals (got ${repeat})`);
  const log = options.log || ((line) => process.stdout.write(line + '\n'));
  const signal = options.signal || null;

  const loaded = loadScenarios({ quick, names: options.scenarios || null });
  const { scenarios, skipped } = commonScenarios(loaded, engines);
  for (const k of skipped) log(`crosscheck: skips ${k.scenario}: ${k.engine} cannot run it faithfully (${k.reason})`);
  if (!scenarios.length) throw usageError(`${engines.join(' and ')} have no scenario in common among ${loaded.map((s) => s.name).join(', ')}`);
  // Sanity: each engine must accept every kept scenario (selectEngine throws otherwise).
  for (const e of engines) selectEngine(scenarios, e);

  const dir = path.resolve(options.outDir || path.join(RESULTS_ROOT, `crosscheck-${stamp()}`));
  fs.mkdirSync(dir, { recursive: true });
  const names = scenarios.map((s) => s.name);
  log(`crosscheck: ${engines.join(' vs ')} on ${servers.join(', ')}; ${names.join(', ')}; ${repeat} trials each${quick ? ' (--quick)' : ''}; results in ${dir}`);

  const runs = [];
  const failures = [];
  let interrupted = false;
  for (let t = 1; t <= repeat && !interrupted; t++) {
    // Alternate the order, so that neither engine always runs first.
    const order = t % 2 === 1 ? engines : [...engines].reverse();
    for (const engine of order) {
      if (signal && signal.aborted) {
        interrupted = true;
        break;
      }
      const outDir = path.join(dir, 'runs', `${engine}-t${t}`);
      const result = await runChild({ engine, servers, names, quick, outDir, pin: options.pin !== false, serversFile: options.serversFile, signal, log: (line) => log(`[t${t} ${engine}] ${line}`), env: options.env });
      if (result.interrupted) interrupted = true;
      if (!result.doc) {
        failures.push(`${engine} trial ${t}: no results (${result.why})`);
        continue;
      }
      for (const r of result.doc.runs) {
        runs.push({ ...r, crosscheck: { engine, trial: t } });
        if (!r.ok) failures.push(`${engine} trial ${t}: ${r.server} ${r.scenario}: ${r.failure}`);
      }
    }
  }

  const report = buildReport({ engines, servers, scenarios: names, repeat, quick, runs, skipped, failures, interrupted, dir });
  return { ...writeOutputs(dir, report), interrupted, failures };
}

const VERDICT_METRICS = ['throughput_rps', 'mean_ms', 'mean_ms_from_actual_start', 'max_ms', 'cpu_ms_per_request'];

/**
 * Do the engines reach the same verdict about the servers? For each scenario and metric, each
 * engine's ratio first server / second server with its 95% interval, and how the two engines'
 * verdicts relate: 'same' (both intervals exclude 1 on the same side, or both contain it),
 * 'one sees a difference', 'opposite', plus whether the two intervals overlap.
 */
function compareServerVerdicts({ engines, servers, scenarios, runs }) {
  const [S1, S2] = servers;
  const out = [];
  for (const scenario of scenarios) {
    const inScenario = runs.filter((r) => r.scenario === scenario && r.ok);
    for (const key of VERDICT_METRICS) {
      const m = CROSSCHECK_METRICS.find((x) => x.key === key);
      if (m.onlyIf && !inScenario.some(m.onlyIf)) continue;
      const per = {};
      for (const e of engines) {
        const values = (server) => inScenario.filter((r) => r.crosscheck.engine === e && r.server === server).map(m.get).filter((v) => v !== null);
        const v1 = values(S1);
        const v2 = values(S2);
        const ofEngine = inScenario.filter((r) => r.crosscheck.engine === e);
        const h = (server) => Math.max(0, ...ofEngine.filter((r) => r.server === server).map((r) => halfStep(m, r)));
        const cmp = compareWithSteps(v1, v2, h(S1), h(S2));
        const c1 = summarizeTrials(v1).centre;
        const c2 = summarizeTrials(v2).centre;
        per[e] = cmp ? { ratio: cmp.ratio, ci95: cmp.ci95, significant: cmp.significant } : { ratio: c1 && c2 ? c1 / c2 : null, ci95: null, significant: null };
      }
      const [a, b] = engines.map((e) => per[e]);
      if (a.ratio === null && b.ratio === null) continue;
      let agreement = 'cannot tell';
      if (a.significant !== null && b.significant !== null) {
        const side = (x) => (!x.significant ? 0 : x.ratio > 1 ? 1 : -1);
        if (side(a) === side(b)) agreement = 'same';
        else if (side(a) === -side(b)) agreement = 'opposite';
        else agreement = `only ${side(a) ? engines[0] : engines[1]} sees a difference`;
      }
      const overlap = a.ci95 && b.ci95 ? a.ci95[0] <= b.ci95[1] && b.ci95[0] <= a.ci95[1] : null;
      out.push({ scenario, metric: key, label: m.label, ratio: `${S1} / ${S2}`, engines: per, agreement, intervals_overlap: overlap, magnitude: a.ratio && b.ratio ? b.ratio / a.ratio : null });
    }
  }
  return out;
}

/**
 * Re-computes the comparison of an earlier cross-check from its saved runs (dir/runs/<engine>-t<k>/
 * results.json) and rewrites crosscheck.json/.md/.txt. Resolves { dir, report, text, markdown }.
 */
function rebuildCrosscheck(dir) {
  const abs = path.resolve(dir);
  const old = JSON.parse(fs.readFileSync(path.join(abs, 'crosscheck.json'), 'utf8'));
  const runs = [];
  const failures = [];
  for (const name of fs.readdirSync(path.join(abs, 'runs')).sort()) {
    const m = /^(.+)-t(\d+)$/.exec(name);
    if (!m || !old.engines.includes(m[1])) continue;
    const file = path.join(abs, 'runs', name, RESULTS_FILE);
    if (!fs.existsSync(file)) continue;
    for (const r of readResultsFile(file).runs) {
      runs.push({ ...r, crosscheck: { engine: m[1], trial: Number(m[2]) } });
      if (!r.ok) failures.push(`${m[1]} trial ${m[2]}: ${r.server} ${r.scenario}: ${r.failure}`);
    }
  }
  const report = buildReport({ ...old, runs, failures, dir: abs });
  return writeOutputs(abs, report);
}

function writeOutputs(dir, report) {
  const text = toText(report);
  const markdown = toMarkdown(report);
  writeFileAtomic(path.join(dir, 'crosscheck.json'), JSON.stringify(report, null, 2) + '\n');
  writeFileAtomic(path.join(dir, 'crosscheck.md'), markdown);
  writeFileAtomic(path.join(dir, 'crosscheck.txt'), text);
  return { dir, report, text, markdown };
}

/** The comparison document from the runs (pure: tests call it with made-up runs). */
function buildReport({ engines, servers, scenarios, repeat, quick, runs, skipped = [], failures = [], interrupted = false, dir = null }) {
  const [A, B] = engines;
  const groups = [];
  const rows = [];
  for (const server of servers) {
    for (const scenario of scenarios) {
      const of = (e) => runs.filter((r) => r.crosscheck.engine === e && r.server === server && r.scenario === scenario && r.ok);
      const runsA = of(A);
      const runsB = of(B);
      const group = {
        server,
        scenario,
        trials: { [A]: runsA.length, [B]: runsB.length },
        engine_runs: { [A]: runsA[0] ? runsA[0].engine : null, [B]: runsB[0] ? runsB[0].engine : null },
        latency_basis: { [A]: runsA[0] ? basisOf(runsA[0]) : null, [B]: runsB[0] ? basisOf(runsB[0]) : null },
        commands: { [A]: runsA[0] ? runsA[0].engine_command || null : null, [B]: runsB[0] ? runsB[0].engine_command || null : null },
      };
      groups.push(group);
      if (!runsA.length || !runsB.length) {
        rows.push({ server, scenario, metric: null, label: null, verdict: 'no data', notes: [`ok trials: ${A} ${runsA.length}, ${B} ${runsB.length}`] });
        continue;
      }
      for (const row of compareRuns(runsA, runsB)) rows.push({ server, scenario, ...row });
    }
  }
  const serverVerdicts = servers.length >= 2 ? compareServerVerdicts({ engines, servers, scenarios, runs }) : [];
  const counted = rows.filter((r) => r.metric && !['n/a', 'info'].includes(r.verdict));
  const tally = {};
  for (const r of counted) tally[r.verdict] = (tally[r.verdict] || 0) + 1;
  return {
    engines,
    reference: A,
    ratio: `${B} / ${A}`,
    servers,
    scenarios,
    repeat,
    quick,
    interrupted,
    created_at: new Date().toISOString(),
    dir,
    groups,
    rows,
    tally,
    server_verdicts: serverVerdicts,
    skipped,
    failures,
    runs_dirs: dir ? engines.flatMap((e) => Array.from({ length: repeat }, (_, i) => path.join('runs', `${e}-t${i + 1}`))) : [],
  };
}

/** Every distinct note, numbered in order of first use: Map(note → number). */
function footnotes(report) {
  const map = new Map();
  for (const r of report.rows) for (const n of r.notes || []) if (!map.has(n)) map.set(n, map.size + 1);
  return map;
}

function cells(report, r, notes) {
  const refs = (r.notes || []).map((n) => notes.get(n)).join(',');
  if (!r.metric) return [r.server, r.scenario, '–', '', '', '', '', r.verdict, refs];
  const side = (s) => `${fmt(s.centre)}${s.n !== report.repeat ? ` (n=${s.n})` : ''}`;
  return [r.server, r.scenario, r.label, side(r.a), side(r.b), fmtRatio(r.ratio), fmtCi(r.ci95), r.verdict, refs];
}

function headers(report) {
  const [A, B] = report.engines;
  return ['server', 'scenario', 'metric', A, B, `${B}/${A}`, '95% CI', 'verdict', 'notes'];
}

function legend(report) {
  const [A, B] = report.engines;
  const lines = [
    `${A} vs ${B}: ${report.repeat} trials each${report.quick ? ' (--quick: counts ÷20)' : ''}, engines interleaved. Columns ${A} and ${B}: geometric mean of the trials (plain mean for counts); ${B}/${A}: ratio with Welch's 95% interval on the log scale.`,
    `Intervals are widened to cover each engine's reporting step (httperf prints ms with one decimal: ±0.05 ms; server CPU is counted in 10 ms ticks: ±20 ms over the run's replies), so a step-quantised value does not fake precision.`,
    `Verdict: agree = the interval contains 1; agree (resolution) = it contains 1 only because of the reporting steps; differ = the interval excludes 1 (see the notes: a difference of definition is not a difference of server); n/a = one engine does not measure it; info = not comparable by design.`,
  ];
  if (A === 'autocannon' || B === 'autocannon') lines.push('autocannon here means the built-in engines: autocannon for keep-alive closed loops, the open_loop and sequential engines elsewhere (the run\'s engine is named per scenario below).');
  return lines;
}

function groupLines(report) {
  const out = [];
  for (const g of report.groups) {
    const [A, B] = report.engines;
    out.push(`${g.server} ${g.scenario}: ${A} = ${g.engine_runs[A] || '–'}${g.commands[A] ? ` (${g.commands[A]})` : ''}; ${B} = ${g.engine_runs[B] || '–'}${g.commands[B] ? ` (${g.commands[B]})` : ''}`);
  }
  return out;
}

function basisLines(report) {
  const seen = new Map();
  for (const g of report.groups) for (const e of report.engines) if (g.latency_basis[e]) seen.set(g.engine_runs[e], g.latency_basis[e]);
  return [...seen.entries()].map(([engine, basis]) => `${engine}: ${basis}`);
}

function tallyLine(report) {
  const parts = Object.entries(report.tally).map(([k, n]) => `${k} ${n}`);
  return `comparable rows: ${parts.join(', ') || 'none'}`;
}

/** Aligned text for the terminal. */
function toText(report) {
  const head = headers(report);
  const notes = footnotes(report);
  const body = report.rows.map((r) => cells(report, r, notes));
  const widths = head.map((h, i) => (i === head.length - 1 ? 0 : Math.max(h.length, ...body.map((c) => String(c[i]).length))));
  const line = (c) => c.map((x, i) => (i === c.length - 1 ? x : [3, 4, 5].includes(i) ? String(x).padStart(widths[i]) : String(x).padEnd(widths[i]))).join('  ').trimEnd();
  const out = [line(head), ...body.map(line), '', tallyLine(report), ...legend(report), ...verdictText(report), '', 'notes:', ...[...notes].map(([n, i]) => `  ${i}. ${n}`), '', 'latency, by engine:', ...basisLines(report).map((l) => `  ${l}`), '', 'runs:', ...groupLines(report).map((l) => `  ${l}`)];
  if (report.skipped.length) out.push('', 'skipped:', ...report.skipped.map((k) => `  ${k.scenario}: ${k.engine} cannot run it faithfully (${k.reason})`));
  if (report.failures.length) out.push('', 'failed runs (left out):', ...report.failures.map((f) => `  ${f}`));
  if (report.interrupted) out.push('', 'INTERRUPTED: the comparison covers the trials that finished.');
  return out.join('\n') + '\n';
}

function verdictCells(report, v) {
  const [A, B] = report.engines;
  const side = (x) => (x ? `${fmtRatio(x.ratio)} ${fmtCi(x.ci95)}` : '–');
  return [v.scenario, v.label, side(v.engines[A]), side(v.engines[B]), v.agreement, v.intervals_overlap === null ? '–' : v.intervals_overlap ? 'yes' : 'no'];
}

function verdictHead(report) {
  const [A, B] = report.engines;
  const r = report.server_verdicts.length ? report.server_verdicts[0].ratio : '';
  return ['scenario', 'metric', `${A}: ${r} [95% CI]`, `${B}: ${r} [95% CI]`, 'verdicts', 'CIs overlap'];
}

/** The second table: do the engines say the same about the servers? */
function verdictText(report) {
  if (!report.server_verdicts.length) return [];
  const head = verdictHead(report);
  const body = report.server_verdicts.map((v) => verdictCells(report, v));
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((c) => String(c[i]).length)));
  const line = (c) => c.map((x, i) => String(x).padEnd(widths[i])).join('  ').trimEnd();
  return ['', `Server verdicts by engine (ratio ${report.server_verdicts[0].ratio}; same = both engines find the same direction, or both find no difference):`, line(head), ...body.map(line)];
}

function mdEscape(s) {
  return String(s).replace(/\|/g, '\\|');
}

/** Markdown: the table, the legend, what each engine's latency means, the command lines. */
function toMarkdown(report) {
  const head = headers(report);
  const notes = footnotes(report);
  const out = [
    `# Cross-check: ${report.engines.join(' vs ')}`,
    '',
    `| ${head.map(mdEscape).join(' | ')} |`,
    `|${head.map((_, i) => ([3, 4, 5].includes(i) ? ' ---: ' : ' --- ')).join('|')}|`,
    ...report.rows.map((r) => `| ${cells(report, r, notes).map(mdEscape).join(' | ')} |`),
    '',
    tallyLine(report),
    '',
    ...legend(report).map((l) => `- ${l}`),
    '',
    ...(report.server_verdicts.length
      ? [
          '## Server verdicts by engine',
          '',
          `Ratio ${report.server_verdicts[0].ratio}; same = both engines find the same direction, or both find no difference.`,
          '',
          `| ${verdictHead(report).map(mdEscape).join(' | ')} |`,
          `|${verdictHead(report).map(() => ' --- ').join('|')}|`,
          ...report.server_verdicts.map((v) => `| ${verdictCells(report, v).map(mdEscape).join(' | ')} |`),
          '',
        ]
      : []),
    '## Notes',
    '',
    ...[...notes].map(([n, i]) => `${i}. ${n}`),
    '',
    '## What each engine\'s latency is',
    '',
    ...basisLines(report).map((l) => `- ${l}`),
    '',
    '## Runs',
    '',
    ...groupLines(report).map((l) => `- ${mdEscape(l)}`),
  ];
  if (report.skipped.length) out.push('', '## Skipped', '', ...report.skipped.map((k) => `- ${k.scenario}: ${k.engine} cannot run it faithfully (${k.reason})`));
  if (report.failures.length) out.push('', '## Failed runs (left out)', '', ...report.failures.map((f) => `- ${f}`));
  if (report.interrupted) out.push('', '**Interrupted:** the comparison covers the trials that finished.');
  return out.join('\n') + '\n';
}

module.exports = { runCrosscheck, rebuildCrosscheck, buildReport, compareServerVerdicts, compareMetric, compareRuns, commonScenarios, definitionNotes, toText, toMarkdown, CROSSCHECK_METRICS, BUILTIN_BASIS };
