'use strict';
// Waiting requests in words (results.json's `waiting` and `held`, perf/lib/judge/held.js,
// perf/lib/run/held.js): a line per server when its held-count search ends, and the lines the
// terminal and summary.txt end with. Decides nothing.

const { fmtNumber } = require('./format');

const count = (x) => fmtNumber(x, 'count');
/** "+1.23 ms", "−0.4 ms" (a timer a little early), "–". */
const above = (ms) => (Number.isFinite(ms) ? `${ms < 0 ? '−' : '+'}${fmtNumber(Math.abs(ms), 'ms')} ms` : '–');
const kb = (x) => fmtNumber(x, 'KB');
/**
 * A memory slope (perf/lib/judge/held.js memorySlope): "2.31 KB [2.05–2.57]", or, where its
 * interval reaches 0 (at_most_kb), "below the resolution (≤ 35.9 KB)": never a bound below 0
 * for a figure that cannot be. null without a slope.
 */
const kbText = (slope) => slope && (slope.at_most_kb === null ? `${kb(slope.kb_per_connection)} KB [${kb(slope.ci95[0])}–${kb(slope.ci95[1])}]` : `below the resolution (≤ ${kb(slope.at_most_kb)} KB)`);

/**
 * "memory 2.31 KB per connection [2.05–2.57] (4 steps, 250–1,000 held)", "memory per connection
 * below the resolution (≤ 35.9 KB; 3 steps, 250–500 held)", or "".
 */
function memoryText(slope, what) {
  if (!slope) return '';
  const points = `${slope.n} ${what}, ${count(slope.connections[0])}–${count(slope.connections[1])} held`;
  if (slope.at_most_kb !== null) return `memory per connection below the resolution (≤ ${kb(slope.at_most_kb)} KB; ${points})`;
  return `memory ${kb(slope.kb_per_connection)} KB per connection [${kb(slope.ci95[0])}–${kb(slope.ci95[1])}] (${points})`;
}

/**
 * One server's held-count search: "node  holds at least 1,000 waiting requests at p99 ≤ wait +
 * 10 ms: the most offered; memory …", "em  holds 2,000 … ; fails at 2,828: 12 errors".
 */
function heldLine(server, s, section) {
  const head = `held  ${server.padEnd(5)} `;
  const bound = `p99 ≤ wait + ${section.bound_ms} ms`;
  const memory = memoryText(s.memory, 'steps');
  const tail = memory ? `; ${memory}` : '';
  if (s.incomplete) return `${head}search incomplete: ${s.incomplete}${s.held === null ? '' : ` (held ${count(s.held)} so far)`}${tail}`;
  if (s.held === null) {
    const first = s.steps[0];
    return `${head}held no count offered at ${bound}: ${first ? first.failure_detail || first.failure || first.limited : 'no step ran'}${tail}`;
  }
  if (s.saturated) {
    const last = s.steps.filter((st) => st.held === s.failing).pop();
    return `${head}holds ${count(s.held)} waiting requests at ${bound}; fails at ${count(s.failing)}: ${last ? last.failure_detail || last.failure : 'failed'}${tail}`;
  }
  if (s.limited) return `${head}holds at least ${count(s.held)} waiting requests at ${bound}; no more measured: ${s.limited}${tail}`;
  return `${head}holds at least ${count(s.held)} waiting requests at ${bound}: the most offered${tail}`;
}

/**
 * The lines the terminal ends with for the waiting runs: per scenario and server the latency
 * above the wait (medians of the usable runs), errors; each server's memory per connection;
 * the held counts. [] when no run waited and no search ran.
 */
function waitingLines(results) {
  const w = results.waiting;
  const held = results.held;
  if (!w || (!w.scenarios.length && !held)) return [];
  const lines = ['', `Waiting requests (GET /delay?ms=N held by many connections: latency above the wait, p50 − N and p99 − N, medians of the usable runs; memory per connection, the slope of peak RSS against connections held, 95 % interval, below the resolution where that interval reaches 0):`];
  const width = Math.max(20, ...w.scenarios.map((s) => s.scenario.length));
  for (const s of w.scenarios) {
    const parts = Object.entries(s.servers).map(([server, x]) => (x.judged_runs ? `${server} p50 ${above(x.p50)}, p99 ${above(x.p99)}, ${count(x.errors)} errors` : `${server} not judged (${x.failed ? `${x.failed} failed` : 'no usable run'})`));
    lines.push(`  ${s.scenario.padEnd(width)} ${count(s.held)} held, N = ${count(s.wait_ms)} ms: ${parts.join('; ')}`);
  }
  for (const [server, m] of Object.entries(w.memory)) {
    const parts = [m.runs && `${kbText(m.runs)} from the keep-alive runs (${m.runs.n}, ${count(m.runs.connections[0])}–${count(m.runs.connections[1])} held)`, m.search && `${kbText(m.search)} from the held-count search (${m.search.n} steps, ${count(m.search.connections[0])}–${count(m.search.connections[1])} held)`].filter(Boolean);
    lines.push(`  memory per connection  ${server.padEnd(5)} ${parts.length ? parts.join('; ') : 'not measured (fewer than three runs at two held counts)'}`);
  }
  if (held) for (const [server, s] of Object.entries(held.servers)) lines.push(`  ${heldLine(server, s, held)}`);
  return lines;
}

module.exports = { heldLine, waitingLines };
