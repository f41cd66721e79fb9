'use strict';
// What a scenario asks, read from its definition (perf/scenarios/*.json as plan/scenarios.js
// loads it, or a run's params in results.json, which are the same fields): the wait its request
// asks for (and a run's latency above it), the connections it holds open, how long its load
// lasts, what a server must serve to answer it, a closed loop's options for the engines, and
// what a run records of it. The one home of these readings, below every stage that needs
// them: the plan, the engines, the runner and the judge.

/**
 * The wait a scenario's request asks for, in ms (GET /delay?ms=N: the server answers after N ms
 * on its timer; GET /upstream?ms=N: after the upstream service's N ms, CONTRACT.md), or null for
 * any other request. A scenario or a run's params alike. Which runs have a wait, and "latency above
 * the wait" (aboveWait), read it here.
 */
function waitMs(s) {
  const request = s && (s.request || (s.probe && s.probe.request));
  const m = request && /^\/(?:delay|upstream)\?(?:.*&)?ms=(\d{1,5})(?:&|$)/.exec(request.path || '');
  return m ? Number(m[1]) : null;
}

/**
 * How many connections a scenario holds open at once, as planned: what the load generator and
 * the server need descriptors for, and the x of memory per connection. A closed loop's
 * clients; a constant rate's pool; an open loop's arrivals within one request's life (its
 * wait; a second otherwise, far longer than a reply from memory takes), never more than it
 * opens; slow clients and their probe likewise.
 */
function heldConnections(s) {
  const arrivals = (rate) => Math.ceil(rate * ((waitMs(s) ?? 1000) / 1000));
  if (s.kind === 'closed') return s.concurrency;
  if (s.kind === 'rate') return Math.min(s.connections, s.requests);
  if (s.kind === 'open') return Math.min(s.connections, arrivals(s.rate));
  return s.slow.clients + arrivals(s.probe.rate);
}

/** A closed-loop scenario as the options of a closed-loop engine (runAutocannon, runSequential). */
function closedLoopOptions(s) {
  return {
    request: s.request,
    concurrency: s.concurrency,
    requests: s.requests,
    requestsPerConnection: s.requests_per_connection,
    durationMs: s.duration_s === null ? null : s.duration_s * 1000,
    timeoutMs: s.timeout_s * 1000,
  };
}

/** The capability one request needs. */
function requestNeeds(req) {
  if (!req) return null;
  if (req.upload_bytes || req.method === 'POST' || req.method === 'PUT') return 'upload';
  const p = req.path || '/hello';
  if (p === '/hello') return 'hello';
  for (const route of ['delay', 'upstream', 'db']) if (p === `/${route}` || p.startsWith(`/${route}?`)) return route;
  return 'files';
}

/** Every capability a scenario needs, e.g. ['hello', 'files'] for slow_read. */
function scenarioNeeds(s) {
  const reqs = [s.request, s.probe && s.probe.request, s.slow && s.slow.request];
  return [...new Set(reqs.map(requestNeeds).filter(Boolean))];
}

/**
 * A run's latency above its scenario's wait: { wait_ms, p50, p99 } (the percentile less N, ms;
 * below 0 where the timer fired early, as it may by a millisecond), or null for a run whose
 * request does not wait or that measured no latency. What the wait costs on top of the wait.
 */
function aboveWait(params, latency) {
  const wait = waitMs(params);
  if (wait === null || !latency || typeof latency.p50 !== 'number') return null;
  const less = (v) => (typeof v === 'number' ? Math.round((v - wait) * 1000) / 1000 : null);
  return { wait_ms: wait, p50: less(latency.p50), p99: less(latency.p99) };
}

/** Rough length of the load phase in seconds (null when it depends on the server's speed). */
function expectedDurationS(s) {
  if (s.kind === 'open') return s.connections / s.rate;
  if (s.kind === 'rate') return s.requests / s.rate;
  if (s.kind === 'slow_clients') return s.probe.duration_s;
  return s.duration_s;
}

/** Serialisable copy of a scenario's effective parameters: what results.json records of it (a run's `params`). */
function scenarioParams(s) {
  const copy = JSON.parse(JSON.stringify(s));
  delete copy.file;
  return copy;
}

module.exports = { waitMs, aboveWait, expectedDurationS, scenarioParams, heldConnections, closedLoopOptions, requestNeeds, scenarioNeeds };
