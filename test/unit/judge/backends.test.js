'use strict';
// What a backend call costs each server (perf/lib/judge/backends.js): each route against its
// baseline, server by server, on the runs a verdict may use; the ratio's interval is Welch's
// (confidence.js, whose coverage confidence.test.js checks by simulation).

const assert = require('node:assert/strict');
const { analyzeBackends } = require('../../../perf/lib/judge/backends');

const ROUTE = { name: 'backend_upstream', kind: 'rate', request: { path: '/upstream?ms=10' }, baseline: 'backend_upstream_timer' };
const BASE = { name: 'backend_upstream_timer', kind: 'rate', request: { path: '/delay?ms=10' }, baseline_of: 'backend_upstream' };

function run(server, params, { cpu, p50, p99, judged = true, backendCpu = 0.02, backendPct = 4 }) {
  return {
    server,
    scenario: params.name,
    params,
    judged,
    server_cpu: { ms_per_request: cpu },
    latency_ms: { p50, p99 },
    ...(params.baseline ? { backends: [{ name: 'upstream', cpu_pct: backendPct, ms_per_request: backendCpu }] } : {}),
  };
}
const usable = (r) => r.judged;

describe('backends: what a call costs each server (route against its baseline)', () => {
  it('gives each metric the geometric means, their difference and the ratio with its interval', () => {
    const runs = [
      run('node', ROUTE, { cpu: 0.3, p50: 11, p99: 14 }),
      run('node', ROUTE, { cpu: 0.3, p50: 11, p99: 14 }),
      run('node', BASE, { cpu: 0.2, p50: 10.5, p99: 12 }),
      run('node', BASE, { cpu: 0.2, p50: 10.5, p99: 12 }),
    ];
    const [s] = analyzeBackends(runs, usable).scenarios;
    assert.deepEqual([s.scenario, s.baseline, s.backends, s.wait_ms], ['backend_upstream', 'backend_upstream_timer', ['upstream'], 10]);
    const x = s.servers.node;
    assert.deepEqual([x.runs, x.baseline_runs], [2, 2]);
    assert.deepEqual(x.cpu_ms, { route: 0.3, baseline: 0.2, extra: 0.1, ratio: 1.5, ci95: [1.5, 1.5] });
    assert.deepEqual(x.p50_ms.extra, 0.5);
    assert.deepEqual(x.backend_cpu_ms, { upstream: 0.02 });
    assert.deepEqual(x.backend_cpu_pct, { upstream: 4 });
  });

  it('leaves out the runs a verdict may not use, and says when the baseline has none', () => {
    const runs = [
      run('em', ROUTE, { cpu: 0.25, p50: 11, p99: 13 }),
      run('em', ROUTE, { cpu: 0.27, p50: 11.2, p99: 13.5 }),
      run('em', ROUTE, { cpu: 9, p50: 90, p99: 900, judged: false, backendCpu: 5 }),
      run('em', BASE, { cpu: 0.2, p50: 10.4, p99: 11, judged: false }),
    ];
    const x = analyzeBackends(runs, usable).scenarios[0].servers.em;
    assert.deepEqual([x.runs, x.baseline_runs], [2, 0]);
    assert.ok(Math.abs(x.cpu_ms.route - Math.sqrt(0.25 * 0.27)) < 0.001, 'the geometric mean of the usable runs only');
    assert.deepEqual([x.cpu_ms.baseline, x.cpu_ms.extra, x.cpu_ms.ratio, x.cpu_ms.ci95], [null, null, null, null]);
    assert.deepEqual(x.backend_cpu_ms, { upstream: 0.02 }, 'the median over the usable runs (5 ms was an unusable run)');
  });

  it('has nothing to say when no scenario with a baseline ran', () => {
    assert.equal(analyzeBackends([run('node', BASE, { cpu: 0.2, p50: 1, p99: 2 })], usable), null);
    assert.equal(analyzeBackends([], usable), null);
  });
});
