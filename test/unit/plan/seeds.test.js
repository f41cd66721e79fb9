'use strict';
// What --seeds runs (perf/lib/plan/seeds.js): each seed study's servers, each on its seeds' scenarios.

const assert = require('node:assert/strict');
const { seedPlan } = require('../../../perf/lib/plan/seeds');

describe('seeds: what --seeds runs', () => {
  it('runs each seed\'s servers on their seeds\' scenarios only', () => {
    const { servers, scenariosFor } = seedPlan();
    assert.deepEqual([...servers].sort(), ['apache', 'em', 'libevent', 'libevent_rw', 'libevhtp', 'nginx', 'node']);
    assert.deepEqual([...scenariosFor.libevent].sort(), ['bigfile_100k', 'keepalive_400x100', 'long_conn_256', 'short_conn_256']);
    assert.deepEqual(scenariosFor.apache, ['index_500']);
    assert.deepEqual([...scenariosFor.node].sort(), ['index_500', 'sequential_6000']);
  });
});
