'use strict';
// Do two runs name the same winners? For every scenario, metric and pair of servers that both
// runs judged (their stored comparisons, perf/lib/judge/verdicts.js), the two verdicts side by side:
//   same winner       both name the same server
//   opposite          they name different servers: the verdict does not hold run to run
//   only A / only B   one names a winner, the other finds no significant difference
//   neither           neither names one
// Comparisons one run could not judge (excluded, no_verdict) are counted apart. Used for the
// A/A check (two quick runs in a row) and for quick against full: scripts/compare.sh --verdicts.

const KINDS = ['same winner', 'opposite', 'only A', 'only B', 'neither', 'not judged in one'];

function judged(c) {
  return c && !c.excluded && !c.no_verdict && c.ratio !== null && c.ratio !== undefined;
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
    let kind;
    if (!judged(ca) || !judged(cb)) kind = 'not judged in one';
    else if (winnerA && winnerB) kind = winnerA === winnerB ? 'same winner' : 'opposite';
    else if (winnerA) kind = 'only A';
    else if (winnerB) kind = 'only B';
    else kind = 'neither';
    rows.push({ scenario: ca.scenario, metric: ca.metric, a: ca.a, b: ca.b, winnerA, winnerB, kind });
  }
  const tally = Object.fromEntries(KINDS.map((k) => [k, rows.filter((r) => r.kind === k).length]));
  return { rows, tally };
}

module.exports = { compareVerdicts, KINDS };
