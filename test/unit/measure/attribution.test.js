'use strict';
// What a run's slow requests coincided with (perf/lib/measure/attribution.js): a slow request is
// put down to pauses of a kind when it would have been at or under the percentile without their
// time; a long queue that merely overlaps pauses is not; GC before stalls.

const assert = require('node:assert/strict');
const { attributeTail, merged, covered, delayOf, COINCIDE_SHARE } = require('../../../perf/lib/measure/attribution');

/** Requests every 1 ms from 0 for `count` ms, each `base` ms long, plus `extra(t)` ms. */
function requests(count, base, extra = () => 0) {
  const starts = new Float64Array(count);
  const ends = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    starts[i] = i;
    ends[i] = i + base + extra(i);
  }
  return { starts, ends };
}

/** A pause of `ms` every `every` ms from `first`, within `span`. */
function pauses(first, every, ms, span) {
  const out = [];
  for (let t = first; t < span; t += every) out.push({ from: t, to: t + ms });
  return out;
}

/** The extra wait of a request sent at t when the loop stops for `ms` every `every` ms from `first`. */
const waitBehind = (first, every, ms) => (t) => {
  const into = (t - first) % every;
  return t >= first && into < ms ? ms - into : 0;
};

describe('attribution: intervals', () => {
  it('merges overlapping intervals in order', () => {
    assert.deepEqual(merged([{ from: 5, to: 8 }, { from: 0, to: 2 }, { from: 7, to: 10 }, { from: 2, to: 3 }]), [[0, 3], [5, 10]]);
  });

  it('how much of a span the intervals cover', () => {
    const m = [[0, 3], [5, 10], [20, 30]];
    assert.equal(covered(m, 1, 6), 3);
    assert.equal(covered(m, 10, 20), 0);
    assert.equal(covered(m, -5, 100), 18);
    assert.equal(covered([], 0, 1), 0);
  });
});

describe('attribution: the delay a pause puts on a request (a fluid queue at the utilization)', () => {
  const pause = [[100, 125]];
  it('in flight through it: the time it covers; sent during it or after it, what is left of its queue', () => {
    assert.equal(delayOf(pause, 90, 200, 0.7, 100), 25);
    assert.equal(delayOf(pause, 90, 110, 0.7, 100), 10, 'never more than the request\'s own latency');
    // Sent 10 ms into it: the 15 ms left of it, plus the 7 ms of work that arrived before.
    assert.ok(Math.abs(delayOf(pause, 110, 200, 0.7, 100) - 22) < 1e-9);
    // 25 ms ÷ (1 − 0.7) = 83.3 ms after it began, its queue has drained.
    assert.ok(Math.abs(delayOf(pause, 150, 300, 0.7, 100) - 10) < 1e-9);
    assert.equal(delayOf(pause, 184, 300, 0.7, 100), 0);
    // An idle server has no queue behind a pause: the time it covers, nothing after.
    assert.equal(delayOf(pause, 130, 300, 0, 100), 0);
  });
});

describe('attribution: what the tail coincided with', () => {
  it('a loop that stalls 20 ms every 200 ms: the tail is the stalls\', and without them p99 is the median\'s', () => {
    const reqs = requests(2000, 1, waitBehind(100, 200, 20));
    const stalls = pauses(100, 200, 20, 2000);
    const tail = attributeTail(reqs, { gc: [], stalls });
    assert.equal(tail.p99.coincided, 'stalls');
    assert.ok(tail.p99.at_ms > 15, JSON.stringify(tail.p99));
    assert.equal(tail.p99.median_ms, 1);
    assert.equal(tail.p99.stalls.without_ms, 1);
    assert.equal(tail.p99.stalls.explained_pct, 100);
    assert.equal(tail.p99.stalls.in_flight_pct, 100);
    assert.ok(tail.p99.stalls.all_in_flight_pct < 15, JSON.stringify(tail.p99));
    assert.deepEqual(tail.p99.gc, { in_flight_pct: 0, all_in_flight_pct: 0, without_ms: tail.p99.at_ms, explained_pct: 0 });
  });

  it('a 25 ms GC on a server at 70 %: the queue it leaves behind is its too; at the same delays with no utilization it explains less', () => {
    // A request every 0.1 ms, 0.2 ms each; a GC of 25 ms every 1,000 ms delays what arrives in the
    // 83 ms after it began (P − a (1 − 0.7)).
    const n = 20000;
    const starts = new Float64Array(n);
    const ends = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      starts[i] = i * 0.1;
      const a = starts[i] % 1000;
      ends[i] = starts[i] + 0.2 + Math.max(0, 25 - a * 0.3);
    }
    const gcs = [0, 1000].map((t) => ({ from: t, to: t + 25 }));
    const busy = attributeTail({ starts, ends }, { gc: gcs, stalls: [] }, 0.7);
    assert.equal(busy.p99.coincided, 'gc', JSON.stringify(busy.p99));
    assert.ok(busy.p99.gc.explained_pct > 95, JSON.stringify(busy.p99));
    const idle = attributeTail({ starts, ends }, { gc: gcs, stalls: [] }, 0);
    assert.ok(idle.p99.gc.explained_pct < busy.p99.gc.explained_pct, JSON.stringify(idle.p99));
  });

  it('the same stalls made by the GC: the GC\'s, before the stalls it made', () => {
    const reqs = requests(2000, 1, waitBehind(100, 200, 20));
    const p = pauses(100, 200, 20, 2000);
    assert.equal(attributeTail(reqs, { gc: p, stalls: p }).p99.coincided, 'gc');
  });

  it('a queue 100 ms deep overlaps every pause but is not explained by them: neither', () => {
    const reqs = requests(2000, 1, (t) => (t >= 1000 && t < 1030 ? 100 + t - 1000 : 0));
    for (const utilization of [0, 0.9]) {
      const tail = attributeTail(reqs, { gc: pauses(0, 50, 2, 2000), stalls: [] }, utilization);
      assert.equal(tail.p99.gc.in_flight_pct, 100);
      assert.ok(tail.p99.gc.explained_pct < 20, JSON.stringify(tail.p99));
      assert.equal(tail.p99.coincided, 'neither');
    }
  });

  it('pauses of a tenth of a millisecond under requests just above the percentile explain next to nothing', () => {
    // p99 1.5 ms: 30 requests of 1.6 ms, each over a 0.2 ms pause; the median 1 ms.
    const reqs = requests(2000, 1, (t) => (t % 64 === 0 ? 0.6 : t % 4 === 0 ? 0.5 : 0));
    const tiny = Array.from({ length: 32 }, (_, k) => ({ from: k * 64 + 0.5, to: k * 64 + 0.7 }));
    const tail = attributeTail(reqs, { gc: tiny, stalls: [] });
    assert.equal(tail.p99.gc.in_flight_pct, 100);
    assert.ok(tail.p99.gc.explained_pct < 50, JSON.stringify(tail.p99));
    assert.equal(tail.p99.coincided, 'neither');
  });

  it(`coincided only where the pauses explain at least ${COINCIDE_SHARE * 100} % of the tail's excess over the median`, () => {
    // A pause of 19 ms behind one request in 100, and as many slow for no recorded reason.
    const slowOwn = new Set(Array.from({ length: 40 }, (_, k) => 1000 + k * 25));
    const reqs = requests(2000, 1, (t) => (slowOwn.has(t) ? 30 : t >= 100 && t < 119 ? 119 - t : 0));
    const tail = attributeTail(reqs, { gc: [], stalls: [{ from: 100, to: 119 }] });
    assert.ok(tail.p99.stalls.explained_pct < 50, JSON.stringify(tail.p99));
    assert.equal(tail.p99.coincided, 'neither');
  });

  it('no pause at all: nothing is explained; a percentile with no excess over the median is left out', () => {
    const reqs = requests(1000, 1, (t) => (t % 50 === 0 ? 5 : 0));
    const tail = attributeTail(reqs, { gc: [], stalls: [] });
    assert.deepEqual(Object.keys(tail), ['p99', 'p999']);
    assert.equal(tail.p99.coincided, 'neither');
    assert.deepEqual(tail.p99.gc, { in_flight_pct: 0, all_in_flight_pct: 0, without_ms: 6, explained_pct: 0 });
    assert.deepEqual(attributeTail({ starts: new Float64Array(0), ends: new Float64Array(0) }, { gc: [], stalls: [] }), {});
  });
});
