'use strict';
// A run's runtime events in words (perf/lib/text/runtime.js): what the tail coincided with, and
// the GC and stalls of the window.

const assert = require('node:assert/strict');
const { causeText, eventsText } = require('../../../perf/lib/text/runtime');

const RUNTIME = {
  runtime: 'ruby',
  gc_position: 'heartbeat',
  gc: { collections: 241, minor: 230, major: 11, time_ms: 96, longest_ms: 14.2, share_pct: 4.8 },
  loop: { stall_ms: 5, stalls: 9, stalled_ms: 80, longest_stall_ms: 16.1, late_p99_ms: 9 },
  allocations: { unit: 'objects', total: 1000, per_request: 27 },
  tail: {
    p99: { above_ms: 12.8, slow: 114, gc: { in_flight_pct: 97, all_in_flight_pct: 12.4, explained_pct: 93 }, stalls: { in_flight_pct: 95, all_in_flight_pct: 14, explained_pct: 90 }, coincided: 'gc' },
    p90: { above_ms: 3, slow: 1140, gc: { in_flight_pct: 20, all_in_flight_pct: 12.4, explained_pct: 10 }, stalls: { in_flight_pct: 22, all_in_flight_pct: 14, explained_pct: 12 }, coincided: 'neither' },
  },
};

describe('text/runtime: the events and the cause', () => {
  it('the GC by kind with its longest and share, the stalls with their threshold', () => {
    assert.equal(eventsText(RUNTIME), '11 major and 230 minor GCs, the longest 14.2 ms in a heartbeat, 4.80 % of the time; 9 stalls ≥ 5 ms, the longest 16.1 ms');
    const quiet = { ...RUNTIME, gc_position: 'exact', gc: { ...RUNTIME.gc, collections: 0, minor: 0, major: 0, time_ms: 0 }, loop: { ...RUNTIME.loop, stalls: 0 } };
    assert.equal(eventsText(quiet), 'no GC; no stall ≥ 5 ms');
  });

  it('a tail the GC explains: how much of it, in flight during one, against all requests', () => {
    assert.equal(
      causeText(RUNTIME, 'p99'),
      'coincided with GC pauses: 93 % of the 114 requests above p99 would have been under it without their time (in flight during one: 97 %, of all requests 12 %); ' + eventsText(RUNTIME),
    );
  });

  it('a tail neither explains, with both shares; the events alone without samples; nothing without events', () => {
    assert.match(causeText(RUNTIME, 'p90'), /^coincided with neither GC pauses nor loop stalls: of the 1,140 requests above p90, 10 % would have been under it without the GC's time, 12 % without the stalls'; 11 major/);
    assert.equal(causeText({ ...RUNTIME, tail: undefined }, 'p99'), eventsText(RUNTIME));
    assert.equal(causeText(null, 'p99'), '');
  });
});
