'use strict';
// The 2011 study (seed 002, ../shared/seeds/002_…) beside this run: its four tests' mean response
// times (perf/seeds.json, seed 002's `tests`, the study's own table) against this run's with
// their 95% intervals, and per test the study's claim judged against its own number on the
// metric that judges it here (perf/seeds.json: test 1 on req/s, as the seeds table judges it,
// tests 2–4 on mean time), by the seeds table's rule (perf/lib/judge/seeds.js outcomeOf): a
// "really close" is confirmed only by the equivalence test.

const { SEEDS, foundFactor, outcomeOf } = require('../judge/seeds');
const { outcomeWords } = require('../text/seeds');
const { verdictWords } = require('../text/verdict_words');
const { DEFAULT_MARGIN } = require('../judge/answer');
const { findComparison } = require('../judge/verdicts');
const { fmtFactor } = require('../text/format');

const STUDY = SEEDS.find((s) => s.seed === '002');
const NAMES = { node: 'Node', em: 'EventMachine' };
const ERA_THEN = '2011 (study)';
const ERA_NOW = 'this run';

/** This run's mean response time of a server: { ms, ci95, basis } or null. */
function meanNow(aggregates, server, scenario) {
  const a = aggregates.find((x) => x.server === server && x.scenario === scenario);
  const m = a && a.metrics && a.metrics.mean_ms;
  if (!m || m.centre === null || m.centre === undefined) return null;
  return { ms: m.centre, ci95: Array.isArray(m.ci95) ? m.ci95 : null, basis: a.basis };
}

/** What the study said of a test, in words. */
function saidText(t) {
  if (!t.said) return 'really close';
  const other = t.said === 'node' ? t.em_ms / t.node_ms : t.node_ms / t.em_ms;
  return `${NAMES[t.said]} ${fmtFactor(other)} faster`;
}

/**
 * The study's claim of a test against this run: { outcome, words } (outcome null: not judged).
 * "node is r× em" where the study found node faster (r from its times), "really close" where it
 * found neither.
 */
function claimHere(t, c) {
  if (!c) return { outcome: null, words: 'not judged' };
  const [a, b] = t.said === 'em' ? ['em', 'node'] : ['node', 'em'];
  const ofNode = foundFactor(c);
  const found = ofNode && (a === 'node' ? ofNode : { factor: 1 / ofNode.factor, ci: ofNode.ci && [1 / ofNode.ci[1], 1 / ofNode.ci[0]] });
  const r = t.said ? t[`${b}_ms`] / t[`${a}_ms`] : null;
  const outcome = outcomeOf(c, found, r);
  return { outcome, words: outcome ? outcomeWords(outcome, NAMES[a], NAMES[b], c.margin ?? DEFAULT_MARGIN) : 'not judged' };
}

/**
 * One row per test of the study: { test, scenario, metric, what, then: {node_ms, em_ms}, now:
 * {node, em} (meanNow each), said, found, outcome, conclusion, line }. results: as judged (perf/lib/judge/judged.js).
 */
function seedRows(results) {
  return STUDY.tests.list.map((t) => {
    const { scenario, metric } = t.here;
    const c = findComparison(results.comparisons, scenario, metric, 'node', 'em');
    const now = { node: meanNow(results.aggregates, 'node', scenario), em: meanNow(results.aggregates, 'em', scenario) };
    const ran = Boolean(now.node || now.em);
    const found = ran && c ? verdictWords(c) : 'not run';
    const claim = ran ? claimHere(t, c) : { outcome: null, words: 'not run' };
    return {
      test: t.test,
      scenario,
      metric,
      what: t.what,
      then: { node_ms: t.node_ms, em_ms: t.em_ms },
      now,
      said: saidText(t),
      found,
      outcome: claim.outcome,
      conclusion: claim.words,
      line: `Test ${t.test} (${scenario}): 2011 ${saidText(t)}; this run ${found}: ${claim.words}.`,
    };
  });
}

/** The chart's rows: [{test, era, server, ms, lo, hi}]. */
function seedChartRows(rows) {
  const out = [];
  for (const r of rows) {
    const label = `Test ${r.test}: ${r.scenario}`;
    for (const server of ['node', 'em']) {
      out.push({ test: label, era: ERA_THEN, server, ms: r.then[`${server}_ms`], lo: null, hi: null });
      const n = r.now[server];
      if (n) out.push({ test: label, era: ERA_NOW, server, ms: n.ms, lo: n.ci95 ? n.ci95[0] : null, hi: n.ci95 ? n.ci95[1] : null });
    }
  }
  return out;
}

module.exports = { STUDY, seedRows, seedChartRows, ERAS: [ERA_THEN, ERA_NOW] };
