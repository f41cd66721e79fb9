'use strict';
// The verdict rule: how one comparison of two servers is decided from the runs measured, read
// alike by the runner's looks (perf/lib/run/rounds.js: a sequential design stops where this rule
// decides) and by the judge (perf/lib/judge/verdicts.js analyzeRuns: a run's verdicts, once per
// reader). A comparison is the ratio a/b of one metric in one scenario: from paired rounds
// (./group_sequential.js, at the looks) or from independent trials (Welch, ./confidence.js);
// decided by ./answer.js. Failed runs never count; runs the runner left out (client-bound, not
// server-bound, disturbed: `not_judged_because`) are never used, but for memory where only the
// pace was doubted; a pair whose every run is left out is excluded, and says why. Some metrics
// are never judged whatever the numbers (noVerdict): throughput where the schedule sets the rate,
// a tail percentile with too few requests above it, a figure measured in steps too coarse for it.

const { summarizeTrials, compareTrials } = require('./confidence');
const { METRICS, METRIC_NAMES, metricValue } = require('./metrics');
const { doubtsPaceOnly } = require('./reasons');
const { decide, moreMeasuring } = require('./answer');
const { status, pairedInterval, moreRounds } = require('./group_sequential');
const { reasonCode } = require('../store/reasons');
const { RATE_SET, SIZE_SET, TOO_FEW, BELOW_RESOLUTION } = require('../store/no_verdict');
const { DEFAULT_MARGIN } = require('../method');

/**
 * How many requests must lie above a percentile for it to mean anything: with fewer, the "p99"
 * of a run is its slowest few requests (at n = 100 its maximum). A percentile p is shown, and
 * judged, only when n × (1 − p) ≥ MIN_TAIL_SAMPLES; p99 needs 10 000 requests, p99.9 100 000.
 * The report's percentile curves, its tables and the summary all ask percentileResolved.
 */
const MIN_TAIL_SAMPLES = 100;

/** Whether n requests resolve percentile p (0–1). n unknown (null): nothing to hold it against. */
function percentileResolved(n, p) {
  if (n === null || n === undefined || !Number.isFinite(n)) return true;
  // The tolerance keeps a boundary case (n = 300, p = 2/3) from failing on rounding.
  return n * (1 - p) >= MIN_TAIL_SAMPLES * (1 - 1e-9);
}

/**
 * Scenario kinds whose schedule fixes the request rate: an open loop opens connections at
 * `rate` per second, a constant rate sends requests at `rate` per second, and the slow-client
 * scenarios' probe opens connections at `probe.rate`, whatever the server
 * does. Their throughput only echoes the schedule (or shows a server that fell behind it, which
 * the latency already shows), so it is shown but never judged.
 */
function scheduledRate(params) {
  if (!params || typeof params !== 'object') return null;
  if ((params.kind === 'open' || params.kind === 'rate') && Number.isFinite(params.rate)) return params.rate;
  if (params.kind === 'slow_clients' && params.probe && Number.isFinite(params.probe.rate)) return params.probe.rate;
  return null;
}

/**
 * How fine a metric must be measured to be judged: its rounding step (a metric's `step`: an
 * engine's printed latency, httperf's 0.1 ms; CPU per request, one clock tick over the replies)
 * must be at most this share of the smaller centre; else the rounding alone could make, or hide,
 * the difference.
 */
const MAX_RESOLUTION_SHARE = 0.05;

/**
 * Why a metric of a scenario is not judged whatever the numbers say, or null: { no_verdict (its
 * stored value, perf/lib/store/no_verdict.js), note (a code with its numbers, which
 * perf/lib/text/verdict_notes.js puts in words) }:
 *   RATE_SET          { code: 'rate_set', rate }: throughput where the schedule fixes the rate
 *   SIZE_SET          { code: 'size_set', clients, full_clients }: peak RSS of a quick run that
 *                     held fewer slow clients at once than the full scenario
 *   TOO_FEW           { code: 'too_few', n, quantile }: a tail percentile (p99) that fewer than
 *                     MIN_TAIL_SAMPLES requests lie above
 *   BELOW_RESOLUTION  { code: 'below_resolution', source, step_ms, smallest_ms, judged_from_ms }:
 *                     a figure measured in steps too coarse for it
 * params: the scenario as run (a run's `params`); n: the requests behind the centre on the
 * smaller side (fewestReplies of its usable trials).
 */
function noVerdict(metric, params, n, resolution = null) {
  const m = METRICS[metric];
  const rate = m.rateSet ? scheduledRate(params) : null;
  if (rate !== null) return { no_verdict: RATE_SET, note: { code: 'rate_set', rate } };
  if (m.sizeSet && params && params.full_size && params.full_size.slow_clients) {
    return { no_verdict: SIZE_SET, note: { code: 'size_set', clients: params.slow.clients, full_clients: params.full_size.slow_clients } };
  }
  if (m.tail && !percentileResolved(n, m.quantile)) return { no_verdict: TOO_FEW, note: { code: 'too_few', n, quantile: m.quantile } };
  if (resolution && resolution.step_ms > MAX_RESOLUTION_SHARE * resolution.smallest_ms) {
    return { no_verdict: BELOW_RESOLUTION, note: { code: 'below_resolution', source: resolution.source, step_ms: resolution.step_ms, smallest_ms: resolution.smallest_ms, judged_from_ms: resolution.step_ms / MAX_RESOLUTION_SHARE } };
  }
  return null;
}

/**
 * The coarsest rounding step of a metric among runs, with what sets it: { step_ms, source }
 * (source: the engine for a latency, 'cpu_clock' for CPU per request), or null.
 */
function resolutionOf(metric, runs) {
  const m = METRICS[metric];
  let out = null;
  for (const r of m.step ? runs : []) {
    const step = m.step(r);
    if (Number.isFinite(step) && (!out || step > out.step_ms)) out = { step_ms: step, source: m.latency ? r.engine : 'cpu_clock' };
  }
  return out;
}

/**
 * Whether a run was replaced for the verdict by another engine's runs of the same scenario
 * (superseded_by; older results only say so in not_judged_because). It stays in results.json
 * for information and is left out of aggregates and comparisons.
 */
function isSuperseded(r) {
  return Boolean(r.superseded_by) || (Array.isArray(r.not_judged_because) && r.not_judged_because.some((why) => reasonCode(why) === 'superseded'));
}

/**
 * The requests behind a set of runs' latency percentiles, for percentileResolved: the fewest
 * replies of any run (null when unknown). Each trial's p99 comes from its own requests alone,
 * and a centre of three unresolved p99s is no resolved one: three trials of 6,000 requests
 * give no p99, however many they add up to.
 */
function fewestReplies(runs) {
  const counts = runs.map((r) => r.replies);
  return counts.length && counts.every((x) => Number.isFinite(x)) ? Math.min(...counts) : null;
}

// The lightest engines here (one core each): runs all client-bound with them want more load
// cores, not a lighter engine (perf/lib/text/verdict_notes.js says which).
const EXTERNAL_LOAD = ['wrk', 'httperf'];

/**
 * Why a finished run may not be used for a verdict ([] when it may): the runner's reasons
 * (`not_judged_because`: client-bound, not server-bound, disturbed; perf/lib/run/bottleneck.js);
 * older results know only client_bound.
 */
function notJudgedBecause(r) {
  if (Array.isArray(r.not_judged_because)) return r.not_judged_because;
  return r.client_bound ? ['client-bound'] : [];
}

/** Whether a run may be used for a verdict: it finished, and the runner left it in (judged). */
function usableForVerdict(r) {
  return r.ok && notJudgedBecause(r).length === 0;
}

/**
 * Whether a run may be used for a verdict on one metric: usableForVerdict, or, for a metric the
 * load's pace does not set (perf/lib/rule/metrics.js paceFree: memory), a finished run left out
 * only for its pace (perf/lib/rule/reasons.js doubtsPaceOnly). Without a metric: usableForVerdict.
 */
function usableFor(r, metric = null) {
  if (usableForVerdict(r)) return true;
  return Boolean(metric && METRICS[metric].paceFree && r.ok && notJudgedBecause(r).every(doubtsPaceOnly));
}

/**
 * The trials of one server in one scenario, sorted into those a verdict (on metric, where one is
 * named: usableFor) may use and those it may not. Runs without a trial number (older results)
 * count as one trial each.
 */
function classify(runs, metric = null) {
  const trialOf = (r, i) => (Number.isInteger(r.trial) ? r.trial : i + 1);
  const ok = runs.filter((r) => r.ok);
  return {
    all: runs,
    usable: runs.filter((r) => usableFor(r, metric)),
    clientBound: ok.filter((r) => r.client_bound && !usableFor(r, metric)),
    notJudged: ok.filter((r) => !usableFor(r, metric)),
    failed: runs.filter((r) => !r.ok),
    trials: runs.map(trialOf),
  };
}

/**
 * summarizeTrials, but one trial's centre is its value exactly (not exp(log(x))), and values of
 * 0 (CPU below /proc's 10 ms resolution in a short run) are not dropped: with a 0 among them
 * the centre is the arithmetic mean, without an interval (zero: true).
 */
function summarize(values) {
  const finite = values.filter((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0);
  if (finite.some((v) => v === 0)) {
    return { n: finite.length, centre: finite.reduce((a, b) => a + b, 0) / finite.length, ci95: null, zero: true };
  }
  const s = summarizeTrials(values);
  if (s.n === 1) s.centre = values.find((v) => Number.isFinite(v) && v > 0);
  return s;
}

/**
 * Why a side of a comparison cannot be used, or null: { reason, server, total (its runs), unit
 * (what its runs are: 'trial', or 'round' in paired rounds), finished_only (some failed, the
 * others were not judged), lightest (all client-bound with the lightest engines), kinds (the
 * codes of why its finished runs were not judged, once each) }.
 */
function exclusion(server, c, unit = 'trial') {
  const side = { server, total: c.all.length, unit, finished_only: c.failed.length > 0, lightest: false, kinds: [] };
  if (c.all.length === 0) return { ...side, reason: 'missing' };
  if (c.usable.length > 0) return null;
  if (c.notJudged.length > 0) {
    if (c.notJudged.every((r) => r.client_bound)) return { ...side, reason: 'client-bound', lightest: c.notJudged.every((r) => EXTERNAL_LOAD.includes(r.engine)) };
    return { ...side, reason: 'not-judged', kinds: reasonKinds(c.notJudged) };
  }
  return { ...side, reason: 'failed' };
}

/** The codes of why runs were not judged ('not-server-bound', 'disturbed', …), once each. */
function reasonKinds(runs) {
  return [...new Set(runs.flatMap((r) => notJudgedBecause(r).map(reasonCode)))];
}

const EXCLUSION_RANK = { failed: 0, missing: 1, 'client-bound': 2, 'not-judged': 3 };

/** Whether a ratio a/b says a is better, for a metric's direction. */
const aLooksBetterAt = (m) => (ratio) => (m.better === 'lower' ? ratio < 1 : ratio > 1);

/**
 * One comparison: ratio = a/b of the metric (geometric means of the usable trials), with
 * Welch's 95% interval when both sides have two or more trials. better says which direction
 * wins; winner is the better server when the interval excludes 1 (else null); factor (>= 1)
 * is how many times better the better-looking side is, e.g. "a is 2.1× faster"; decision is
 * the answer (perf/lib/rule/answer.js: winner, same within the margin, undecided) wherever
 * there is an interval, with more_measuring for an undecided one.
 */
function compareOne(scenario, metric, a, b, sideA, sideB, margin = DEFAULT_MARGIN, looks = null) {
  const m = METRICS[metric];
  // The runs this metric may use (a run left out for its pace still gives its memory).
  const [ca, cb] = m.paceFree ? [classify(sideA.all, metric), classify(sideB.all, metric)] : [sideA, sideB];
  const base = { scenario, metric, a, b, better: m.better, value_a: null, value_b: null, n_a: 0, n_b: 0, ratio: null, ci95: null, significant: null, winner: null, factor: null, decision: null, margin, more_measuring: null, method: looks ? 'paired' : 'welch', rounds: null, excluded: null, no_verdict: null, note: null };
  const unit = looks ? 'round' : 'trial';
  const ex = [exclusion(a, ca, unit), exclusion(b, cb, unit)].filter(Boolean).sort((x, y) => EXCLUSION_RANK[x.reason] - EXCLUSION_RANK[y.reason]);
  if (ex.length) {
    // Shown for information (e.g. a client-bound run's numbers), never judged.
    const okCentre = (c) => summarize(c.all.filter((r) => r.ok).map((r) => metricValue(r, metric))).centre;
    return { ...base, value_a: okCentre(ca), value_b: okCentre(cb), excluded: ex[0].reason, note: { code: 'excluded', sides: ex } };
  }
  const va = ca.usable.map((r) => metricValue(r, metric));
  const vb = cb.usable.map((r) => metricValue(r, metric));
  const sa = summarize(va);
  const sb = summarize(vb);
  const out = { ...base, value_a: sa.centre, value_b: sb.centre, n_a: sa.n, n_b: sb.n };
  if (sa.n === 0 || sb.n === 0) return { ...out, note: { code: 'not_measured' } };
  // Decided here, once: every output (summary, report, results.json) shows this verdict.
  const na = fewestReplies(ca.usable);
  const nb = fewestReplies(cb.usable);
  const step = resolutionOf(metric, [...ca.usable, ...cb.usable]);
  const resolution = step && { ...step, smallest_ms: Math.min(sa.centre, sb.centre) };
  const limit = noVerdict(metric, [...ca.usable, ...cb.usable].map((r) => r.params).find(Boolean), na === null || nb === null ? null : Math.min(na, nb), resolution);
  if (limit) return { ...out, ...limit };
  if (looks) {
    const paired = pairedAnswer(ca.usable, cb.usable, metric, aLooksBetterAt(m), { a, b, margin, looks });
    // Too few rounds with both sides usable: what made the others unusable, once each.
    if (!paired.ci95) paired.note.others = reasonKinds([...ca.notJudged, ...cb.notJudged]);
    return { ...out, ...paired };
  }
  if (sa.zero || sb.zero) {
    // A 0 has no logarithm: the ratio of the centres where it exists, never an interval.
    const ratio = sa.centre > 0 && sb.centre > 0 ? sa.centre / sb.centre : null;
    const single = { ...out, ratio, factor: ratio === null ? null : ratio >= 1 ? ratio : 1 / ratio, note: { code: 'zero' } };
    return single;
  }
  out.ratio = sa.centre / sb.centre;
  const aLooksBetter = aLooksBetterAt(m)(out.ratio);
  out.factor = out.ratio >= 1 ? out.ratio : 1 / out.ratio;
  const cmp = compareTrials(va, vb);
  if (!cmp) {
    const single = [sa.n < 2 ? a : null, sb.n < 2 ? b : null].filter(Boolean);
    out.note = { code: 'one_trial', sides: sa.n < 2 && sb.n < 2 ? [] : single };
    return out;
  }
  out.ratio = cmp.ratio;
  out.factor = cmp.ratio >= 1 ? cmp.ratio : 1 / cmp.ratio;
  out.ci95 = cmp.ci95;
  out.significant = cmp.significant;
  if (cmp.significant) out.winner = aLooksBetter ? a : b;
  out.decision = decide(cmp.ci95, margin);
  if (out.decision === 'undecided') out.more_measuring = moreMeasuring(cmp.ratio, cmp.ci95, margin);
  return out;
}

/**
 * The answer from paired rounds (perf/lib/rule/group_sequential.js): the runs of each side are
 * paired by round (a run's trial number), the rounds both sides ran usably give the log
 * differences, and the interval is the one at the last look reached. Before the first look
 * there is an interval but no answer yet (undecided: the looks are what keeps 95 %).
 */
function pairedAnswer(runsA, runsB, metric, aBetter, { a, b, margin, looks }) {
  const byRound = (runs) => new Map(runs.map((r) => [r.trial, metricValue(r, metric)]));
  const va = byRound(runsA);
  const vb = byRound(runsB);
  const pairs = [...va].filter(([round, x]) => x > 0 && vb.get(round) > 0).map(([round, x]) => [x, vb.get(round)]);
  const s = status(pairs, { looks, margin });
  const early = s.look === null ? pairedInterval(pairs.map(([x, y]) => Math.log(x) - Math.log(y)), s.level) : null;
  const { ratio, ci } = early || s;
  if (!ci) return { note: { code: 'no_round', rounds: pairs.length, others: [] }, rounds: pairs.length };
  const significant = ci[0] > 1 || ci[1] < 1;
  const decision = early ? 'undecided' : s.decision;
  return {
    ratio,
    factor: ratio >= 1 ? ratio : 1 / ratio,
    ci95: ci,
    significant,
    winner: significant ? (aBetter(ratio) ? a : b) : null,
    decision,
    more_measuring: decision === 'undecided' ? moreRounds(early ? pairs.length : looks[s.look], ratio, ci, { level: s.level, margin }) : null,
    rounds: early ? pairs.length : looks[s.look],
    note: early ? { code: 'early_look', rounds: pairs.length, first_look: looks[0] } : null,
  };
}

/** A server's runs of a scenario that a verdict weighs: all but those another engine's runs superseded. */
function runsOf(runs, server, scenario) {
  return runs.filter((r) => r.server === server && r.scenario === scenario && !isSuperseded(r));
}

/**
 * Every comparison of a list of runs: each pair of servers (a before b in the order given) that
 * both have runs of a scenario, each metric (compareOne). looks: the runs are paired rounds
 * judged at these looks, else independent trials. A server with no run of a scenario (it cannot
 * serve it, or the run was interrupted before it) gives no comparison: there is nothing to judge.
 */
function compareServers(runs, { servers, scenarios, margin = DEFAULT_MARGIN, looks = null }) {
  const comparisons = [];
  for (const scenario of scenarios) {
    const sides = new Map(servers.map((server) => [server, classify(runsOf(runs, server, scenario))]));
    for (let i = 0; i < servers.length; i++) {
      for (let j = i + 1; j < servers.length; j++) {
        const [a, b] = [servers[i], servers[j]];
        const [ca, cb] = [sides.get(a), sides.get(b)];
        if (ca.all.length === 0 || cb.all.length === 0) continue;
        for (const metric of METRIC_NAMES) comparisons.push(compareOne(scenario, metric, a, b, ca, cb, margin, looks));
      }
    }
  }
  return comparisons;
}

module.exports = {
  MIN_TAIL_SAMPLES,
  percentileResolved,
  scheduledRate,
  noVerdict,
  isSuperseded,
  fewestReplies,
  notJudgedBecause,
  usableForVerdict,
  usableFor,
  classify,
  summarize,
  runsOf,
  compareOne,
  compareServers,
};
