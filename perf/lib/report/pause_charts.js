'use strict';
// The charts of one run's (or one ramp step's) response times over time with the server's
// pauses shaded behind them (results.json runtime.pauses, perf/lib/measure/runtime_events.js
// pauseMarks, on the samples' clock): which of a ramp's steps get one (failedSteps), which run
// of a scenario stands for each server (timelineRuns), and the chart itself (pauseChart).
// Pure: index.js reads the samples and renders.

const { ROLE } = require('../measure/samples');
const { GC_MARK_MS, MAX_MARKS } = require('../measure/runtime_events');
const { PERCENTILES } = require('../measure/stats');
const { percentileResolved } = require('../rule/compare');
const { tooFewText } = require('../text/verdict_notes');
const { causeText } = require('../text/runtime');
const { fmtNumber } = require('../text/format');
const { pauseTimelineSpec, PAUSE_CHART_WIDTH, PAUSE_CHART_HEIGHT } = require('./chart_specs');
const { wrapText } = require('./text_metrics');

/**
 * Above this many requests a chart draws only the slowest this many: each dot is an SVG
 * element (tens of bytes), and a tail against its pauses is about the slow requests.
 */
const MAX_DOTS = 20000;
/** A pause is drawn at least this wide (px): a 1 ms GC in a 10 s step is a twentieth of one. */
const MIN_BAND_PX = 2;
/** Dots on the same cell this many px square are drawn once (onePerCell). */
const CELL_PX = 3;
/** The title's and subtitle's type sizes (chart_specs.js CONFIG), and the width their lines wrap at (the plot's and its axis'). */
const TITLE_PX = 15;
const SUBTITLE_PX = 12;
const TEXT_WIDTH = PAUSE_CHART_WIDTH + 60;
/** Response times are drawn on a log axis: the floor for a 0 ms reading (as aggregate.js). */
const MIN_MS = 0.001;

const round = (x, digits) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * The requests a chart of these samples is about, as keep(i): a slow-client scenario's fast
 * probe where there is one (the slow clients' transfers take seconds by design), else every
 * request but the slow clients'.
 */
function latencyKeep(samples) {
  let probes = false;
  for (let i = 0; i < samples.n && !probes; i++) probes = samples.role[i] === ROLE.probe;
  return probes ? (i) => samples.role[i] === ROLE.probe : (i) => samples.role[i] !== ROLE.slow;
}

/**
 * The requests to draw: those passing keep(i), or when there are more than max the max
 * slowest (failed ones by the time they took to fail). { index (sample indices, in time
 * order), total (requests kept), answered (of them, replied to), thresholdMs (the fastest drawn
 * where some were left out, else null) }.
 */
function slowestRequests(samples, keep, max = MAX_DOTS) {
  const kept = [];
  let answered = 0;
  for (let i = 0; i < samples.n; i++) {
    if (!keep(i)) continue;
    kept.push(i);
    if (samples.status[i] !== 0) answered++;
  }
  const byTime = (list) => list.sort((a, b) => samples.t[a] - samples.t[b]);
  if (kept.length <= max) return { index: byTime(kept), total: kept.length, answered, thresholdMs: null };
  const sorted = Float64Array.from(kept, (i) => samples.ms[i]).sort();
  const thresholdMs = sorted[sorted.length - max];
  // Every request slower than the threshold, then as many at it as there is room for.
  const slower = kept.filter((i) => samples.ms[i] > thresholdMs);
  const at = kept.filter((i) => samples.ms[i] === thresholdMs).slice(0, max - slower.length);
  return { index: byTime([...slower, ...at]), total: kept.length, answered, thresholdMs };
}

/**
 * The dots of values ([{ t_s, ms, ok }], time order) that fall on distinct cells of CELL_PX on
 * the plot (x over [0, spanS], y the log of ms over the values' decades): a dot is 3 px wide,
 * so one drawn over another on the same cell adds bytes and nothing to see. Failed requests (×)
 * are all kept. Returns the values kept, in time order.
 */
function onePerCell(values, spanS, height = PAUSE_CHART_HEIGHT) {
  const logs = values.map((v) => Math.log10(v.ms));
  const lo = logs.reduce((a, b) => Math.min(a, b), Infinity);
  const decades = Math.max(1, logs.reduce((a, b) => Math.max(a, b), -Infinity) - lo);
  const cellS = (spanS * CELL_PX) / PAUSE_CHART_WIDTH;
  const cellDecades = (decades * CELL_PX) / height;
  const seen = new Set();
  return values.filter((v, k) => {
    if (!v.ok) return true;
    const cell = `${Math.floor(v.t_s / cellS)},${Math.floor((logs[k] - lo) / cellDecades)}`;
    if (seen.has(cell)) return false;
    seen.add(cell);
    return true;
  });
}

/** runtime.pauses as the chart's bands: a kind of PAUSE_BANDS, clipped to [0, spanS] and at least minS wide. */
function pauseRows(pauses, spanS, minS) {
  const band = (p) => (p.kind === 'stall' ? 'loop stall' : p.gc === 'major' ? 'major GC' : 'minor or other GC');
  return (pauses || [])
    .filter((p) => p.to_ms > 0 && p.from_ms / 1000 < spanS)
    .map((p) => {
      const x0 = Math.max(0, p.from_ms / 1000);
      return { band: band(p), from_ms: p.from_ms, to_ms: p.to_ms, x0_s: round(x0, 6), x1_s: round(Math.min(spanS, Math.max(p.to_ms / 1000, x0 + minS)), 6) };
    });
}

/** "Shaded: the GC's work of 1 ms or more (2 major, 30 minor or other) and the loop's stalls of 5 ms or more (4)". */
function shadedText(runtime, rows) {
  if (!runtime) return 'No runtime events: the server records none, so no pauses are shaded.';
  const count = (band) => rows.filter((r) => r.band === band).length;
  const gc = `${count('major GC')} major, ${count('minor or other GC')} minor or other`;
  const most = (runtime.pauses || []).length >= MAX_MARKS ? ` (at most the ${MAX_MARKS} longest of each)` : '';
  const where = runtime.gc_position === 'heartbeat' ? ` Ruby times no single collection: its GC is placed at the end of the ${runtime.heartbeat_ms} ms heartbeat it fell in.` : '';
  return `Shaded: the GC's work of ${GC_MARK_MS} ms or more (${gc}) and the loop's stalls of ${runtime.loop.stall_ms} ms or more (${count('loop stall')})${most}, each at least ${MIN_BAND_PX} px wide.${where}`;
}

/** What the dots are: every request, or the slowest of them and from what time up. */
function dotsText(drawn) {
  const crowd = `one dot for the requests on the same ${CELL_PX} px; × = a request that failed.`;
  if (drawn.thresholdMs === null) return `Every request drawn, ${crowd}`;
  return `Only the ${fmtNumber(drawn.index.length, 'count')} slowest of ${fmtNumber(drawn.total, 'count')} requests are drawn (every one of ${fmtNumber(drawn.thresholdMs)} ms or more), ${crowd}`;
}

/**
 * The rules across the plot: the objective ({ percentile, ms }) and the run's own percentile
 * (measuredMs) where its replies (n) resolve it; each labelled above its line, or below where
 * the other lies just above. Returns { rules, unresolved (why the run's is not drawn, or null) }.
 */
function ruleRows(objective, measuredMs, n, what) {
  const { percentile } = objective;
  const q = PERCENTILES[percentile] / 100;
  const rules = [{ kind: 'objective', ms: objective.ms, label: `objective ${percentile} ≤ ${objective.ms} ms`, above: true }];
  if (!Number.isFinite(measuredMs)) return { rules, unresolved: null };
  if (!percentileResolved(n, q)) return { rules, unresolved: `No line for the ${what}'s ${percentile}: ${tooFewText(n, q)}.` };
  rules.push({ kind: 'measured', ms: measuredMs, label: `this ${what}'s ${percentile}: ${fmtNumber(measuredMs)} ms` });
  // The lower label goes under its line, so that two close lines keep their labels apart.
  const lower = measuredMs < objective.ms ? rules[1] : rules[0];
  for (const r of rules) r.above = r !== lower || Math.abs(Math.log10(measuredMs / objective.ms)) > 0.15;
  return { rules, unresolved: null };
}

/**
 * One chart description (as index.js renders them: name, kind, title, caption, spec, rows,
 * servers) of a run's or step's samples and runtime: the requests over time (slowestRequests,
 * onePerCell), the objective ({ percentile, ms }) a solid rule, the run's own percentile
 * (measuredMs) a dashed one, the pauses shaded; the subtitle the headline (e.g. why the step
 * failed) and what the tail above the objective's percentile coincided with (causeText).
 * what: 'step' or 'run', for the words.
 */
function pauseChart({ name, server, title, headline = null, samples, runtime, objective, measuredMs = null, what = 'run' }) {
  const drawn = slowestRequests(samples, latencyKeep(samples));
  const lastSent = drawn.index.length ? samples.t[drawn.index[drawn.index.length - 1]] : 0;
  const lastPause = Math.max(0, ...((runtime && runtime.pauses) || []).map((p) => p.to_ms));
  const spanS = Math.max(lastSent, lastPause, 1) / 1000;
  const values = onePerCell(drawn.index.map((i) => ({ server, t_s: round(samples.t[i] / 1000, 4), ms: round(Math.max(MIN_MS, samples.ms[i]), 4), ok: samples.status[i] !== 0 })), spanS);
  const pauses = pauseRows(runtime && runtime.pauses, spanS, (spanS * MIN_BAND_PX) / PAUSE_CHART_WIDTH);
  const { percentile } = objective;
  const { rules, unresolved } = ruleRows(objective, measuredMs, drawn.answered, what);

  const cause = causeText(runtime, percentile);
  const wrap = (text) => wrapText(text, TEXT_WIDTH, SUBTITLE_PX);
  const subtitle = [
    ...(headline ? wrap(headline) : []),
    ...(cause ? wrap(`${percentile}: ${cause}.`) : []),
    ...wrap(shadedText(runtime, pauses)),
    ...wrap(dotsText(drawn)),
    ...(unresolved ? wrap(unresolved) : []),
  ];
  const which = drawn.thresholdMs === null
    ? 'every request'
    : `the ${fmtNumber(drawn.index.length, 'count')} slowest of its ${fmtNumber(drawn.total, 'count')} requests (every one of ${fmtNumber(drawn.thresholdMs)} ms or more; the faster ones are left out, since the tail is what the pauses may explain)`;
  const caption = `Response time of ${which} of the ${what}, by when it was sent, over the server's pauses in the same window: GC work dark purple where it was a major collection, light purple for the rest, loop stalls sand. A request that waited through a pause sits over its band. The solid rule is the objective (${percentile} ≤ ${objective.ms} ms)${rules.length > 1 ? `, the dashed one the ${what}'s own ${percentile}` : ''}. Dots that would cover one another on the same ${CELL_PX} px are drawn once (${fmtNumber(values.length, 'count')} drawn).`;
  return {
    name,
    kind: 'pauses',
    title,
    caption,
    spec: pauseTimelineSpec({ server, title, titleLines: wrapText(title, TEXT_WIDTH, TITLE_PX, true), subtitle, values, pauses, rules, xTitle: `time since the start of the ${what} (s)`, spanS }),
    rows: [...pauses.map((p) => ({ what: 'pause', band: p.band, from_ms: p.from_ms, to_ms: p.to_ms })), ...values.map((v) => ({ what: 'request', t_s: v.t_s, ms: v.ms, ok: v.ok }))],
    servers: [server],
    drawn: { dots: values.length, slowest: drawn.index.length, total: drawn.total, thresholdMs: drawn.thresholdMs },
  };
}

/**
 * The ramp steps to draw: of each search that saturated, the step that decided it (the last
 * measured at its failing rate), where it kept its samples (samples_file): [{ ramp (its index),
 * server, search (from 1), step (from 1 in its search), entry (the step) }]. The other failed
 * steps keep theirs in the folder; one chart a search keeps the report readable.
 */
function failedSteps(ramps, servers) {
  if (!ramps) return [];
  const out = [];
  ramps.ramps.forEach((ramp, r) => {
    for (const server of servers.filter((s) => ramp.servers[s])) {
      ramp.servers[server].searches.forEach((search, s) => {
        if (!search.saturated) return;
        const k = search.steps.map((st) => st.rate === search.failing_rps && Boolean(st.failure)).lastIndexOf(true);
        if (k >= 0 && search.steps[k].samples_file) out.push({ ramp: r, server, search: s + 1, step: k + 1, entry: search.steps[k] });
      });
    }
  });
  return out;
}

/**
 * The run of a scenario drawn for each server with --timeline: its last trial (or round) with
 * samples (hasSamples(run)), of those a verdict may use where there are any, else of the finished
 * ones: one run a chart, since each run has its own pauses. [{ server, run }].
 */
function timelineRuns(results, scenario, hasSamples) {
  const out = [];
  for (const server of results.servers) {
    const runs = results.runs.filter((r) => r.scenario === scenario && r.server === server && r.ok && hasSamples(r));
    const usable = runs.filter((r) => r.usable && !r.superseded);
    const run = (usable.length ? usable : runs).at(-1);
    if (run) out.push({ server, run });
  }
  return out;
}

module.exports = { pauseChart, slowestRequests, onePerCell, pauseRows, ruleRows, failedSteps, timelineRuns, latencyKeep, MAX_DOTS, MIN_BAND_PX };
