'use strict';
// What a backend call costs each server, in words (results.json's `backends`,
// perf/lib/judge/backends.js): the lines the terminal and summary.txt end with, one per backend
// scenario and server. Decides nothing.

const { fmtNumber, fmtFactor, fmtInterval } = require('./format');

/** "0.31 ms against 0.18 ms (+0.13 ms, 1.72× [1.51–1.96])", or "–" without both sides. */
function costText(c) {
  if (!c || c.route === null || c.baseline === null) return '–';
  const sign = c.extra < 0 ? '−' : '+';
  const ratio = c.ratio === null ? '' : `, ${fmtFactor(c.ratio)}${c.ci95 ? ` ${fmtInterval(c.ci95)}` : ''}`;
  return `${fmtNumber(c.route, 'ms')} ms against ${fmtNumber(c.baseline, 'ms')} ms (${sign}${fmtNumber(Math.abs(c.extra), 'ms')} ms${ratio})`;
}

/** "redis 0.021 ms a request, 4.2 % of a core", per backend. */
function backendCpuText(x) {
  return Object.keys(x.backend_cpu_ms).map((name) => `${name} ${fmtNumber(x.backend_cpu_ms[name], 'ms')} ms a request, ${fmtNumber(x.backend_cpu_pct[name], '%')} % of a core`).join('; ');
}

/** The lines for results.backends; [] when no backend scenario ran. */
function backendLines(results) {
  const b = results.backends;
  if (!b || !b.scenarios.length) return [];
  const lines = ['', 'Backends (each route against its baseline, the same load with no backend call: CPU per request and latency, geometric means of the usable runs, the difference, and route ÷ baseline with its 95 % interval; the backend\'s own CPU beside):'];
  for (const s of b.scenarios) {
    for (const [server, x] of Object.entries(s.servers)) {
      const head = `  ${s.scenario} against ${s.baseline}  ${server.padEnd(5)}`;
      if (!x.runs || !x.baseline_runs) {
        lines.push(`${head} not judged (${!x.runs ? 'no usable run of the route' : `no usable run of ${s.baseline}`})`);
        continue;
      }
      lines.push(`${head} CPU/req ${costText(x.cpu_ms)}; p50 ${costText(x.p50_ms)}; p99 ${costText(x.p99_ms)}; ${backendCpuText(x)}`);
    }
  }
  return lines;
}

module.exports = { backendLines, costText };
