'use strict';
// What a waiting request costs: requests that wait on the server's timer
// (GET /delay?ms=N), held by thousands of connections at once. Three figures come from here:
//   latency above the wait   p50 − N and p99 − N of a run (perf/lib/store/scenario_doc.js aboveWait)
//   memory per connection    the least-squares slope of the server's peak RSS against the
//                            connections it held, with its 95 % interval (memorySlope)
//   the held count           the most waiting requests a server holds with its p99 no more than
//                            ABOVE_WAIT_BOUND_MS above the wait, no errors and the schedule
//                            kept (a search over the held count: ../run/held.js, with
//                            run/capacity.js's search; heldObjective)
// The bound, the search's objective and the rule that keeps the load generator's own lateness
// out of them are the method's (perf/lib/method.js ABOVE_WAIT_BOUND_MS, heldObjective,
// CLIENT_LATE_MS).

const { jStat } = require('jstat');
const { waitMs, heldConnections } = require('../store/scenario_doc');
// The median: a centre that, unlike the geometric mean, takes a value below 0 (a timer a millisecond early).
const { median, leastSquares } = require('../measure/stats');
const { ABOVE_WAIT_BOUND_MS } = require('../method');

/**
 * Memory per open connection: the least-squares slope of peak RSS (MB) against connections
 * held, over points [{ x: connections, y: MB }], in KB per connection with its interval
 * (Student t on n − 2 degrees of freedom: the classic slope interval, which covers at its
 * level when the residuals are independent and about normal; test/unit/judge/held.test.js
 * checks it by simulation). { kb_per_connection, ci95: [lo, hi] (KB), n, base_mb (the fitted
 * RSS at no connection), connections: [fewest, most], at_most_kb (withResolution) }, or null with fewer than three points
 * or fewer than two distinct counts. level: the interval's (0.95).
 */
function memorySlope(points, level = 0.95) {
  const pts = points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  const n = pts.length;
  if (n < 3 || new Set(pts.map((p) => p.x)).size < 2) return null;
  const { slope, base, sxx } = leastSquares(pts);
  const sse = pts.reduce((t, p) => t + (p.y - base - slope * p.x) ** 2, 0);
  const se = Math.sqrt(sse / (n - 2) / sxx);
  const half = jStat.studentt.inv(1 - (1 - level) / 2, n - 2) * se;
  const kb = (mb) => Math.round(mb * 1024 * 1000) / 1000;
  return withResolution({ kb_per_connection: kb(slope), ci95: [kb(slope - half), kb(slope + half)], n, base_mb: Math.round(base * 10) / 10, connections: [Math.min(...pts.map((p) => p.x)), Math.max(...pts.map((p) => p.x))] });
}

/**
 * Memory per held connection from a held-count search's steps (results.json held.servers[].steps):
 * memorySlope over every step the server answered without an error, whose load generator offered
 * it, whether or not its latency kept the bound (peak RSS against connections held).
 */
function heldMemory(steps) {
  const answered = steps.filter((st) => st.held && !st.errors && !st.fatal && !st.limited && !st.stop && Number.isFinite(st.peak_rss_mb));
  return memorySlope(answered.map((st) => ({ x: st.held, y: st.peak_rss_mb })));
}

/** results.json's held (or null) with each server's memory per held connection (heldMemory), as files of earlier runs stored it or judged from its steps. */
function judgeHeld(held) {
  if (!held || !held.servers) return held || null;
  return { ...held, servers: Object.fromEntries(Object.entries(held.servers).map(([name, s]) => [name, { ...s, memory: s.memory === undefined ? heldMemory(s.steps || []) : s.memory }])) };
}

/**
 * A memory slope with what it lets one say (at_most_kb): memory per connection cannot be below
 * 0, and a slope interval that reaches 0 (its lower bound ≤ 0) says only that the figure is
 * below the resolution of the measurement, at most the interval's upper bound (0 where even
 * that is below 0: RSS fell as connections rose). at_most_kb is that bound (KB), or null where
 * the interval lies above 0 and the slope with its interval is the figure. Neither truncating the
 * interval at 0 (it would still centre a figure the points cannot tell from none) nor a log
 * scale (a slope is a difference of RSS, 0 is a value it can take) says it better. Slopes
 * stored before this field are given it on reading (memoryResolved, from judged.js). null stays null.
 */
function withResolution(slope) {
  if (!slope || slope.at_most_kb !== undefined) return slope;
  return { ...slope, at_most_kb: slope.ci95[0] > 0 ? null : Math.max(0, slope.ci95[1]) };
}

/**
 * results.json's held and waiting (either may be null) with every memory slope given its
 * at_most_kb (withResolution): files written before it have slopes without it.
 */
function memoryResolved(held, waiting) {
  const each = (obj, f) => Object.fromEntries(Object.entries(obj || {}).map(([k, v]) => [k, f(v)]));
  return {
    held: held && { ...held, servers: each(held.servers, (s) => ({ ...s, memory: withResolution(s.memory) })) },
    waiting: waiting && { ...waiting, memory: each(waiting.memory, (m) => ({ ...m, runs: withResolution(m.runs), search: withResolution(m.search) })) },
  };
}

const errorsOf = (r) => (r.errors ? Object.values(r.errors).reduce((t, n) => t + n, 0) : 0);

/**
 * Whether a run is one of the waiting runs (its request waits: waitMs). A backend scenario and its
 * baseline are judge/backends.js's, though /upstream?ms=N and its /delay?ms=N baseline wait too.
 */
function isWaitingRun(r) {
  return Boolean(r.params) && waitMs(r.params) !== null && !r.params.baseline && !r.params.baseline_of;
}

/**
 * What the waiting runs of a results document say (results.json's `waiting`): { bound_ms,
 * scenarios: [{ scenario, kind, wait_ms, held (connections held at once, as planned), servers:
 * { server: { runs (those a verdict may use), p50, p99 (medians of their latency above the wait,
 * ms), errors (over every finished run), judged_runs, failed } } }], memory: { server: { runs
 * (memorySlope of the peak RSS of the keep-alive runs that finished with no error against the
 * connections they held: the scenarios at 1,000, 5,000 and 10,000; null with fewer than two
 * counts), search (the held-count search's, from held.servers) } } }. usable(run): whether a
 * verdict may use it (perf/lib/rule/compare.js), for the latency above the wait.
 */
function analyzeWaiting(runs, held, usable) {
  const waiting = runs.filter((r) => isWaitingRun(r) && !r.superseded_by);
  const names = [...new Set(waiting.map((r) => r.scenario))];
  const servers = [...new Set(waiting.map((r) => r.server))];
  const scenarios = names.map((scenario) => {
    const mine = waiting.filter((r) => r.scenario === scenario);
    const params = mine[0].params;
    const perServer = {};
    for (const server of servers) {
      const rs = mine.filter((r) => r.server === server);
      if (!rs.length) continue;
      const ok = rs.filter((r) => r.ok);
      const used = rs.filter(usable);
      perServer[server] = {
        runs: rs.length,
        judged_runs: used.length,
        failed: rs.length - ok.length,
        p50: median(used.map((r) => r.above_wait_ms && r.above_wait_ms.p50)),
        p99: median(used.map((r) => r.above_wait_ms && r.above_wait_ms.p99)),
        errors: ok.reduce((t, r) => t + errorsOf(r), 0),
      };
    }
    return { scenario, kind: params.kind, wait_ms: waitMs(params), held: heldConnections(params), servers: perServer };
  });
  const memory = {};
  for (const server of new Set([...servers, ...Object.keys((held && held.servers) || {})])) {
    // Memory for holding the connections whether or not the latency could be judged (a busy
    // machine delays replies, not what a connection costs): every keep-alive run that finished
    // with no error, as the held-count search's steps (../run/held.js).
    const keepAlive = waiting.filter((r) => r.server === server && r.params.kind === 'rate' && r.ok && errorsOf(r) === 0 && Number.isFinite(r.server_peak_rss_mb));
    memory[server] = { runs: memorySlope(keepAlive.map((r) => ({ x: heldConnections(r.params), y: r.server_peak_rss_mb }))), search: held && held.servers[server] ? held.servers[server].memory : null };
  }
  return { bound_ms: ABOVE_WAIT_BOUND_MS, scenarios, memory };
}

module.exports = { memorySlope, heldMemory, judgeHeld, withResolution, memoryResolved, analyzeWaiting, isWaitingRun };
