'use strict';
// The 2011 study (seed 002, ../shared/seeds/002_…) beside this run: its four tests' mean response
// times (perf/seeds.json, seed 002's `tests`, the study's own table) against this run's with
// their 95% intervals, and per test the study's claim judged against its own number on the
// metric that judges it here (perf/seeds.json: test 1 on req/s, as the seeds table judges it,
// tests 2–4 on mean time), by the seeds table's rule: judged once (perf/lib/judge/seeds.js
// studyTests, the judged results' study), rendered here.

const { STUDY } = require('../judge/seeds');
const { outcomeWords } = require('../text/seeds');
const { verdictWords } = require('../text/verdict_words');
const { fmtFactor } = require('../text/format');

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

/** The study's claim of a test as judged here (studyTests' claim), in words. */
function claimWords(claim) {
  return claim && claim.outcome ? outcomeWords(claim.outcome, NAMES[claim.a], NAMES[claim.b], claim.margin) : 'not judged';
}

/**
 * One row per test of the study: { test, scenario, metric, what, then: {node_ms, em_ms}, now:
 * {node, em} (meanNow each), said, found, outcome, conclusion, line }. results: as judged (perf/lib/judge/judged.js).
 */
function seedRows(results) {
  return results.study.map(({ test: t, comparison: c, claim: judged }) => {
    const { scenario, metric } = t.here;
    const now = { node: meanNow(results.aggregates, 'node', scenario), em: meanNow(results.aggregates, 'em', scenario) };
    const ran = Boolean(now.node || now.em);
    const found = ran && c ? verdictWords(c) : 'not run';
    const claim = ran ? { outcome: judged ? judged.outcome : null, words: claimWords(judged) } : { outcome: null, words: 'not run' };
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
