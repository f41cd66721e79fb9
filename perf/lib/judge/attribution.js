'use strict';
// What a run's slow requests coincided with: the server's GC pauses, its loop's stalls, or
// neither (results.json runs[].runtime.tail). A slow request (above a percentile) is put down
// to pauses of a kind when it would not have been slow without them: its latency less the time
// of such pauses it was in flight during is at or under the percentile. Counting only whether a
// request overlapped a pause would blame any pause for a long request (a queue 100 ms deep
// overlaps every GC); taking the pauses' time out asks whether they made the difference.

// A tail coincided with pauses of a kind when at least this share of it is put down to them.
const COINCIDE_SHARE = 0.5;

const round1 = (x) => Math.round(x * 10) / 10;

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

/**
 * The slow requests against pauses of one kind: { in_flight_pct, all_in_flight_pct, explained_pct }:
 * the share of the slow requests in flight during one, the same among all requests, and the
 * share of the slow ones that would have been at or under aboveMs without those pauses' time.
 */
function against(requests, slow, pauses, aboveMs) {
  const intervals = merged(pauses);
  const n = requests.starts.length;
  let all = 0;
  for (let i = 0; i < n; i++) if (covered(intervals, requests.starts[i], requests.ends[i]) > 0) all += 1;
  let inFlight = 0;
  let explained = 0;
  for (const i of slow) {
    const paused = covered(intervals, requests.starts[i], requests.ends[i]);
    if (paused > 0) inFlight += 1;
    if (paused > 0 && requests.ends[i] - requests.starts[i] - paused <= aboveMs) explained += 1;
  }
  const pct = (k, of) => round1((k / of) * 100);
  return { in_flight_pct: pct(inFlight, slow.length), all_in_flight_pct: pct(all, n), explained_pct: pct(explained, slow.length) };
}

/**
 * The tail above each percentile of latencyMs ({ p99: 12.8, … }, the run's own figures), put
 * against the pauses: requests { starts, ends } (monotonic ms, the answered ones), pauses
 * { gc: [{ from, to }], stalls: [{ from, to }] }. Returns { p99: { above_ms, slow, gc: {…},
 * stalls: {…}, coincided: 'gc' | 'stalls' | 'neither' }, … }; a percentile with no request above
 * it is left out. GC first: a GC pause stalls the loop too.
 */
function attributeTail(requests, pauses, latencyMs) {
  const out = {};
  const n = requests.starts.length;
  for (const [p, aboveMs] of Object.entries(latencyMs)) {
    const slow = [];
    for (let i = 0; i < n; i++) if (requests.ends[i] - requests.starts[i] > aboveMs) slow.push(i);
    if (!slow.length) continue;
    const gc = against(requests, slow, pauses.gc, aboveMs);
    const stalls = against(requests, slow, pauses.stalls, aboveMs);
    const coincides = (s) => s.explained_pct >= COINCIDE_SHARE * 100;
    const coincided = coincides(gc) ? 'gc' : coincides(stalls) ? 'stalls' : 'neither';
    out[p] = { above_ms: aboveMs, slow: slow.length, gc, stalls, coincided };
  }
  return out;
}

module.exports = { attributeTail, merged, covered, COINCIDE_SHARE };
