'use strict';
// A scenario in words (perf/lib/report/describe.js), from the parameters it ran with.

const assert = require('node:assert/strict');
const { describeRun } = require('../../../perf/lib/report/describe');
const { loadScenarios } = require('../../../perf/lib/plan/scenarios');

describe('report: scenarios described at the size they ran', () => {
  it('a --quick run is described with its own counts, not the full ones', () => {
    const quick = Object.fromEntries(loadScenarios({ quick: true }).map((s) => [s.name, describeRun(s)]));
    assert.match(quick.sequential_6000, /^2,000 connections one after another/);
    assert.match(quick.concurrent_2000_20, /^20 connections opened at 20 per second/);
    assert.match(quick.keepalive_400x100, /25 requests each \(10,000 in all\)/);
    assert.match(quick.slow_read, /^10 slow readers .* during 1.5 s/);
    const full = Object.fromEntries(loadScenarios().map((s) => [s.name, describeRun(s)]));
    assert.match(full.sequential_6000, /^6,000 connections/);
    assert.equal(describeRun({ description: 'from another runner' }), null);
  });
});
