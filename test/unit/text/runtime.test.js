'use strict';
// A run's runtime events in words (perf/lib/text/runtime.js): what the tail coincided with, and
// the GC and stalls of the window.

const assert = require('node:assert/strict');
const { causeText, eventsText, runtimeLines, whyText } = require('../../../perf/lib/text/runtime');
const { trialRun, decoded } = require('../../support/made_up_results');

const RUNTIME = {
  runtime: 'ruby',
  gc_position: 'heartbeat',
  gc: { collections: 241, minor: 230, major: 11, time_ms: 96, longest_ms: 14.2, share_pct: 4.8 },
  loop: { stall_ms: 5, stalls: 9, stalled_ms: 80, longest_stall_ms: 16.1, late_p99_ms: 9 },
  allocations: { unit: 'objects', total: 1000, per_request: 27 },
  tail: {
    p99: { at_ms: 12.8, median_ms: 0.8, slow: 114, gc: { in_flight_pct: 97, all_in_flight_pct: 12.4, without_ms: 1.64, explained_pct: 93 }, stalls: { in_flight_pct: 95, all_in_flight_pct: 14, without_ms: 2, explained_pct: 90 }, coincided: 'gc' },
    p90: { at_ms: 3, median_ms: 0.8, slow: 1140, gc: { in_flight_pct: 20, all_in_flight_pct: 12.4, without_ms: 2.78, explained_pct: 10 }, stalls: { in_flight_pct: 22, all_in_flight_pct: 14, without_ms: 2.74, explained_pct: 12 }, coincided: 'neither' },
  },
};

describe('text/runtime: the events and the cause', () => {
  it('the GC by kind with its longest and share, the stalls with their threshold', () => {
    assert.equal(eventsText(RUNTIME), '11 major and 230 minor GCs, the longest 14.2 ms in a heartbeat, 4.80 % of the time; 9 stalls ≥ 5 ms, the longest 16.1 ms');
    const quiet = { ...RUNTIME, gc_position: 'exact', gc: { ...RUNTIME.gc, collections: 0, minor: 0, major: 0, time_ms: 0 }, loop: { ...RUNTIME.loop, stalls: 0 } };
    assert.equal(eventsText(quiet), 'no GC; no stall ≥ 5 ms');
  });

  it('a tail the GC explains: the percentile without its time, the share of the excess that is, in flight during one against all requests', () => {
    assert.equal(
      causeText(RUNTIME, 'p99'),
      "coincided with GC pauses: without the GC's time p99 would have been 1.64 ms, not 12.8 ms (93 % of its excess over the median, 0.8 ms); in flight during one: 97 % of the 114 requests above it, 12 % of all; " + eventsText(RUNTIME),
    );
  });

  it('a tail neither explains, with both shares; the events alone without samples; nothing without events', () => {
    assert.match(causeText(RUNTIME, 'p90'), /^coincided with neither GC pauses nor loop stalls: without the GC's time p90 would have been 2\.78 ms, not 3\.00 ms \(10 % of its excess over the median, 0\.8 ms\); without the stalls' 2\.74 ms \(12 %\); 11 major/);
    assert.equal(causeText({ ...RUNTIME, tail: undefined }, 'p99'), eventsText(RUNTIME));
    assert.equal(causeText(null, 'p99'), '');
  });
});

describe('text/runtime: the table of the runs\' runtime events', () => {
  const rt = (major, share, coincided) => ({ ...RUNTIME, gc: { ...RUNTIME.gc, major, share_pct: share }, tail: { p99: { ...RUNTIME.tail.p99, coincided } } });
  const runs = [1, 2, 3].flatMap((t) => [
    trialRun('em', 'keepalive', t, 1, 1000, { runtime: rt(10 + t, 4 + t, t === 3 ? 'neither' : 'gc') }),
    trialRun('node', 'keepalive', t, 1, 1000, { runtime: { ...rt(0, 1, 'neither'), allocations: { unit: 'bytes', total: 1, per_request: 7680 } } }),
  ]);

  it('per scenario and server: the medians over the runs, and in how many runs the p99 tail coincided with what', () => {
    const lines = runtimeLines(decoded(runs));
    assert.match(lines[1], /^The servers' runtime events \(medians over the usable runs/);
    assert.match(lines[2], /^scenario\s+server\s+GCs\s+major\s+GC time\s+longest GC\s+stalls ≥ 5 ms\s+longest stall\s+allocated\/req\s+p99 tail: GC, stalls, neither$/);
    const row = (server) => lines.find((l) => l.startsWith('keepalive') && l.includes(` ${server} `)) || lines.find((l) => l.includes(` ${server} `));
    assert.match(row('em'), /\s12\s+6\.00 %\s+14\.2 ms\s+9\s+16\.1 ms\s+27\.0 objects\s+2, 0, 1$/);
    assert.match(row('node'), /\s7\.50 KB\s+0, 0, 3$/);
  });

  it('nothing where no run has runtime events', () => {
    assert.deepEqual(runtimeLines(decoded(runs.map((r) => ({ ...r, runtime: undefined })))), []);
  });
});

describe('text/runtime: why, beside a latency verdict', () => {
  const rt = (coincided, share) => ({ ...RUNTIME, gc: { ...RUNTIME.gc, share_pct: share }, tail: { p99: { ...RUNTIME.tail.p99, coincided } } });
  it('each server\'s most frequent answer over its runs, with its GC\'s share and longest', () => {
    const runs = [1, 2, 3].flatMap((t) => [trialRun('em', 'k', t, 2, 1000, { runtime: rt(t < 3 ? 'gc' : 'neither', 8 + t) }), trialRun('node', 'k', t, 1, 1000, { runtime: rt('neither', 0) })]);
    assert.equal(whyText(decoded(runs), 'k', ['node', 'em']), "node's requests above p99 coincided with neither GC pauses nor loop stalls in 3 of 3 runs; em's requests above p99 coincided with GC pauses in 2 of 3 runs (GC 10.0 % of the time, the longest 14.2 ms)");
    assert.equal(whyText(decoded(runs.map((r) => ({ ...r, runtime: undefined }))), 'k', ['node', 'em']), '');
  });
});
