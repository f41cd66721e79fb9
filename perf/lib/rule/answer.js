'use strict';
// The answer a comparison ends in, from its ratio's 95% interval: the one rule, decided when
// the runs are judged (./compare.js compareOne), with its margin and method, and only rendered
// elsewhere.
//   same       the whole interval lies within the equivalence margin around 1
//              ([1/(1+m), 1+m], e.g. 0.909–1.10 for m = 10 %): an equivalence test (TOST) at
//              the interval's level; "no significant difference" alone is never "the same".
//              Judged first: a difference the interval shows to be smaller than the margin
//              (1.04× [1.00–1.08]) is one nobody should choose a runtime by, however sure
//   winner     otherwise, the interval excludes 1: the better side wins, by the ratio's factor
//   undecided  neither: the interval holds 1 and reaches past the margin; with it, roughly how
//              many times the measuring so far would decide it (moreMeasuring)
// The margin is symmetric on the log scale, as the intervals are, so "A is the same as B" and
// "B is the same as A" are one statement.

const { DEFAULT_MARGIN } = require('../method');

/** Whether an interval [lo, hi] of a ratio lies wholly within the margin m around 1. */
function withinMargin(ci, margin) {
  return ci[0] >= 1 / (1 + margin) && ci[1] <= 1 + margin;
}

/**
 * 'winner', 'same' or 'undecided' for a ratio's interval (ci: [lo, hi]) and a margin (0.1: ±10 %).
 */
function decide(ci, margin = DEFAULT_MARGIN) {
  if (withinMargin(ci, margin)) return 'same';
  if (ci[0] > 1 || ci[1] < 1) return 'winner';
  return 'undecided';
}

/**
 * The half-width (on the log scale) an interval around this ratio must shrink to for an answer:
 * the larger (the easier) of what would exclude 1 (|log ratio|) and what would fit inside the
 * margin (log(1 + m) − |log ratio|).
 */
function decidingHalfWidth(ratio, margin = DEFAULT_MARGIN) {
  const centre = Math.abs(Math.log(ratio));
  return Math.max(centre, Math.log(1 + margin) - centre);
}

/**
 * How many times the measuring behind an undecided interval would likely decide it, for
 * independent trials (paired rounds: group_sequential.js moreRounds, which counts the t quantile): an
 * interval's half-width on the log scale shrinks with the square root of the trials, so
 * reaching the deciding half-width h' from h takes (h/h')² as many. null when the centre sits
 * on neither side's reach (exactly 1 and no margin). A rough figure: it assumes the centre
 * stays where it is.
 */
function moreMeasuring(ratio, ci, margin = DEFAULT_MARGIN) {
  const half = (Math.log(ci[1]) - Math.log(ci[0])) / 2;
  const target = decidingHalfWidth(ratio, margin);
  if (!(target > 0) || !(half > 0)) return null;
  return (half / target) ** 2;
}

/**
 * A published claim judged against its own number, from this run's interval of the claimed
 * winner's factor (ci: [lo, hi], > 1 where the claimed winner is better here):
 *   claim "a is r× b" (r > 1):
 *     confirmed        a wins here and the interval holds r
 *     less / more      a still wins, by less (the interval lies below r) or by more
 *     gone             the interval lies within the margin around 1: the same here
 *     reversed         b wins here
 *     smaller          the interval excludes r but holds 1: smaller, size unknown
 *     undecided        the interval holds both 1 and r
 *   claim "a and b are really close" (r null): confirmed only by the equivalence test (the
 *   interval within the margin); 'differ' where one wins; else undecided.
 */
function claimOutcome(ci, r, margin = DEFAULT_MARGIN) {
  if (r === null) {
    if (withinMargin(ci, margin)) return 'confirmed';
    return ci[0] > 1 || ci[1] < 1 ? 'differ' : 'undecided';
  }
  if (ci[0] > 1) return r < ci[0] ? 'more' : r > ci[1] ? 'less' : 'confirmed';
  if (ci[1] < 1) return 'reversed';
  if (withinMargin(ci, margin)) return 'gone';
  return r > ci[1] ? 'smaller' : 'undecided';
}

/**
 * How two answers about the same question relate (two runs, or two engines): each { decision,
 * lead (the winner's side, for a winner), clear (a winner whose whole interval lies beyond the
 * margin) }. A code, which perf/lib/text/verdict_words.js RELATION_WORDS puts in words:
 * 'same_winner', 'opposite', 'both_same', 'same_vs_clear' (one the same, the other a clear winner:
 * they contradict each other), 'same_vs_close' (a close winner: both can be true), 'only_first' /
 * 'only_second' (one decided, the other undecided), 'neither'.
 */
function relate(first, second) {
  const [a, b] = [first.decision, second.decision];
  if (a === 'winner' && b === 'winner') return first.lead === second.lead ? 'same_winner' : 'opposite';
  if (a === 'same' && b === 'same') return 'both_same';
  if (a === 'same' && b === 'winner') return second.clear ? 'same_vs_clear' : 'same_vs_close';
  if (a === 'winner' && b === 'same') return first.clear ? 'same_vs_clear' : 'same_vs_close';
  if (a === 'undecided' && b === 'undecided') return 'neither';
  return a === 'undecided' ? 'only_second' : 'only_first';
}

/** The relations that contradict: the two answers cannot both be true. */
const CONTRADICTIONS = ['opposite', 'same_vs_clear'];

module.exports = { decide, withinMargin, decidingHalfWidth, moreMeasuring, claimOutcome, relate, CONTRADICTIONS };
