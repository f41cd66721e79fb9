'use strict';
// Small results directories with repeated trials, made deterministically (seeded), for the
// tests of scripts/compare.sh and the verdicts: two servers, two scenarios, N trials each, in
// the runner's results.json format (no samples: compare.sh reads results.json only).
//   makeTrialRun(dir, { seed, trials, scale: { 'node|sequential_6000|p99_ms': 1.3 }, … })

const fs = require('node:fs');
const path = require('node:path');
const { analyzeRuns } = require('../../perf/lib/judge/verdicts');
const { mulberry32 } = require('./seeded_random');

const BASE = {
  node: { sequential_6000: { mean_ms: 0.25, p50_ms: 0.2, p99_ms: 1.8, throughput_rps: 3800, cpu_ms_per_request: 0.13, peak_rss_mb: 55 }, keepalive_400x100: { mean_ms: 14, p50_ms: 12, p99_ms: 110, throughput_rps: 27000, cpu_ms_per_request: 0.021, peak_rss_mb: 70 } },
  em: { sequential_6000: { mean_ms: 0.5, p50_ms: 0.4, p99_ms: 7.5, throughput_rps: 1700, cpu_ms_per_request: 0.11, peak_rss_mb: 40 }, keepalive_400x100: { mean_ms: 14, p50_ms: 13, p99_ms: 50, throughput_rps: 27500, cpu_ms_per_request: 0.033, peak_rss_mb: 45 } },
};

const PARAMS = {
  sequential_6000: { name: 'sequential_6000', description: 'sequential', kind: 'closed', concurrency: 1, keep_alive: false, requests: 300 },
  keepalive_400x100: { name: 'keepalive_400x100', description: 'keep-alive', kind: 'closed', concurrency: 400, keep_alive: true, requests_per_connection: 5 },
};

/**
 * Writes <dir>/results.json. options: seed, trials (3), noise (relative spread of each trial,
 * 0.02), scale ({ 'server|scenario|metric': factor } applied to every trial), clientBound
 * ({ 'server|scenario': true }), quick (true). Returns dir.
 */
function makeTrialRun(dir, { seed = 1, trials = 3, noise = 0.02, scale = {}, clientBound = {}, quick = true } = {}) {
  const rand = mulberry32(seed);
  const runs = [];
  for (let trial = 1; trial <= trials; trial++) {
    for (const server of Object.keys(BASE)) {
      for (const scenario of Object.keys(BASE[server])) {
        const v = {};
        for (const [metric, x] of Object.entries(BASE[server][scenario])) {
          v[metric] = x * (scale[`${server}|${scenario}|${metric}`] || 1) * (1 + noise * (2 * rand() - 1));
        }
        const r3 = (x) => Math.round(x * 1000) / 1000;
        runs.push({
          server, scenario, trial, engine: scenario === 'sequential_6000' ? 'sequential' : 'autocannon', ok: true, failure: null,
          started_at: new Date(Date.UTC(2026, 0, 1, 0, 0, runs.length)).toISOString(),
          requests: 2000, replies: 2000, errors: { refused: 0, reset: 0, timeout: 0, other: 0 }, status: { '1xx': 0, '2xx': 2000, '3xx': 0, '4xx': 0, '5xx': 0 },
          throughput_rps: r3(v.throughput_rps),
          latency_ms: { min: r3(v.p50_ms / 3), mean: r3(v.mean_ms), p50: r3(v.p50_ms), p90: r3((v.p50_ms + v.p99_ms) / 2), p99: r3(v.p99_ms), p999: r3(v.p99_ms * 1.5), max: r3(v.p99_ms * 2) },
          connect_ms: { mean: 0.05, p99: 0.2 },
          duration_s: r3(2000 / v.throughput_rps),
          server_cpu: { user_s: 0.1, system_s: 0.05, ms_per_request: r3(v.cpu_ms_per_request) },
          server_peak_rss_mb: Math.round(v.peak_rss_mb * 10) / 10,
          client_cpu_pct: clientBound[`${server}|${scenario}`] ? 97 : 60,
          client_bound: !!clientBound[`${server}|${scenario}`],
          client_loop_delay_ms: { p99: 1, max: 2 },
          samples_file: null,
          params: PARAMS[scenario],
        });
      }
    }
  }
  const environment = {
    os: 'Debian GNU/Linux 12 (bookworm)', cpu_model: 'Example CPU', cores: 2, node: 'v20.20.2', ruby: '3.1.2p20',
    project_commit: `${String(seed).padStart(8, '0')}${'0'.repeat(32)}`, project_dirty: false,
    pinning: { enabled: true, server_cpu: 0, client_cpu: 1, reason: null },
    options: { quick, servers: ['node', 'em'], scenarios: Object.keys(PARAMS), pin: true, repeat: trials },
    started_at: new Date(Date.UTC(2026, 0, 1)).toISOString(),
  };
  fs.mkdirSync(path.join(dir, 'samples'), { recursive: true });
  const doc = { environment, interrupted: false, skipped: [], ...analyzeRuns(runs), runs };
  fs.writeFileSync(path.join(dir, 'results.json'), `${JSON.stringify(doc, null, 2)}\n`);
  return dir;
}

module.exports = { makeTrialRun };
