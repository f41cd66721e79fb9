'use strict';
// Do two runs give the same answers? (perf/lib/judge/compare_verdicts.js, scripts/compare.sh
// --verdicts): an A/A pair of made-up runs, one whose winner flips, and each kind of row.

const assert = require('node:assert/strict');
const path = require('node:path');
const { compareVerdicts, KINDS, CONTRADICTIONS } = require('../../../perf/lib/judge/compare_verdicts');
const { decide } = require('../../../perf/lib/rule/answer');

/** A stored comparison as the reader hands it out: its decision made from its interval (±10 %). */
const decided = (c) => ({ margin: 0.1, ...c, decision: c.ci95 ? decide(c.ci95, 0.1) : null });
const { makeTrialRun } = require('../../support/make_trial_runs');
const { makeTmpDir } = require('../../support/runner_helpers');
const { compare } = require('../../support/compare_sh');

describe('compare.sh --verdicts: do two runs name the same winners?', function () {
  this.timeout(30000);
  const root = makeTmpDir('verdicts-');
  const A = makeTrialRun(path.join(root, 'A'), { seed: 1 });
  const C = makeTrialRun(path.join(root, 'C'), { seed: 3 });
  // em's keep-alive CPU per request 0.5× (node's 0.021 against 0.016): the winner flips to em,
  // by more than the margin (0.6×, 5 % apart, would be the same within it).
  const flipped = makeTrialRun(path.join(root, 'F'), { seed: 4, scale: { 'em|keepalive_400x100|cpu_ms_per_request': 0.5 } });

  it('A/A: the same winners everywhere, exit 0', () => {
    const res = compare(['--verdicts', A, C]);
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /^Verdicts of A and B \(scenario × metric × pair of servers, 12 in both\): same winner \d+, opposite 0, /m);
    assert.match(res.stdout, /^ {2}same winner {2}sequential_6000 mean ms \(node vs em\): A node, B node$/m);
  });

  it('a winner that flips is named "opposite", exit 1', () => {
    const res = compare(['--verdicts', A, flipped]);
    assert.equal(res.status, 1, res.stdout);
    assert.match(res.stdout, /opposite 1,/);
    assert.match(res.stdout, /^ {2}opposite {5}keepalive_400x100 CPU ms\/req \(node vs em\): A node, B em$/m);
  });

  it('counts an answer one run decided and the other did not, and what neither could judge', () => {
    // node's p50 half em's, decided; or an interval from 0.8 to 1.3, undecided.
    const doc = (winner, extra = {}) => [decided({ scenario: 's', metric: 'p50_ms', a: 'node', b: 'em', ratio: winner ? 0.5 : 1, ci95: winner ? [0.4, 0.6] : [0.8, 1.3], significant: Boolean(winner), winner, ...extra })];
    assert.deepEqual(compareVerdicts(doc('node'), doc(null)).tally['only_a'], 1);
    assert.deepEqual(compareVerdicts(doc(null), doc('node')).tally['only_b'], 1);
    assert.deepEqual(compareVerdicts(doc(null), doc(null)).tally.neither, 1);
    assert.deepEqual(compareVerdicts(doc('node'), doc(null, { excluded: 'client-bound', ratio: null })).tally['not_judged_in_one'], 1);
  });

  it('"the same" in one run against a winner beyond the margin in the other contradicts it; against a close winner it does not', () => {
    const same = [decided({ scenario: 's', metric: 'p50_ms', a: 'node', b: 'em', ratio: 1, ci95: [0.95, 1.05], significant: false, winner: null })];
    const clear = [decided({ ...same[0], ratio: 0.7, ci95: [0.6, 0.8], significant: true, winner: 'node' })];
    const close = [decided({ ...same[0], ratio: 0.93, ci95: [0.88, 0.98], significant: true, winner: 'node' })];
    assert.equal(compareVerdicts(same, clear).rows[0].kind, 'same_vs_clear');
    assert.equal(compareVerdicts(clear, same).rows[0].kind, 'same_vs_clear');
    assert.equal(compareVerdicts(same, close).rows[0].kind, 'same_vs_close');
    assert.equal(compareVerdicts(same, same).rows[0].kind, 'both_same');
    assert.deepEqual(CONTRADICTIONS, ['opposite', 'same_vs_clear']);
  });
});

describe('compare_verdicts: the rows and the tally', () => {
  const c = (scenario, metric, winner, extra = {}) => decided({ scenario, metric, a: 'node', b: 'em', ratio: 0.5, ci95: [0.4, 0.6], significant: Boolean(winner), winner, ...extra });

  it('a row per scenario, metric and pair both runs judged, each winner side by side; a tally of every kind', () => {
    const A = [c('s', 'p50_ms', 'node'), c('s', 'mean_ms', 'node'), c('s', 'p99_ms', null, { no_verdict: 'n too small', ratio: null }), c('only_in_a', 'p50_ms', 'node'), { ...c('s', 'p50_ms', 'nginx'), b: 'nginx' }];
    const B = [c('s', 'mean_ms', 'em'), c('s', 'p50_ms', 'node'), c('s', 'p99_ms', 'em'), c('only_in_b', 'p50_ms', 'em')];
    const { rows, tally } = compareVerdicts(A, B);
    assert.deepEqual(rows, [
      { scenario: 's', metric: 'p50_ms', a: 'node', b: 'em', winnerA: 'node', winnerB: 'node', kind: 'same_winner' },
      { scenario: 's', metric: 'mean_ms', a: 'node', b: 'em', winnerA: 'node', winnerB: 'em', kind: 'opposite' },
      { scenario: 's', metric: 'p99_ms', a: 'node', b: 'em', winnerA: null, winnerB: 'em', kind: 'not_judged_in_one' },
    ]);
    assert.deepEqual(Object.keys(tally), KINDS);
    assert.deepEqual(tally, { same_winner: 1, opposite: 1, both_same: 0, same_vs_clear: 0, same_vs_close: 0, only_a: 0, only_b: 0, neither: 0, not_judged_in_one: 1 });
  });
});
