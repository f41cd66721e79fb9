'use strict';
// The sequential paired comparison (perf/lib/rule/group_sequential.js): its answers, and its stated
// 95 % coverage under repeated looks, checked by simulation on seeded random data shaped like
// this machine's slices (log req/s varying ~15 % per one-second slice, the two servers'
// adjacent slices correlated ~0.4).

const assert = require('node:assert/strict');
const { status, runSequential, lookLevel, lookToDecide, budgetOutlook, moreRounds, pairedInterval } = require('../../../perf/lib/rule/group_sequential');
const { DEFAULT_LOOKS } = require('../../../perf/lib/method');
const { moreMeasuring } = require('../../../perf/lib/rule/answer');
const { jStat } = require('jstat');
const { seededNormals } = require('../../support/seeded_random');


/**
 * A source of rounds: [a, b] with log a − log b = log(ratio) on average, each side's log value
 * varying by sd, the two sides of a round correlated by rho (what the machine did to both).
 */
function rounds(ratio, { sd = 0.15, rho = 0.4, seed }) {
  const z = seededNormals(seed);
  return () => {
    const shared = z();
    const a = Math.sqrt(rho) * shared + Math.sqrt(1 - rho) * z();
    const b = Math.sqrt(rho) * shared + Math.sqrt(1 - rho) * z();
    return [Math.exp(Math.log(ratio) + sd * a + 10), Math.exp(sd * b + 10)];
  };
}

/** Repeats a sequential comparison: how often its interval held the truth, and its answers. */
function simulate(ratio, { reps = 2000, looks = DEFAULT_LOOKS, margin = 0.1, seed = 1 } = {}) {
  let covered = 0;
  const decisions = { winner: 0, same: 0, undecided: 0 };
  let rounds_ = 0;
  for (let i = 0; i < reps; i++) {
    const s = runSequential(rounds(ratio, { seed: seed * 100003 + i }), { looks, margin });
    if (s.ci[0] <= ratio && ratio <= s.ci[1]) covered++;
    decisions[s.decision]++;
    rounds_ += s.rounds;
  }
  return { coverage: covered / reps, share: Object.fromEntries(Object.entries(decisions).map(([k, n]) => [k, n / reps])), meanRounds: rounds_ / reps };
}

// 2000 repetitions: a coverage of 95 % is measured within about ±1 % (two standard errors).
const TOLERANCE = 0.01;

describe('sequential paired comparison', () => {
  it('spends the 5 % over the looks: each look at 1 − 0.05/K', () => {
    assert.equal(lookLevel([3, 5, 8, 13, 20]), 0.99);
    assert.equal(lookLevel(DEFAULT_LOOKS), 0.9875);
    assert.equal(lookLevel([10]), 0.95);
    assert.throws(() => lookLevel([5, 3]), /increasing/);
    assert.throws(() => lookLevel([1, 3]), /2 or more/);
  });

  it('paired interval: the mean log difference with Student t, exponentiated', () => {
    const { ratio, ci } = pairedInterval([Math.log(2), Math.log(2), Math.log(2)], 0.95);
    assert.ok(Math.abs(ratio - 2) < 1e-12);
    assert.deepEqual(ci.map((x) => +x.toFixed(12)), [2, 2]);
    const spread = pairedInterval([0.1, -0.1, 0.05, -0.05], 0.95);
    assert.ok(spread.ci[0] < 1 && spread.ci[1] > 1);
    assert.equal(pairedInterval([0.1], 0.95), null);
  });

  it('decides only at a look, and stops at the first look that decides or at the last', () => {
    const clear = Array.from({ length: 4 }, () => [200, 100]).map(([a, b], i) => [a * (1 + i / 1000), b]);
    const looks = [3, 5, 8];
    const s = status(clear.slice(0, 2), { looks });
    assert.deepEqual([s.look, s.stop, s.decision], [null, false, null]);
    const at3 = status(clear.slice(0, 3), { looks });
    assert.deepEqual([at3.look, at3.stop, at3.decision], [0, true, 'winner']);
    // Between looks the last look's answer stands: 4 rounds are read as the look at 3.
    assert.equal(status(clear, { looks }).ci[0], at3.ci[0]);
    const noisy = [[1, 1.3], [1.3, 1], [1, 1.25], [1.2, 1], [1, 1.1]];
    const at5 = status(noisy, { looks: [3, 5, 8] });
    assert.deepEqual([at5.look, at5.stop, at5.decision], [1, false, 'undecided']);
    assert.ok(at5.more_measuring > 1);
    const last = status(Array.from({ length: 8 }, (_, i) => noisy[i % noisy.length]), { looks: [3, 5, 8] });
    assert.deepEqual([last.look, last.stop], [2, true]);
  });

  it('how many more rounds would decide: the first count at which t(n − 1) × spread ÷ √n falls short of what decides', () => {
    const level = lookLevel(DEFAULT_LOOKS);
    // An interval from 5 rounds of spread 0.1 (one round's log difference) around 1.05.
    const tq = (n) => jStat.studentt.inv(1 - (1 - level) / 2, n - 1);
    const half = (n) => (tq(n) * 0.1) / Math.sqrt(n);
    const ci = [1.05 * Math.exp(-half(5)), 1.05 * Math.exp(half(5))];
    const more = moreRounds(5, 1.05, ci, { level, margin: 0.1 });
    const n = more * 5;
    // Excluding 1 (log 1.05 = 0.049) is a little nearer than fitting within ±10 % (0.047).
    const target = Math.max(Math.log(1.05), Math.log(1.1) - Math.log(1.05));
    assert.ok(Number.isInteger(n) && half(n) < target && half(n - 1) >= target, `n ${n}`);
    // The t quantile counts: the plain (h/h')² rule, right for many trials, asks for more.
    assert.ok(moreMeasuring(1.05, ci, 0.1) * 5 > n + 5, `plain ${moreMeasuring(1.05, ci, 0.1) * 5} against ${n}`);
    assert.equal(lookToDecide(5, more), DEFAULT_LOOKS.find((l) => l >= n));
    assert.equal(moreRounds(5, 1, [1, 1], { level, margin: 0 }), null, 'nothing would decide');
  });

  it('what a larger budget would likely buy: the undecided comparisons at the look that would likely decide them, costed per round', () => {
    const c = (scenario, metric, rounds, more) => ({ scenario, metric, decision: 'undecided', rounds, more_measuring: more });
    // Five rounds of 2 s runs (1 s warm-up, 0.1 s between) a side: 6.2 s a round; a run beside another shares its seconds; superseded runs do not count.
    const run = (scenario, more = {}) => ({ scenario, duration_s: 2, warmup: { seconds: 1 }, superseded: false, ...more });
    const runs = [...Array.from({ length: 10 }, () => run('a')), run('a', { superseded: true }), run('b'), run('b', { beside: ['x'] })];
    const comparisons = [c('a', 'p50_ms', 5, 1.5), c('a', 'mean_ms', 5, 3), c('a', 'p99_ms', 5, 100), { ...c('a', 'rps', 5, 9), decision: 'winner' }, c('b', 'p50_ms', 10, 1.5)];
    const out = budgetOutlook({ comparisons, runs, scenarios: ['a', 'b'], looks: DEFAULT_LOOKS });
    // a: to 10 and 20 rounds (the furthest, 15 more at 6.2 s), one beyond 40; b: to 20 rounds, 10 more at (3.1 + 1.55) / 10 s.
    assert.deepEqual([out.likely, out.beyond], [3, 1]);
    assert.ok(Math.abs(out.extra_s - (15 * 6.2 + 10 * 0.465)) < 1e-9, String(out.extra_s));
    assert.equal(budgetOutlook({ comparisons: comparisons.filter((x) => x.decision === 'winner'), runs, scenarios: ['a'], looks: DEFAULT_LOOKS }), null, 'nothing undecided');
  });

  it('the look it names decides about as often as not: the projection is a fair guess, not a promise', () => {
    // From each first look that stayed undecided, the look it named for a comparison, and
    // whether measuring on to that look decided it: near half, neither always nor never.
    let named = 0;
    let decided = 0;
    for (let i = 0; i < 400; i++) {
      const next = rounds(1.08, { seed: 777000 + i });
      const pairs = Array.from({ length: 40 }, () => next());
      const first = status(pairs.slice(0, 5), {});
      if (first.decision !== 'undecided') continue;
      const to = lookToDecide(5, first.more_measuring);
      if (to === null) continue;
      named++;
      if (status(pairs.slice(0, to), {}).decision !== 'undecided') decided++;
    }
    assert.ok(named >= 100, `named ${named}`);
    assert.ok(decided / named > 0.35 && decided / named < 0.9, `decided at the named look ${decided} of ${named}`);
  });

  for (const ratio of [1, 1.05, 1.12, 1.3]) {
    it(`keeps its 95 % coverage under repeated looks (true ratio ${ratio})`, () => {
      const r = simulate(ratio, { seed: Math.round(ratio * 100) });
      assert.ok(r.coverage >= 0.95 - TOLERANCE, `coverage ${r.coverage}`);
    });
  }

  it('names no winner between equals, and no "same" beyond the margin, more than 5 % of the time', () => {
    const equal = simulate(1, { seed: 7 });
    assert.ok(equal.share.winner <= 0.05 + TOLERANCE, `false winners ${equal.share.winner}`);
    const apart = simulate(1.12, { seed: 8 });
    assert.ok(apart.share.same <= 0.05 + TOLERANCE, `false "same" ${apart.share.same}`);
  });

  it('decides at this machine\'s noise: a 30 % gap a winner within two looks, equals mostly "the same within 10 %" by the last', () => {
    const gap = simulate(1.3, { seed: 10, reps: 500 });
    assert.ok(gap.share.winner >= 0.99, `winner ${gap.share.winner}`);
    assert.ok(gap.meanRounds <= 10, `rounds ${gap.meanRounds}`);
    const equal = simulate(1, { seed: 9, reps: 500 });
    assert.ok(equal.share.same >= 0.6, `same ${equal.share.same}`);
  });

  it('a 95 % interval at every look would not keep its coverage: the reason for spending it', () => {
    // The same simulation with the naive rule (every look at 95 %, looking after every round):
    // coverage falls clearly below 95 %, so the checks above can tell a method that fails.
    let covered = 0;
    const reps = 2000;
    for (let i = 0; i < reps; i++) {
      const next = rounds(1, { seed: 424242 + i });
      const pairs = [];
      let s = null;
      for (let n = 1; n <= 20; n++) {
        pairs.push(next());
        if (n < 2) continue;
        s = pairedInterval(pairs.map(([a, b]) => Math.log(a) - Math.log(b)), 0.95);
        if (s.ci[0] > 1 || s.ci[1] < 1) break;
      }
      if (s.ci[0] <= 1 && 1 <= s.ci[1]) covered++;
    }
    assert.ok(covered / reps < 0.95 - 2 * TOLERANCE, `naive coverage ${covered / reps}`);
  });
});
