'use strict';
// The differences the contract documents, as the differential tester recognises them
// (test/difftest/documented.js): a runtime's own parser (contract.json runtime_differences)
// only where that runtime runs that side.

const assert = require('node:assert/strict');
const { documentedAs } = require('../../difftest/documented');

const caseOf = (text) => ({ writes: [{ bytes: Buffer.from(text, 'latin1'), pauseMs: 0 }] });
// Node 20's side answered 411 (or 400), the other 400; what differs: the first reply's status.
const seen = (code) => ({ replies: [{ status: code }], closed: true, rest: 0, reset: false });
const reply = seen(411);
const status = [{ aspect: 'status of reply 1' }];

describe('difftest: documented differences', () => {
  it('Node 20\'s parser on an empty Transfer-Encoding or a tab after a Content-Length: documented where node runs on node20, not elsewhere', () => {
    const emptyTe = caseOf('POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding:\r\n\r\n0\r\n\r\n');
    const tab = caseOf('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\t\r\n\r\nhello');
    const node20 = { node: { server: 'node', runtime: 'node20' }, em: { server: 'em', runtime: 'ruby31' } };
    const today = { node: { server: 'node', runtime: 'node24' }, em: { server: 'em', runtime: 'ruby33_yjit' } };
    assert.equal(documentedAs(emptyTe, status, reply, reply, node20), 'node20-empty-transfer-encoding');
    assert.equal(documentedAs(tab, status, seen(400), seen(200), node20), 'node20-content-length-tab');
    // Node 20's side answering what its parser does not, or anything beyond the first reply
    // differing: not this difference, whoever is to blame.
    assert.equal(documentedAs(tab, status, seen(200), seen(400), node20), null);
    assert.equal(documentedAs(emptyTe, [...status, { aspect: 'status of reply 2' }], reply, reply, node20), null);
    assert.equal(documentedAs(emptyTe, status, seen(400), seen(411), { ...node20, node: { server: 'node', runtime: 'node24' }, em: { server: 'node', runtime: 'node20' } }), 'node20-empty-transfer-encoding', 'node on node20 as the second side');
    assert.equal(documentedAs(emptyTe, status, reply, reply, today), null);
    assert.equal(documentedAs(tab, status, reply, reply, null), null, 'a pair of unknown runtimes: today\'s');
    assert.equal(documentedAs(caseOf('GET /hello HTTP/1.1\r\nHost: x\r\n\r\n'), status, reply, reply, node20), null);
  });
});
