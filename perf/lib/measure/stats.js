'use strict';
// Statistics of a run's samples. Percentiles come from HdrHistogram (hdr-histogram-js, the
// library autocannon uses) recording microseconds with 3 significant digits, so a percentile
// is within 0.1% of the exact value (it reports the upper edge of its bucket, capped at the
// exact maximum). Count, min, max and mean are exact.

const hdr = require('hdr-histogram-js');
const { ERROR_KINDS } = require('./samples');

const PERCENTILES = { p50: 50, p90: 90, p99: 99, p999: 99.9 };

function mean(values) {
  return values.reduce((s, v) => s + v, 0) / values.length;
}

/** The sample variance (n − 1 in the denominator). */
function variance(values) {
  const m = mean(values);
  return values.reduce((s, v) => s + (v - m) ** 2, 0) / (values.length - 1);
}

function round3(x) {
  return Math.round(x * 1000) / 1000;
}

function newHistogram() {
  return hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 3600 * 1e6, // one hour in µs
    numberOfSignificantValueDigits: 3,
    autoResize: true,
    useWebAssembly: false,
  });
}

// A histogram asked only how wide a value's bucket is (HdrHistogram's own answer).
const BUCKET_WIDTHS = newHistogram();

/**
 * The width, in ms, of the bucket a percentile of `ms` comes from: the step it is known to (1 µs
 * under 2,048 µs, doubling with each octave above). Negligible beside the value itself (0.1 % or
 * less), but not beside a small difference taken from it: 2 ms above a 2,000 ms wait come from
 * 1.024 ms buckets (rule/metrics.js).
 */
function histogramStepMs(ms) {
  return BUCKET_WIDTHS.sizeOfEquivalentValueRange(Math.max(1, Math.round(ms * 1000))) / 1000;
}

/** Latencies in ms recorded: an HdrHistogram of µs, and the exact count, sum, min and max. */
function recordLatencies(valuesMs) {
  const rec = { histogram: newHistogram(), n: 0, sum: 0, min: Infinity, max: -Infinity };
  for (const v of valuesMs) {
    if (!Number.isFinite(v)) continue;
    const x = Math.max(0, v);
    rec.n += 1;
    rec.sum += x;
    if (x < rec.min) rec.min = x;
    if (x > rec.max) rec.max = x;
    rec.histogram.recordValue(Math.max(1, Math.round(x * 1000)));
  }
  return rec;
}

/** Exact-min/max/mean + HdrHistogram percentiles of values in ms; nulls when there are none. */
function latencySummary(valuesMs) {
  return summaryOf(recordLatencies(valuesMs));
}

/** latencySummary of recorded latencies (recordLatencies). */
function summaryOf({ histogram, n, sum, min, max }) {
  const out = { count: n, min: null, mean: null, p50: null, p90: null, p99: null, p999: null, max: null };
  if (n > 0) {
    out.min = round3(min);
    out.mean = round3(sum / n);
    out.max = round3(max);
    for (const [key, p] of Object.entries(PERCENTILES)) {
      out[key] = round3(Math.max(min, Math.min(max, histogram.getValueAtPercentile(p) / 1000)));
    }
  }
  return out;
}

/**
 * How a run's latency histogram is stored in results.json (`latency_histogram`): HdrHistogram's
 * own compressed V2 encoding in base64, as its Java and JavaScript libraries and their plotting
 * tools read it, of the replies' response times in µs, 3 significant digits. Trials and load
 * hosts merge exactly: bucket counts add.
 */
const HISTOGRAM_FORMAT = { encoding: 'HdrHistogram V2 compressed, base64', unit: 'us', significant_digits: 3 };

/** The latency_histogram object of values in ms, or null when there are none. */
function encodeLatencies(valuesMs) {
  return encodeRecorded(recordLatencies(valuesMs));
}

/** encodeLatencies of recorded latencies (recordLatencies). */
function encodeRecorded(rec) {
  return rec.n > 0 ? { ...HISTOGRAM_FORMAT, data: hdr.encodeIntoCompressedBase64(rec.histogram) } : null;
}

/** The HdrHistogram of stored latency_histogram objects, merged (null when there are none). */
function mergeLatencyHistograms(stored) {
  const list = stored.filter(Boolean);
  if (!list.length) return null;
  const merged = newHistogram();
  for (const s of list) {
    if (s.encoding !== HISTOGRAM_FORMAT.encoding || s.unit !== HISTOGRAM_FORMAT.unit) throw new Error(`unknown histogram encoding '${s.encoding}' (${s.unit})`);
    merged.add(hdr.decodeFromCompressedBase64(s.data, 32, false));
  }
  return merged;
}

/** Percentiles (PERCENTILES) of a histogram of µs, in ms: each its bucket's upper edge. */
function histogramPercentiles(histogram) {
  return Object.fromEntries(Object.entries(PERCENTILES).map(([key, p]) => [key, round3(histogram.getValueAtPercentile(p) / 1000)]));
}

function emptyErrors() {
  return Object.fromEntries(ERROR_KINDS.map((k) => [k, 0]));
}

function emptyStatus() {
  return { '1xx': 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
}

/** Indices of the samples with the given role (all when role is null). */
function selectRows(samples, role) {
  const rows = [];
  for (let i = 0; i < samples.length; i++) if (role === null || samples.roleName(i) === role) rows.push(i);
  return rows;
}

/**
 * Summary of samples (optionally of one role): requests, replies, errors by kind, status
 * classes, latency of replies, connect time of new connections, first start / last end (ms).
 * Requests = replies + errors; 'cut' rows (engine-ended slow transfers) count in neither.
 */
function summarizeSamples(samples, { role = null, rows = null } = {}) {
  const indices = rows || selectRows(samples, role);
  const errors = emptyErrors();
  const status = emptyStatus();
  const latencies = [];
  const connects = [];
  let replies = 0;
  let cut = 0;
  let firstStart = Infinity;
  let lastEnd = -Infinity;
  for (const i of indices) {
    const kind = samples.errorKind(i);
    if (kind === 'cut') {
      cut += 1;
      continue;
    }
    const t = samples.t[i];
    const end = t + samples.latency[i];
    if (t < firstStart) firstStart = t;
    if (end > lastEnd) lastEnd = end;
    if (!Number.isNaN(samples.connect[i])) connects.push(samples.connect[i]);
    if (kind) {
      errors[kind] += 1;
      continue;
    }
    replies += 1;
    const cls = `${Math.floor(samples.status[i] / 100)}xx`;
    if (cls in status) status[cls] += 1;
    latencies.push(samples.latency[i]);
  }
  const errorTotal = Object.values(errors).reduce((a, b) => a + b, 0);
  const recorded = recordLatencies(latencies);
  const lat = summaryOf(recorded);
  const con = latencySummary(connects);
  delete lat.count;
  return {
    requests: replies + errorTotal,
    replies,
    errors,
    status,
    cut,
    latency_ms: lat,
    latency_histogram: encodeRecorded(recorded),
    connect_ms: { mean: con.mean, p99: con.p99 },
    first_start_ms: Number.isFinite(firstStart) ? round3(firstStart) : null,
    last_end_ms: Number.isFinite(lastEnd) ? round3(lastEnd) : null,
  };
}

/** The median of the finite numbers of xs (the mean of the middle two of an even count), or null for none. */
function median(xs) {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!v.length) return null;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/**
 * The least-squares line through points ({ x, y }): { slope, base (its value at x = 0), mx (the
 * mean x), sxx (the sum of squared deviations of x) }, or null where the x's do not differ.
 */
function leastSquares(points) {
  const n = points.length;
  if (n === 0) return null;
  const mx = points.reduce((t, p) => t + p.x, 0) / n;
  const my = points.reduce((t, p) => t + p.y, 0) / n;
  const sxx = points.reduce((t, p) => t + (p.x - mx) ** 2, 0);
  if (!(sxx > 0)) return null;
  const sxy = points.reduce((t, p) => t + (p.x - mx) * (p.y - my), 0);
  const slope = sxy / sxx;
  return { slope, base: my - slope * mx, mx, sxx };
}

module.exports = { mean, variance, leastSquares, median, latencySummary, summarizeSamples, encodeLatencies, mergeLatencyHistograms, histogramPercentiles, histogramStepMs, selectRows, round3, PERCENTILES };
