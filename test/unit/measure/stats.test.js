'use strict';
// Statistics (perf/lib/measure/stats.js): percentiles against known data and against an exact
// brute-force computation; the stored histogram; counting of replies, errors and status
// classes; and the summary table (perf/lib/text/summary.js).

const assert = require('node:assert/strict');
const { sampleSet } = require('../../support/made_up_results');
const { latencySummary, summarizeSamples, selectRows, encodeLatencies, mergeLatencyHistograms, histogramPercentiles, histogramStepMs } = require('../../../perf/lib/measure/stats');
const { Samples } = require('../../../perf/lib/measure/samples');

/** The exact percentile as HdrHistogram defines it: the smallest value with >= p% at or below. */
function exactPercentile(sorted, p) {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

function close(actual, expected, relative, what) {
  assert.ok(Math.abs(actual - expected) <= Math.abs(expected) * relative + 0.001, `${what}: ${actual} is not within ${relative * 100}% of ${expected}`);
}

describe('perf stats: percentiles', () => {
  it('1..1000 ms: p50 500, p90 900, p99 990, p99.9 999 (within 0.1%), exact min, mean, max', () => {
    const values = Array.from({ length: 1000 }, (_, i) => i + 1);
    const s = latencySummary(values);
    assert.equal(s.count, 1000);
    assert.equal(s.min, 1);
    assert.equal(s.max, 1000);
    assert.equal(s.mean, 500.5);
    close(s.p50, 500, 0.001, 'p50');
    close(s.p90, 900, 0.001, 'p90');
    close(s.p99, 990, 0.001, 'p99');
    close(s.p999, 999, 0.001, 'p99.9');
  });

  it('a constant: every percentile equals it', () => {
    const s = latencySummary(new Array(57).fill(2.5));
    for (const k of ['min', 'mean', 'p50', 'p90', 'p99', 'p999', 'max']) close(s[k], 2.5, 0.001, k);
  });

  it('skewed random data: within 0.1% of the exact percentiles, ordered, capped at max', () => {
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const values = Array.from({ length: 20000 }, () => Math.exp(rand() * 8) / 10); // 0.1 ms … 298 ms
    const sorted = [...values].sort((a, b) => a - b);
    const s = latencySummary(values);
    for (const [key, p] of [['p50', 50], ['p90', 90], ['p99', 99], ['p999', 99.9]]) {
      close(s[key], exactPercentile(sorted, p), 0.001, key);
    }
    assert.ok(s.min <= s.p50 && s.p50 <= s.p90 && s.p90 <= s.p99 && s.p99 <= s.p999 && s.p999 <= s.max);
    close(s.mean, values.reduce((a, b) => a + b, 0) / values.length, 1e-6, 'mean');
  });

  it('no values: nulls, not zeros', () => {
    assert.deepEqual(latencySummary([]), { count: 0, min: null, mean: null, p50: null, p90: null, p99: null, p999: null, max: null });
  });

  it('leaves out values that are not numbers, and counts a negative one (clocks) as 0', () => {
    const s = latencySummary([NaN, 4, Infinity, -2, undefined]);
    assert.deepEqual([s.count, s.min, s.mean, s.max], [2, 0, 2, 4]);
  });
});

describe('perf stats: the stored histogram', () => {
  // Two "trials" of skewed latencies; the histogram of each is kept, encoded, in results.json.
  let seed = 7;
  const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const trial1 = Array.from({ length: 3000 }, () => 0.2 + 5 * rand() ** 4);
  const trial2 = Array.from({ length: 5000 }, () => 0.3 + 9 * rand() ** 3);

  it('decodes to a histogram whose count is the replies, in HdrHistogram\'s own encoding', () => {
    const stored = encodeLatencies(trial1);
    assert.deepEqual(Object.keys(stored), ['encoding', 'unit', 'significant_digits', 'data']);
    assert.match(stored.data, /^HISTF/, 'the compressed V2 cookie HdrHistogram tools look for');
    assert.equal(mergeLatencyHistograms([stored]).totalCount, 3000);
    assert.equal(encodeLatencies([]), null);
  });

  it('two trials merged give the percentiles of all their replies together', () => {
    const merged = histogramPercentiles(mergeLatencyHistograms([encodeLatencies(trial1), encodeLatencies(trial2)]));
    const together = latencySummary([...trial1, ...trial2]);
    for (const key of ['p50', 'p90', 'p99', 'p999']) close(merged[key], together[key], 0.001, key);
    assert.equal(mergeLatencyHistograms([encodeLatencies(trial1), encodeLatencies(trial2)]).totalCount, 8000);
  });

  it('refuses an encoding it does not know, in one line', () => {
    assert.throws(() => mergeLatencyHistograms([{ encoding: 'csv', unit: 'ms', data: '' }]), /^Error: unknown histogram encoding 'csv' \(ms\)$/);
  });
});

describe('perf stats: samples and their summary', () => {
  it('counts requests = replies + errors, status classes, latency of replies only', () => {
    const sum = summarizeSamples(sampleSet(), { role: 'main' });
    assert.equal(sum.requests, 5);
    assert.equal(sum.replies, 3);
    assert.deepEqual(sum.errors, { refused: 1, reset: 0, timeout: 1, other: 0 });
    assert.deepEqual(sum.status, { '1xx': 0, '2xx': 2, '3xx': 0, '4xx': 1, '5xx': 0 });
    assert.equal(sum.latency_ms.min, 1);
    assert.equal(sum.latency_ms.max, 4);
    assert.equal(sum.connect_ms.mean, 0.5);
    assert.equal(sum.last_end_ms, 1030);
    assert.equal(mergeLatencyHistograms([sum.latency_histogram]).totalCount, sum.replies, 'the histogram holds the replies');
  });

  it('all roles: cut transfers are neither replies nor errors', () => {
    const sum = summarizeSamples(sampleSet());
    assert.equal(sum.requests, 6);
    assert.equal(sum.cut, 1);
    assert.equal(sum.status['5xx'], 1);
  });

  it('first start and last end span replies and errors, not cut transfers', () => {
    const sum = summarizeSamples(sampleSet());
    assert.equal(sum.first_start_ms, 0);
    assert.equal(sum.last_end_ms, 1030, 'the timeout ending at 1030 ms; the cut transfer ran to 4000 ms');
  });

  it('only the rows it is given (rows), or of one role (selectRows)', () => {
    const set = sampleSet();
    assert.deepEqual(selectRows(set, 'probe'), [5]);
    assert.deepEqual(selectRows(set, null), [0, 1, 2, 3, 4, 5, 6]);
    const sum = summarizeSamples(set, { rows: [2, 3] });
    assert.deepEqual([sum.requests, sum.replies, sum.errors.refused, sum.status['4xx'], sum.first_start_ms, sum.last_end_ms], [2, 1, 1, 1, 5, 21]);
  });

  it('informational and redirect replies in their classes', () => {
    const s = new Samples();
    s.start(0);
    for (const status of [101, 301, 304, 200]) s.add({ startAt: 0, endAt: 1, status });
    assert.deepEqual(summarizeSamples(s).status, { '1xx': 1, '2xx': 1, '3xx': 2, '4xx': 0, '5xx': 0 });
  });

  it('no samples: no requests, null latencies and times, no histogram', () => {
    const empty = new Samples();
    empty.start(0);
    const sum = summarizeSamples(empty);
    assert.deepEqual([sum.requests, sum.replies, sum.cut], [0, 0, 0]);
    assert.deepEqual(sum.errors, { refused: 0, reset: 0, timeout: 0, other: 0 });
    assert.deepEqual(sum.latency_ms, { min: null, mean: null, p50: null, p90: null, p99: null, p999: null, max: null });
    assert.deepEqual(sum.connect_ms, { mean: null, p99: null });
    assert.deepEqual([sum.latency_histogram, sum.first_start_ms, sum.last_end_ms], [null, null, null]);
  });
});

describe('stats: the step a percentile is known to (the histogram bucket it comes from)', () => {
  it('is 1 µs below 2,048 µs and doubles with each octave above: 0.128 ms at 252 ms, 1.024 ms at 2 s', () => {
    assert.deepEqual([0.5, 2.047, 2.048, 252, 1004.5, 2001.9].map(histogramStepMs), [0.001, 0.001, 0.002, 0.128, 0.512, 1.024]);
  });

  it('two latencies in one bucket give the same percentile, a bucket apart they differ by the step', () => {
    for (const ms of [3, 252.2, 2001.3]) {
      const step = histogramStepMs(ms);
      // Two of v and one far above: the p50 is v's bucket's edge (not capped at the maximum).
      const p50 = (v) => latencySummary([v, v, ms + 100 * step]).p50;
      assert.equal(p50(ms), p50(ms + step / 4), `${ms} ms`);
      assert.ok(Math.abs(p50(ms + step) - p50(ms) - step) < 1e-9, `${ms} ms: ${p50(ms + step)} − ${p50(ms)}`);
    }
  });
});
