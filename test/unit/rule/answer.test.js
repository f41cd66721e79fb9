'use strict';
// The three answers (perf/lib/rule/answer.js) and a published claim against its own number.

const assert = require('node:assert/strict');
const { decide, withinMargin, moreMeasuring, claimOutcome, relate, CONTRADICTIONS } = require('../../../perf/lib/rule/answer');
const { DEFAULT_MARGIN } = require('../../../perf/lib/method');

describe('answer: winner, the same within a margin, or undecided', () => {
  it('a winner where the interval excludes 1, on either side, and reaches past the margin', () => {
    assert.equal(decide([1.02, 1.3]), 'winner');
    assert.equal(decide([0.5, 0.98]), 'winner');
  });

  it('"the same" before "winner": an interval wholly within the margin is the same, whatever it excludes', () => {
    // em_tuned 1.04× [1.00–1.08]: sure of a difference nobody should choose a runtime by.
    assert.equal(decide([1.001, 1.08]), 'same');
    assert.equal(decide([1 / 1.08, 1 / 1.001]), 'same');
    assert.equal(decide([1.001, 1.11]), 'winner', 'past the margin: a winner');
  });

  it('"same" only where the whole interval lies within the margin, symmetric on the log scale', () => {
    assert.equal(DEFAULT_MARGIN, 0.1);
    assert.equal(decide([0.95, 1.05]), 'same');
    assert.equal(decide([1 / 1.1, 1.1]), 'same');
    assert.equal(decide([0.9, 1.05]), 'undecided'); // 0.9 < 1/1.1: past the margin below
    assert.equal(decide([0.95, 1.11]), 'undecided');
    assert.equal(decide([0.95, 1.15], 0.2), 'same');
    assert.ok(withinMargin([0.96, 1.04], 0.05) && !withinMargin([0.94, 1.04], 0.05));
  });

  it('no significant difference is never "the same": a wide interval holding 1 is undecided', () => {
    assert.equal(decide([0.89, 1.25]), 'undecided');
    assert.equal(decide([0.217, 11.8]), 'undecided');
  });

  it('says roughly how much more measuring would decide, by the square of the widths', () => {
    // Centre 1, half-width log(1.2): "same" needs half-width log(1.1): (log 1.2 / log 1.1)².
    const more = moreMeasuring(1, [1 / 1.2, 1.2]);
    assert.ok(Math.abs(more - (Math.log(1.2) / Math.log(1.1)) ** 2) < 1e-9);
    // Centre 1.3 with a wide interval: excluding 1 is the nearer answer.
    const towardsWinner = moreMeasuring(1.3, [0.8, 1.3 ** 2 / 0.8]);
    assert.ok(Math.abs(towardsWinner - (Math.log(1.3 / 0.8) / Math.log(1.3)) ** 2) < 1e-9);
    assert.equal(moreMeasuring(1, [1, 1], 0), null);
  });
});

describe('answer: a published claim judged against its own number', () => {
  // ci: this run's interval of the claimed winner's factor (> 1: it is better here).
  it('"a is r× b": confirmed, by less, by more, gone, reversed, smaller, undecided', () => {
    assert.equal(claimOutcome([1.1, 1.5], 1.27), 'confirmed');
    assert.equal(claimOutcome([1.05, 1.2], 1.27), 'less');
    assert.equal(claimOutcome([1.4, 1.9], 1.27), 'more');
    assert.equal(claimOutcome([0.95, 1.05], 1.27), 'gone');
    assert.equal(claimOutcome([0.5, 0.8], 1.27), 'reversed');
    assert.equal(claimOutcome([0.8, 1.2], 1.27), 'smaller');
    assert.equal(claimOutcome([0.46, 1.72], 1.27), 'undecided');
  });

  it('"really close": confirmed only by the equivalence test', () => {
    assert.equal(claimOutcome([0.95, 1.05], null), 'confirmed');
    assert.equal(claimOutcome([0.217, 11.8], null), 'undecided');
    assert.equal(claimOutcome([1.2, 1.5], null), 'differ');
  });
});

describe('answer: how two answers to one question relate (two runs, or two engines)', () => {
  const winner = (lead, clear = true) => ({ decision: 'winner', lead, clear });
  const same = { decision: 'same' };
  const undecided = { decision: 'undecided' };

  it('the same winner, opposite winners, both the same, neither', () => {
    assert.equal(relate(winner('a'), winner('a')), 'same_winner');
    assert.equal(relate(winner('a'), winner('b')), 'opposite');
    assert.equal(relate(same, same), 'both_same');
    assert.equal(relate(undecided, undecided), 'neither');
  });

  it('"the same" against a winner: a contradiction only when the winner is clear of the margin, either way round', () => {
    assert.equal(relate(same, winner('a', true)), 'same_vs_clear');
    assert.equal(relate(winner('a', true), same), 'same_vs_clear');
    assert.equal(relate(same, winner('a', false)), 'same_vs_close');
    assert.deepEqual(CONTRADICTIONS, ['opposite', 'same_vs_clear']);
  });

  it('one decided, the other undecided: which one', () => {
    assert.equal(relate(winner('a'), undecided), 'only_first');
    assert.equal(relate(undecided, same), 'only_second');
  });
});
