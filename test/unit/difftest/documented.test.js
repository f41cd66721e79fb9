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

describe('difftest: async-http\'s own server\'s documented differences', () => {
  const onAsyncHttp = { node: { server: 'node', runtime: 'node24' }, em: { server: 'async_http', runtime: 'ruby33_yjit' } };
  const nodeEm = { node: { server: 'node', runtime: 'node24' }, em: { server: 'em', runtime: 'ruby33_yjit' } };
  const ok = (path = '/hello') => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
  // A case of the grammar's shape: its requests' texts, their lengths, nothing after them.
  const casOf = (...requests) => ({ writes: [{ bytes: Buffer.from(requests.join(''), 'latin1'), pauseMs: 0 }], lengths: requests.map((r) => Buffer.byteLength(r, 'latin1')) });
  const replies = (...statuses) => ({ replies: statuses.map((status) => ({ status, headers: {}, body: '' })), closed: true, rest: 0, reset: false });
  const at = (n) => [{ aspect: `status of reply ${n}` }];
  // Each difference: a request that carries it (Node's answer, async_http's).
  const TRIGGERED = {
    'async-http-request-line': ['GET  /hello HTTP/1.1\r\nHost: x\r\n\r\n', 200, 400],
    'async-http-refusal-moment': ['GET /hello HTTP/1.1\r\nHost: x\r\nFo@: v\r\n\r\n', 400, 408],
    'async-http-field-white-space': ['POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\t\r\n\r\nhello', 200, 400],
    'async-http-transfer-codings': ['POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n', 400, 411],
    'async-http-single-fields': ['GET /hello HTTP/1.1\r\nHost: x\r\nUser-Agent: a\r\nUser-Agent: b\r\n\r\n', 200, 400],
    'async-http-upgrade': ['GET /hello HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n', 200, 200],
    'async-http-line-ends': ['GET /hello HTTP/1.1\nHost: x\n\n', 200, null],
    'async-http-field-controls': ['GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n', 400, 200],
  };

  for (const [id, [request, nodeStatus, asyncStatus]] of Object.entries(TRIGGERED)) {
    it(`${id}: documented from the request that carries it on, never before it, and only where async_http runs a side`, () => {
      const theirs = (...before) => replies(...before, ...(asyncStatus === null ? [] : [asyncStatus]));
      // Alone, and after a request both answered alike.
      assert.equal(documentedAs(casOf(request), at(1), replies(nodeStatus), theirs(), onAsyncHttp), id);
      assert.equal(documentedAs(casOf(ok(), request), at(2), replies(200, nodeStatus), theirs(200), onAsyncHttp), id);
      // A disagreement on the request before it: not this difference, whatever came after.
      assert.equal(documentedAs(casOf(ok(), request), at(1), replies(200, nodeStatus), replies(404, asyncStatus ?? 400), onAsyncHttp), null);
      // The same bytes between node and em: no difference of async_http's.
      assert.equal(documentedAs(casOf(request), at(1), replies(nodeStatus), theirs(), nodeEm), null);
      assert.equal(documentedAs(casOf(request), at(1), replies(nodeStatus), theirs(), null), null);
    });
  }

  it('an ordinary request claims none of them: a disagreement on it stays undocumented', () => {
    assert.equal(documentedAs(casOf(ok(), ok('/nothing')), at(1), replies(200, 404), replies(400, 404), onAsyncHttp), null);
    assert.equal(documentedAs(casOf('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello'), at(1), replies(200), replies(400), onAsyncHttp), null);
  });
});
