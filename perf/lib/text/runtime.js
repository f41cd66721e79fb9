'use strict';
// A run's runtime events in words (results.json runs[].runtime: perf/lib/measure/runtime_events.js
// measures, perf/lib/measure/attribution.js decides what a tail coincided with): the GC's
// collections and the loop's stalls in the window, and what the requests above a percentile
// were in flight during. Decides nothing: which runs count is the judged runs' (usable, superseded:
// perf/lib/judge/judged.js).

const { fmtNumber, alignedTable } = require('./format');
const { runtimeAcross, STALL_MS } = require('../measure/runtime_events');

const ms = (x) => `${fmtNumber(x)} ms`;
const pct = (x) => `${Math.round(x)} %`;
const CAUSE = { gc: 'GC pauses', stalls: 'loop stalls other than the GC' };

/** "11 major and 230 minor GCs, the longest 14 ms, 4.2 % of the time; 9 stalls ≥ 5 ms, the longest 16 ms". */
function eventsText(runtime) {
  const { gc, loop } = runtime;
  const kinds = [gc.major ? `${fmtNumber(gc.major, 'count')} major` : null, gc.minor ? `${fmtNumber(gc.minor, 'count')} minor` : null].filter(Boolean).join(' and ');
  const gcText = gc.time_ms > 0 ? `${kinds || 'steps of earlier'} GCs, the longest ${ms(gc.longest_ms)}${runtime.gc_position === 'heartbeat' ? ' in a heartbeat' : ''}, ${fmtNumber(gc.share_pct)} % of the time` : 'no GC';
  const stallText = loop.stalls ? `${fmtNumber(loop.stalls, 'count')} stall${loop.stalls > 1 ? 's' : ''} ≥ ${loop.stall_ms} ms, the longest ${ms(loop.longest_stall_ms)}` : `no stall ≥ ${loop.stall_ms} ms`;
  return `${gcText}; ${stallText}`;
}

/**
 * What the tail above `percentile` coincided with, and the events: "coincided with GC pauses:
 * without the GC's time p99 would have been 4.10 ms, not 36.3 ms (90 % of its excess over the
 * median, 0.8 ms); in flight during one: 100 % of the 29 requests above it, 11 % of all; 1
 * major …". "" without the run's events; the events alone where the engine kept no samples.
 */
function causeText(runtime, percentile) {
  if (!runtime) return '';
  const tail = runtime.tail && runtime.tail[percentile];
  if (!tail) return eventsText(runtime);
  const whose = { gc: "the GC's", stalls: "the stalls'" };
  const without = (k) => `without ${whose[k]} time ${percentile} would have been ${ms(tail[k].without_ms)}, not ${ms(tail.at_ms)} (${pct(tail[k].explained_pct)} of its excess over the median, ${ms(tail.median_ms)})`;
  const head =
    tail.coincided === 'neither'
      ? `coincided with neither GC pauses nor loop stalls: ${without('gc')}; without ${whose.stalls} ${ms(tail.stalls.without_ms)} (${pct(tail.stalls.explained_pct)})`
      : `coincided with ${CAUSE[tail.coincided]}: ${without(tail.coincided)}; in flight during one: ${pct(tail[tail.coincided].in_flight_pct)} of the ${fmtNumber(tail.slow, 'count')} requests above it, ${pct(tail[tail.coincided].all_in_flight_pct)} of all`;
  return `${head}; ${eventsText(runtime)}`;
}

const RUNTIME_HEAD = ['scenario', 'server', 'GCs', 'major', 'GC time', 'longest GC', `stalls ≥ ${STALL_MS} ms`, 'longest stall', 'allocated/req', 'p99 tail: GC, stalls, neither'];

/** "2.4 KB" for bytes, "27 objects" for objects. */
function allocText(x, unit) {
  if (x === null) return '–';
  return unit === 'bytes' ? `${fmtNumber(x / 1024)} KB` : `${fmtNumber(x)} objects`;
}

/**
 * The runtime table's rows: per scenario and server with runtime events, the medians over the
 * usable runs of its verdict (runtimeAcross), and in how many runs the p99 tail coincided with
 * the GC, the stalls or neither.
 */
function runtimeRows(results) {
  const rows = [];
  for (const scenario of results.scenarios) {
    for (const server of results.servers) {
      const a = runtimeAcross(results.runs.filter((r) => r.scenario === scenario && r.server === server && r.usable && !r.superseded));
      if (!a) continue;
      const c = a.coincided;
      rows.push([scenario, server, fmtNumber(a.collections, 'count'), fmtNumber(a.major, 'count'), `${fmtNumber(a.gc_share_pct)} %`, `${fmtNumber(a.longest_gc_ms)} ms`, fmtNumber(a.stalls, 'count'), `${fmtNumber(a.longest_stall_ms)} ms`, allocText(a.alloc_per_request, a.alloc_unit), c.gc + c.stalls + c.neither ? `${c.gc}, ${c.stalls}, ${c.neither}` : '–']);
    }
  }
  return rows;
}

const RUNTIME_TITLE = `The servers' runtime events (medians over the usable runs: GC collections and of them major, GC time as a share of the run, the longest GC, loop stalls of ${STALL_MS} ms or more and the longest, allocated per request; and in how many runs the requests above p99 coincided with GC pauses, other loop stalls, or neither):`;

/** The runtime table as aligned text, after a blank line; [] where no run has runtime events. */
function runtimeLines(results) {
  const rows = runtimeRows(results);
  return rows.length ? ['', RUNTIME_TITLE, ...alignedTable(RUNTIME_HEAD, rows, RUNTIME_HEAD.map((_, i) => (i < 2 ? 'l' : 'r')))] : [];
}

const CAUSE_SHORT = { gc: 'GC pauses', stalls: 'other loop stalls', neither: 'neither GC pauses nor loop stalls' };

/**
 * Why, for a scenario whose latency verdict named a winner: what each server's requests above
 * p99 coincided with over its usable runs, the most frequent answer first: "em: its requests
 * above p99 coincided with GC pauses in 4 of 5 runs (GC 8.1 % of the time, the longest 21 ms);
 * node: with neither GC pauses nor loop stalls in 5 of 5". "" where no run has runtime events.
 */
function whyText(results, scenario, servers) {
  const parts = [];
  for (const server of servers) {
    const a = runtimeAcross(results.runs.filter((r) => r.scenario === scenario && r.server === server && r.usable && !r.superseded));
    if (!a) continue;
    const counted = Object.values(a.coincided).reduce((t, n) => t + n, 0);
    if (!counted) continue;
    const [top, n] = Object.entries(a.coincided).sort((x, y) => y[1] - x[1])[0];
    const gc = a.gc_share_pct > 0 ? ` (GC ${fmtNumber(a.gc_share_pct)} % of the time, the longest ${fmtNumber(a.longest_gc_ms)} ms)` : '';
    parts.push(`${server}'s requests above p99 coincided with ${CAUSE_SHORT[top]} in ${n} of ${counted} runs${gc}`);
  }
  return parts.join('; ');
}

module.exports = { whyText, causeText, eventsText, runtimeLines, runtimeRows, RUNTIME_HEAD, RUNTIME_TITLE };
