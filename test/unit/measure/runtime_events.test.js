'use strict';
// The servers' runtime events (perf/lib/measure/runtime_events.js): the file format read back,
// a growing file read window by window (waiting for the lines written after a window's end),
// and a window's figures: GC collections and time, loop stalls, allocations per reply.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { median, parseRuntimeEvents, RuntimeEventsFile, summarizeRuntime, countAt, stallsOf, gcPausesOf, pauseMarks, STALL_MS, GC_MARK_MS, MAX_MARKS, MONO_OFFSET } = require('../../../perf/lib/measure/runtime_events');
const { makeTmpDir } = require('../../support/runner_helpers');

const HEADER = '# runtime-events 1 runtime=ruby alloc=objects gc_position=heartbeat heartbeat_ms=10';

/** Heartbeats every 10 ms from..to (ms), on time but for `late` ({ t: ms }), a count on every tenth (alloc per ms). */
function beats(from, to, { late = {}, allocPerMs = 100 } = {}) {
  const lines = [];
  for (let t = from; t <= to; t += 10) lines.push(`h ${t} ${late[t] || 0}${t % 100 === 0 ? ` ${t * allocPerMs}` : ''}`);
  return lines;
}

describe('runtime_events: the two clocks', () => {
  it('MONO_OFFSET puts CLOCK_MONOTONIC between two performance.now() reads that bracket it, to a few microseconds', () => {
    // Each reading bounds the true offset: mono − after ≤ offset ≤ mono − before.
    let inside = 0;
    for (let i = 0; i < 200; i++) {
      const before = performance.now();
      const mono = Number(process.hrtime.bigint()) / 1e6;
      const after = performance.now();
      if (mono - after - 0.005 <= MONO_OFFSET && MONO_OFFSET <= mono - before + 0.005) inside++;
    }
    assert.ok(inside >= 190, `${inside} of 200 bracketing readings hold the offset`);
  });
});

describe('runtime_events: the format', () => {
  it('reads the header, heartbeats (with and without a count) and GC lines; ignores other lines', () => {
    const events = parseRuntimeEvents([HEADER, 'h 1000.5 0.25 12345', 'h 1010.5 7', 'g 1003 4.5 major 1', 'x what', 'g bad', ''].join('\n'));
    assert.deepEqual(events.header, { runtime: 'ruby', alloc: 'objects', gc_position: 'heartbeat', heartbeat_ms: 10 });
    assert.deepEqual(events.beats, [
      { t: 1000.5, late: 0.25, alloc: 12345 },
      { t: 1010.5, late: 7, alloc: null },
    ]);
    assert.deepEqual(events.gcs, [{ start: 1003, ms: 4.5, kind: 'major', n: 1 }]);
  });

  it('a count between two counts is interpolated; none outside them', () => {
    const b = [{ t: 100, alloc: 1000 }, { t: 150, alloc: null }, { t: 200, alloc: 2000 }];
    assert.equal(countAt(b, 150), 1500);
    assert.equal(countAt(b, 100), 1000);
    assert.equal(countAt(b, 99), null);
    assert.equal(countAt(b, 201), null);
  });

  it('a stall is a heartbeat STALL_MS late or more, from a heartbeat before it was due (the loop stopped since the last) to when it ran; a GC spans its time', () => {
    const window = { header: { heartbeat_ms: 10 }, beats: [{ t: 100, late: STALL_MS - 0.1 }, { t: 200, late: 20 }], gcs: [{ start: 50, ms: 3, kind: 'minor', n: 1 }] };
    assert.deepEqual(stallsOf(window), [{ from: 170, to: 200, ms: 20 }]);
    assert.deepEqual(gcPausesOf(window), [{ from: 50, to: 53, ms: 3, kind: 'minor', n: 1 }]);
  });
});

describe('runtime_events: the pauses a chart marks', () => {
  it(`GC work of ${GC_MARK_MS} ms or more and the stalls, from the samples' time zero, in time order`, () => {
    const window = { beats: [{ t: 1050, late: 20 }, { t: 1060, late: 1 }], gcs: [{ start: 1010, ms: 0.5, kind: 'minor', n: 1 }, { start: 1100, ms: 7, kind: 'major', n: 1 }] };
    assert.deepEqual(pauseMarks(window, 1000), [
      { kind: 'stall', from_ms: 30, to_ms: 50 },
      { kind: 'gc', gc: 'major', from_ms: 100, to_ms: 107 },
    ]);
  });

  it(`at most the ${MAX_MARKS} longest of each kind`, () => {
    const gcs = Array.from({ length: MAX_MARKS + 50 }, (_, k) => ({ start: k * 10, ms: 1 + (k % 7), kind: 'minor', n: 1 }));
    const marks = pauseMarks({ beats: [], gcs }, 0);
    assert.equal(marks.length, MAX_MARKS);
    assert.ok(Math.min(...marks.map((m) => m.to_ms - m.from_ms)) >= 2, 'the shortest are left out');
  });
});

describe('runtime_events: a window\'s figures', () => {
  it('counts collections by kind, the GC\'s time and longest, the stalls, the lateness p99 and the allocations per reply', () => {
    const text = [HEADER, ...beats(0, 2000, { late: { 500: 12, 1200: 30 } }), 'g 490 10 major 1', 'g 700 1 minor 2', 'g 1180 25 other 0', 'g 2500 5 minor 1'].join('\n');
    const events = parseRuntimeEvents(text);
    const window = { header: events.header, beats: events.beats, gcs: events.gcs.filter((g) => g.start < 1500), complete: true };
    const r = summarizeRuntime(window, { start: 250, end: 1250, replies: 5000 });
    assert.equal(r.runtime, 'ruby');
    assert.equal(r.gc_position, 'heartbeat');
    assert.deepEqual(r.gc, { collections: 3, minor: 2, major: 1, time_ms: 36, longest_ms: 25, share_pct: 3.6 });
    assert.deepEqual(r.loop, { stall_ms: STALL_MS, stalls: 2, stalled_ms: 42, longest_stall_ms: 30, late_p99_ms: 30 });
    // 100 objects a ms over 1,000 ms: 100,000 objects, 20 a reply.
    assert.deepEqual(r.allocations, { unit: 'objects', total: 100000, per_request: 20 });
  });

  it('the median of an even count is the mean of the middle two; nothing of nothing', () => {
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([null, 7]), 7);
    assert.equal(median([]), null);
  });

  it('allocations are unknown without a count on both sides of the window', () => {
    const events = parseRuntimeEvents([HEADER, 'h 100 0', 'h 200 0 500'].join('\n'));
    const r = summarizeRuntime({ ...events, complete: true }, { start: 150, end: 190, replies: 10 });
    assert.deepEqual(r.allocations, { unit: 'objects', total: null, per_request: null });
    assert.equal(r.gc.collections, 0);
    assert.equal(r.gc.longest_ms, 0);
  });
});

describe('runtime_events: a growing file, window by window', function () {
  this.timeout(10000);
  let dir;
  beforeEach(() => {
    dir = makeTmpDir('runtime-events-');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a server that writes no file has no events, at once', async () => {
    const reader = new RuntimeEventsFile(path.join(dir, 'none.events'));
    const started = Date.now();
    assert.equal(await reader.window(0, 1e12, { waitMs: 5000 }), null);
    assert.ok(Date.now() - started < 1000);
  });

  it('waits for the heartbeat after the window\'s end, keeps what overlaps it and forgets what came before', async () => {
    const file = path.join(dir, 'server.events');
    fs.writeFileSync(file, `${[HEADER, ...beats(0, 500), 'g 300 2 minor 1'].join('\n')}\n`);
    const reader = new RuntimeEventsFile(file);
    // The lines after 500 ms arrive as a server writes them, in a later flush (and a partial line first).
    const later = `${[...beats(510, 1000, { late: { 700: 40 } }), 'g 650 6 major 1'].join('\n')}\n`;
    setTimeout(() => fs.appendFileSync(file, later.slice(0, 15)), 50);
    setTimeout(() => fs.appendFileSync(file, later.slice(15)), 150);
    const w = await reader.window(250, 750, { waitMs: 3000 });
    assert.equal(w.complete, true);
    assert.deepEqual(w.gcs.map((g) => g.start), [300, 650]);
    assert.ok(w.beats.some((b) => b.t === 700 && b.late === 40));
    // The counts around the window: at 200 ms before it, at 800 ms after it.
    assert.equal(w.beats[0].t, 200);
    assert.equal(w.beats[w.beats.length - 1].t, 800);
    // The next window reads only what is left: nothing of the first's GCs.
    const next = await reader.window(850, 950, { waitMs: 100 });
    assert.deepEqual(next.gcs, []);
    assert.equal(next.complete, true);
  });

  it('a window whose end the file never reaches is marked incomplete after the wait', async () => {
    const file = path.join(dir, 'stopped.events');
    fs.writeFileSync(file, `${[HEADER, ...beats(0, 300)].join('\n')}\n`);
    const w = await new RuntimeEventsFile(file).window(100, 600, { waitMs: 100 });
    assert.equal(w.complete, false);
    assert.ok(w.beats.length > 10);
  });
});
