'use strict';
// Cross-check: the same scenarios, on the same servers, measured by two load generators
// (e.g. the built-in engines and httperf), N trials each, interleaved (trial 1 of every
// engine, then trial 2, … with the engines' order alternating), then, per server, scenario
// and metric: do the engines agree, beyond what the trials' own spread explains?
//
// Per metric, with each engine's N trial values: the ratio B / A of their geometric means
// with Welch's 95% interval on the log scale (perf/lib/rule/confidence.js compareTrials), and
// the project's three answers (perf/lib/rule/answer.js) as the verdict, a code that
// perf/lib/text/crosscheck_format.js puts in words:
//   agree               the whole interval lies within the margin: an equivalence test
//   differ              the interval excludes 1
//   undecided           neither: the interval holds 1 and reaches past the margin
//   (resolution)        after either of the first and the last: the interval was widened to the
//                       coarser engine's printed resolution (httperf prints times in steps of
//                       0.1 ms; server CPU is counted in clock ticks, proc_stats clkTck)
//   agree: identical    the same values on both sides, every trial (zero errors, say)
//   n/a                 one engine does not measure it
//   too_few_trials      fewer than two usable trials on a side
// Where the engines define a metric differently (perf/ENGINES.md), the row says so in a note's
// code: a "differ" there may be the definition, not the server.
//
// This module holds the agreement statistics and the comparison document; running the trials
// is perf/lib/studies/crosscheck_run.js, and its text and Markdown perf/lib/text/crosscheck_format.js.

const path = require('node:path');
const { METRICS } = require('../rule/metrics');
const { summarizeTrials, compareTrials } = require('../rule/confidence');
const { RESOLUTION_MS: HTTPERF_RESOLUTION_MS } = require('../engines/httperf');
const { clkTck } = require('../measure/proc_stats');
const { decide, relate, withinMargin } = require('../rule/answer');
const { DEFAULT_MARGIN } = require('../method');

/** An interval of B / A as the verdict on the engines' agreement (see the top of this file). */
function agreementOf(ci, margin, widened) {
  const decision = decide(ci, margin);
  if (decision === 'winner') return 'differ';
  const code = decision === 'same' ? 'agree' : 'undecided';
  return widened ? `${code} (resolution)` : code;
}


/**
 * The built-in engines, whose latency text/crosscheck_format.js describes (an external engine
 * records its own in latency_basis).
 */
const BUILTIN_ENGINES = ['autocannon', 'sequential', 'open_loop', 'constant_rate', 'rate_client', 'slow_clients'];

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
 * The metrics compared: the shared ones (perf/lib/rule/metrics.js) and what only the agreement of two
 * engines needs (halfStep() says how precisely each engine reports them); their labels are
 * perf/lib/text/crosscheck_format.js's.
 */
const CROSSCHECK_METRICS = [
  { key: 'throughput_rps', get: METRICS.throughput_rps.get },
  { key: 'mean_ms', latency: true, get: METRICS.mean_ms.get },
  // The open-loop engine counts from the scheduled start; without its mean schedule lag, its
  // mean counts from the actual start of the connection, as httperf's does. Shown only for
  // open-loop runs.
  { key: 'mean_ms_from_actual_start', latency: true, onlyIf: (r) => r.engine === 'open_loop', get: meanFromActualStart },
  { key: 'p50_ms', latency: true, get: METRICS.p50_ms.get },
  { key: 'p90_ms', latency: true, get: (r) => r.latency_ms && r.latency_ms.p90 },
  { key: 'p99_ms', latency: true, get: METRICS.p99_ms.get },
  { key: 'max_ms', latency: true, get: (r) => r.latency_ms && r.latency_ms.max },
  { key: 'connect_ms', latency: true, get: (r) => r.connect_ms && r.connect_ms.mean },
  { key: 'cpu_ms_per_request', cpu: true, get: METRICS.cpu_ms_per_request.get },
  { key: 'errors', count: true, get: errorTotal },
  { key: 'client_cpu_pct', info: true, get: (r) => r.client_cpu_pct },
].map((m) => ({ ...m, get: (r) => num(m.get(r)) }));

function num(x) {
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

/**
 * How far from the truth run r's value of metric m can be from the way it is reported alone
 * (half a printed step): httperf prints ms with one decimal (±0.05 ms), wrk two decimals of its
 * unit (±0.005 ms for times in ms), the built-in engines are exact (µs); server CPU comes from
 * /proc clock ticks (clkTck), read before and after the run for user and system time (±2 ticks over
 * the run's replies).
 */
function halfStep(m, r) {
  if (m.latency) {
    if (r.engine === 'httperf') return HTTPERF_RESOLUTION_MS / 2;
    if (r.engine === 'wrk') return 0.005;
    return 0.0005;
  }
  if (m.cpu) return r.replies > 0 ? (2 * 1000) / clkTck() / r.replies : 0;
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

/** What a run's latency is counted from, as a key: two runs that count it alike have the same. */
function basisOf(run) {
  return run.latency_basis || run.engine;
}

/**
 * Definitional differences between how engine A's run and engine B's run measure metric m:
 * a list of notes' codes (empty when they measure the same thing the same way), which
 * perf/lib/text/crosscheck_format.js puts in words.
 */
function definitionNotes(m, a, b) {
  const notes = [];
  const engines = [a.engine, b.engine];
  const has = (e) => engines.includes(e);
  const oneRequestPerConn = a.params && (a.params.kind === 'open' ? a.params.requests_per_connection === 1 : a.params.keep_alive === false);
  if (m.latency && m.key !== 'connect_ms' && basisOf(a) !== basisOf(b)) {
    if (has('httperf') && oneRequestPerConn) notes.push('httperf_connection_time');
    else if (has('httperf')) notes.push('httperf_reply_time');
    if (has('open_loop') && m.key !== 'mean_ms_from_actual_start') notes.push('open_loop_scheduled_start');
    if (has('open_loop') && m.key === 'mean_ms_from_actual_start') notes.push('open_loop_lag_removed');
    if (has('sequential')) notes.push('sequential_from_open');
    if (has('wrk')) notes.push('wrk_fill_in');
    if (has('tsung')) notes.push('tsung_from_ready');
  }
  if (m.key === 'connect_ms' && has('httperf')) notes.push('httperf_connect_time');
  if (has('httperf') && oneRequestPerConn && (m.latency || m.cpu)) {
    notes.push('httperf_closes');
  }
  if (has('wrk') && a.params && a.params.keep_alive === false && (m.latency || m.cpu)) {
    notes.push('wrk_closes');
  }
  const bigReplies = [a, b].some((r) => r.engine === 'httperf' && r.engine_totals && r.engine_totals.reply_size_b && r.engine_totals.reply_size_b.total > 16384);
  if (bigReplies && (m.key === 'throughput_rps' || m.cpu || m.latency)) {
    notes.push('httperf_recv_buffer');
  }
  if (m.key === 'errors' && has('httperf')) notes.push('httperf_errors_per_connection');
  if (m.key === 'errors' && has('wrk')) notes.push('wrk_errors');
  if (m.key === 'throughput_rps' && a.params && a.params.kind === 'open') notes.push('open_loop_rate_set');
  if (has('tsung') && a.params && a.params.kind === 'open' && (m.latency || m.key === 'throughput_rps')) notes.push('tsung_poisson');
  if (has('tsung') && m.key === 'client_cpu_pct') notes.push('tsung_agents');
  if (m.key === 'client_cpu_pct') {
    if (has('httperf')) notes.push('httperf_busy_polls');
    if (engines.some((e) => BUILTIN_ENGINES.includes(e))) notes.push('builtin_runner_cpu');
  }
  return notes;
}

/** Plain mean of the finite values (for counts and for showing zeros, which logs cannot). */
function plainMean(values) {
  const v = values.filter((x) => x !== null);
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
}

/**
 * Compares one metric between engine A's and engine B's runs (trials) of one server and
 * scenario. Returns a row: { metric, a: {...}, b: {...}, ratio (B/A), ci95, significant,
 * verdict, notes (codes: definitionNotes, or { code, … } with what the words need) }.
 */
function compareMetric(m, runsA, runsB, margin = DEFAULT_MARGIN) {
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
  const row = { metric: m.key, a, b, ratio: null, ci95: null, significant: null, verdict: null, notes: [] };
  if (runsA[0] && runsB[0]) row.notes = definitionNotes(m, runsA[0], runsB[0]);
  if (a.n === 0 || b.n === 0) {
    row.verdict = 'n/a';
    row.notes = [a.n === 0 && b.n === 0 ? 'measured_by_neither' : { code: 'not_measured_by', engine: a.n === 0 ? a.engine_run : b.engine_run }];
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
  const identical = va.length > 0 && [...va, ...vb].every((v) => v === va[0]);
  if (identical) row.verdict = 'agree: identical';
  else if (cmp) row.verdict = agreementOf(cmp.ci95, margin, cmp.widened);
  else if (va.length < 2 || vb.length < 2) row.verdict = 'too_few_trials';
  else {
    // Zeros (no errors, httperf's "0.0 ms") cannot go on a log scale: compare the ranges,
    // each value widened by its reporting step.
    const apart = Math.max(...va) + a.half_step < Math.min(...vb) - b.half_step || Math.max(...vb) + b.half_step < Math.min(...va) - a.half_step;
    row.verdict = apart ? 'differ' : 'undecided';
    row.notes = ['compared_by_ranges', ...row.notes];
  }
  return row;
}

/** The rows for one server and scenario (metrics neither engine measures are left out). */
function compareRuns(runsA, runsB, margin = DEFAULT_MARGIN) {
  return CROSSCHECK_METRICS.filter((m) => !m.onlyIf || [...runsA, ...runsB].some(m.onlyIf))
    .map((m) => compareMetric(m, runsA, runsB, margin))
    .filter((r) => r.a.n > 0 || r.b.n > 0);
}

/**
 * How two engines' answers about the servers relate: perf/lib/rule/answer.js relate's code,
 * or 'cannot_tell' (an engine without an interval).
 */
function answersRelate(a, b, margin) {
  if (!a.decision || !b.decision) return 'cannot_tell';
  // A winner's side: the server its ratio favours; clear: the factor's lower bound beyond the margin.
  const asAnswer = (x) => {
    const factorLow = x.ratio > 1 ? x.ci95[0] : 1 / x.ci95[1];
    return { decision: x.decision, lead: x.ratio > 1 ? 'first' : 'second', clear: !withinMargin([1, factorLow], margin) };
  };
  return relate(asAnswer(a), asAnswer(b));
}

/** The cross-check's metrics (CROSSCHECK_METRICS keys) on which each engine's verdict about the servers is set beside the other's. */
const SERVER_VERDICT_KEYS = ['throughput_rps', 'mean_ms', 'mean_ms_from_actual_start', 'max_ms', 'cpu_ms_per_request'];

/**
 * Do the engines reach the same answer about the servers? For each scenario and metric, each
 * engine's ratio first server / second server with its 95% interval and its answer (winner,
 * same within the margin, undecided: perf/lib/rule/answer.js), and how the two answers
 * relate (answersRelate), plus whether the two intervals overlap.
 */
function compareServerVerdicts({ engines, servers, scenarios, runs, margin = DEFAULT_MARGIN }) {
  const [S1, S2] = servers;
  const out = [];
  for (const scenario of scenarios) {
    const inScenario = runs.filter((r) => r.scenario === scenario && r.ok);
    for (const key of SERVER_VERDICT_KEYS) {
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
        per[e] = cmp ? { ratio: cmp.ratio, ci95: cmp.ci95, significant: cmp.significant, decision: decide(cmp.ci95, margin) } : { ratio: c1 && c2 ? c1 / c2 : null, ci95: null, significant: null, decision: null };
      }
      const [a, b] = engines.map((e) => per[e]);
      if (a.ratio === null && b.ratio === null) continue;
      const agreement = answersRelate(a, b, margin);
      const overlap = a.ci95 && b.ci95 ? a.ci95[0] <= b.ci95[1] && b.ci95[0] <= a.ci95[1] : null;
      out.push({ scenario, metric: key, ratio: `${S1} / ${S2}`, engines: per, agreement, intervals_overlap: overlap, magnitude: a.ratio && b.ratio ? b.ratio / a.ratio : null });
    }
  }
  return out;
}

/**
 * The comparison document from the runs (pure: tests call it with made-up runs), its verdicts
 * and agreements as codes, with the margin they were decided at (last).
 */
function buildReport({ engines, servers, scenarios, repeat, quick, runs, skipped = [], failures = [], interrupted = false, dir = null, margin = DEFAULT_MARGIN }) {
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
        // An external engine's own account of its latency; the built-in ones' are text/'s.
        latency_basis: { [A]: runsA[0] ? runsA[0].latency_basis || null : null, [B]: runsB[0] ? runsB[0].latency_basis || null : null },
        commands: { [A]: runsA[0] ? runsA[0].engine_command || null : null, [B]: runsB[0] ? runsB[0].engine_command || null : null },
      };
      groups.push(group);
      if (!runsA.length || !runsB.length) {
        rows.push({ server, scenario, metric: null, verdict: 'no_data', notes: [{ code: 'ok_trials', trials: { [A]: runsA.length, [B]: runsB.length } }] });
        continue;
      }
      for (const row of compareRuns(runsA, runsB, margin)) rows.push({ server, scenario, ...row });
    }
  }
  const serverVerdicts = servers.length >= 2 ? compareServerVerdicts({ engines, servers, scenarios, runs, margin }) : [];
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
    margin,
  };
}

module.exports = { buildReport, compareMetric, compareRuns, CROSSCHECK_METRICS };
