'use strict';
// The confidence intervals cover the true value at their stated rate: checked by simulation on
// log-normal trials with a known median, at the trial counts the runner uses.

const assert = require('node:assert/strict');
const { summarizeTrials, compareTrials } = require('../../../perf/lib/rule/confidence');
const { seededNormals: normalSource } = require('../../support/seeded_random');

const logNormalTrials = (normal, n, median, sigma) => Array.from({ length: n }, () => median * Math.exp(sigma * normal()));

describe('confidence intervals', () => {
  for (const n of [3, 5]) {
    it(`cover a known median 95% of the time with ${n} trials`, () => {
      const normal = normalSource(1000 + n);
      const simulations = 4000;
      let covered = 0;
      for (let i = 0; i < simulations; i += 1) {
        const { ci95 } = summarizeTrials(logNormalTrials(normal, n, 12.5, 0.1));
        if (ci95[0] <= 12.5 && 12.5 <= ci95[1]) covered += 1;
      }
      const rate = covered / simulations;
      // 4000 draws: a true 95% rate lands within ±1.1% about 99% of the time.
      assert.ok(rate > 0.935 && rate < 0.965, `coverage ${rate}`);
    });

    it(`cover a known ratio 95% of the time with ${n} trials per side, and rarely call equal servers different`, () => {
      const normal = normalSource(2000 + n);
      const simulations = 4000;
      let covered = 0;
      let falseAlarms = 0;
      for (let i = 0; i < simulations; i += 1) {
        const a = logNormalTrials(normal, n, 14, 0.08);
        const b = logNormalTrials(normal, n, 10, 0.15);
        const { ci95 } = compareTrials(a, b);
        if (ci95[0] <= 1.4 && 1.4 <= ci95[1]) covered += 1;
        if (compareTrials(logNormalTrials(normal, n, 10, 0.1), logNormalTrials(normal, n, 10, 0.1)).significant) falseAlarms += 1;
      }
      // Welch's interval is slightly conservative with unequal spreads.
      assert.ok(covered / simulations > 0.935 && covered / simulations < 0.975, `coverage ${covered / simulations}`);
      assert.ok(falseAlarms / simulations < 0.065, `false alarms ${falseAlarms / simulations}`);
    });
  }

  it('finds a clear difference significant', () => {
    const result = compareTrials([14.1, 13.8, 14.3], [10.2, 9.9, 10.1]);
    assert.ok(result.significant);
    assert.ok(result.ratio > 1.37 && result.ratio < 1.42, String(result.ratio));
    assert.ok(result.ci95[0] > 1.3 && result.ci95[1] < 1.5, String(result.ci95));
  });

  it('gives the centre of one trial and no interval', () => {
    assert.deepEqual(summarizeTrials([7]), { n: 1, centre: 7, ci95: null });
    assert.equal(compareTrials([7], [8, 9]), null);
  });

  it('leaves out missing and non-positive values', () => {
    const summary = summarizeTrials([null, 0, 10, 10, Number.NaN]);
    assert.equal(summary.n, 2);
    assert.ok(Math.abs(summary.centre - 10) < 1e-9);
    assert.ok(summary.ci95.every((bound) => Math.abs(bound - 10) < 1e-9));
  });
});
