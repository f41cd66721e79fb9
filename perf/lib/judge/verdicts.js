'use strict';
// Verdicts over repeated trials. Each server/scenario pair is run N times (`--repeat`); this
// module turns the runs into
//   aggregates   per server and scenario: the centre of each metric with its 95% interval
//   comparisons  per scenario, metric and pair of servers: ratio a/b with its 95% interval
//   overheads    each project server against its references (servers.json `reference_for`)
// with perf/lib/judge/confidence.js (log-scale Student t; Welch for ratios; why not a bootstrap is
// explained there). Failed runs never count. Client-bound runs (the load generator, not the
// server, set the pace) are never used for a verdict: they are left out of the comparisons,
// and a pair whose every trial is client-bound is reported as excluded. Some metrics are never
// judged whatever the numbers (`no_verdict`): throughput where the schedule sets the rate, and a
// p99 with too few requests above it. Formats: perf/REFERENCE.md, "Output".

const { summarizeTrials, compareTrials } = require('./confidence');
const { METRICS, METRIC_NAMES, metricValue } = require('./metrics');
const { doubtsPaceOnly } = require('./reasons');
const { reasonCode } = require('../store/reasons');
const { RATE_SET, SIZE_SET, TOO_FEW, BELOW_RESOLUTION } = require('../store/no_verdict');
const { decide, moreMeasuring } = require('./answer');
const { DEFAULT_MARGIN } = require('../method');
const { referenceTargets } = require('../hosts/runtimes');
const { status, pairedInterval, moreRounds } = require('./group_sequential');


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

/**
 * Comparisons from a results.json written before `no_verdict` or `decision` existed, brought up
 * to date: the same rules applied to the runs and intervals (the default margin where the file
 * has none), so older files read like new ones.
 */
function withLimits(comparisons, runs) {
  return comparisons.map(withDecision).map((c) => {
    if (c.no_verdict !== undefined || c.excluded) return { no_verdict: null, ...c };
    const of = (server) => runs.filter((r) => r.server === server && r.scenario === c.scenario && r.ok && !r.client_bound);
    const ra = of(c.a);
    const rb = of(c.b);
    const params = [...ra, ...rb].map((r) => r.params).find(Boolean);
    const na = fewestReplies(ra);
    const nb = fewestReplies(rb);
    const limit = noVerdict(c.metric, params, na === null || nb === null ? null : Math.min(na, nb));
    return limit ? { ...c, ...limit, ratio: null, ci95: null, significant: null, winner: null, factor: null, decision: null, more_measuring: null } : { ...c, no_verdict: null };
  });
}

/** A stored comparison with its decision, margin and more_measuring (decided now when it has none). */
function withDecision(c) {
  if (c.decision !== undefined) return c;
  const margin = DEFAULT_MARGIN;
  const decision = Array.isArray(c.ci95) ? decide(c.ci95, margin) : null;
  return { ...c, decision, margin, more_measuring: decision === 'undecided' ? moreMeasuring(c.ratio, c.ci95, margin) : null };
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
 * load's pace does not set (perf/lib/judge/metrics.js paceFree: memory), a finished run left out
 * only for its pace (perf/lib/judge/reasons.js doubtsPaceOnly). Without a metric: usableForVerdict.
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
 * Each metric summarized over the basis runs, or, for one the pace does not set, over the runs
 * of all that it may use (usableFor) where there are any.
 */
function metricSummaries(basisRuns, allRuns) {
  const out = {};
  for (const m of METRIC_NAMES) {
    const free = METRICS[m].paceFree ? allRuns.filter((r) => usableFor(r, m)) : [];
    const over = free.length ? free : basisRuns;
    const s = summarize(over.map((r) => metricValue(r, m)));
    out[m] = { n: s.n, centre: s.centre, ci95: s.ci95 };
  }
  return out;
}

/**
 * One aggregate per server and scenario:
 * { server, scenario, trials, used_trials, client_bound_trials, not_judged_trials, failed_trials, basis, metrics }
 * basis: "trials" (ok runs that were judged), "client-bound" (every ok run was client-bound) or
 * "not-judged" (every ok run was not judged, some for another reason): the numbers are shown
 * but never judged; or null (no ok run).
 */
function aggregateOne(server, scenario, runs) {
  const c = classify(runs);
  const trialNo = (r) => c.trials[runs.indexOf(r)];
  let basis = null;
  let basisRuns = [];
  if (c.usable.length) {
    basis = 'trials';
    basisRuns = c.usable;
  } else if (c.notJudged.length) {
    // "not-judged" when some were left out for another reason than the load generator.
    basis = c.notJudged.every((r) => r.client_bound) ? 'client-bound' : 'not-judged';
    basisRuns = c.notJudged;
  }
  return {
    server,
    scenario,
    trials: runs.length,
    used_trials: c.usable.map(trialNo),
    client_bound_trials: c.clientBound.map(trialNo),
    not_judged_trials: c.notJudged.map(trialNo),
    failed_trials: c.failed.map(trialNo),
    basis,
    // The requests behind each trial's percentiles (for percentileResolved).
    fewest_replies: fewestReplies(basisRuns),
    metrics: metricSummaries(basisRuns, runs),
  };
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
 * the answer (perf/lib/judge/answer.js: winner, same within the margin, undecided) wherever
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
 * The answer from paired rounds (perf/lib/judge/group_sequential.js): the runs of each side are
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

/**
 * aggregates and comparisons of a list of runs (results.json's `runs`). servers and scenarios
 * default to the order the runs list them in; looks: the runs are paired rounds judged at these
 * looks (pairedAnswer), else trials (Welch); comparisons cover every pair of servers (a
 * before b in that order) that both have runs of a scenario, and every metric.
 */
function analyzeRuns(runs, { servers = null, scenarios = null, margin = DEFAULT_MARGIN, looks = null } = {}) {
  const serverList = servers || [...new Set(runs.map((r) => r.server))];
  const scenarioList = scenarios || [...new Set(runs.map((r) => r.scenario))];
  const runsOf = (server, scenario) => runs.filter((r) => r.server === server && r.scenario === scenario && !isSuperseded(r));
  const aggregates = [];
  const classes = new Map();
  for (const scenario of scenarioList) {
    for (const server of serverList) {
      const rs = runsOf(server, scenario);
      classes.set(`${server}|${scenario}`, classify(rs));
      if (rs.length) aggregates.push(aggregateOne(server, scenario, rs));
    }
  }
  const comparisons = [];
  for (const scenario of scenarioList) {
    for (let i = 0; i < serverList.length; i++) {
      for (let j = i + 1; j < serverList.length; j++) {
        const a = serverList[i];
        const b = serverList[j];
        const ca = classes.get(`${a}|${scenario}`);
        const cb = classes.get(`${b}|${scenario}`);
        // A server that has no run of the scenario (it cannot serve it, or the run was
        // interrupted before it) gives no comparison: there is nothing to judge.
        if (ca.all.length === 0 || cb.all.length === 0) continue;
        for (const metric of METRIC_NAMES) comparisons.push(compareOne(scenario, metric, a, b, ca, cb, margin, looks));
      }
    }
  }
  return { aggregates, comparisons };
}

/**
 * The verdict rule (compareOne) on any two sets of runs, not only two servers in one scenario:
 * e.g. one server's runs in two scenarios (perf/lib/judge/seeds.js: long against short
 * connections). a and b name the sides; superseded runs are left out as analyzeRuns does.
 */
function compareRunSets(label, metric, a, b, runsA, runsB, margin = DEFAULT_MARGIN) {
  const kept = (runs) => classify(runs.filter((r) => !isSuperseded(r)));
  return compareOne(label, metric, a, b, kept(runsA), kept(runsB), margin);
}

/** The comparison of a with b in a scenario and metric, oriented as asked (flips a stored b-vs-a). */
function findComparison(comparisons, scenario, metric, a, b) {
  const direct = comparisons.find((c) => c.scenario === scenario && c.metric === metric && c.a === a && c.b === b);
  if (direct) return direct;
  const c = comparisons.find((x) => x.scenario === scenario && x.metric === metric && x.a === b && x.b === a);
  if (!c) return null;
  return {
    ...c,
    a,
    b,
    value_a: c.value_b,
    value_b: c.value_a,
    n_a: c.n_b,
    n_b: c.n_a,
    ratio: c.ratio === null ? null : 1 / c.ratio,
    ci95: c.ci95 ? [1 / c.ci95[1], 1 / c.ci95[0]] : null,
  };
}

/**
 * The comparisons of a pair of servers [a, b], each oriented a vs b (findComparison), in the
 * order they were stored; [] without a pair.
 */
function pairComparisons(comparisons, pair) {
  if (!pair) return [];
  const [a, b] = pair;
  return comparisons.filter((c) => (c.a === a && c.b === b) || (c.a === b && c.b === a)).map((c) => findComparison(comparisons, c.scenario, c.metric, a, b));
}

/**
 * Per server and scenario with runs, the requests behind its p99 and whether they resolve one:
 * [{ server, scenario, replies, p99_resolved }]. replies: its aggregate's fewest_replies; older
 * results.json aggregates lack them, and then every finished run's count.
 */
function tailsOf(runs, aggregates, servers, scenarios) {
  const out = [];
  for (const scenario of scenarios) {
    for (const server of servers) {
      const rs = runs.filter((r) => r.server === server && r.scenario === scenario);
      if (!rs.length) continue;
      const agg = aggregates.find((x) => x.server === server && x.scenario === scenario);
      const replies = agg && agg.fewest_replies !== undefined ? agg.fewest_replies : fewestReplies(rs.filter((r) => r.ok));
      out.push({ server, scenario, replies, p99_resolved: percentileResolved(replies, 0.99) });
    }
  }
  return out;
}

/** The references of each server: { node: [{ ref: 'node_bare', role }], … } from definitions. */
function referencePairs(definitions, servers) {
  const out = [];
  for (const ref of servers) {
    const targets = referenceTargets(ref, definitions || {});
    for (const server of servers) {
      if (targets.includes(server) || targets.includes('*')) out.push({ server, reference: ref, role: definitions[ref].reference_role || 'reference' });
    }
  }
  return out.filter((p) => p.server !== p.reference);
}

const OVERHEAD_METRICS = ['p50_ms', 'p99_ms', 'throughput_rps', 'cpu_ms_per_request'];

/**
 * Each project server against each of its references, per scenario both ran: the overhead
 * factor per metric, oriented so that > 1 means the server costs more than the reference
 * (slower, or fewer req/s, or more CPU per request) and 1 means no overhead:
 *   lower-is-better metrics   server / reference
 *   throughput                reference / server
 * Rows: { scenario, server, reference, role, metrics: { p50_ms: { overhead, ci95, significant,
 * decision (the comparison's answer: a cost, the same within the margin, undecided), margin,
 * n, note } } }.
 */
function overheads(comparisons, definitions, servers, scenarios) {
  const rows = [];
  for (const scenario of scenarios) {
    for (const { server, reference, role } of referencePairs(definitions, servers)) {
      const metrics = {};
      let any = false;
      for (const metric of OVERHEAD_METRICS) {
        const c = findComparison(comparisons, scenario, metric, server, reference);
        if (!c) continue;
        const flip = METRICS[metric].better === 'higher';
        const overhead = c.ratio === null ? null : flip ? 1 / c.ratio : c.ratio;
        const ci95 = c.ci95 ? (flip ? [1 / c.ci95[1], 1 / c.ci95[0]] : c.ci95) : null;
        metrics[metric] = { overhead, ci95, significant: c.significant, decision: c.decision ?? null, margin: c.margin ?? null, n: Math.min(c.n_a, c.n_b), note: c.note, excluded: c.excluded, no_verdict: c.no_verdict || null };
        any = true;
      }
      if (any) rows.push({ scenario, server, reference, role, metrics });
    }
  }
  return rows;
}

/**
 * Whether a server is a reference here: one of the servers it is a reference for
 * (servers.json reference_for) ran beside it. Then the overhead table compares them; alone, a
 * reference is a contender like any other (the hand-written async without async_http).
 */
function referenceHere(server, servers, definitions) {
  return referencePairs(definitions, servers).some((p) => p.reference === server);
}

/**
 * The pair the verdicts are about: node vs em when both ran, else the first two servers that
 * are no reference here (references have their own table); none when only one is.
 */
function primaryPair(servers, definitions = {}) {
  if (servers.includes('node') && servers.includes('em')) return ['node', 'em'];
  const own = servers.filter((s) => !referenceHere(s, servers, definitions));
  if (own.length === 1) return null; // one server and its references: the overhead table says it all
  const list = own.length >= 2 ? own : servers;
  return list.length >= 2 ? [list[0], list[1]] : null;
}

/**
 * Every pair of runtimes a run compares: the primary pair first, then each other pair of the
 * servers that are neither a reference here nor a tuned configuration, in the order they ran
 * ([node, em], [node, async_http], [em, async_http]); [] without a primary pair.
 */
function runtimePairs(servers, definitions = {}) {
  const primary = primaryPair(servers, definitions);
  if (!primary) return [];
  const own = servers.filter((s) => !referenceHere(s, servers, definitions) && !(definitions[s] && definitions[s].tuned_of));
  const others = own.flatMap((a, i) => own.slice(i + 1).map((b) => [a, b])).filter(([a, b]) => !(primary.includes(a) && primary.includes(b)));
  return [primary, ...others];
}

/**
 * The engine whose runs gave each scenario's verdict, where the reader must be told:
 * { short_conn_256: 'wrk' }. Where two engines ran a scenario the runs of one are superseded by
 * the other's (superseded_by, as results.json's verdict_engines records; older results say so
 * only in not_judged_because, and their verdict's runs carry the engine in their params); a
 * scenario run by another engine than the built-in one (--engine httperf|wrk) has it in its
 * runs' params.
 */
function verdictEngines(runs) {
  const out = {};
  for (const r of runs) {
    const engine = r.superseded_by || (r.ok && !isSuperseded(r) && r.params && r.params.engine);
    if (engine) out[r.scenario] = engine;
  }
  return out;
}

module.exports = {
  OVERHEAD_METRICS,
  MIN_TAIL_SAMPLES,
  isSuperseded,
  usableForVerdict,
  percentileResolved,
  scheduledRate,
  noVerdict,
  withLimits,
  fewestReplies,
  analyzeRuns,
  compareRunSets,
  findComparison,
  pairComparisons,
  tailsOf,
  overheads,
  primaryPair,
  runtimePairs,
  verdictEngines,
  notJudgedBecause,
};
