'use strict';
// The seed study (../shared/seeds/002_…, 2011) beside this run: its four tests' mean response
// times (seed_002.json, the study's own table, kept as data) against this run's mean response
// times with their 95% intervals (results.json `aggregates`, perf/lib/judge/verdicts.js), and per test
// whether the study's conclusion still holds, judged by this run's mean_ms comparison.

const SEED = require('./seed_002.json');
const { fmtFactor, leadOf } = require('../judge/metrics');

const NAMES = { node: 'Node', em: 'EventMachine' };
const ERA_THEN = '2011 (study)';
const ERA_NOW = 'this run';

/** The aggregate of a server in a scenario, or null. */
function aggregateOf(aggregates, server, scenario) {
  return aggregates.find((a) => a.server === server && a.scenario === scenario) || null;
}

/** This run's mean response time of a server: { ms, ci95, basis } or null. */
function meanNow(aggregates, server, scenario) {
  const a = aggregateOf(aggregates, server, scenario);
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

/** What this run says (c: the report's mean_ms comparison, node vs em). */
function nowText(c) {
  if (!c) return 'not run';
  if (c.excluded) return `not judged (${c.excluded === 'not-judged' ? c.note : c.excluded})`;
  if (c.factor === null) return `not judged (${c.no_verdict || c.note || 'not measured'})`;
  if (c.winner) {
    // A winner is named only with an interval (perf/lib/judge/verdicts.js): the winner's factor's.
    const { factor, ci } = leadOf(c);
    return `${NAMES[c.winner]} ${fmtFactor(factor)} faster [${fmtFactor(ci[0]).replace('×', '')}–${fmtFactor(ci[1])}]`;
  }
  if (c.significant === false) return 'no significant difference';
  return 'no verdict (1 trial: no interval)';
}

/** Does the study's conclusion hold here? true, false, or null (cannot tell). */
function holds(t, c) {
  // One trial on a side: no interval, so it cannot tell (perf/lib/judge/verdicts.js names no winner).
  if (!c || c.excluded || c.factor === null || (c.significant !== true && c.significant !== false)) return null;
  return (c.winner || null) === t.said;
}

/**
 * One row per seed test: { test, scenario, what, then: {node_ms, em_ms, said}, now: {node, em}
 * (meanNow each), said, found, holds, line }. comps: the report's comparisons (node vs em).
 */
function seedRows(aggregates, comps) {
  return SEED.tests.map((t) => {
    const c = comps.find((x) => x.scenario === t.scenario && x.metric === 'mean_ms' && x.a === 'node' && x.b === 'em') || null;
    const now = { node: meanNow(aggregates, 'node', t.scenario), em: meanNow(aggregates, 'em', t.scenario) };
    const ran = now.node || now.em;
    const h = ran ? holds(t, c) : null;
    const found = ran ? nowText(c) : 'not run';
    const verdict = h === true ? 'holds' : h === false ? 'does not hold' : 'cannot tell';
    return {
      test: t.test,
      scenario: t.scenario,
      what: t.what,
      then: { node_ms: t.node_ms, em_ms: t.em_ms },
      now,
      said: saidText(t),
      found,
      holds: h,
      line: `Test ${t.test} (${t.scenario}): 2011 ${saidText(t)}; this run ${found}: ${verdict}.`,
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

module.exports = { SEED, seedRows, seedChartRows, ERAS: [ERA_THEN, ERA_NOW] };
