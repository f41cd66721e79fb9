'use strict';
// The metrics and what a verdict on one answers (perf/lib/rule/metrics.js): names and aliases,
// a run's value, the side that looks better and by what factor (leadOf), what a stored
// comparison answers (answerOf), on made-up comparisons (their words:
// test/unit/text/verdict_words.test.js).

const assert = require('node:assert/strict');
const { METRICS, METRIC_NAMES, metricName, metricValue, leadOf, answerOf } = require('../../../perf/lib/rule/metrics');
const { decide, moreMeasuring } = require('../../../perf/lib/rule/answer');

/** A stored comparison of node (a) with em (b): ratio = node ÷ em, decided with a ±10 % margin. */
const comparison = (metric, ratio, ci95, more = {}) => {
  const decision = ci95 ? decide(ci95, 0.1) : null;
  return { scenario: 's', metric, a: 'node', b: 'em', ratio, ci95, significant: ci95 ? ci95[0] > 1 || ci95[1] < 1 : null, decision, margin: 0.1, more_measuring: decision === 'undecided' ? moreMeasuring(ratio, ci95, 0.1) : null, excluded: null, no_verdict: null, note: null, ...more };
};

describe('metrics: names and values', () => {
  it('the metric table names each direction', () => {
    assert.deepEqual(Object.entries(METRICS).map(([k, m]) => `${k}:${m.better}`), ['mean_ms:lower', 'p50_ms:lower', 'p99_ms:lower', 'throughput_rps:higher', 'cpu_ms_per_request:lower', 'peak_rss_mb:lower']);
  });

  it('metricName: a metric by its name or a user\'s alias (any case, spaces around), else null', () => {
    for (const name of METRIC_NAMES) assert.equal(metricName(name), name);
    assert.deepEqual(['p50', 'median', ' P99 ', 'rps', 'req/s', 'Throughput', 'cpu', 'ms_per_request', 'RSS', 'server_peak_rss_mb'].map(metricName),
      ['p50_ms', 'p50_ms', 'p99_ms', 'throughput_rps', 'throughput_rps', 'throughput_rps', 'cpu_ms_per_request', 'cpu_ms_per_request', 'peak_rss_mb', 'peak_rss_mb']);
    assert.equal(metricName('p42'), null);
    assert.equal(metricName(''), null);
  });

  it('metricValue: a run\'s finite number, else null', () => {
    const r = { latency_ms: { mean: 1.5, p50: 1, p99: Number.NaN }, throughput_rps: '300', server_cpu: null, server_peak_rss_mb: 0 };
    assert.deepEqual(METRIC_NAMES.map((m) => metricValue(r, m)), [1.5, 1, null, null, null, 0]);
    assert.equal(metricValue({ latency_ms: null }, 'p50_ms'), null, 'a failed run has no latencies');
  });
});

describe('metrics: a request that waits on the server\'s timer', () => {
  it('is judged on its latency above the wait (mean less N, the stored p50 and p99 above it); its other metrics as they are', () => {
    const run = { latency_ms: { mean: 253.5, p50: 252.1, p99: 266.4 }, above_wait_ms: { wait_ms: 250, p50: 2.1, p99: 16.4 }, throughput_rps: 2000, server_cpu: { ms_per_request: 0.05 } };
    assert.deepEqual(['mean_ms', 'p50_ms', 'p99_ms', 'throughput_rps', 'cpu_ms_per_request'].map((m) => metricValue(run, m)), [3.5, 2.1, 16.4, 2000, 0.05]);
    assert.equal(metricValue({ latency_ms: { mean: 3.5, p50: 2, p99: 9 } }, 'mean_ms'), 3.5, 'a request that does not wait: its whole latency');
    assert.equal(metricValue({ latency_ms: null, above_wait_ms: null }, 'p50_ms'), null);
  });
});

describe('metrics: the side that looks better (leadOf)', () => {
  it('lower is better: the side with the smaller value, its factor ≥ 1 and the interval of that factor', () => {
    assert.deepEqual(leadOf(comparison('p50_ms', 0.5, [0.4, 0.625])), { lead: 'node', factor: 2, ci: [1.6, 2.5] });
    assert.deepEqual(leadOf(comparison('p50_ms', 2, [1.6, 2.5])), { lead: 'em', factor: 2, ci: [1.6, 2.5] });
  });

  it('higher is better: the side with the larger value', () => {
    assert.deepEqual(leadOf(comparison('throughput_rps', 2, [1.6, 2.5])), { lead: 'node', factor: 2, ci: [1.6, 2.5] });
    assert.deepEqual(leadOf(comparison('throughput_rps', 0.5, [0.4, 0.625])), { lead: 'em', factor: 2, ci: [1.6, 2.5] });
  });

  it('no interval without one; no lead without a usable ratio', () => {
    assert.deepEqual(leadOf(comparison('mean_ms', 0.8, null)), { lead: 'node', factor: 1.25, ci: null });
    for (const ratio of [null, undefined, 0, -1, Infinity, Number.NaN]) assert.deepEqual(leadOf(comparison('mean_ms', ratio, null)), { lead: null, factor: null, ci: null }, String(ratio));
  });
});

describe('metrics: what a stored comparison answers (answerOf)', () => {
  it('a winner: the interval excludes 1 — "node 2.0× faster [1.60–2.50]"', () => {
    const c = comparison('p50_ms', 0.5, [0.4, 0.625]);
    assert.deepEqual(answerOf(c), { lead: 'node', factor: 2, ci: [1.6, 2.5], margin: 0.1, kind: 'winner', more: null, fdr: null });
  });

  it('a winner the false-discovery control did not keep: undecided, and why', () => {
    const c = comparison('p50_ms', 0.5, [0.4, 0.625], { decision: 'undecided', fdr: { kept: false, q: 0.05 } });
    assert.deepEqual([answerOf(c).kind, answerOf(c).fdr], ['undecided', { kept: false, q: 0.05 }]);
  });

  it('undecided: the interval holds 1 and reaches past the margin — the lead, its factor and interval, and what would decide it', () => {
    const c = comparison('cpu_ms_per_request', 1.1, [0.9, 1.3]);
    assert.equal(answerOf(c).kind, 'undecided');
    assert.ok(answerOf(c).more > 1);
  });

  it('the same within the margin: only where the whole interval lies inside it, said with the margin and the ratio\'s interval', () => {
    const same = comparison('peak_rss_mb', 1.001, [0.98, 1.02]);
    assert.equal(answerOf(same).kind, 'same');
    // No significant difference is not "the same": an interval past the margin stays undecided.
    assert.equal(answerOf(comparison('peak_rss_mb', 1.001, [0.85, 1.18])).kind, 'undecided');
  });

  it('one usable trial on a side: no interval, so no verdict — the runner\'s note where it says so', () => {
    const one = comparison('mean_ms', 1 / 3, null);
    assert.deepEqual(answerOf(one), { lead: 'node', factor: 3, ci: null, margin: 0.1, kind: 'no_interval', why: { code: 'one_trial', sides: [] } });
    assert.deepEqual(answerOf(comparison('mean_ms', 1.02, null, { note: 'something else' })).why, { code: 'one_trial', sides: [] });
    assert.equal(answerOf(comparison('mean_ms', 1.02, null, { note: 'em: 1 trial: no interval' })).why, 'em: 1 trial: no interval', 'a stored note that says why');
  });

  it('not judged whatever the numbers (no_verdict): its code; a side that could not be used (excluded): why', () => {
    const rate = comparison('throughput_rps', 1.0001, [0.99, 1.01], { no_verdict: 'set by the rate', note: 'set by the rate: the schedule fixes it' });
    assert.deepEqual(answerOf(rate), { kind: 'no_verdict', why: 'set by the rate: the schedule fixes it', code: 'set by the rate' });
    const bound = comparison('p50_ms', null, null, { excluded: 'client-bound', no_verdict: 'n too small', note: 'node client-bound in all 3 trials' });
    assert.deepEqual(answerOf(bound), { kind: 'excluded', why: 'node client-bound in all 3 trials', code: 'client-bound' }, 'excluded first');
  });

  it('nothing measured: why', () => {
    assert.deepEqual(answerOf(comparison('p50_ms', null, null)), { kind: 'not_measured', why: { code: 'not_measured' } });
    assert.deepEqual(answerOf(comparison('p50_ms', null, null, { note: 'em failed' })), { kind: 'not_measured', why: 'em failed' });
  });
});
