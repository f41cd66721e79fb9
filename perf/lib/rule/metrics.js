'use strict';
// The metrics every output judges and shows, and what a verdict on one answers: the one home of
// their keys, units and directions (their names in words: perf/lib/text/metric_words.js). The
// verdicts themselves are decided by the verdict rule (./compare.js) when a reader judges a run;
// answerOf gives each its answer as data, which perf/lib/text/verdict_words.js puts in words
// for every output.

const { histogramStepMs } = require('../measure/stats');

/**
 * The rounding step of a run's latency `key`: the engine's (httperf prints 0.1 ms), else, for a
 * percentile of the built-in engines' histograms, the width of its bucket (about 0.1 % of the
 * whole latency: what matters once a wait of N ms is taken from it); null for the mean, which
 * is exact.
 */
const latencyStep = (key) => (r) => {
  if (r.engine_latency) return r.engine_latency.resolution_ms;
  const whole = key !== 'mean' && r.latency_ms ? r.latency_ms[key] : null;
  return typeof whole === 'number' && whole > 0 ? histogramStepMs(whole) : null;
};

/**
 * Per metric: `unit`; `better`, the direction that wins; `get`, its value in a run. `latency`: a response time; `quantile`/`tail`: a percentile, `tail` when too
 * few requests above it leave it unresolved; `step`: the run's rounding step of the value
 * (verdicts below it are not judged); `rateSet`: a schedule can set it (never judged then);
 * `sizeSet`: the load's size sets it (not judged when a quick run shrank the clients held at once);
 * `paceFree`: the load's pace does not set it, so a run left out only for its pace
 * (perf/lib/rule/reasons.js doubtsPaceOnly) still measures it.
 */
// A request that waits on the server's timer (GET /delay?ms=N: run.above_wait_ms) is judged on
// its latency above the wait, what the server adds: with the N ms inside, every ratio is squeezed
// toward 1 (250 ms of wait make 2 ms against 3 ms "the same within 10 %"). A run without it
// (an older results.json, a request that does not wait) is judged on its whole latency.
const aboveWait = (r, key, whole) => (r.above_wait_ms ? (key === 'mean' ? whole - r.above_wait_ms.wait_ms : r.above_wait_ms[key]) : whole);
const latencyOf = (key) => (r) => r.latency_ms && typeof r.latency_ms[key] === 'number' ? aboveWait(r, key, r.latency_ms[key]) : null;

const METRICS = {
  mean_ms: { unit: 'ms', better: 'lower', latency: true, step: latencyStep('mean'), get: latencyOf('mean') },
  p50_ms: { unit: 'ms', better: 'lower', latency: true, step: latencyStep('p50'), quantile: 0.5, get: latencyOf('p50') },
  p99_ms: { unit: 'ms', better: 'lower', latency: true, step: latencyStep('p99'), quantile: 0.99, tail: true, get: latencyOf('p99') },
  throughput_rps: { unit: 'req/s', better: 'higher', rateSet: true, get: (r) => r.throughput_rps },
  cpu_ms_per_request: { unit: 'ms', better: 'lower', step: (r) => r.server_cpu && r.server_cpu.resolution_ms, get: (r) => r.server_cpu && r.server_cpu.ms_per_request },
  peak_rss_mb: { unit: 'MB', better: 'lower', sizeSet: true, paceFree: true, get: (r) => r.server_peak_rss_mb },
};
const METRIC_NAMES = Object.keys(METRICS);

/** Other names a user (scripts/compare.sh --metric) may give a metric. */
const METRIC_ALIASES = {
  mean: 'mean_ms', p50: 'p50_ms', median: 'p50_ms', p99: 'p99_ms',
  throughput: 'throughput_rps', rps: 'throughput_rps', 'req/s': 'throughput_rps',
  cpu: 'cpu_ms_per_request', ms_per_request: 'cpu_ms_per_request',
  rss: 'peak_rss_mb', peak_rss: 'peak_rss_mb', server_peak_rss_mb: 'peak_rss_mb',
};

/** The metric a name stands for, or null. */
function metricName(name) {
  const key = String(name).trim();
  if (METRICS[key]) return key;
  return METRIC_ALIASES[key.toLowerCase()] || null;
}

/** A run's value of a metric, or null when it has none. */
function metricValue(run, metric) {
  const v = METRICS[metric].get(run);
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * The side of a comparison (./compare.js) that looks better, significant or not, and by
 * what factor, with the interval of that factor: { lead, factor, ci } (ci null without one).
 */
function leadOf(c) {
  if (c.ratio === null || c.ratio === undefined || !Number.isFinite(c.ratio) || c.ratio <= 0) return { lead: null, factor: null, ci: null };
  const m = METRICS[c.metric];
  const lead = (m.better === 'lower' ? c.ratio < 1 : c.ratio > 1) ? c.a : c.b;
  // ratio = a/b: the lead's factor is b/a when a leads at "lower" or b at "higher".
  const invert = (m.better === 'lower') === (lead === c.a);
  const ci = Array.isArray(c.ci95) ? (invert ? [1 / c.ci95[1], 1 / c.ci95[0]] : [c.ci95[0], c.ci95[1]]) : null;
  return { lead, factor: c.ratio >= 1 ? c.ratio : 1 / c.ratio, ci };
}

/**
 * What a stored comparison says, in parts every output renders alike: { kind, lead, factor,
 * ci, why, margin, more }. kind: the stored decision where it has an interval ('winner':
 * lead won; 'same': the same within the margin; 'undecided': neither, more: roughly how many
 * times the measuring so far would decide it; perf/lib/rule/answer.js), else 'no_interval' (a
 * side with one usable trial), 'no_verdict' (not judged whatever the numbers: why), 'excluded'
 * (a side's runs could not be used: why), 'not_measured'; why: the comparison's note, stored
 * words or the judge's code (perf/lib/text/verdict_notes.js noteWords). lead and factor: the better-looking
 * side and by how much, ci its factor's interval (leadOf).
 */
function answerOf(c) {
  if (c.excluded) return { kind: 'excluded', why: c.note, code: c.excluded };
  if (c.no_verdict) return { kind: 'no_verdict', why: c.note, code: c.no_verdict };
  if (c.ratio === null || c.ratio === undefined) return { kind: 'not_measured', why: c.note || { code: 'not_measured' } };
  const { lead, factor, ci } = leadOf(c);
  const parts = { lead, factor, ci, margin: c.margin ?? null };
  // A stored note is its words already; one that does not say why there is no interval gives way to the usual reason.
  const saysWhy = c.note && (typeof c.note !== 'string' || /no interval/.test(c.note));
  if (!ci) return { ...parts, kind: 'no_interval', why: saysWhy ? c.note : { code: 'one_trial', sides: [] } };
  return { ...parts, kind: c.decision, more: c.more_measuring ?? null, fdr: c.fdr ?? null };
}

/** A comparison with its answer (answerOf) beside it, and its winner where the answer has one. */
function withAnswer(c) {
  const answer = answerOf(c);
  return { ...c, winner: answer.kind === 'winner' ? answer.lead : null, answer };
}

module.exports = { METRICS, METRIC_NAMES, metricName, metricValue, leadOf, answerOf, withAnswer };
