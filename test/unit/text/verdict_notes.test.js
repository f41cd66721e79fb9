'use strict';
// Why a comparison has no verdict or no interval, in words (perf/lib/text/verdict_notes.js): each
// note the judge gives as a code with its numbers (perf/lib/rule/compare.js), as results.json
// stores it; a stored note is its words already.

const assert = require('node:assert/strict');
const { noteWords, withoutAdvice, tooFewText } = require('../../../perf/lib/text/verdict_notes');

const side = (over) => ({ server: 'node', total: 3, unit: 'trial', finished_only: false, lightest: false, kinds: [], ...over });

describe('verdict notes in words', () => {
  it('why a metric is never judged: the rate set, a quick run\'s smaller load, too few requests, steps too coarse', () => {
    assert.equal(noteWords({ code: 'rate_set', rate: 500 }), 'set by the rate: the schedule sends 500 requests/s whatever the server does');
    assert.equal(noteWords({ code: 'size_set', clients: 10, full_clients: 50 }), "smaller quick load: memory grows with the slow clients held at once, 10 here against the full run's 50");
    assert.equal(noteWords({ code: 'too_few', n: 2000, quantile: 0.99 }), 'n too small (2,000 requests; p99 needs 10,000)');
    assert.equal(tooFewText(300, 0.999), 'n too small (300 requests; p99.9 needs 100,000)');
    assert.equal(noteWords({ code: 'below_resolution', source: 'httperf', step_ms: 0.1, smallest_ms: 0.1312, judged_from_ms: 2 }), 'below the resolution: httperf gives 0.1 ms steps, too coarse for 0.13 ms (judged from 2 ms)');
    assert.equal(noteWords({ code: 'below_resolution', source: 'cpu_clock', step_ms: 0.1, smallest_ms: 1.3, judged_from_ms: 2 }), 'below the resolution: the CPU clock gives 0.1 ms steps, too coarse for 1.3 ms (judged from 2 ms)');
  });

  it('why there is no interval: one trial, a zero, too few paired rounds; or no answer yet', () => {
    assert.equal(noteWords({ code: 'one_trial', sides: [] }), '1 trial: no interval');
    assert.equal(noteWords({ code: 'one_trial', sides: ['em'] }), 'em: 1 trial: no interval');
    assert.equal(noteWords({ code: 'zero' }), 'a value of 0 (below the measurement resolution): no interval');
    assert.equal(noteWords({ code: 'not_measured' }), 'not measured');
    assert.equal(noteWords({ code: 'no_round', rounds: 0, others: [] }), 'no round in which both sides could be used: no interval');
    assert.equal(noteWords({ code: 'no_round', rounds: 1, others: ['not-server-bound', 'client-bound'] }), '1 round in which both sides could be used (the others: not server-bound, client-bound): no interval');
    assert.equal(noteWords({ code: 'early_look', rounds: 4, first_look: 5 }), '4 paired rounds, short of the first look (5): no answer yet');
  });

  it('why a side could not be used, each side once, the advice where every trial was client-bound', () => {
    const bound = { code: 'excluded', sides: [side({ reason: 'client-bound' })] };
    assert.equal(noteWords(bound), 'node client-bound in all 3 trials: the load generator set the pace; re-run with a lighter engine, e.g. --engine wrk');
    assert.equal(withoutAdvice(bound), 'node client-bound in all 3 trials');
    assert.equal(noteWords({ code: 'excluded', sides: [side({ reason: 'client-bound', total: 1, lightest: true })] }), 'node client-bound: the load generator set the pace even with the lightest engine here on one core; more load cores would decide (--engine tsung --load-hosts)');
    assert.equal(noteWords({ code: 'excluded', sides: [side({ reason: 'failed', server: 'em', total: 1 }), side({ reason: 'missing' })] }), 'em failed; no node run');
    assert.equal(noteWords({ code: 'excluded', sides: [side({ reason: 'failed', total: 2, unit: 'round' })] }), 'node failed in all 2 rounds');
    assert.equal(noteWords({ code: 'excluded', sides: [side({ reason: 'not-judged', total: 2, kinds: ['not-server-bound', 'disturbed'] })] }), 'node not judged in all 2 trials (not server-bound, disturbed)');
    assert.equal(noteWords({ code: 'excluded', sides: [side({ reason: 'not-judged', finished_only: true, kinds: ['shared'] })] }), 'node not judged in every trial that finished (shared core)');
  });

  it('a stored note stays as it is; its advice can still be left out', () => {
    assert.equal(noteWords('em: 1 trial: no interval'), 'em: 1 trial: no interval');
    assert.equal(noteWords(null), null);
    assert.equal(withoutAdvice('node client-bound in all 3 trials: the load generator set the pace; re-run with a lighter engine, e.g. --engine wrk; em failed'), 'node client-bound in all 3 trials; em failed');
  });
});
