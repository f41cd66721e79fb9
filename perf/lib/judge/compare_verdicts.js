'use strict';
// Do two runs give the same answers? For every scenario, metric and pair of servers that both
// runs judged (their stored comparisons, perf/lib/judge/verdicts.js), the two answers side by
// side (perf/lib/judge/answer.js):
//   same winner          both name the same server
//   opposite             they name different servers: the answer does not hold run to run
//   both same            both find the two the same within the margin
//   same vs clear winner one finds them the same, the other a winner whose whole interval lies
//                        beyond the margin: the answers contradict each other
//   same vs close winner one finds them the same, the other a winner whose interval reaches
//                        into the margin: both can be true
//   only A / only B      one decided (a winner or the same), the other is undecided
//   neither              both undecided
// Comparisons one run could not judge (excluded, no_verdict, one trial) are counted apart.
// Used for the A/A check (two quick runs in a row) and for quick against full:
// scripts/compare.sh --verdicts, which exits 1 on the contradicting kinds (CONTRADICTIONS).

const { DEFAULT_MARGIN, decide, withinMargin } = require('./answer');
const { leadOf } = require('./metrics');

const KINDS = ['same winner', 'opposite', 'both same', 'same vs clear winner', 'same vs close winner', 'only A', 'only B', 'neither', 'not judged in one'];
const CONTRADICTIONS = ['opposite', 'same vs clear winner'];

function judged(c) {
  return c && !c.excluded && !c.no_verdict && c.ratio !== null && c.ratio !== undefined && Array.isArray(c.ci95);
}

/** A judged comparison's answer: its stored decision, or one decided now (older files). */
function decisionOf(c) {
  return c.decision || decide(c.ci95, c.margin ?? DEFAULT_MARGIN);
}

/** Whether a winner's whole interval lies beyond the margin (it cannot be "the same"). */
function clearWinner(c) {
  const { ci } = leadOf(c);
  return !withinMargin([1, ci[0]], c.margin ?? DEFAULT_MARGIN);
}

/** How two judged comparisons' answers relate: one of KINDS. */
function kindOf(ca, cb) {
  const [da, db] = [decisionOf(ca), decisionOf(cb)];
  if (da === 'winner' && db === 'winner') return ca.winner === cb.winner ? 'same winner' : 'opposite';
  if (da === 'same' && db === 'same') return 'both same';
  if (da === 'same' && db === 'winner') return clearWinner(cb) ? 'same vs clear winner' : 'same vs close winner';
  if (da === 'winner' && db === 'same') return clearWinner(ca) ? 'same vs clear winner' : 'same vs close winner';
  if (da === 'undecided' && db === 'undecided') return 'neither';
  return da === 'undecided' ? 'only B' : 'only A';
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
    const kind = judged(ca) && judged(cb) ? kindOf(ca, cb) : 'not judged in one';
    rows.push({ scenario: ca.scenario, metric: ca.metric, a: ca.a, b: ca.b, winnerA, winnerB, kind });
  }
  const tally = Object.fromEntries(KINDS.map((k) => [k, rows.filter((r) => r.kind === k).length]));
  return { rows, tally };
}

module.exports = { compareVerdicts, KINDS, CONTRADICTIONS };
