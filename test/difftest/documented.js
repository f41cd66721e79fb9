'use strict';
// The differences the contract documents (contract.json known_differences, CONTRACT.md
// "Known differences"), as the differential tester recognises them: for each entry the grammar
// can make (difftest: true), a test of one case's disagreement. A disagreement that none of
// these claims is undocumented: a bug of one server or a gap in the contract.

const contract = require('../../contract.json');

// Aspects a reset can change: which replies arrived whole, stray bytes of a cut one, the close.
const RESET_ASPECTS = new Set(['replies', 'bytes that are no reply', 'connection']);

// A reply cut short by the close: bytes that are no whole reply, then the end.
const cutShort = (obs) => obs.closed && obs.rest > 0;

const RECOGNISERS = {
  // A connection was reset, or a reply cut short by the close (after being sent again:
  // run.js), and all that differs is what that takes away: replies not read whole, and when
  // the connection ended.
  'reset-after-close': (testCase, diffs, node, em) => (node.reset || em.reset || cutShort(node) || cutShort(em)) && diffs.every((d) => RESET_ASPECTS.has(d.aspect)),
};

/** The id of the documented difference this disagreement (diffs between node and em) is, or null. */
function documentedAs(testCase, diffs, node, em) {
  for (const { id, difftest } of contract.known_differences) {
    if (difftest && RECOGNISERS[id](testCase, diffs, node, em)) return id;
  }
  return null;
}

module.exports = { documentedAs, RECOGNISERS };
