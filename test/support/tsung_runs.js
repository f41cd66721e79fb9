'use strict';
// What every Tsung run from load hosts must show, whoever made it (the engine's test through the
// runner as a library, the runner's end to end through the command line).

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { mergeLatencyHistograms, histogramPercentiles } = require('../../perf/lib/measure/stats');

/**
 * A Tsung run of results.json (outDir: its results folder) from two load hosts: each host sent a
 * fair share and has its agent's CPU and its clock, the hosts' histograms merge exactly into the
 * run's, no load problem, and Tsung's own log kept.
 */
function assertRunFromTwoHosts(run, outDir) {
  assert.equal(run.engine, 'tsung');
  assert.equal(run.load_hosts.length, 2);
  assert.equal(run.load_hosts.reduce((a, h) => a + h.requests, 0), run.replies);
  for (const h of run.load_hosts) {
    assert.ok(h.requests > 0 && h.share_pct > 20, `${h.name} sent ${h.requests} (${h.share_pct} %)`);
    assert.ok(h.client_cpu_pct > 0, `${h.name}: agent CPU ${h.client_cpu_pct}`);
    assert.ok(Math.abs(h.clock.offset_ms) < 50);
  }
  const merged = mergeLatencyHistograms(run.load_hosts.map((h) => h.latency_histogram));
  const whole = mergeLatencyHistograms([run.latency_histogram]);
  assert.equal(merged.totalCount, run.replies);
  assert.deepEqual(histogramPercentiles(merged), histogramPercentiles(whole));
  assert.deepEqual(run.load_problems, []);
  assert.ok(fs.existsSync(path.join(outDir, run.tsung_log, 'tsung.log')), run.tsung_log);
}

module.exports = { assertRunFromTwoHosts };
