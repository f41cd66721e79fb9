'use strict';
// The 2011 study beside this run (perf/lib/report/seed.js): its four tests as published, and
// per test the study's claim judged against its own number: "really close" confirmed only by
// the equivalence test.

const assert = require('node:assert/strict');
const { decodeResults } = require('../../../perf/lib/store/results_doc');
const { judgeResults } = require('../../../perf/lib/judge/judged');

/** A document as every output reads it: decoded, then judged. */
const read = (doc) => judgeResults(decodeResults(doc));
const { seedRows, seedChartRows, STUDY, ERAS } = require('../../../perf/lib/report/seed');

describe('report: the 2011 study beside this run', () => {
  const agg1 = (server, scenario, centre, ci95) => ({ server, scenario, basis: 'trials', metrics: { mean_ms: { n: 3, centre, ci95 } } });
  // As the decoded results carry them: ratio = node / em, ci95 of the ratio, with answer and words.
  const cmp = (scenario, metric, ratio, ci95, significant) => ({ scenario, metric, a: 'node', b: 'em', ratio, ci95, significant, excluded: null, no_verdict: null, note: null });

  it('keeps the 2011 figures as data, with their source, in perf/seeds.json', () => {
    assert.match(STUDY.tests.source, /shared\/seeds\/002_/);
    assert.deepEqual(STUDY.tests.list.map((t) => [t.here.scenario, t.em_ms, t.node_ms]), [
      ['sequential_6000', 20.9, 4.3], ['concurrent_2000_20', 2.4, 2.4], ['concurrent_2000_100', 2.5, 2.5], ['concurrent_3000_200', 3.8, 4.1],
    ]);
    // Test 1 is judged on the metric of seed 002's headline row, so the two tables agree.
    assert.equal(STUDY.tests.list[0].here.metric, STUDY.here.metric);
  });

  it('judges each test\'s claim against its own number, in the stored comparison\'s words', () => {
    const aggregates = [agg1('node', 'sequential_6000', 0.2, [0.19, 0.21]), agg1('em', 'sequential_6000', 0.18, [0.17, 0.19]), agg1('node', 'concurrent_2000_20', 1.4, [1.3, 1.5]), agg1('em', 'concurrent_2000_20', 1.4, [1.3, 1.5]), agg1('node', 'concurrent_2000_100', 1, [0.9, 1.1]), agg1('em', 'concurrent_2000_100', 1.5, [1.4, 1.6]), agg1('node', 'concurrent_3000_200', 1, [0.9, 1.1]), agg1('em', 'concurrent_3000_200', 1, [0.9, 1.1])];
    const stored = [cmp('sequential_6000', 'throughput_rps', 1 / 1.14, [1 / 1.3, 1 / 1.01], true), cmp('concurrent_2000_20', 'mean_ms', 1.02, [0.97, 1.07], false), cmp('concurrent_2000_100', 'mean_ms', 1 / 1.5, [0.6, 0.7], true), cmp('concurrent_3000_200', 'mean_ms', 1.02, [0.8, 1.3], false)];
    const results = read({ environment: {}, runs: [], comparisons: stored, aggregates });
    const rows = seedRows(results);
    assert.deepEqual(rows.map((r) => r.outcome), ['reversed', 'confirmed', 'differ', 'undecided']);
    assert.equal(rows[0].line, 'Test 1 (sequential_6000): 2011 Node 4.86× faster; this run em 1.14× more req/s [1.01–1.30]: reversed: EventMachine wins here.');
    // "Really close" is confirmed by the equivalence test only, and a wide interval is undecided.
    assert.match(rows[1].line, /2011 really close; this run same within ±10 % \[0\.97–1\.07\]: confirmed\.$/);
    assert.match(rows[2].line, /this run node 1\.5× faster \[1\.43–1\.67\]: not close: one wins here\.$/);
    assert.match(rows[3].line, /this run undecided: em 1\.02× faster \[0\.80–1\.30\]; about [\d.]+× the measuring would decide: undecided\.$/);
    assert.deepEqual(rows[0].now.node, { ms: 0.2, ci95: [0.19, 0.21], basis: 'trials' });
    const notRun = seedRows({ ...results, aggregates: aggregates.slice(0, 6) })[3];
    assert.deepEqual([notRun.outcome, notRun.line], [null, 'Test 4 (concurrent_3000_200): 2011 really close; this run not run: not run.']);
  });
});

describe('report: the 2011 study\'s chart', () => {
  const mean = (server, scenario, centre, ci95) => ({ server, scenario, basis: 'trials', metrics: { mean_ms: { n: 3, centre, ci95 } } });

  it('a row per test, era and server: the study\'s means, and this run\'s with their interval where it ran', () => {
    const aggregates = [mean('node', 'sequential_6000', 0.2, [0.19, 0.21]), mean('em', 'sequential_6000', 0.4, null)];
    const rows = seedChartRows(seedRows(read({ environment: {}, runs: [], comparisons: [], aggregates })));
    assert.deepEqual(ERAS, ['2011 (study)', 'this run']);
    assert.deepEqual(rows.filter((r) => r.test === 'Test 1: sequential_6000'), [
      { test: 'Test 1: sequential_6000', era: '2011 (study)', server: 'node', ms: 4.3, lo: null, hi: null },
      { test: 'Test 1: sequential_6000', era: 'this run', server: 'node', ms: 0.2, lo: 0.19, hi: 0.21 },
      { test: 'Test 1: sequential_6000', era: '2011 (study)', server: 'em', ms: 20.9, lo: null, hi: null },
      { test: 'Test 1: sequential_6000', era: 'this run', server: 'em', ms: 0.4, lo: null, hi: null },
    ]);
    assert.deepEqual(rows.filter((r) => r.era === 'this run').map((r) => r.test), ['Test 1: sequential_6000', 'Test 1: sequential_6000'], 'tests not run: the study\'s bars alone');
    assert.equal(rows.length, 2 * STUDY.tests.list.length + 2);
  });

  it('a test that ran without an answer to judge it by: cannot tell', () => {
    const aggregates = [mean('node', 'sequential_6000', 0.2, null), mean('em', 'sequential_6000', 0.4, null)];
    const oneTrial = { scenario: 'sequential_6000', metric: STUDY.tests.list[0].here.metric, a: 'node', b: 'em', ratio: 2, ci95: null, significant: null, excluded: null, no_verdict: null, note: '1 trial: no interval' };
    const [row] = seedRows(read({ environment: {}, runs: [], comparisons: [oneTrial], aggregates }));
    assert.equal(row.outcome, null);
    assert.equal(row.line, 'Test 1 (sequential_6000): 2011 Node 4.86× faster; this run no verdict (node 2.0× more req/s; 1 trial: no interval): not judged.');
  });
});
