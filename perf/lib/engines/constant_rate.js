'use strict';
// A constant request rate over a pool of keep-alive connections, as wrk2 -R and vegeta send it:
// request i is due at origin + i/rate whatever the server does, carried by connection i mod
// connections, and its latency counts from that moment. A connection still busy with an
// earlier reply holds the next request back, and the wait counts as latency: a slow server
// shows as latency, never as a schedule that quietly slows down with it (no coordinated
// omission). A connection the server closes, or that fails, is opened again for the requests
// still due on it. autocannon cannot do this (its connections send when their reply came), nor
// can Debian's wrk 4 (no -R).

const { performance } = require('node:perf_hooks');
const { HttpConnection } = require('./http_exchange');
const { scheduleLag, whenAborted } = require('./schedule');

/**
 * Sends `requests` requests at `rate` a second over `connections` keep-alive connections to
 * host:port, one sample per request. options: { host, port, request {method,path,headers,
 * upload_bytes}, connections, rate, requests, timeoutMs, samples (started), signal, onProgress,
 * warm (HttpConnections already open, one a connection: warmConnections) }.
 * Resolves when every request has its reply, error or the abort, with { launched, reconnects,
 * schedule_lag_ms: { mean, max } }: how late this process's timer handed each request to its
 * connection (its own lateness, not the server's).
 */
function runConstantRate(options) {
  const { host, port, request, connections, rate, requests, timeoutMs = 10000, samples, signal = null, onProgress = null, warm = [] } = options;
  const origin = samples.origin;
  const interval = 1000 / rate;
  const lanes = Array.from({ length: Math.min(connections, requests) }, (_, i) => ({ id: i + 1, conn: warm[i] ?? null, due: [], busy: false }));
  for (const conn of warm.slice(lanes.length)) conn.destroy();
  let next = 0;
  let done = 0;
  let reconnects = 0;
  const lag = scheduleLag();
  let timer = null;
  let aborted = false;
  let finished = false;
  let unwatch = () => {};

  return new Promise((resolve) => {
    const finishIfDone = () => {
      if (finished || !((next >= requests || aborted) && lanes.every((l) => !l.busy))) return;
      finished = true;
      unwatch();
      for (const lane of lanes) if (lane.conn) lane.conn.closeGracefully(1000);
      resolve({ launched: next, reconnects, schedule_lag_ms: lag.summary() });
    };

    unwatch = whenAborted(signal, () => {
      aborted = true;
      if (timer) clearTimeout(timer);
      for (const lane of lanes) {
        lane.due.length = 0;
        if (lane.conn) lane.conn.abort('other', 'run aborted');
      }
      finishIfDone();
    });
    if (aborted) return;

    // One request after another on the lane's connection, each from the moment it was due.
    const pump = async (lane) => {
      if (lane.busy || !lane.due.length || aborted) return;
      lane.busy = true;
      while (lane.due.length && !aborted) {
        const dueAt = lane.due.shift();
        if (!lane.conn || lane.conn.closed) {
          if (lane.conn) reconnects += 1;
          lane.conn = new HttpConnection({ host, port });
        }
        const fresh = lane.conn.connectedAt === null;
        const res = await lane.conn.request({ method: request.method, path: request.path, headers: request.headers, uploadBytes: request.upload_bytes, keepAlive: true, deadlineAt: dueAt + timeoutMs });
        samples.add({ startAt: dueAt, endAt: res.doneAt, connectMs: fresh ? lane.conn.connectMs : null, status: res.status, error: res.error ? res.error.kind : null, role: 'main', conn: lane.id });
        if (res.error || !res.keepAlive) {
          lane.conn.destroy();
          lane.conn = null;
          if (res.error) reconnects += 1;
        }
        done += 1;
        if (onProgress) onProgress({ done, total: requests });
      }
      lane.busy = false;
      finishIfDone();
    };

    const launchDue = () => {
      timer = null;
      if (aborted) return;
      const now = performance.now();
      // Hand every due request to its connection, catching up at once if the timer was late.
      while (next < requests && origin + next * interval <= now) {
        lag.add(now - (origin + next * interval));
        const lane = lanes[next % lanes.length];
        lane.due.push(origin + next * interval);
        next += 1;
        pump(lane);
      }
      if (next < requests) timer = setTimeout(launchDue, Math.max(0, origin + next * interval - performance.now()));
      else finishIfDone();
    };
    launchDue();
  });
}

/**
 * A scenario's warm_connections (the keep-alive ramps' steps), as rate_client's --warm: `count`
 * connections opened, one request sent on each and its reply awaited (up to timeoutMs), none
 * recorded. Resolves { conns (those open with a reply, null where not: the run opens them
 * again), connections (how many), ms }.
 */
async function warmConnections({ host, port, request, count, timeoutMs, signal = null }) {
  const started = performance.now();
  const conns = Array.from({ length: count }, () => new HttpConnection({ host, port }));
  const unwatch = whenAborted(signal, () => conns.forEach((c) => c.abort('other', 'run aborted')));
  const results = await Promise.all(conns.map((c) => c.request({ method: request.method, path: request.path, headers: request.headers, uploadBytes: request.upload_bytes, keepAlive: true, deadlineAt: started + timeoutMs })));
  unwatch();
  const kept = conns.map((c, i) => {
    if (!results[i].error && results[i].keepAlive && !c.closed) return c;
    c.destroy();
    return null;
  });
  return { conns: kept, connections: kept.filter(Boolean).length, ms: Math.round((performance.now() - started) * 1000) / 1000 };
}

/** The engine (./index.js): requests on a schedule over keep-alive connections. */
const constantRateEngine = {
  supports: (s) => s.kind === 'rate',
  // Every sample starts when its request was due (perf/lib/run/ramp.js judges a step's rate so).
  samplesOnSchedule: () => true,
  run: async ({ host, port, scenario: s, samples, signal, onProgress }) => {
    const options = { host, port, request: s.request, connections: s.connections, rate: s.rate, requests: s.requests, timeoutMs: s.timeout_s * 1000, samples, signal, onProgress };
    if (!s.warm_connections) return runConstantRate(options);
    const warmed = await warmConnections({ host, port, request: s.request, count: Math.min(s.connections, s.requests), timeoutMs: options.timeoutMs, signal });
    // Time zero after the warm-up: its requests are no part of the schedule.
    samples.start();
    const out = await runConstantRate({ ...options, warm: warmed.conns });
    return { ...out, warmed: { connections: warmed.connections, ms: warmed.ms } };
  },
};

module.exports = { constantRateEngine, runConstantRate, warmConnections };
