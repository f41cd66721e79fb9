'use strict';
// Do two runs give the same answers? For every scenario, metric and pair of servers that both
// runs judged (their stored comparisons, perf/lib/judge/verdicts.js), the two answers side by
// side (perf/lib/rule/answer.js):
//   same_winner          both name the same server
//   opposite             they name different servers: the answer does not hold run to run
//   both_same            both find the two the same within the margin
//   same_vs_clear        one finds them the same, the other a winner whose whole interval lies
//                        beyond the margin: the answers contradict each other
//   same_vs_close        one finds them the same, the other a winner whose interval reaches
//                        into the margin: both can be true
//   only_a / only_b      one decided (a winner or the same), the other is undecided
//   neither              both undecided
// Comparisons one run could not judge (excluded, no_verdict, one trial) are counted apart
// (not_judged_in_one). The codes' words: perf/lib/text/verdict_words.js RELATION_WORDS.
// Used for the A/A check (two quick runs in a row) and for quick against full:
// scripts/compare.sh --verdicts, which exits 1 on the contradicting kinds (CONTRADICTIONS).

const { withinMargin, relate, CONTRADICTIONS } = require('../rule/answer');
const { DEFAULT_MARGIN } = require('../method');
const { leadOf } = require('../rule/metrics');

const KINDS = ['same_winner', 'opposite', 'both_same', 'same_vs_clear', 'same_vs_close', 'only_a', 'only_b', 'neither', 'not_judged_in_one'];

function judged(c) {
  return c && !c.excluded && !c.no_verdict && c.ratio !== null && c.ratio !== undefined && Array.isArray(c.ci95);
}

/** A judged comparison as relate() reads it: its decision, winner, and whether the winner is clear of the margin. */
function answerFor(c) {
  const { ci } = leadOf(c);
  return { decision: c.decision, lead: c.winner, clear: !withinMargin([1, ci[0]], c.margin ?? DEFAULT_MARGIN) };
}

/** How two judged comparisons' answers relate: one of KINDS. */
function kindOf(ca, cb) {
  const kind = relate(answerFor(ca), answerFor(cb));
  return { only_first: 'only_a', only_second: 'only_b' }[kind] || kind;
}

/** { rows: [{ scenario, metric, a, b, winnerA, winnerB, kind }], tally: { kind: n } }. */
function compareVerdicts(comparisonsA, comparisonsB) {
  const key = (c) => `${c.scenario}|${c.metric}|${c.a}|${c.b}`;
  const inB = new Map(comparisonsB.map((c) => [key(c), c]));
  const rows = [];
  for (const ca of comparisonsA) {
    const cb = inB.get(key(ca));
    if (!cb) continue;
    const winnerA = judged(ca) ? ca.winner || null : null;
    const winnerB = judged(cb) ? cb.winner || null : null;
    const kind = judged(ca) && judged(cb) ? kindOf(ca, cb) : 'not_judged_in_one';
    rows.push({ scenario: ca.scenario, metric: ca.metric, a: ca.a, b: ca.b, winnerA, winnerB, kind });
  }
  const tally = Object.fromEntries(KINDS.map((k) => [k, rows.filter((r) => r.kind === k).length]));
  return { rows, tally };
}

module.exports = { compareVerdicts, KINDS, CONTRADICTIONS };
