'use strict';
// A run's runtime events in words (results.json runs[].runtime: perf/lib/measure/runtime_events.js
// measures, perf/lib/judge/attribution.js decides what a tail coincided with): the GC's
// collections and the loop's stalls in the window, and what the requests above a percentile
// were in flight during. Decides nothing.

const { fmtNumber } = require('./format');

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
 * What the requests above `percentile` coincided with, and the events: "coincided with GC
 * pauses: 93 % of the 114 requests above p99 would have been under it without the GC's time
 * (in flight during one: 97 %, of all requests 12 %); 11 major …". "" without the run's events;
 * the events alone where the engine kept no samples.
 */
function causeText(runtime, percentile) {
  if (!runtime) return '';
  const tail = runtime.tail && runtime.tail[percentile];
  if (!tail) return eventsText(runtime);
  const of = `the ${fmtNumber(tail.slow, 'count')} requests above ${percentile}`;
  const flight = (s) => `in flight during one: ${pct(s.in_flight_pct)}, of all requests ${pct(s.all_in_flight_pct)}`;
  const head =
    tail.coincided === 'neither'
      ? `coincided with neither GC pauses nor loop stalls: of ${of}, ${pct(tail.gc.explained_pct)} would have been under it without the GC's time, ${pct(tail.stalls.explained_pct)} without the stalls'`
      : `coincided with ${CAUSE[tail.coincided]}: ${pct(tail[tail.coincided].explained_pct)} of ${of} would have been under it without their time (${flight(tail[tail.coincided])})`;
  return `${head}; ${eventsText(runtime)}`;
}

module.exports = { causeText, eventsText };
