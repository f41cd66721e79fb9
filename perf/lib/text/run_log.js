'use strict';
// What the runner prints of a run: one line with its counts, times, rate, CPU and flags (and,
// for a distributed run, each load host's share of the requests).

const { fmtNumber } = require('./format');

function runLine(run, { serverWidth = 5, trials = 1 } = {}) {
  const tag = `${run.server.padEnd(serverWidth)} ${run.scenario.padEnd(20)}`;
  const trial = trials > 1 && run.trial ? `, trial ${run.trial}/${trials}` : '';
  if (!run.ok) return `${tag} FAILED${trial ? ` (${trial.slice(2)})` : ''}: ${run.failure}`;
  const errors = Object.values(run.errors).reduce((a, b) => a + b, 0);
  return (
    `${tag} ${String(run.replies).padStart(6)}/${run.requests} replies` +
    `  mean ${fmtNumber(run.latency_ms.mean, 'ms')} ms  p99 ${fmtNumber(run.latency_ms.p99, 'ms')} ms` +
    `  ${fmtNumber(run.throughput_rps, 'req/s')} req/s  cpu ${fmtNumber(run.server_cpu && run.server_cpu.ms_per_request, 'ms')} ms/req` +
    `${errors ? `  errors ${errors}` : ''}${run.client_bound ? '  CLIENT-BOUND' : ''}` +
    `${run.server_bound === false ? `  NOT SERVER-BOUND (server ${run.server_cpu_pct}% of its core)` : ''}${run.disturbed ? '  DISTURBED' : ''}` +
    `${run.load_hosts ? `  hosts ${run.load_hosts.map((h) => Math.round(h.share_pct ?? 0)).join('/')} %` : ''}${run.load_problems && run.load_problems.length ? '  LOAD NOT AS PLANNED' : ''}` +
    `  (${run.duration_s.toFixed(1)} s${trial})`
  );
}

module.exports = { runLine };
