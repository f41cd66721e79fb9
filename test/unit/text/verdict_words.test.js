'use strict';
// A comparison's verdict in words (perf/lib/text/verdict_words.js), from its answer
// (perf/lib/rule/metrics.js answerOf, given by withAnswer as judged.js gives it), on made-up
// comparisons.

const assert = require('node:assert/strict');
const { verdictWords: words } = require('../../../perf/lib/text/verdict_words');
const { withAnswer } = require('../../../perf/lib/rule/metrics');
const { decide, moreMeasuring } = require('../../../perf/lib/rule/answer');

/** A judged comparison of node (a) with em (b): ratio = node ÷ em, decided with a ±10 % margin. */
const comparison = (metric, ratio, ci95, more = {}) => {
  const decision = ci95 ? decide(ci95, 0.1) : null;
  return withAnswer({ scenario: 's', metric, a: 'node', b: 'em', ratio, ci95, significant: ci95 ? ci95[0] > 1 || ci95[1] < 1 : null, decision, margin: 0.1, more_measuring: decision === 'undecided' ? moreMeasuring(ratio, ci95, 0.1) : null, excluded: null, no_verdict: null, note: null, ...more });
};

describe('a verdict in words', () => {
  it('a winner: the interval excludes 1 — "node 2.0× faster [1.60–2.50]"', () => {
    const c = comparison('p50_ms', 0.5, [0.4, 0.625]);
    assert.equal(words(c), 'node 2.0× faster [1.60–2.50]');
    assert.equal(words(comparison('throughput_rps', 0.8, [0.7, 0.9])), 'em 1.25× more req/s [1.11–1.43]');
  });

  it('undecided: the interval holds 1 and reaches past the margin — the lead, its factor and interval, and what would decide it', () => {
    const c = comparison('cpu_ms_per_request', 1.1, [0.9, 1.3]);
    assert.match(words(c), /^undecided: em 1\.1× less CPU\/req \[0\.90–1\.30\]; about [\d.]+× the measuring would decide$/);
    assert.equal(words(withAnswer({ ...c, more_measuring: 250 })), 'undecided: em 1.1× less CPU/req [0.90–1.30]; over 100× the measuring would decide');
  });

  it('a winner the false-discovery control did not keep: undecided, said with the rate it was held to', () => {
    const c = comparison('p50_ms', 0.5, [0.4, 0.625], { decision: 'undecided', winner: null, fdr: { kept: false, q: 0.1 } });
    assert.equal(words(c), 'undecided: node 2.0× faster [1.60–2.50], a winner at 95 % alone, not kept with false discoveries held at 10 % over the run');
  });

  it('the same within the margin: only where the whole interval lies inside it, said with the margin and the ratio\'s interval', () => {
    const same = comparison('peak_rss_mb', 1.001, [0.98, 1.02]);
    assert.equal(words(same), 'same within ±10 % [0.98–1.02]');
  });

  it('one usable trial on a side: no interval, so no verdict — the runner\'s note where it says so', () => {
    const one = comparison('mean_ms', 1 / 3, null);
    assert.equal(words(one), 'no verdict (node 3.0× faster; 1 trial: no interval)');
    assert.equal(words(comparison('mean_ms', 1.004, null, { note: 'em: 1 trial: no interval' })), 'no verdict (1.0×; em: 1 trial: no interval)');
  });

  it('not judged whatever the numbers (no_verdict): its code; a side that could not be used (excluded): why', () => {
    const rate = comparison('throughput_rps', 1.0001, [0.99, 1.01], { no_verdict: 'set by the rate', note: 'set by the rate: the schedule fixes it' });
    assert.equal(words(rate), 'set by the rate');
    const bound = comparison('p50_ms', null, null, { excluded: 'client-bound', no_verdict: 'n too small', note: 'node client-bound in all 3 trials' });
    assert.equal(words(bound), 'not compared: node client-bound in all 3 trials');
  });

  it('nothing measured: a dash and why; no comparison at all: a dash', () => {
    assert.equal(words(comparison('p50_ms', null, null, { note: 'em failed' })), '– (em failed)');
    assert.equal(words(null), '–');
  });
});
