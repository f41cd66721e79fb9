'use strict';
// Two results of the runner side by side: per server, scenario and metric, the change from
// run A to run B with its 95% confidence interval (perf/lib/rule/confidence.js compareTrials on B's
// trials against A's: ratio B/A, Welch's t on log values), and whether it is a significant
// regression beyond a threshold. perf/cli/compare.js is the command line over it.
//
// A regression: the interval excludes "no change" (significant) and B is worse than A by more
// than the threshold: for lower-is-better metrics B/A > 1 + t, for throughput A/B > 1 + t.
// The runs the verdicts leave out (failed, client-bound, not judged: perf/lib/rule/compare.js
// usableForVerdict) are left out here too, and so are runs another engine superseded. A metric the verdicts never
// judge (noVerdict: throughput the schedule sets, a p99 with too few requests above it) has no
// change judged here either: no verdict, never better, worse or a regression. Each row's
// verdict is a code with its figures; perf/lib/text/compare_format.js says it.

const { compareTrials, summarizeTrials } = require('../rule/confidence');
const { noVerdict, fewestReplies, isSuperseded, usableForVerdict, notJudgedBecause } = require('../rule/compare');
const { reasonCode } = require('../store/reasons');
const { METRICS, METRIC_NAMES, metricValue, metricName: canonicalMetric } = require('../rule/metrics');

const DEFAULT_METRICS = ['p99_ms', 'mean_ms', 'throughput_rps', 'cpu_ms_per_request'];
const DEFAULT_THRESHOLD_PCT = 10;
// Scenario parameters that do not change the load.
const PARAMS_IGNORED = ['description', 'source', 'file', 'name'];

/** A problem with the input: one line for the terminal. usage: print the usage too. */
class CompareError extends Error {
  constructor(message, { usage = false } = {}) {
    super(message);
    this.usage = usage;
  }
}

function metricName(name) {
  const metric = canonicalMetric(name);
  if (!metric) throw new CompareError(`unknown metric '${String(name).trim()}' (known: ${METRIC_NAMES.join(', ')}; or mean, p50, p99, rps, cpu, rss)`, { usage: true });
  return metric;
}

function canonical(x) {
  if (Array.isArray(x)) return `[${x.map(canonical).join(',')}]`;
  if (x && typeof x === 'object') return `{${Object.keys(x).sort().map((k) => `${JSON.stringify(k)}:${canonical(x[k])}`).join(',')}}`;
  return JSON.stringify(x);
}

function loadKey(run) {
  const p = { ...(run.params || {}) };
  for (const k of PARAMS_IGNORED) delete p[k];
  return canonical(p);
}

/** The runs a comparison uses: those a verdict may use (perf/lib/rule/compare.js usableForVerdict). */
const usable = (r) => usableForVerdict(r) && !isSuperseded(r);

/**
 * Why a side ('A' or 'B') cannot be compared (no usable trial): { why, side }, why one of
 * no-run, client-bound (every finished trial), not-judged (with reasons: the codes of the
 * runner's reasons, perf/lib/store/reasons.js), failed; or null.
 */
function unusable(side, runs) {
  if (!runs.length) return { why: 'no-run', side };
  if (runs.some(usable)) return null;
  const finished = runs.filter((r) => r.ok);
  if (finished.length && finished.every((r) => r.client_bound)) return { why: 'client-bound', side };
  const reasons = [...new Set(finished.flatMap((r) => notJudgedBecause(r).map(reasonCode)))];
  if (reasons.length) return { why: 'not-judged', side, reasons };
  return { why: 'failed', side };
}

/**
 * Compares run B with run A. options: metrics (names), thresholdPct. Returns
 * { rows, regressions, only, noVerdicts, metrics, thresholdPct } where each row is (metric null:
 * one row for a server and scenario none of whose metrics can be compared)
 * { server, scenario, metric, a, b, n_a, n_b, ratio (B/A), ci95, significant, worse (factor by
 * which B is worse; < 1 = better), regression, no_verdict (the verdict rule's reason, or null),
 * verdict }, verdict a code: not-compared (not_compared: { why: 'load-differs' } or unusable's),
 * not-measured, no-verdict, zero (a trial measured 0), no-interval (single: 'A', 'B' or 'both',
 * the sides of one trial), no-change, regression, worse-within (the threshold), better.
 * only: [{ server, scenario, side }], the pairs run in one side only, not compared;
 * noVerdicts: [{ kind, note }], each kind of no_verdict once, with its first row's note.
 */
function compareRuns(A, B, { metrics = DEFAULT_METRICS, thresholdPct = DEFAULT_THRESHOLD_PCT } = {}) {
  const limit = 1 + thresholdPct / 100;
  const pairs = [];
  for (const r of [...A.runs, ...B.runs]) if (!pairs.some((p) => p.server === r.server && p.scenario === r.scenario)) pairs.push({ server: r.server, scenario: r.scenario });
  const servers = [...new Set(pairs.map((p) => p.server))];
  pairs.sort((x, y) => servers.indexOf(x.server) - servers.indexOf(y.server));
  const rows = [];
  const only = [];
  for (const { server, scenario } of pairs) {
    const ra = A.runs.filter((r) => r.server === server && r.scenario === scenario);
    const rb = B.runs.filter((r) => r.server === server && r.scenario === scenario);
    if (!ra.length || !rb.length) {
      only.push({ server, scenario, side: ra.length ? 'A' : 'B' });
      continue;
    }
    const keysA = new Set(ra.map(loadKey));
    const keysB = new Set(rb.map(loadKey));
    const sameLoad = [...keysA].every((k) => keysB.has(k)) && keysA.size === keysB.size;
    const why = sameLoad ? unusable('A', ra) || unusable('B', rb) : { why: 'load-differs' };
    if (why) {
      // One row for the pair: no metric of it can be judged.
      rows.push({ server, scenario, metric: null, a: null, b: null, n_a: 0, n_b: 0, ratio: null, ci95: null, significant: null, worse: null, regression: false, no_verdict: null, verdict: 'not-compared', not_compared: why });
      continue;
    }
    const runsA = ra.filter(usable);
    const runsB = rb.filter(usable);
    // What the verdicts' rule (perf/lib/rule/compare.js noVerdict) holds a metric against: the
    // scenario as run, and the requests of the smaller side.
    const params = [...runsA, ...runsB].map((r) => r.params).find(Boolean);
    const na = fewestReplies(runsA);
    const nb = fewestReplies(runsB);
    const requests = na === null || nb === null ? null : Math.min(na, nb);
    for (const metric of metrics) {
      const m = METRICS[metric];
      const ua = runsA.map((r) => metricValue(r, metric));
      const ub = runsB.map((r) => metricValue(r, metric));
      const sa = summarizeTrials(ua);
      const sb = summarizeTrials(ub);
      const never = noVerdict(metric, params, requests);
      const row = { server, scenario, metric, a: sa.centre, b: sb.centre, n_a: sa.n, n_b: sb.n, ratio: null, ci95: null, significant: null, worse: null, regression: false, no_verdict: null, verdict: null };
      if (!sa.n || !sb.n) {
        row.verdict = 'not-measured';
      } else if (never) {
        row.no_verdict = never.no_verdict;
        row.no_verdict_note = never.note;
        row.verdict = 'no-verdict';
      } else if ([...ua, ...ub].some((v) => v === 0)) {
        // A 0 (CPU below /proc's 10 ms resolution in a short run) has no logarithm.
        row.verdict = 'zero';
      } else {
        row.ratio = sb.centre / sa.centre;
        const cmp = compareTrials(ub, ua);
        const toWorse = (r) => (m.better === 'lower' ? r : 1 / r);
        row.worse = toWorse(row.ratio);
        if (!cmp) {
          row.verdict = 'no-interval';
          row.single = sa.n < 2 && sb.n < 2 ? 'both' : sa.n < 2 ? 'A' : 'B';
        } else {
          row.ratio = cmp.ratio;
          row.worse = toWorse(cmp.ratio);
          row.ci95 = cmp.ci95;
          row.significant = cmp.significant;
          if (!cmp.significant) row.verdict = 'no-change';
          else if (row.worse > limit) {
            row.regression = true;
            row.verdict = 'regression';
          } else if (row.worse > 1) row.verdict = 'worse-within';
          else row.verdict = 'better';
        }
      }
      rows.push(row);
    }
  }
  const noVerdicts = [...new Set(rows.map((r) => r.no_verdict).filter(Boolean))].map((kind) => ({ kind, note: rows.find((r) => r.no_verdict === kind).no_verdict_note }));
  return { rows, regressions: rows.filter((r) => r.regression), only, noVerdicts, metrics, thresholdPct };
}

// The environment's fields that can explain a change by themselves: the machine and the runtimes
// as recorded, and two of the run's options (quick: the loads differ; pinning).
const ENVIRONMENT_KEYS = ['hostname', 'cpu_model', 'cores', 'kernel', 'node', 'ruby', 'eventmachine', 'eventmachine_httpserver'];
const OPTION_OF = { quick: (e) => (e.options ? !!e.options.quick : null), pinning: (e) => (e.pinning ? !!e.pinning.enabled : null) };

/**
 * What differs between the two environments that could explain a change by itself:
 * [{ key, a, b }], key one of ENVIRONMENT_KEYS (a and b the values recorded) or 'quick',
 * 'pinning' (a and b true or false); perf/lib/text/compare_format.js says it.
 */
function environmentDifferences(A, B) {
  const ea = A.environment;
  const eb = B.environment;
  const recorded = ENVIRONMENT_KEYS.filter((k) => ea[k] !== undefined && eb[k] !== undefined && canonical(ea[k]) !== canonical(eb[k])).map((key) => ({ key, a: ea[key], b: eb[key] }));
  const options = Object.entries(OPTION_OF)
    .map(([key, of]) => ({ key, a: of(ea), b: of(eb) }))
    .filter(({ a, b }) => a !== null && b !== null && a !== b);
  return [...recorded, ...options];
}

module.exports = {
  compareRuns,
  metricName,
  environmentDifferences,
  CompareError,
  DEFAULT_METRICS,
  DEFAULT_THRESHOLD_PCT,
};
