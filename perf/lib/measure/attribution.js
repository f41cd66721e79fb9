'use strict';
// What a run's tail coincided with: the server's GC pauses, its loop's stalls, or neither
// (results.json runs[].runtime.tail). The question asked of each kind of pause: had the server
// not paused, where would the percentile be? A pause delays the requests in flight during it by
// the time it covers, and, on a busy server, the ones that arrive after it too: the queue it
// leaves behind drains at what the server has to spare. Taken as a fluid queue at the run's
// utilization u (the server's CPU share), a pause of P ms delays a request arriving a ms into it
// by P − a (1 − u), down to nothing P ÷ (1 − u) ms after it began (at u = 0.7 a 25 ms GC delays
// requests for 83 ms). Each request's latency less the delay the pauses put on it gives the
// percentile without them; the share of the tail's excess over the median that this takes away
// is what the pauses explain. Counting only whether slow requests overlapped a pause would blame
// any pause for a long request (a queue 100 ms deep overlaps every GC), and taking a pause's time
// from the requests just above the percentile alone would let a 0.5 ms step "explain" a request
// 0.1 ms over it.

// A tail coincided with pauses of a kind when they explain at least this share of its excess.
const COINCIDE_SHARE = 0.5;
// The percentiles asked about: the tail's (the median has no excess over itself).
const TAIL_PERCENTILES = { p90: 90, p99: 99, p999: 99.9 };

const round1 = (x) => Math.round(x * 10) / 10;
const round3 = (x) => Math.round(x * 1000) / 1000;

/** Sorted, merged [from, to] intervals. */
function merged(intervals) {
  const sorted = intervals.map((p) => [p.from, p.to]).sort((a, b) => a[0] - b[0]);
  const out = [];
  for (const [from, to] of sorted) {
    const last = out[out.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/** How much of [from, to] the merged intervals cover, in ms (binary search for the first that ends after from). */
function covered(intervals, from, to) {
  let lo = 0;
  let hi = intervals.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (intervals[mid][1] <= from) lo = mid + 1;
    else hi = mid;
  }
  let total = 0;
  for (let k = lo; k < intervals.length && intervals[k][0] < to; k++) total += Math.min(to, intervals[k][1]) - Math.max(from, intervals[k][0]);
  return total;
}

/** The q-th percentile (0–100) of sorted values, nearest rank. */
const percentileOf = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((q / 100) * sorted.length) - 1))];

// The utilization the queue model takes at most: past it a pause's queue would never drain.
const MAX_UTILIZATION = 0.95;

/**
 * The delay merged pauses put on a request sent at `from` and answered at `to` (ms): the time
 * they cover while it is in flight, and for a pause that began before it was sent, the queue
 * that pause left behind (at utilization u): P − (from − start) (1 − u) while positive.
 * reach: the longest a pause's effect lasts (P ÷ (1 − u)), to start the search from.
 */
function delayOf(intervals, from, to, u, reach) {
  let lo = 0;
  let hi = intervals.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (intervals[mid][0] < from - reach) lo = mid + 1;
    else hi = mid;
  }
  let total = 0;
  for (let k = lo; k < intervals.length && intervals[k][0] < to; k++) {
    const [start, end] = intervals[k];
    if (start >= from) total += Math.min(to, end) - start;
    else total += Math.max(0, end - start - (from - start) * (1 - u));
  }
  return Math.min(total, to - from);
}

/**
 * The requests against pauses of one kind: each one's latency, whether it was in flight during
 * one, and the delay they put on it (delayOf).
 */
function delays(requests, pauses, u) {
  const intervals = merged(pauses);
  const reach = intervals.reduce((m, [a, b]) => Math.max(m, (b - a) / (1 - u)), 0);
  const n = requests.starts.length;
  const latency = new Float64Array(n);
  const delay = new Float64Array(n);
  const during = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    latency[i] = requests.ends[i] - requests.starts[i];
    delay[i] = delayOf(intervals, requests.starts[i], requests.ends[i], u, reach);
    during[i] = covered(intervals, requests.starts[i], requests.ends[i]) > 0 ? 1 : 0;
  }
  return { latency, delay, during };
}

/**
 * The tail above each of TAIL_PERCENTILES against the pauses: requests { starts, ends }
 * (monotonic ms, the answered ones), pauses { gc: [{ from, to }], stalls: [{ from, to }] },
 * utilization (0–1, the server's CPU share over the run; null: 0). Returns { p99: { at_ms,
 * median_ms, slow, gc: { in_flight_pct, all_in_flight_pct, without_ms, explained_pct }, stalls:
 * { … }, coincided: 'gc' | 'stalls' | 'neither' }, … } (at_ms and without_ms exact, nearest
 * rank; explained_pct, the share of at_ms − median_ms that taking the pauses' delay out
 * removes); a percentile with no excess over the median is left out. GC first: a GC pause
 * stalls the loop too.
 */
function attributeTail(requests, pauses, utilization = null) {
  const out = {};
  const n = requests.starts.length;
  if (!n) return out;
  const u = Math.min(MAX_UTILIZATION, Math.max(0, utilization ?? 0));
  const kinds = { gc: delays(requests, pauses.gc, u), stalls: delays(requests, pauses.stalls, u) };
  const sorted = Float64Array.from(kinds.gc.latency).sort();
  const median = percentileOf(sorted, 50);
  for (const [p, q] of Object.entries(TAIL_PERCENTILES)) {
    const at = percentileOf(sorted, q);
    if (!(at > median)) continue;
    const slow = [];
    for (let i = 0; i < n; i++) if (kinds.gc.latency[i] > at) slow.push(i);
    const entry = { at_ms: round3(at), median_ms: round3(median), slow: slow.length };
    for (const [kind, { latency, delay, during }] of Object.entries(kinds)) {
      const without = percentileOf(Float64Array.from(latency, (l, i) => l - delay[i]).sort(), q);
      const all = during.reduce((t, d) => t + d, 0);
      entry[kind] = {
        in_flight_pct: slow.length ? round1((slow.filter((i) => during[i]).length / slow.length) * 100) : 0,
        all_in_flight_pct: round1((all / n) * 100),
        without_ms: round3(without),
        explained_pct: round1(Math.max(0, Math.min(1, (at - without) / (at - median))) * 100),
      };
    }
    const coincides = (k) => entry[k].explained_pct >= COINCIDE_SHARE * 100;
    entry.coincided = coincides('gc') ? 'gc' : coincides('stalls') ? 'stalls' : 'neither';
    out[p] = entry;
  }
  return out;
}

module.exports = { attributeTail, merged, covered, delayOf, COINCIDE_SHARE };
