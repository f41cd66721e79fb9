'use strict';
// What a backend call costs each server, in words (perf/lib/text/backends.js).

const assert = require('node:assert/strict');
const { backendLines, costText } = require('../../../perf/lib/text/backends');

const cost = (route, baseline, ratio, ci95) => ({ route, baseline, extra: Math.round((route - baseline) * 1000) / 1000, ratio, ci95 });

describe('backends in words', () => {
  it('a cost: the route, the baseline, the difference and the ratio with its interval', () => {
    assert.equal(costText(cost(0.31, 0.18, 1.72, [1.51, 1.96])), '0.31 ms against 0.18 ms (+0.13 ms, 1.72× [1.51–1.96])');
    assert.equal(costText(cost(10.4, 10.9, 0.95, null)), '10.4 ms against 10.9 ms (−0.5 ms, 0.95×)');
    assert.equal(costText({ route: 0.3, baseline: null, extra: null, ratio: null, ci95: null }), '–');
  });

  it('a line per scenario and server, and why one is not judged; nothing without backend scenarios', () => {
    const servers = {
      node: { runs: 5, baseline_runs: 5, cpu_ms: cost(0.31, 0.18, 1.72, [1.51, 1.96]), p50_ms: cost(11, 10.6, 1.04, [1.01, 1.07]), p99_ms: cost(14, 12, 1.17, [1.0, 1.37]), backend_cpu_ms: { upstream: 0.021 }, backend_cpu_pct: { upstream: 4.2 } },
      em: { runs: 5, baseline_runs: 0, cpu_ms: cost(0.3, null), p50_ms: null, p99_ms: null, backend_cpu_ms: { upstream: 0.02 }, backend_cpu_pct: { upstream: 4 } },
    };
    const lines = backendLines({ backends: { scenarios: [{ scenario: 'backend_upstream', baseline: 'backend_upstream_timer', backends: ['upstream'], wait_ms: 10, servers }] } });
    assert.equal(lines.length, 4);
    assert.match(lines[1], /^Backends \(each route against its baseline/);
    assert.equal(lines[2], '  backend_upstream against backend_upstream_timer  node  CPU/req 0.31 ms against 0.18 ms (+0.13 ms, 1.72× [1.51–1.96]); p50 11.0 ms against 10.6 ms (+0.4 ms, 1.04× [1.01–1.07]); p99 14.0 ms against 12.0 ms (+2.00 ms, 1.17× [1.00–1.37]); upstream 0.021 ms a request, 4.20 % of a core');
    assert.equal(lines[3], '  backend_upstream against backend_upstream_timer  em    not judged (no usable run of backend_upstream_timer)');
    assert.deepEqual(backendLines({ backends: null }), []);
    assert.deepEqual(backendLines({}), []);
  });
});
