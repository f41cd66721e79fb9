'use strict';
// The report's Vega-Lite specs (perf/lib/report/chart_specs.js), rendered as the report renders
// them (perf/lib/report/render.js renderSvg).

const assert = require('node:assert/strict');
const agg = require('../../../perf/lib/report/aggregate');
const { timelineSpec } = require('../../../perf/lib/report/chart_specs');
const { renderSvg } = require('../../../perf/lib/report/render');
const { samplesOfCounts: samples } = require('../../support/made_up_results');

describe('report: per-interval p99 only where the interval resolves one', () => {
  it('the timeline breaks its p99 line and shading there, and its legend says so', async function () {
    this.timeout(20000);
    const values = agg.intervalBands(samples([10000, 10000, 50, 10000, 10000]), 1000).map((b) => ({ server: 'node', kind: 'request', t_s: (b.t0_s + b.t1_s) / 2, ...b }));
    const { svg, warnings } = await renderSvg(timelineSpec({ scenario: 'x', servers: ['node'], mode: 'bands', binMs: 1000, values, tail: { unresolved: 1, intervals: 5, minTail: 100 } }), { id: 't' });
    assert.deepEqual(warnings, []);
    const dashed = [...svg.matchAll(/<path d="([^"]+)"[^>]*stroke-dasharray="3,2"/g)].map((m) => m[1]);
    assert.equal(dashed.length, 1, 'one p99 line');
    assert.equal((dashed[0].match(/M/g) || []).length, 2, `the p99 line is cut in two at the unresolved interval: ${dashed[0]}`);
    assert.ok(svg.includes('No p99 in 1 of 5 intervals (n too small: fewer than 100'), 'the legend says where and why');
  });
});
