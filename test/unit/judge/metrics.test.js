'use strict';
// The metrics and how a verdict on one is said (perf/lib/judge/metrics.js).

const assert = require('node:assert/strict');
const { METRICS } = require('../../../perf/lib/judge/metrics');

describe('metrics: names and values', () => {
  it('the metric table names each direction', () => {
    assert.deepEqual(Object.entries(METRICS).map(([k, m]) => `${k}:${m.better}`), ['mean_ms:lower', 'p50_ms:lower', 'p99_ms:lower', 'throughput_rps:higher', 'cpu_ms_per_request:lower', 'peak_rss_mb:lower']);
  });
});
