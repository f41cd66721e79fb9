'use strict';
// Paired, sequential comparison of two servers on a noisy shared machine. The load alternates
// between the two in rounds (both servers up and warm; each round measures A and B back to
// back, in a random order), so that what disturbs one side of a round disturbs the other; a
// round gives one paired difference d = log(a) − log(b), and what the machine did to both
// cancels in it. After some rounds (the looks, fixed in advance) the interval of the mean
// difference is computed and the answer decided (perf/lib/rule/answer.js); measuring stops at
// the first look that decides, or at the last.
//
// Looking more than once at growing data inflates the error rate of a 95% interval used at each
// look. Here the 5 % is spent over the K looks (Bonferroni): each look's interval is at level
// 1 − 0.05/K, so the interval at whichever look measuring stopped covers the true ratio with
// probability ≥ 95 %, however the stopping went (test/unit/rule/group_sequential.test.js checks it by
// simulation, for winners, "same" and undecided alike). Few looks, spaced geometrically, keep
// the price low: with the default looks (5, 10, 20, 40 rounds) each look is at 98.75 %. At this
// machine's noise (log req/s varying ~15 % per one-second slice, the two sides of a round
// correlated ~0.4) a 30 % gap is decided at the first or second look; "the same within 10 %"
// takes the last one (the simulation in the tests: 69 % of equal pairs decided "same" by 40
// rounds, 4 % a winner, the rest undecided).

const { jStat } = require('jstat');
const { decide, decidingHalfWidth } = require('./answer');
const { LEVEL, DEFAULT_LOOKS, DEFAULT_MARGIN } = require('../method');

/** The looks: rounds after which the interval is computed; at least 2 rounds each, increasing. */
function checkLooks(looks) {
  if (!Array.isArray(looks) || !looks.length || looks.some((n, i) => !Number.isInteger(n) || n < 2 || (i > 0 && n <= looks[i - 1]))) {
    throw new Error(`looks must be increasing whole numbers of rounds, 2 or more, not ${JSON.stringify(looks)}`);
  }
  return looks;
}

/** The level of each look's interval: the 5 % spent evenly over the looks. */
function lookLevel(looks) {
  return 1 - (1 - LEVEL) / checkLooks(looks).length;
}

/** Student's t quantile of a two-sided interval at `level` from n values (n − 1 degrees of freedom). */
function tQuantile(level, n) {
  return jStat.studentt.inv(1 - (1 - level) / 2, n - 1);
}

/**
 * The interval of the ratio a/b from paired log differences at a level: { n, ratio, ci }, or
 * null with fewer than two differences. Student t on the differences (their mean, their
 * standard error); a zero spread gives a zero-width interval, unless minVariance (the least
 * variance of one difference, where each is known only to a resolution) says otherwise.
 */
function pairedInterval(diffs, level, { minVariance = 0 } = {}) {
  const n = diffs.length;
  if (n < 2) return null;
  const mean = diffs.reduce((s, d) => s + d, 0) / n;
  const variance = Math.max(minVariance, diffs.reduce((s, d) => s + (d - mean) ** 2, 0) / (n - 1));
  const half = tQuantile(level, n) * Math.sqrt(variance / n);
  return { n, ratio: Math.exp(mean), ci: [Math.exp(mean - half), Math.exp(mean + half)] };
}

/**
 * Where a sequential comparison stands after the rounds so far (pairs: [[a, b], …] of one
 * metric, values > 0): { rounds, look (index of the look reached, or null before the first),
 * stop (decided, or the last look reached), ratio, ci, level, decision, more_measuring }.
 * Only rounds at a look count: between looks the last look's answer stands, so the guarantee
 * holds whatever the caller does between them.
 */
function status(pairs, { looks = DEFAULT_LOOKS, margin = DEFAULT_MARGIN } = {}) {
  const diffs = pairs.filter(([a, b]) => a > 0 && b > 0).map(([a, b]) => Math.log(a) - Math.log(b));
  const level = lookLevel(looks);
  let reached = null;
  for (let i = 0; i < looks.length && looks[i] <= diffs.length; i++) reached = i;
  if (reached === null) return { rounds: diffs.length, look: null, stop: false, ratio: null, ci: null, level, decision: null, more_measuring: null };
  const { ratio, ci } = pairedInterval(diffs.slice(0, looks[reached]), level);
  const decision = decide(ci, margin);
  const last = reached === looks.length - 1;
  return {
    rounds: diffs.length,
    look: reached,
    stop: decision !== 'undecided' || last,
    ratio,
    ci,
    level,
    decision,
    more_measuring: decision === 'undecided' ? moreRounds(looks[reached], ratio, ci, { level, margin }) : null,
  };
}

/**
 * How many times the rounds so far an undecided paired comparison would likely need to be
 * decided (its more_measuring). The interval at `rounds` rounds, at the looks' level, gives the
 * spread of one round's difference (half-width ÷ t quantile × √rounds); at n rounds the
 * half-width would be t(n − 1) × spread ÷ √n, and the answer comes at the first n where that
 * falls short of what decides (answer.js decidingHalfWidth). The t quantile counts: at 5 rounds
 * it is 4.3 against 3.1 at 10 (98.75 %), so a first look's interval narrows by more than √2
 * when the rounds double. Assumes the centre stays where it is; null when nothing would decide.
 */
function moreRounds(rounds, ratio, ci, { level, margin = DEFAULT_MARGIN }) {
  const half = (Math.log(ci[1]) - Math.log(ci[0])) / 2;
  const target = decidingHalfWidth(ratio, margin);
  if (!(rounds >= 2) || !(half > 0) || !(target > 0)) return null;
  const spread = (half / tQuantile(level, rounds)) * Math.sqrt(rounds);
  const halfAt = (n) => (tQuantile(level, n) * spread) / Math.sqrt(n);
  if (halfAt(rounds) < target) return 1;
  let lo = rounds;
  let hi = rounds * 2;
  while (halfAt(hi) >= target) {
    lo = hi;
    hi *= 2;
    if (hi > rounds * 1e6) return null;
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (halfAt(mid) < target) hi = mid;
    else lo = mid;
  }
  return hi / rounds;
}

/**
 * The look at which an undecided comparison would likely be decided: `more` times its rounds
 * (moreRounds), the first look at or past that, or null when it lies beyond the last.
 */
function lookToDecide(rounds, more, looks = DEFAULT_LOOKS) {
  if (!(rounds > 0) || !Number.isFinite(more)) return null;
  return looks.find((n) => n >= rounds * more && n > rounds) ?? null;
}

/**
 * With paired rounds, what a larger budget would likely buy: a pair's undecided comparisons
 * (comparisons: the pair's, each with its rounds and more_measuring), each at the look where its
 * interval would likely be narrow enough (lookToDecide), costed at its scenario's seconds per
 * round so far (secondsPerRound): { likely (how many a look would likely decide), beyond (how
 * many would need more than the last look), extra_s (the seconds the furthest looks add) }, or
 * null where none is undecided.
 */
function budgetOutlook({ comparisons, runs, scenarios, looks }) {
  let extraS = 0;
  let likely = 0;
  let beyond = 0;
  for (const scenario of scenarios) {
    // A winner the false-discovery control did not keep is undecided for another reason than its rounds.
    const open = comparisons.filter((c) => c.scenario === scenario && c.decision === 'undecided' && !c.fdr);
    if (!open.length) continue;
    const rounds = Math.max(...open.map((c) => c.rounds || 0));
    const to = open.map((c) => lookToDecide(c.rounds, c.more_measuring, looks));
    likely += to.filter((n) => n !== null).length;
    beyond += to.filter((n) => n === null).length;
    const furthest = Math.max(0, ...to.filter((n) => n !== null));
    if (furthest > rounds) extraS += (furthest - rounds) * secondsPerRound(runs, scenario, rounds);
  }
  return likely || beyond ? { likely, beyond, extra_s: extraS } : null;
}

/**
 * Seconds one round of a scenario took: its judged engine's runs (runs as judged: not
 * superseded), with warm-ups, over its rounds; runs measured together (beside) share their seconds.
 */
function secondsPerRound(runs, scenario, rounds) {
  const mine = runs.filter((r) => r.scenario === scenario && !r.superseded);
  const total = mine.reduce((t, r) => t + ((r.duration_s || 0) + ((r.warmup && r.warmup.seconds) || 0) + 0.1) / (r.beside ? r.beside.length + 1 : 1), 0);
  return rounds > 0 ? total / rounds : 0;
}

/**
 * Runs a sequential comparison on a source of rounds (round(i) → [a, b]), stopping at the first
 * deciding look: the final status. For simulations and tests; the runner drives status itself.
 */
function runSequential(round, options = {}) {
  const looks = options.looks || DEFAULT_LOOKS;
  const pairs = [];
  for (;;) {
    pairs.push(round(pairs.length));
    const s = status(pairs, { ...options, looks });
    if (s.stop) return s;
  }
}

module.exports = { lookLevel, pairedInterval, status, moreRounds, lookToDecide, budgetOutlook, runSequential };
