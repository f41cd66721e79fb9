'use strict';
// The seed studies' headline comparisons (perf/seeds.json) beside a run (what --seeds runs is
// perf/lib/plan/seeds.js's): for each seed its published ratio next to this machine's, with the interval
// and whether the published conclusion holds (seedRows), as data: perf/lib/text/seeds.js puts
// them in words. A pair of servers in one scenario is the run's own comparison (results.json
// `comparisons`); one server in two scenarios (long against short connections) goes through
// the same verdict rule (verdicts.js compareRunSets).

const { seeds: SEEDS } = require('../../seeds.json');
const { METRICS, leadOf, withAnswer } = require('../rule/metrics');
const { compareRunSets, findComparison } = require('./verdicts');
const { notJudgedBecause } = require('../rule/compare');
const { reasonCode } = require('../store/reasons');
const { claimOutcome } = require('../rule/answer');
const { DEFAULT_MARGIN } = require('../method');

/** How many times better side a is than side b in the metric's direction. */
function factorOf(metric, a, b) {
  return METRICS[metric].better === 'lower' ? b / a : a / b;
}

/**
 * A seed study's headline claim as a question of this project's pair: { seed, claim (its words),
 * subject (scenario), metric, a, b, winner (the side the study found better), factor (how many
 * times better, ≥ 1) }, or null for a seed of one server in two scenarios or one not in seeds.json.
 */
function seedClaim(id) {
  const seed = SEEDS.find((s) => s.seed === id);
  if (!seed || seed.here.server) return null;
  const factor = factorOf(seed.metric, seed.published.a.value, seed.published.b.value);
  const { a, b } = seed.here;
  return { seed: id, claim: seed.claim, subject: seed.here.scenario, metric: seed.here.metric || seed.metric, a, b, winner: factor >= 1 ? a : b, factor: Math.max(factor, 1 / factor) };
}

/** The runs of a seed's two sides, [a's, b's]: one server in two scenarios, or two servers in one. */
function sideRuns(here, runs) {
  const of = here.server ? (sc) => runs.filter((r) => r.server === here.server && r.scenario === sc) : (server) => runs.filter((r) => r.server === server && r.scenario === here.scenario);
  return [of(here.a), of(here.b)];
}

/**
 * The comparison of one seed's pair in a run, with its answer (its runs, and its comparisons as
 * judged: perf/lib/judge/judged.js).
 */
function comparisonOf(seed, runs, comparisons, margin) {
  const { here } = seed;
  const metric = here.metric || seed.metric;
  if (here.server) return withAnswer(compareRunSets(`${here.a} vs ${here.b}`, metric, here.a, here.b, ...sideRuns(here, runs), margin));
  return findComparison(comparisons, here.scenario, metric, here.a, here.b) || null;
}

// Why a run may still give its server's CPU per request for an estimate: the load generator,
// not the server, set the pace. The server's own CPU per request is exact whoever did.
const PACED_BY_CLIENT = new Set(['client-bound', 'not-server-bound']);

/**
 * Where a throughput claim could not be judged because the load generator could not saturate
 * the servers (the C servers, nginx), an estimate from the utilization law: each side's
 * capacity is about 1 ÷ its CPU seconds per request at the rate reached, so a's capacity over
 * b's is b's CPU per request over a's, compared with the project's rule on the runs judged or
 * held back only by the client (each server's own CPU, exact per process). { factor, ci, outcome,
 * comparison }, or null where there is nothing to estimate from. It is an estimate: an event
 * loop's CPU per request falls as load rises, and on node and em the law overshoots what they
 * serve (RESULTS.md, "Sustainable throughput"): where both sides overshoot alike, the ratio holds.
 */
function estimateOf(seed, runs, margin, publishedFactor) {
  if ((seed.here.metric || seed.metric) !== 'throughput_rps') return null;
  const usable = (r) => r.ok && notJudgedBecause(r).every((why) => PACED_BY_CLIENT.has(reasonCode(why)));
  const asJudged = (rs) => rs.filter(usable).map((r) => ({ ...r, not_judged_because: [], client_bound: false }));
  const { here } = seed;
  const [runsA, runsB] = sideRuns(here, runs);
  // Named like the pair's own comparison: its metric says it is the CPU per request.
  const c = compareRunSets(`${here.a} vs ${here.b}`, 'cpu_ms_per_request', here.a, here.b, asJudged(runsA), asJudged(runsB), margin);
  const found = foundFactor(c);
  if (!found || !found.ci) return null;
  return { ...found, outcome: outcomeOf(c, found, publishedFactor), comparison: c };
}

/** What the run found for a's lead over b, as a factor of a with its interval (a's direction). */
function foundFactor(c) {
  if (!c || c.excluded || c.no_verdict || c.ratio === null || c.ratio === undefined) return null;
  const { lead, factor, ci } = leadOf(c);
  const ofA = lead === c.a;
  return { factor: ofA ? factor : 1 / factor, ci: ci ? (ofA ? ci : [1 / ci[1], 1 / ci[0]]) : null };
}

/**
 * The published claim against this run (perf/lib/rule/answer.js claimOutcome: confirmed, less,
 * more, gone, reversed, smaller, undecided; for a "really close" claim, published factor null:
 * confirmed, differ, undecided), or null where the comparison has no interval to judge it by.
 */
function outcomeOf(c, found, publishedFactor) {
  if (!c || !found || !found.ci) return null;
  return claimOutcome(found.ci, publishedFactor, c.margin ?? DEFAULT_MARGIN);
}

/**
 * One row per seed: { seed, title, study, claim, published: { a, b, factor }, here (the pair),
 * comparison (with its answer), found ({ factor, ci } of a over b, or null), outcome (outcomeOf;
 * null: not judged), estimate (estimateOf, where not judged), not_here }. runs and comparisons:
 * a run's, as perf/lib/judge/judged.js judgeResults gives them.
 */
function seedRows({ runs, comparisons, margin = DEFAULT_MARGIN }) {
  return SEEDS.map((seed) => {
    const c = comparisonOf(seed, runs, comparisons, margin);
    const missing = seed.here.server ? ![seed.here.a, seed.here.b].every((sc) => runs.some((r) => r.server === seed.here.server && r.scenario === sc)) : !c;
    const found = missing ? null : foundFactor(c);
    const published = { a: seed.published.a, b: seed.published.b, factor: factorOf(seed.metric, seed.published.a.value, seed.published.b.value) };
    const outcome = missing ? null : outcomeOf(c, found, published.factor);
    return {
      seed: seed.seed,
      title: seed.title,
      study: seed.study,
      claim: seed.claim,
      metric: seed.metric,
      here_metric: seed.here.metric || seed.metric,
      published,
      here: seed.here,
      comparison: missing ? null : c,
      found,
      outcome,
      estimate: missing || outcome ? null : estimateOf(seed, runs, margin, published.factor),
      not_here: seed.not_here || [],
    };
  });
}

// The 2011 study whose four tests the report sets beside a run (seed 002's `tests`).
const STUDY = SEEDS.find((s) => s.seed === '002');

/**
 * The study's tests in a run: per test (seeds.json seed 002's `tests.list`, in order) the
 * comparison of node with em on the metric that judges it here (null where there is none), and
 * its claim judged against that comparison, by the seeds table's rule (outcomeOf; a "really
 * close" is confirmed only by the equivalence test): { test, comparison, claim: { outcome
 * (null: not judged), a (the side the study found faster; node for "really close"), b, margin }
 * or null without a comparison }.
 */
function studyTests(comparisons) {
  return STUDY.tests.list.map((t) => {
    const { scenario, metric } = t.here;
    const c = findComparison(comparisons, scenario, metric, 'node', 'em');
    if (!c) return { test: t, comparison: null, claim: null };
    const [a, b] = t.said === 'em' ? ['em', 'node'] : ['node', 'em'];
    const ofNode = foundFactor(c);
    const found = ofNode && (a === 'node' ? ofNode : { factor: 1 / ofNode.factor, ci: ofNode.ci && [1 / ofNode.ci[1], 1 / ofNode.ci[0]] });
    const r = t.said ? t[`${b}_ms`] / t[`${a}_ms`] : null;
    return { test: t, comparison: c, claim: { outcome: outcomeOf(c, found, r), a, b, margin: c.margin ?? DEFAULT_MARGIN } };
  });
}

/** The rows of seedRows whose pair ran in these results. */
function seedsRun(results) {
  return seedRows(results).filter((r) => r.comparison);
}

module.exports = { seedClaim, SEEDS, STUDY, seedRows, seedsRun, studyTests };
