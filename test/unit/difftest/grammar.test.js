'use strict';
// The differential tester's grammar (test/difftest/grammar.js): every case is made again from
// its seed and number alone, and a few thousand cases reach every part of the grammar.

const assert = require('node:assert/strict');
const { makeCase } = require('../../difftest/grammar');

const bytesOf = (testCase) => Buffer.concat(testCase.writes.map((w) => w.bytes));

describe('difftest grammar', () => {
  it('makes the same case from the same seed and number, and another from another', () => {
    for (const index of [0, 1, 77, 4096]) {
      const a = makeCase(7, index);
      const b = makeCase(7, index);
      assert.ok(bytesOf(a).equals(bytesOf(b)), `case ${index}`);
      assert.deepEqual(a.writes.map((w) => w.pauseMs), b.writes.map((w) => w.pauseMs));
      assert.deepEqual(a.labels, b.labels);
    }
    assert.ok(!bytesOf(makeCase(7, 1)).equals(bytesOf(makeCase(8, 1))), 'seeds 7 and 8 made the same case');
    assert.ok(!bytesOf(makeCase(7, 1)).equals(bytesOf(makeCase(7, 2))), 'cases 1 and 2 are the same');
  });

  it('reaches every part of the grammar within 3000 cases', () => {
    const cases = Array.from({ length: 3000 }, (_, i) => makeCase(1, i));
    const labels = cases.flatMap((c) => c.labels);
    const text = cases.map((c) => bytesOf(c).toString('latin1')).join('\n');
    const has = (pattern) => labels.some((l) => pattern.test(l));
    for (const pattern of [/^target:delay$/, /^target:upstream$/, /^target:db$/, /^target:long/, /^request-line:spacing$/, /^header:odd$/, /^header:line/, /^header:many/, /^header:fold$/,
      /^body:short$/, /^body:over-limit$/, /^body:content-length/, /^body:two content-lengths/, /^body:transfer-encoding/, /^line-ends:LF$/,
      /^split:per-request$/, /^split:cuts$/, /^split:bytes$/, /^split:tail-later$/, /^tail:/, / HTTP\/1\.0$/, /^HEAD /, /^CONNECT /]) {
      assert.ok(has(pattern), `no case labelled ${pattern}`);
    }
    for (const field of ['\r\nConnection: close\r\n', '\r\nUpgrade: websocket\r\n', '\r\nExpect: 100-continue\r\n', '\r\nExpect: foo\r\n', '\r\nHost: a\r\nHost: b\r\n']) {
      assert.ok(text.includes(field), `no case sends ${JSON.stringify(field)}`);
    }
    assert.ok(cases.some((c) => c.heads.length > 2), 'no case pipelines three requests');
    assert.ok(cases.some((c) => c.writes.some((w) => w.pauseMs > 0)), 'no case pauses between writes');
  });
});
