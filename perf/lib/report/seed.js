'use strict';
// The 2011 study (seed 002, ../shared/seeds/002_…) beside this run: its four tests' mean response
// times (perf/seeds.json, seed 002's `tests`, the study's own table) against this run's with
// their 95% intervals, and per test this run's answer on the metric that judges it
// (perf/seeds.json: test 1 on req/s, as the seeds table judges it, tests 2–4 on mean time), in
// the words of the stored comparison.

const { SEEDS } = require('../judge/seeds');
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

/** Does the study's conclusion hold here? true, false, or null (cannot tell). */
function holds(t, c) {
  if (!c || !['winner', 'no_difference'].includes(c.answer.kind)) return null;
  return (c.winner || null) === t.said;
}

/**
 * One row per test of the study: { test, scenario, metric, what, then: {node_ms, em_ms}, now:
 * {node, em} (meanNow each), said, found, holds, line }. results: decodeResults' view.
 */
function seedRows(results) {
  return STUDY.tests.list.map((t) => {
    const { scenario, metric } = t.here;
    const c = results.comparisons.find((x) => x.scenario === scenario && x.metric === metric && x.a === 'node' && x.b === 'em') || null;
    const now = { node: meanNow(results.aggregates, 'node', scenario), em: meanNow(results.aggregates, 'em', scenario) };
    const ran = Boolean(now.node || now.em);
    const h = ran ? holds(t, c) : null;
    const found = ran && c ? c.words : 'not run';
    const verdict = h === true ? 'holds' : h === false ? 'does not hold' : 'cannot tell';
    return {
      test: t.test,
      scenario,
      metric,
      what: t.what,
      then: { node_ms: t.node_ms, em_ms: t.em_ms },
      now,
      said: saidText(t),
      found,
      holds: h,
      line: `Test ${t.test} (${scenario}): 2011 ${saidText(t)}; this run ${found}: ${verdict}.`,
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
