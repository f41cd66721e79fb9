'use strict';
// The report's reductions of a run's samples (perf/lib/report/aggregate.js): percentile curves
// that stop where n stops resolving them, per-interval bands, bin widths, slow clients' periods.

const assert = require('node:assert/strict');
const agg = require('../../../perf/lib/report/aggregate');
const { percentileResolved } = require('../../../perf/lib/rule/compare');

describe('report: slow clients\' periods', () => {
  it("takes slow clients' periods from the run record", () => {
    assert.deepEqual(agg.recordedPeriods({ slow_clients: { active_periods: [{ start_ms: 1, end_ms: 2, client: 1 }] } }), [{ start_ms: 1, end_ms: 2 }]);
    assert.equal(agg.recordedPeriods({}), null);
  });
});

describe('report: aggregation', () => {
  const sorted = Float64Array.from({ length: 1000 }, (_, i) => i + 1);

  it('percentile curve: nearest rank, 50 % marker, ends where 100 requests lie above', () => {
    const curve = agg.percentileCurve(sorted);
    const at = (x) => curve.find((p) => p.x === x);
    assert.equal(at(1).ms, 1);
    assert.equal(at(2).ms, 500);
    assert.equal(at(2).marker, true);
    assert.equal(at(10).ms, 900);
    assert.equal(at(100), undefined);
    assert.equal(curve[curve.length - 1].end, true);
    assert.ok(curve.length < 100, 'bounded size');
    for (let i = 1; i < curve.length; i++) assert.ok(curve[i].x > curve[i - 1].x);
  });

  it('percentile curve stops at 99.99 % for large runs', () => {
    const big = Float64Array.from({ length: 2000000 }, (_, i) => i);
    const curve = agg.percentileCurve(big);
    assert.equal(curve[curve.length - 1].x, 10000);
    assert.equal(curve[curve.length - 1].end, false);
  });

  it('interval bands: per-interval p50/p99/max and errors', () => {
    const s = { n: 4, t: Float64Array.from([0, 10, 20, 150]), ms: Float64Array.from([1, 3, 2, 5]), status: Uint16Array.from([200, 200, 0, 200]), role: new Uint8Array(4) };
    const bands = agg.intervalBands(s, 100);
    assert.equal(bands.length, 2);
    // Two replies resolve no p99 (test below): null, not their slowest.
    assert.deepEqual(bands[0], { t0_s: 0, t1_s: 0.1, n: 3, errors: 1, p50: 1, p99: null, max: 3 });
    assert.equal(bands[1].p50, 5);
  });

  it('bin widths are round numbers giving about the target count', () => {
    assert.equal(agg.pickBinWidth(3000, 150), 20);
    assert.equal(agg.pickBinWidth(60000, 150), 500);
  });

  it('merges overlapping periods', () => {
    assert.deepEqual(agg.mergePeriods([{ start_ms: 5, end_ms: 9 }, { start_ms: 0, end_ms: 6 }, { start_ms: 20, end_ms: 30 }]),
      [{ start_ms: 0, end_ms: 9 }, { start_ms: 20, end_ms: 30 }]);
  });
});

describe('report: percentiles only where n resolves them (n × (1 − p) ≥ 100)', () => {
  const curve = (n) => agg.percentileCurve(Float64Array.from({ length: n }, (_, i) => i + 1));

  it('the curve stops at the last resolved percentile, marks it, and never plots the maximum as 99 %', () => {
    for (const n of [100, 300, 1000, 6000, 10000, 1000000]) {
      const c = curve(n);
      assert.ok(c.length > 0, `n = ${n}`);
      for (const p of c) assert.ok(percentileResolved(n, 1 - 1 / p.x), `n = ${n}: ${p.percentile} %`);
      assert.ok(c.every((p) => p.ms < n), `n = ${n}: the slowest request is not on the curve`);
    }
    const c300 = curve(300);
    assert.deepEqual(c300[c300.length - 1], { percentile: 66.6667, x: 3, ms: 200, marker: false, end: true });
    assert.equal(curve(100).length, 1, 'n = 100: the minimum only');
    assert.deepEqual(curve(99), [], 'fewer than 100: no curve');
    assert.equal(curve(6000).some((p) => p.x === 100), false, 'no 99 % marker at n = 6000');
    assert.equal(curve(1000000).pop().end, false, '99.99 % is as far as any curve goes; not cut by n');
  });

  it('a run\'s summary percentiles obey the same rule', () => {
    const lat = { min: 0.1, p50: 1, p90: 2, p99: 9.13, p999: 12 };
    assert.deepEqual(agg.percentileCurveFromSummary(lat, 100).map((p) => p.percentile), [0]);
    assert.deepEqual(agg.percentileCurveFromSummary(lat, 10000).map((p) => p.percentile), [0, 50, 90, 99]);
  });
});

describe('report: per-interval p99 only where the interval resolves one', () => {
  const { samplesOfCounts: samples } = require('../../support/made_up_results');

  it('intervalBands: a p99 from 10,000 replies, null from fewer (the median is kept)', () => {
    const bands = agg.intervalBands(samples([10000, 9999, 10000]), 1000);
    assert.deepEqual(bands.map((b) => [b.n, b.p99 === null]), [[10000, false], [9999, true], [10000, false]]);
    assert.equal(bands[0].p99, 99, 'replies of 1 to 100 ms, a hundred each');
    assert.ok(bands.every((b) => b.p50 !== null));
    // Failed requests are no replies: 9,999 replies and an error still resolve none.
    const withError = samples([10000]);
    withError.status[0] = 0;
    assert.equal(agg.intervalBands(withError, 1000)[0].p99, null);
  });
});
