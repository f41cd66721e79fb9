'use strict';
// What a scenario's runs say of each server's runtime (results.json runs[].runtime: its GC, its
// loop's stalls, its allocations, and what the p99 tail coincided with), one row per server
// for the table in the scenario's section (html.js): the medians over the runs a verdict may
// use (the judged runs' usable and superseded: perf/lib/judge/judged.js), as summary.txt's
// runtime table takes them (perf/lib/text/runtime.js, runtimeAcross).

const { runtimeAcross, median } = require('../measure/runtime_events');
const { TOO_FEW } = require('../store/no_verdict');
const { fmtNumber } = require('../text/format');

/** The tail the table reports. */
const TAIL = 'p99';
const CAUSE = { gc: 'GC pauses', stalls: 'loop stalls', neither: 'neither' };

/**
 * What the p99 tails of runs coincided with, in words: each answer (GC pauses, loop stalls,
 * neither) with the median share of the tail's excess over the median it explains
 * (attribution.js explained_pct) and in how many runs, the most frequent first: "GC pauses: 93 %
 * (2 of 3 runs); neither: at most 30 % (1 of 3 runs)". For "neither" the share is the larger of
 * the GC's and the stalls'. Runs whose replies resolve no p99 are left out (none left: "n too
 * small"); no run with a tail: null.
 */
function tailText(runs) {
  const withTail = runs.filter((r) => r.runtime.tail && r.runtime.tail[TAIL]);
  if (!withTail.length) return null;
  const resolved = withTail.filter((r) => r.p99_resolved);
  if (!resolved.length) return TOO_FEW;
  const explained = (t) => (t.coincided === 'neither' ? Math.max(t.gc.explained_pct, t.stalls.explained_pct) : t[t.coincided].explained_pct);
  const parts = ['gc', 'stalls', 'neither'].map((cause) => {
    const tails = resolved.map((r) => r.runtime.tail[TAIL]).filter((t) => t.coincided === cause);
    if (!tails.length) return null;
    const count = resolved.length > 1 ? ` (${tails.length} of ${resolved.length} runs)` : '';
    return { n: tails.length, text: `${CAUSE[cause]}: ${cause === 'neither' ? 'at most ' : ''}${Math.round(median(tails.map(explained)))} %${count}` };
  }).filter(Boolean);
  return parts.sort((a, b) => b.n - a.n).map((p) => p.text).join('; ');
}

/**
 * One row per server with runtime events in the scenario's usable runs: runtimeAcross's medians
 * ({ runs, collections, minor, major, gc_share_pct, longest_gc_ms, stalls, longest_stall_ms,
 * alloc_per_request, alloc_unit }) with server, heartbeat_gc (Ruby's GC placed to heartbeats), stall_ms (what counts as a stall), alloc
 * ("1,520 bytes") and tail (tailText). [] where no usable run has them.
 */
function runtimeRows(results, scenario) {
  const rows = [];
  for (const server of results.servers) {
    const runs = results.runs.filter((r) => r.scenario === scenario && r.server === server && r.runtime && r.usable && !r.superseded);
    const across = runtimeAcross(runs, TAIL);
    if (!across) continue;
    rows.push({
      server,
      ...across,
      heartbeat_gc: runs.some((r) => r.runtime.gc_position === 'heartbeat'),
      stall_ms: runs[0].runtime.loop.stall_ms,
      alloc: across.alloc_per_request === null ? null : `${fmtNumber(across.alloc_per_request)} ${across.alloc_unit}`,
      tail: tailText(runs),
    });
  }
  return rows;
}

module.exports = { runtimeRows, tailText, TAIL };
