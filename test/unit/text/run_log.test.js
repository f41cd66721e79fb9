'use strict';
// The line the runner prints of each run (perf/lib/text/run_log.js).

const assert = require('node:assert/strict');
const { runLine } = require('../../../perf/lib/text/run_log');

const run = (more = {}) => ({
  server: 'node', scenario: 'keepalive_400x100', trial: 2, ok: true, replies: 40000, requests: 40000,
  errors: { refused: 0, reset: 0, timeout: 0, other: 0 }, latency_ms: { mean: 14.9, p99: 44.71 }, throughput_rps: 24341.4,
  server_cpu: { ms_per_request: 0.0381 }, client_bound: false, server_bound: true, disturbed: false, duration_s: 1.64, ...more,
});

describe('text: a run\'s line', () => {
  it('counts, times, rate and CPU per request in the project\'s number format, and the trial', () => {
    assert.equal(runLine(run(), { trials: 3 }), 'node  keepalive_400x100     40000/40000 replies  mean 14.9 ms  p99 44.7 ms  24,341 req/s  cpu 0.038 ms/req  (1.6 s, trial 2/3)');
    assert.match(runLine(run(), { trials: 1 }), /\(1\.6 s\)$/);
  });

  it('flags what keeps a run from a verdict: errors, client-bound, not server-bound, disturbed, the load hosts', () => {
    const line = runLine(run({ errors: { refused: 0, reset: 3, timeout: 1, other: 0 }, client_bound: true, server_bound: false, server_cpu_pct: 41, disturbed: true, load_hosts: [{ share_pct: 49.6 }, { share_pct: 50.4 }], load_problems: ['late'] }));
    assert.match(line, / {2}errors 4 {2}CLIENT-BOUND {2}NOT SERVER-BOUND \(server 41% of its core\) {2}DISTURBED {2}hosts 50\/50 % {2}LOAD NOT AS PLANNED {2}\(1\.6 s\)$/);
  });

  it('a failed run: FAILED and why, with its trial', () => {
    assert.equal(runLine(run({ ok: false, failure: 'server exited (code 1)' }), { trials: 3 }), 'node  keepalive_400x100    FAILED (trial 2/3): server exited (code 1)');
    assert.equal(runLine(run({ ok: false, failure: 'x', server: 'em' }), { serverWidth: 2 }), 'em keepalive_400x100    FAILED: x');
  });
});
