'use strict';
// How the differential tester compares two servers' answers (test/difftest/compare.js) and
// which disagreements it takes as documented (documented.js, contract.json known_differences).

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { differences, classOf, AT_ONCE_MS, CLOSE_TOLERANCE_MS } = require('../../difftest/compare');
const { documentedAs, RECOGNISERS } = require('../../difftest/documented');
const { parseReplies } = require('../../difftest/observe');
const contract = require('../../../contract.json');

const reply = (status, connection = 'keep-alive', body = 'x') => ({ status, headers: { 'content-length': String(body.length), connection }, keepAliveHeader: connection === 'keep-alive', bodyBytes: body.length, body, bodyText: body });
const seen = (replies, { closed = true, closeMs = 10, quietMs = closeMs, interim = 0, rest = 0, reset = false } = {}) => ({ replies, interim, rest, closed, closeMs, quietMs, reset });

describe('difftest compare', () => {
  it('finds nothing between two alike answers', () => {
    assert.deepEqual(differences(seen([reply(200), reply(404)]), seen([reply(200), reply(404)])), []);
  });

  it('names a status, a header, a body, a 100 Continue, a missing reply and stray bytes', () => {
    const aspects = (a, b) => differences(a, b).map((d) => d.aspect);
    assert.deepEqual(aspects(seen([reply(200)]), seen([reply(400)])), ['status of reply 1']);
    assert.deepEqual(aspects(seen([reply(200, 'close')]), seen([reply(200, 'keep-alive')])), ['connection of a 200', 'Keep-Alive header of a 200']);
    assert.deepEqual(aspects(seen([reply(200, 'close', 'a')]), seen([reply(200, 'close', 'b')])), ['body of a 200']);
    assert.deepEqual(aspects(seen([reply(200)], { interim: 1 }), seen([reply(200)])), ['100 Continue replies']);
    assert.deepEqual(aspects(seen([reply(200), reply(400)]), seen([reply(200)])), ['replies']);
    assert.deepEqual(aspects(seen([reply(200)], { rest: 3 }), seen([reply(200)])), ['bytes that are no reply']);
    assert.equal(classOf(differences(seen([reply(200)]), seen([reply(500)]))), 'status of reply 1: node 200, em 500');
  });

  it('tells a close at once from a later one, and later ones apart only past the tolerance', () => {
    const closing = (a, b) => differences(seen([reply(200)], a), seen([reply(200)], b)).map((d) => `${d.node} / ${d.em}`);
    assert.deepEqual(closing({ closeMs: 20 }, { closeMs: AT_ONCE_MS - 1 }), []);
    assert.deepEqual(closing({ closeMs: 20 }, { closeMs: 2000 }), ['closed at once / closed after 2.0 s']);
    assert.deepEqual(closing({ closeMs: 1000 }, { closeMs: 1000 + CLOSE_TOLERANCE_MS }), []);
    assert.deepEqual(closing({ closeMs: 1000 }, { closeMs: 1001 + CLOSE_TOLERANCE_MS }), ['closed after 1.0 s / closed after 2.6 s']);
    assert.deepEqual(closing({ closeMs: 2000 }, { closed: false }), ['closed after 2.0 s / open']);
  });

  it('times a close its last reply announced from the last silence, any other close from the last write', () => {
    const closing = (a, b, replyA = reply(200), replyB = replyA) => differences(seen([replyA], a), seen([replyB], b)).map((d) => `${d.node} / ${d.em}`);
    // A large reply announcing the close, still arriving 2 s after the last write, the close right after its last byte.
    assert.deepEqual(closing({ closeMs: 20 }, { closeMs: 2000, quietMs: AT_ONCE_MS - 1 }, reply(200, 'close')), []);
    // A 408 announcing the close, sent when a timeout fired: a wait like a silent close's.
    assert.deepEqual(closing({ closeMs: 3000, quietMs: 2990 }, { closeMs: 3010 }, reply(408, 'close'), reply(408, 'close')), []);
    assert.deepEqual(closing({ closeMs: 20 }, { closeMs: 3000, quietMs: 2990 }, reply(408, 'close')), ['closed at once / closed after 3.0 s']);
    // A kept connection closed 0.5 s after a large reply's last byte arrived: an idle timeout all the same.
    assert.deepEqual(closing({ closeMs: 2200, quietMs: 2200 }, { closeMs: 1500, quietMs: 500 }), []);
    assert.deepEqual(closing({ closeMs: 20 }, { closeMs: 1500, quietMs: 500 }), ['closed at once / closed after 1.5 s']);
  });

  it('parses a HEAD reply without a body, and sees a body a server wrongly sends with one', () => {
    const head = 'HTTP/1.1 400 Bad Request\r\nContent-Length: 12\r\n\r\n';
    assert.equal(parseReplies(Buffer.from(head), [true]).replies[0].bodyBytes, 0);
    assert.equal(parseReplies(Buffer.from(`${head}Bad Request\n`), [true]).replies[0].bodyBytes, 12);
    const two = parseReplies(Buffer.from(`${head}${head}`), [true, true]);
    assert.deepEqual([two.replies.length, two.rest], [2, 0]);
  });
});

describe('difftest documented differences', () => {
  it('knows exactly the known differences its cases can make, a runtime\'s own parser\'s too, and CONTRACT.md names every one', () => {
    const made = [...contract.known_differences, ...contract.runtime_differences].filter((d) => d.difftest).map((d) => d.id).sort();
    assert.deepEqual(Object.keys(RECOGNISERS).sort(), made);
    const text = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'CONTRACT.md'), 'utf8');
    for (const { id } of contract.known_differences) assert.ok(text.includes(`**${id}**`), `CONTRACT.md does not name ${id}`);
    for (const { id } of contract.runtime_differences) assert.ok(text.includes(`| \`${id}\` |`), `CONTRACT.md's table of a runtime's own parser does not name ${id}`);
  });

  it('takes a missing reply as reset-after-close only where a connection was reset or a reply cut short by the close', () => {
    const diffs = differences(seen([reply(200, 'close')]), seen([], { rest: 100 }));
    assert.equal(documentedAs({ labels: [] }, diffs, seen([reply(200, 'close')]), seen([], { rest: 100, reset: true })), 'reset-after-close');
    assert.equal(documentedAs({ labels: [] }, diffs, seen([reply(200, 'close')]), seen([], { rest: 0 })), null);
    assert.equal(documentedAs({ labels: [] }, diffs, seen([reply(200, 'close')]), seen([], { rest: 100, closed: true })), 'reset-after-close', 'a reply cut short by the close');
    const statusDiffs = differences(seen([reply(200)]), seen([reply(400)]));
    assert.equal(documentedAs({ labels: [] }, statusDiffs, seen([reply(200)], { reset: true }), seen([reply(400)])), null);
  });
});
