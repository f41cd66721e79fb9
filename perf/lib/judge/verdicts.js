'use strict';
// A run's verdicts: what the judge (./judged.js) reads of the runs, each comparison decided by
// the verdict rule (perf/lib/rule/compare.js):
//   aggregates   per server and scenario: the centre of each metric with its 95% interval
//   comparisons  per scenario, metric and pair of servers: ratio a/b with its 95% interval
//   overheads    each project server against its references (servers.json `reference_for`)
// and which pairs of servers a run is about. Formats: perf/REFERENCE.md, "Output".

const { METRICS, METRIC_NAMES, metricValue } = require('../rule/metrics');
const { decide, moreMeasuring } = require('../rule/answer');
const { noVerdict, isSuperseded, fewestReplies, percentileResolved, usableFor, classify, summarize, runsOf, compareOne, compareServers } = require('../rule/compare');
const { DEFAULT_MARGIN } = require('../method');
const { referenceTargets } = require('../hosts/runtimes');

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
 * aggregates and comparisons of a list of runs (results.json's `runs`). servers and scenarios
 * default to the order the runs list them in; looks: the runs are paired rounds judged at these
 * looks, else trials (Welch); comparisons cover every pair of servers (a before b in that order)
 * that both have runs of a scenario, and every metric (perf/lib/rule/compare.js compareServers).
 */
function analyzeRuns(runs, { servers = null, scenarios = null, margin = DEFAULT_MARGIN, looks = null } = {}) {
  const serverList = servers || [...new Set(runs.map((r) => r.server))];
  const scenarioList = scenarios || [...new Set(runs.map((r) => r.scenario))];
  const aggregates = [];
  for (const scenario of scenarioList) {
    for (const server of serverList) {
      const rs = runsOf(runs, server, scenario);
      if (rs.length) aggregates.push(aggregateOne(server, scenario, rs));
    }
  }
  return { aggregates, comparisons: compareServers(runs, { servers: serverList, scenarios: scenarioList, margin, looks }) };
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
  withLimits,
  analyzeRuns,
  compareRunSets,
  findComparison,
  pairComparisons,
  tailsOf,
  overheads,
  primaryPair,
  runtimePairs,
  verdictEngines,
};
