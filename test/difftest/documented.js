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

/**
 * The observation of the side that runs the server on the runtime a runtime difference names
 * (on: { node: { server, runtime }, em: … }, run.js runCase), or null when neither does.
 */
const sideOnRuntime = (id, on, node, em) => {
  const d = contract.runtime_differences.find((x) => x.id === id);
  const role = on ? Object.keys(on).find((k) => on[k] && on[k].server === d.server && on[k].runtime === d.runtime) : null;
  return role ? { node, em }[role] : null;
};
// What a runtime's parser answering otherwise can change: the first reply (its status, and its
// body and length for a 4xx), how many replies came, the connection's end.
const FIRST_REPLY_ASPECTS = /^(status of reply 1|replies|connection|bytes that are no reply|(body|content-length) of a 4\d\d)$/;
const firstReplyOnly = (diffs) => diffs.every((d) => FIRST_REPLY_ASPECTS.test(d.aspect));
/** The runtime's side answered `statuses` first, and nothing else differs (firstReplyOnly). */
const runtimeAnswered = (id, statuses, diffs, on, node, em) => {
  const side = sideOnRuntime(id, on, node, em);
  return Boolean(side) && statuses.includes(side.replies[0]?.status) && firstReplyOnly(diffs);
};

const RECOGNISERS = {
  // A connection was reset, or a reply cut short by the close (after being sent again:
  // run.js), and all that differs is what that takes away: replies not read whole, and when
  // the connection ended.
  'reset-after-close': (testCase, diffs, node, em) => (node.reset || em.reset || cutShort(node) || cutShort(em)) && diffs.every((d) => RESET_ASPECTS.has(d.aspect)),
  // Node 20's parser on a tab after a Content-Length value (its 400), or on an empty
  // Transfer-Encoding field (411 beside chunked, its server's own 400 alone).
  'node20-content-length-tab': (testCase, diffs, node, em, on) => runtimeAnswered('node20-content-length-tab', [400], diffs, on, node, em) && /\r\nContent-Length:[ \t]*\d+ *\t[ \t]*\r\n/i.test(sent(testCase)),
  'node20-empty-transfer-encoding': (testCase, diffs, node, em, on) => runtimeAnswered('node20-empty-transfer-encoding', [400, 411], diffs, on, node, em) && /\r\nTransfer-Encoding:[ \t]*\r\n/i.test(sent(testCase)),
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
