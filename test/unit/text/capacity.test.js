'use strict';
// A capacity search in words (perf/lib/text/capacity.js): each step's failure and why a search
// ended before its answer, from the codes perf/lib/run/capacity.js gives, as results.json
// stores them.

const assert = require('node:assert/strict');
const { failureText, incompleteText, searchWords } = require('../../../perf/lib/text/capacity');

describe('capacity in words', () => {
  it('a step\'s failure: errors, a schedule not kept, a percentile over the objective or not measured, the run\'s own failure', () => {
    assert.equal(failureText({ code: 'errors', errors: 3 }), '3 errors');
    assert.equal(failureText({ code: 'schedule', achieved_rps: 900, offered_rps: 1000 }), 'schedule not kept (900 of 1000/s)');
    assert.equal(failureText({ code: 'over', percentile: 'p99', ms: 12, limit_ms: 10 }), 'p99 12 ms over 10 ms');
    assert.equal(failureText({ code: 'over', percentile: 'p50', ms: 3, limit_ms: 2 }), 'p50 3 ms over 2 ms');
    assert.equal(failureText({ code: 'not_measured', percentile: 'p99' }), 'p99 not measured');
    assert.equal(failureText({ code: 'fatal', failure: 'the server exited during the run (signal SIGSEGV)' }), 'the server exited during the run (signal SIGSEGV)');
    assert.equal(failureText(null), null);
  });

  it('a search that ended early: out of steps before its bracket narrowed or its answer was confirmed, or stopped', () => {
    assert.equal(incompleteText({ code: 'out_of_steps', max_steps: 6, before: 'bracket', precision_pct: 5 }), 'out of steps (6) before the bracket narrowed to 5 %');
    assert.equal(incompleteText({ code: 'out_of_steps', max_steps: 12, before: 'confirmed', precision_pct: 5 }), 'out of steps (12) before its answer was confirmed');
    assert.equal(incompleteText({ code: 'stopped', reason: 'interrupted' }), 'interrupted');
    assert.equal(incompleteText(null), null);
  });

  it('a search with both in words, the rest as it was', () => {
    const search = { sustainable_rps: 4000, incomplete: { code: 'stopped', reason: 'interrupted' }, steps: [{ rate: 4000, failure: null }, { rate: 8000, failure: { code: 'errors', errors: 2 } }] };
    assert.deepEqual(searchWords(search), { sustainable_rps: 4000, incomplete: 'interrupted', steps: [{ rate: 4000, failure: null }, { rate: 8000, failure: '2 errors' }] });
  });
});
