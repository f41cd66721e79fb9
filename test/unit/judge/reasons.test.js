'use strict';
// Why a run is not used for a verdict (perf/lib/judge/reasons.js): each reason's code and its
// one wording, written into results.json as "<label>: <detail>" and read back by its code.

const assert = require('node:assert/strict');
const { reasonText, reasonCode, reasonLabel } = require('../../../perf/lib/judge/reasons');

const CODES = ['failed', 'client-bound', 'load', 'not-server-bound', 'disturbed', 'superseded'];

describe('reasons: a code, its wording, and back', () => {
  it('a reason is stored as "<label>: <detail>" and read back as its code', () => {
    assert.equal(reasonText('not-server-bound', 'the server used 60% of its core'), 'not server-bound: the server used 60% of its core');
    assert.equal(reasonText('client-bound', 'the load generator used 95% of its core'), 'client-bound: the load generator used 95% of its core');
    for (const code of CODES) assert.equal(reasonCode(reasonText(code, 'why: in detail')), code, code);
  });

  it('each code has one label, a word in a sentence', () => {
    assert.deepEqual(CODES.map(reasonLabel), ['failed', 'client-bound', 'load', 'not server-bound', 'disturbed', 'superseded']);
    assert.equal(reasonLabel('something-else'), 'something-else', 'a code it does not know is its own word');
  });

  it('writes no reason it has no code for', () => {
    assert.throws(() => reasonText('slow', 'x'), /^Error: unknown reason code 'slow'$/);
    assert.throws(() => reasonText('not server-bound', 'x'), /unknown reason code/, 'the label is not the code');
  });

  it('reads a bare label as its code, and any other text as none', () => {
    assert.equal(reasonCode('client-bound'), 'client-bound', 'older results: the label alone');
    assert.equal(reasonCode('not server-bound'), 'not-server-bound');
    assert.equal(reasonCode('not-server-bound: x'), null, 'the code is not the label');
    assert.equal(reasonCode('the server was slow: 80%'), null);
    assert.equal(reasonCode('disturbed:no space'), null);
  });
});
