'use strict';
// The servers' runtime events: the one home of their file format, its reader, and a run
// window's figures (results.json's runs[].runtime). Each project server writes the file when
// RUNTIME_EVENTS_FILE names it (node/runtime_events.js, ruby/shared/runtime_events.rb; contract.json
// runtime_events); perf/lib/hosts/server_process.js names one per server it starts.
//
// The format, a line each, times in CLOCK_MONOTONIC ms (the runner's performance.now() plus
// MONO_OFFSET):
//   # runtime-events 1 runtime=node|ruby alloc=bytes|objects gc_position=exact|heartbeat heartbeat_ms=10
//   h T LATE [ALLOC]   a heartbeat at T, LATE ms after it was due (the loop was busy or stalled
//                      from T − LATE to T); ALLOC, allocated since the start, on the heartbeats
//                      that wrote the file (every flush_ms)
//   g START MS KIND N  the GC worked MS ms from START; KIND minor, major or other (a step of an
//                      earlier collection); N collections began. Node: one line per collection,
//                      exact (gc_position=exact); Ruby: one per heartbeat in which the GC
//                      worked, placed at its end (gc_position=heartbeat: where, to a heartbeat)

const fs = require('node:fs');
const { performance } = require('node:perf_hooks');
const { median } = require('./stats');

/**
 * The constant by which CLOCK_MONOTONIC (the servers' clock, process.hrtime) runs ahead of
 * performance.now(), in ms. Each reading brackets the clock between two of performance.now()
 * and takes the middle; the tightest of `readings` is kept, as NTP keeps its shortest round
 * trip: one reading alone is off by whatever came between its two reads (a first call's lazy
 * set-up, a preemption on a busy machine: milliseconds, enough to put a request the client
 * sent at its time zero before it).
 */
function monotonicOffset(readings = 50) {
  let best = { width: Infinity, offset: 0 };
  for (let i = 0; i < readings; i++) {
    const before = performance.now();
    const mono = Number(process.hrtime.bigint()) / 1e6;
    const after = performance.now();
    if (after - before < best.width) best = { width: after - before, offset: mono - (before + after) / 2 };
  }
  return best.offset;
}

// The servers' time of a performance.now() time is it plus MONO_OFFSET.
const MONO_OFFSET = monotonicOffset();

// A heartbeat this late is a loop stall: a request arriving as it began waited this long or more
// before the loop read it (half the ramps' default objective of 10 ms).
const STALL_MS = 5;
// How long after a window's end its last lines may take to be written (flush_ms is 100 ms; a
// stalled server later still): past it the window's figures are marked incomplete.
const WAIT_FOR_LINES_MS = 1000;
const POLL_MS = 20;

/** The header's fields ({ runtime, alloc, gc_position, heartbeat_ms }) or null for another line. */
function parseHeader(line) {
  const m = /^# runtime-events 1 (.*)$/.exec(line);
  if (!m) return null;
  const fields = Object.fromEntries(m[1].split(' ').map((kv) => kv.split('=')));
  return { runtime: fields.runtime, alloc: fields.alloc, gc_position: fields.gc_position, heartbeat_ms: Number(fields.heartbeat_ms) };
}

/** One line into events ({ header, beats, gcs }); a line of another shape is ignored. */
function addLine(events, line) {
  const f = line.split(' ');
  if (f[0] === 'h' && f.length >= 3) events.beats.push({ t: Number(f[1]), late: Number(f[2]), alloc: f.length > 3 ? Number(f[3]) : null });
  else if (f[0] === 'g' && f.length === 5) events.gcs.push({ start: Number(f[1]), ms: Number(f[2]), kind: f[3], n: Number(f[4]) });
  else if (f[0] === '#') events.header = parseHeader(line) || events.header;
}

/** A whole file's text as { header, beats, gcs } (tests, and the reader below). */
function parseRuntimeEvents(text) {
  const events = { header: null, beats: [], gcs: [] };
  for (const line of text.split('\n')) if (line) addLine(events, line);
  return events;
}

/**
 * Reads one server's file as it grows: window(start, end) gives the events of one run's window,
 * waiting (bounded) for the lines written after it, and forgets what came before it.
 */
class RuntimeEventsFile {
  constructor(file) {
    this.file = file;
    this.offset = 0;
    this.partial = '';
    this.events = { header: null, beats: [], gcs: [] };
  }

  readNew() {
    let fd;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch {
      return; // not written yet, or a server that writes none
    }
    try {
      const size = fs.fstatSync(fd).size;
      if (size <= this.offset) return;
      const buffer = Buffer.alloc(size - this.offset);
      fs.readSync(fd, buffer, 0, buffer.length, this.offset);
      this.offset = size;
      const lines = (this.partial + buffer.toString('utf8')).split('\n');
      this.partial = lines.pop();
      for (const line of lines) if (line) addLine(this.events, line);
    } finally {
      fs.closeSync(fd);
    }
  }

  lastBeat() {
    const { beats } = this.events;
    return beats.length ? beats[beats.length - 1].t : -Infinity;
  }

  /**
   * The events of the window [start, end] (monotonic ms), once a heartbeat at or after end is
   * written or WAIT_FOR_LINES_MS has passed: { header, beats, gcs, complete }, beats with the
   * last allocation count before the window and the first after it (to interpolate), or null for
   * a server that wrote no header (a server that keeps no such file: it writes its header as it
   * starts). What ended before the window is forgotten.
   */
  async window(start, end, { waitMs = WAIT_FOR_LINES_MS } = {}) {
    const until = performance.now() + waitMs;
    this.readNew();
    if (!this.events.header) return null;
    while (this.lastBeat() < end && performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      this.readNew();
    }
    const { header, beats, gcs } = this.events;
    const counted = beats.filter((b) => b.alloc !== null);
    const allocBefore = counted.filter((b) => b.t <= start).pop();
    const allocAfter = counted.find((b) => b.t >= end);
    const inside = beats.filter((b) => b.t > start && b.t - b.late < end);
    const window = {
      header,
      beats: [...new Set([allocBefore, ...inside, allocAfter].filter(Boolean))],
      gcs: gcs.filter((g) => g.start + g.ms > start && g.start < end),
      complete: this.lastBeat() >= end,
    };
    // The next window starts after this one ends; the last count before it is kept for it.
    const keepFrom = Math.min(end, counted.length ? counted[counted.length - 1].t : end);
    this.events.beats = beats.filter((b) => b.t >= keepFrom);
    this.events.gcs = gcs.filter((g) => g.start + g.ms >= end);
    return window;
  }
}

const round3 = (x) => Math.round(x * 1000) / 1000;

/** A cumulative count at time t, interpolated between the two counts around it (null without). */
function countAt(beats, t) {
  const counted = beats.filter((b) => b.alloc !== null);
  const before = counted.filter((b) => b.t <= t).pop();
  const after = counted.find((b) => b.t >= t);
  if (!before || !after) return null;
  if (after.t === before.t) return before.alloc;
  return before.alloc + ((after.alloc - before.alloc) * (t - before.t)) / (after.t - before.t);
}

/**
 * The loop's stalls in the window: heartbeats STALL_MS late or more (ms, how late), each as
 * [from, to] (monotonic ms): to, when the loop ran the heartbeat again; from, a heartbeat before
 * it was due: the loop stopped somewhere between the last heartbeat and the one it delayed, and
 * a request that arrived then waited from when it stopped.
 */
function stallsOf(window) {
  const hb = window.header ? window.header.heartbeat_ms : 0;
  return window.beats.filter((b) => b.late >= STALL_MS).map((b) => ({ from: b.t - b.late - hb, to: b.t, ms: b.late }));
}

/** The GC's work in the window, as [from, to] (monotonic ms), with its kind and how many began. */
function gcPausesOf(window) {
  return window.gcs.map((g) => ({ from: g.start, to: g.start + g.ms, ms: g.ms, kind: g.kind, n: g.n }));
}

// The pauses a run record keeps for its chart: GC work of at least GC_MARK_MS, and of each kind
// at most MAX_MARKS, the longest (a long run's minor GCs are thousands).
const GC_MARK_MS = 1;
const MAX_MARKS = 200;

/**
 * The window's pauses to mark on a chart of its latencies over time, in ms from originMono (the
 * samples' time zero on the servers' clock): [{ kind: 'gc' | 'stall', gc (minor, major, other:
 * for a GC), from_ms, to_ms }], in time order.
 */
function pauseMarks(window, originMono) {
  const longest = (xs) => xs.sort((a, b) => b.to - b.from - (a.to - a.from)).slice(0, MAX_MARKS);
  const at = (x) => Math.round((x - originMono) * 1000) / 1000;
  const gcs = longest(gcPausesOf(window).filter((g) => g.ms >= GC_MARK_MS)).map((g) => ({ kind: 'gc', gc: g.kind, from_ms: at(g.from), to_ms: at(g.to) }));
  const stalls = longest(stallsOf(window)).map((p) => ({ kind: 'stall', from_ms: at(p.from), to_ms: at(p.to) }));
  return [...gcs, ...stalls].sort((a, b) => a.from_ms - b.from_ms);
}

/**
 * A run window's figures (results.json runs[].runtime; the schema describes each): the GC's
 * collections and time, the loop's stalls and lateness, the allocations per reply. window from
 * RuntimeEventsFile.window; [start, end] the run's window; replies, the run's.
 */
function summarizeRuntime(window, { start, end, replies }) {
  const spanMs = end - start;
  const gcs = gcPausesOf(window);
  const sum = (xs, f) => xs.reduce((t, x) => t + f(x), 0);
  const kinds = (kind) => sum(gcs.filter((g) => g.kind === kind), (g) => g.n);
  const timeMs = sum(gcs, (g) => g.ms);
  const stalls = stallsOf(window);
  const lates = window.beats.filter((b) => b.t > start && b.t <= end).map((b) => b.late).sort((a, b) => a - b);
  const [a0, a1] = [countAt(window.beats, start), countAt(window.beats, end)];
  const allocated = a0 === null || a1 === null ? null : Math.max(0, a1 - a0);
  return {
    runtime: window.header.runtime,
    complete: window.complete,
    heartbeat_ms: window.header.heartbeat_ms,
    gc_position: window.header.gc_position,
    gc: {
      collections: sum(gcs, (g) => g.n),
      minor: kinds('minor'),
      major: kinds('major'),
      time_ms: round3(timeMs),
      longest_ms: gcs.length ? round3(Math.max(...gcs.map((g) => g.ms))) : 0,
      share_pct: spanMs > 0 ? round3((timeMs / spanMs) * 100) : null,
    },
    loop: {
      stall_ms: STALL_MS,
      stalls: stalls.length,
      stalled_ms: round3(sum(stalls, (s) => s.ms)),
      longest_stall_ms: stalls.length ? round3(Math.max(...stalls.map((s) => s.ms))) : 0,
      late_p99_ms: lates.length ? round3(lates[Math.min(lates.length - 1, Math.floor(lates.length * 0.99))]) : null,
    },
    allocations: {
      unit: window.header.alloc,
      total: allocated === null ? null : Math.round(allocated),
      per_request: allocated === null || !replies ? null : round3(allocated / replies),
    },
  };
}

/**
 * One server's runtime figures over several runs of a scenario (those with runtime): the
 * median of each, and how often the tail above `percentile` coincided with what: { runs,
 * collections, minor, major, gc_share_pct, longest_gc_ms, stalls, longest_stall_ms, alloc_per_request,
 * alloc_unit, coincided: { gc, stalls, neither }, explained_pct: { gc, stalls } (the median
 * share of the tail's excess over the median that each kind of pause explains: measure/attribution.js),
 * or null without any.
 */
function runtimeAcross(runs, percentile = 'p99') {
  const rts = runs.map((r) => r.runtime).filter(Boolean);
  if (!rts.length) return null;
  const coincided = { gc: 0, stalls: 0, neither: 0 };
  for (const rt of rts) if (rt.tail && rt.tail[percentile]) coincided[rt.tail[percentile].coincided] += 1;
  const tails = rts.map((rt) => rt.tail && rt.tail[percentile]).filter(Boolean);
  const explained = (kind) => (tails.length ? median(tails.map((t) => t[kind].explained_pct)) : null);
  return {
    runs: rts.length,
    collections: median(rts.map((rt) => rt.gc.collections)),
    minor: median(rts.map((rt) => rt.gc.minor)),
    major: median(rts.map((rt) => rt.gc.major)),
    gc_share_pct: median(rts.map((rt) => rt.gc.share_pct)),
    longest_gc_ms: median(rts.map((rt) => rt.gc.longest_ms)),
    stalls: median(rts.map((rt) => rt.loop.stalls)),
    longest_stall_ms: median(rts.map((rt) => rt.loop.longest_stall_ms)),
    alloc_per_request: median(rts.map((rt) => rt.allocations.per_request)),
    alloc_unit: rts[0].allocations.unit,
    coincided,
    explained_pct: { gc: explained('gc'), stalls: explained('stalls') },
  };
}

module.exports = { median, runtimeAcross, RuntimeEventsFile, parseRuntimeEvents, summarizeRuntime, stallsOf, gcPausesOf, pauseMarks, countAt, STALL_MS, GC_MARK_MS, MAX_MARKS, MONO_OFFSET };
