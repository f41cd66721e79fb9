'use strict';
// The differences the contract documents (contract.json known_differences, CONTRACT.md
// "Known differences"), as the differential tester recognises them: for each entry the grammar
// can make (difftest: true), a test of one case's disagreement. A disagreement that none of
// these claims is undocumented: a bug of one server or a gap in the contract.

const contract = require('../../contract.json');

// Aspects a reset can change: which replies arrived whole, stray bytes of a cut one, the close.
const RESET_ASPECTS = new Set(['replies', 'bytes that are no reply', 'connection']);

const RECOGNISERS = {
  // A connection was reset (after being sent again: run.js) and all that differs is what a
  // reset takes away: replies not read whole, and when the connection ended.
  'reset-after-close': (testCase, diffs, node, em) => (node.reset || em.reset) && diffs.every((d) => RESET_ASPECTS.has(d.aspect)),
};

/** The id of the documented difference this disagreement (diffs between node and em) is, or null. */
function documentedAs(testCase, diffs, node, em) {
  for (const { id, difftest } of contract.known_differences) {
    if (difftest && RECOGNISERS[id](testCase, diffs, node, em)) return id;
  }
  return null;
}

module.exports = { documentedAs, RECOGNISERS };
