'use strict';
// Turns per-request samples into what the charts draw: a percentile curve, per-request points
// (small runs) or per-interval p50/p99/max bands (large runs), and merged activity periods.
// Everything here is bounded in output size, whatever the number of requests.

const { ROLE } = require('../measure/samples');
const { percentileResolved, MIN_TAIL_SAMPLES } = require('../rule/compare');

/** Response times are drawn on log axes; this is the floor for a 0 ms reading. */
const MIN_MS = 0.001;

/** The percentiles that get a point on the curve: 0 %, 50 %, 90 %, 99 %, 99.9 %, 99.99 %. */
const MARKERS = new Set([1, 2, 10, 100, 1000, 10000]);

/** Percentile of an ascending-sorted array (nearest rank, like HdrHistogram). q in [0, 1]. */
function quantileSorted(sorted, q) {
  const n = sorted.length;
  if (n === 0) return NaN;
  // The tolerance keeps q × n = 200.00000000000003 (q = 2/3, n = 300) at rank 200.
  const rank = Math.min(n - 1, Math.max(0, Math.ceil(q * n - 1e-9) - 1));
  return sorted[rank];
}

/** Sorted response times of the samples that pass `keep(i)` (default: all answered ones). */
function sortedLatencies(s, keep = (i) => s.status[i] !== 0) {
  let count = 0;
  for (let i = 0; i < s.n; i++) if (keep(i)) count++;
  const out = new Float64Array(count);
  let j = 0;
  for (let i = 0; i < s.n; i++) if (keep(i)) out[j++] = s.ms[i];
  return out.sort();
}

/** The highest percentile n requests resolve, as the axis' x = 1/(1 − p) (n × (1 − p) ≥ MIN_TAIL_SAMPLES). */
function resolvedX(n) {
  return n / MIN_TAIL_SAMPLES;
}

/**
 * HdrHistogram-style percentile curve: points at p = 1 - 10^-k, in steps of 1/20 decade, from
 * 0 % up to the highest percentile the data resolves (percentileResolved, perf/lib/rule/compare.js)
 * and at most 99.99 %. `x` = 1/(1-p) is what the log axis plots. When the data stops the curve
 * short of 99.99 %, the last point is that percentile exactly, flagged `end`: the chart marks
 * where the curve ends rather than drawing the slowest request as "99 %". Fewer than
 * MIN_TAIL_SAMPLES requests resolve no percentile at all: no points.
 */
function percentileCurve(sorted, options = {}) {
  return curveOf(sorted.length, (p) => quantileSorted(sorted, p), options);
}

/**
 * The same curve from an HdrHistogram of µs (the runs' stored latency_histogram, merged over
 * trials: perf/lib/measure/stats.js mergeLatencyHistograms): each percentile is its bucket's upper
 * edge, as HdrHistogram's own plots read it, within 0.1 % of the exact value.
 */
function percentileCurveFromHistogram(histogram, options = {}) {
  return curveOf(histogram.totalCount, (p) => histogram.getValueAtPercentile(100 * p) / 1000, options);
}

/** The points of a curve of n requests, quantile(p) giving the time at p (0–1). */
function curveOf(n, quantile, { maxNines = 4, stepsPerDecade = 20 } = {}) {
  if (!percentileResolved(n, 0)) return [];
  const xMax = Math.min(10 ** maxNines, resolvedX(n));
  const xs = [];
  for (let i = 0; 10 ** (i / stepsPerDecade) <= xMax * (1 + 1e-9); i++) xs.push(round(10 ** (i / stepsPerDecade), 6));
  if (xMax >= 2) xs.push(2);
  const cut = xMax < 10 ** maxNines;
  if (cut) xs.push(round(xMax, 6));
  return [...new Set(xs)].sort((a, b) => a - b).map((x) => {
    const p = 1 - 1 / x;
    return { percentile: round(100 * p, 4), x, ms: Math.max(MIN_MS, quantile(p)), marker: MARKERS.has(x), end: cut && x === round(xMax, 6) };
  });
}

/** The same curve from a run's summary percentiles (n requests), when there are no samples. */
function percentileCurveFromSummary(lat, n) {
  if (!lat) return [];
  const pts = [
    ['min', 0, 1], ['p50', 50, 2], ['p90', 90, 10], ['p99', 99, 100], ['p999', 99.9, 1000],
  ];
  return pts
    .filter(([k, percentile]) => Number.isFinite(lat[k]) && percentileResolved(n, percentile / 100))
    .map(([k, percentile, x]) => ({ percentile, x, ms: Math.max(MIN_MS, lat[k]), marker: true, end: false }));
}

/** A round interval width (ms) that cuts `spanMs` into about `target` intervals. */
function pickBinWidth(spanMs, target = 150) {
  const raw = Math.max(spanMs, 1) / target;
  const steps = [1, 2, 5];
  let scale = 10 ** Math.floor(Math.log10(raw));
  for (;;) {
    for (const s of steps) if (s * scale >= raw) return s * scale;
    scale *= 10;
  }
}

/**
 * Per-interval statistics of the samples passing `keep(i)`, by start time:
 * [{t0_s, t1_s, n, errors, p50, p99, max}] (intervals without requests are left out). p99 is
 * null where the interval's replies do not resolve one (percentileResolved: fewer than
 * MIN_TAIL_SAMPLES above it), as everywhere in the report.
 */
function intervalBands(s, binMs, keep = () => true) {
  const buckets = new Map();
  for (let i = 0; i < s.n; i++) {
    if (!keep(i)) continue;
    const b = Math.floor(s.t[i] / binMs);
    let bucket = buckets.get(b);
    if (!bucket) { bucket = { ms: [], errors: 0 }; buckets.set(b, bucket); }
    if (s.status[i] === 0) bucket.errors++;
    else bucket.ms.push(s.ms[i]);
  }
  const out = [];
  for (const b of [...buckets.keys()].sort((x, y) => x - y)) {
    const { ms, errors } = buckets.get(b);
    const sorted = Float64Array.from(ms).sort();
    out.push({
      t0_s: round((b * binMs) / 1000, 6),
      t1_s: round(((b + 1) * binMs) / 1000, 6),
      n: ms.length + errors,
      errors,
      p50: sorted.length ? Math.max(MIN_MS, quantileSorted(sorted, 0.5)) : null,
      p99: sorted.length && percentileResolved(sorted.length, 0.99) ? Math.max(MIN_MS, quantileSorted(sorted, 0.99)) : null,
      max: sorted.length ? Math.max(MIN_MS, sorted[sorted.length - 1]) : null,
    });
  }
  return out;
}

/** One point per request passing `keep(i)`: [{t_s, ms, ok}]. */
function requestPoints(s, keep = () => true) {
  const out = [];
  for (let i = 0; i < s.n; i++) {
    if (!keep(i)) continue;
    out.push({ t_s: round(s.t[i] / 1000, 4), ms: round(Math.max(MIN_MS, s.ms[i]), 4), ok: s.status[i] !== 0 });
  }
  return out;
}

/** Union of intervals, sorted: [{start_ms, end_ms}] with no overlaps. */
function mergePeriods(periods) {
  const sorted = periods.filter((p) => p.end_ms >= p.start_ms).sort((a, b) => a.start_ms - b.start_ms);
  const out = [];
  for (const p of sorted) {
    const last = out[out.length - 1];
    if (last && p.start_ms <= last.end_ms) last.end_ms = Math.max(last.end_ms, p.end_ms);
    else out.push({ start_ms: p.start_ms, end_ms: p.end_ms });
  }
  return out;
}

/** Slow clients' active periods as the run records them (slow_clients.active_periods), or null. */
function recordedPeriods(run) {
  const list = run.slow_clients && run.slow_clients.active_periods;
  return Array.isArray(list) ? list.map((p) => ({ start_ms: p.start_ms, end_ms: p.end_ms })) : null;
}

/** Slow clients' activity from their own samples: each request is active from start to reply. */
function slowPeriodsFromSamples(s) {
  const periods = [];
  for (let i = 0; i < s.n; i++) if (s.role[i] === ROLE.slow) periods.push({ start_ms: s.t[i], end_ms: s.t[i] + s.ms[i] });
  return mergePeriods(periods);
}

/** Counts per role, and the span of start times (ms). */
function describe(s) {
  const roles = { request: 0, probe: 0, slow: 0 };
  let errors = 0;
  let tMax = 0;
  for (let i = 0; i < s.n; i++) {
    if (s.role[i] === ROLE.probe) roles.probe++;
    else if (s.role[i] === ROLE.slow) roles.slow++;
    else roles.request++;
    if (s.status[i] === 0) errors++;
    const end = s.t[i] + s.ms[i];
    if (end > tMax) tMax = end;
  }
  return { n: s.n, roles, errors, spanMs: tMax };
}

function round(x, digits) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

module.exports = {
  sortedLatencies,
  percentileCurve,
  percentileCurveFromHistogram,
  percentileCurveFromSummary,
  pickBinWidth,
  intervalBands,
  requestPoints,
  mergePeriods,
  recordedPeriods,
  slowPeriodsFromSamples,
  describe,
  round,
};
