'use strict';
// The differences the contract documents (contract.json known_differences, CONTRACT.md
// "Known differences"), as the differential tester recognises them: for each entry the grammar
// can make (difftest: true), a test of one case's disagreement. A disagreement that none of
// these claims is undocumented: a bug of one server or a gap in the contract.

const contract = require('../../contract.json');

const RECOGNISERS = {
  // The request line has two or more spaces where one belongs: Node reads it, the EM gate refuses it.
  'request-line-spaces': (testCase, diffs) => testCase.labels.includes('request-line:spacing') && diffs.some((d) => d.em === 400 || /^1: 400/.test(String(d.em))),
};

/** The id of the documented difference this disagreement is, or null. */
function documentedAs(testCase, diffs) {
  for (const { id, difftest } of contract.known_differences) {
    if (difftest && RECOGNISERS[id](testCase, diffs)) return id;
  }
  return null;
}

module.exports = { documentedAs, RECOGNISERS };
