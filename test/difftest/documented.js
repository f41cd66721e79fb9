'use strict';
// The differences the contract documents (contract.json known_differences, CONTRACT.md
// "Known differences", and runtime_differences: a runtime's own parser answering otherwise),
// as the differential tester recognises them: for each entry the grammar can make (difftest:
// true), a test of one case's disagreement. A disagreement that none of these claims is
// undocumented: a bug of one server or a gap in the contract.

const contract = require('../../contract.json');

// Aspects a reset can change: which replies arrived whole, stray bytes of a cut one, the close.
const RESET_ASPECTS = new Set(['replies', 'bytes that are no reply', 'connection']);

// A reply cut short by the close: bytes that are no whole reply, then the end.
const cutShort = (obs) => obs.closed && obs.rest > 0;

/** The bytes a case sends, as text. */
const sent = (testCase) => Buffer.concat(testCase.writes.map((w) => w.bytes)).toString('latin1');

/** Whether one side runs the server on the runtime a runtime difference names. */
const onRuntimeOf = (id, on) => {
  const d = contract.runtime_differences.find((x) => x.id === id);
  return Boolean(on) && Object.values(on).some((side) => side && side.server === d.server && side.runtime === d.runtime);
};

const RECOGNISERS = {
  // A connection was reset, or a reply cut short by the close (after being sent again:
  // run.js), and all that differs is what that takes away: replies not read whole, and when
  // the connection ended.
  'reset-after-close': (testCase, diffs, node, em) => (node.reset || em.reset || cutShort(node) || cutShort(em)) && diffs.every((d) => RESET_ASPECTS.has(d.aspect)),
  // Node 20's parser on a tab after a Content-Length value, or on an empty Transfer-Encoding field.
  'node20-content-length-tab': (testCase, diffs, node, em, on) => onRuntimeOf('node20-content-length-tab', on) && /\r\nContent-Length:[ \t]*\d+ *\t[ \t]*\r\n/i.test(sent(testCase)),
  'node20-empty-transfer-encoding': (testCase, diffs, node, em, on) => onRuntimeOf('node20-empty-transfer-encoding', on) && /\r\nTransfer-Encoding:[ \t]*\r\n/i.test(sent(testCase)),
};

/**
 * The id of the documented difference this disagreement (diffs between node and em, the two
 * sides) is, or null. on: what runs each side (run.js runCase), for runtime_differences.
 */
function documentedAs(testCase, diffs, node, em, on = null) {
  for (const { id, difftest } of [...contract.known_differences, ...contract.runtime_differences]) {
    if (difftest && RECOGNISERS[id](testCase, diffs, node, em, on)) return id;
  }
  return null;
}

module.exports = { documentedAs, RECOGNISERS };
