'use strict';
// The report's Vega-Lite specs (perf/lib/report/chart_specs.js), rendered as the report renders
// them (perf/lib/report/render.js renderSvg).

const assert = require('node:assert/strict');
const agg = require('../../../perf/lib/report/aggregate');
const { timelineSpec, pauseTimelineSpec, PAUSE_BANDS } = require('../../../perf/lib/report/chart_specs');
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

describe('report: the pause chart (a run\'s requests over time with the server\'s pauses)', () => {
  it('draws each kind of pause as a band in its own colour with a legend, the objective as a rule, and the dots in the server\'s colour', async function () {
    this.timeout(20000);
    const pauses = [['major GC', 0.1, 0.112], ['minor or other GC', 0.3, 0.31], ['loop stall', 0.7, 0.707]].map(([band, x0, x1]) => ({ band, x0_s: x0, x1_s: x1, from_ms: x0 * 1000, to_ms: x1 * 1000 }));
    const values = [{ server: 'node', t_s: 0.1, ms: 12, ok: true }, { server: 'node', t_s: 0.5, ms: 0.4, ok: true }, { server: 'node', t_s: 0.6, ms: 3, ok: false }];
    const rules = [{ kind: 'objective', ms: 10, label: 'objective p99 ≤ 10 ms', above: true }, { kind: 'measured', ms: 11.5, label: 'this step\'s p99: 11.5 ms', above: false }];
    const spec = pauseTimelineSpec({ server: 'node', title: 'node, hello at 400/s', subtitle: ['p99: coincided with GC pauses'], values, pauses, rules, xTitle: 'time since the start of the step (s)', spanS: 1 });
    const { svg, warnings } = await renderSvg(spec, { id: 'p' });
    assert.deepEqual(warnings, []);
    const rects = svg.slice(svg.indexOf('class="mark-rect role-mark'), svg.indexOf('</g>', svg.indexOf('class="mark-rect role-mark')));
    for (const { band, fill } of PAUSE_BANDS) {
      assert.ok(rects.includes(`fill="${fill}"`), `a ${band} band in ${fill}`);
      assert.ok(svg.includes(`>${band}</text>`), `the legend names ${band}`);
    }
    assert.equal((rects.match(/<path /g) || []).length, 3, 'one band a pause');
    const ruleGroups = [...svg.matchAll(/class="mark-rule role-mark[^"]*"[^>]*>(.*?)<\/g>/g)].map((m) => m[1]);
    assert.equal(ruleGroups.length, 2, 'the objective and the step\'s own p99');
    assert.match(ruleGroups[1], /stroke-dasharray="5,3"/, 'the step\'s own p99 dashed');
    for (const label of ['objective p99 ≤ 10 ms', 'this step\'s p99: 11.5 ms']) assert.ok(svg.includes(`>${label}</text>`), `labelled: ${label}`);
    assert.ok(svg.includes('fill="#0072B2"'), 'the dots in node\'s colour');
    assert.ok(svg.includes('>node</text>'), 'the legend names the server');
  });
});
