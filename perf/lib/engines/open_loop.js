'use strict';
// Open-loop connection arrivals, as httperf --rate: connection i opens at origin + i/rate
// whatever the earlier ones are doing, and its latency counts from that scheduled moment.
// A stalled server therefore shows up as latency (and open connections piling up), never as
// a schedule that quietly slows down with it (no coordinated omission). autocannon cannot
// do this: its connections are a fixed closed-loop pool.

const { performance } = require('node:perf_hooks');
const { HttpConnection } = require('./http_exchange');
const { scheduleLag, whenAborted } = require('./schedule');

/** Scheduled start offsets (ms from the run's origin) of `count` arrivals at `ratePerS`. */
function openLoopSchedule(count, ratePerS, offsetMs = 0) {
  if (!(count >= 0) || !(ratePerS > 0)) throw new Error('openLoopSchedule: count >= 0 and rate > 0 required');
  const out = new Float64Array(count);
  const interval = 1000 / ratePerS;
  for (let i = 0; i < count; i++) out[i] = offsetMs + i * interval;
  return out;
}

/**
 * Runs an open-loop arrival schedule against host:port, recording one sample per request.
 * options: { host, port, request {method,path,headers,upload_bytes}, connections, rate,
 *   requestsPerConnection, timeoutMs, samples (started), origin (default samples.origin),
 *   startOffsetMs, role, connIdBase, signal (AbortSignal), onProgress({done,total}) }
 * Resolves when every connection has finished (or was aborted) with
 * { launched, schedule_lag_ms: {mean, max} } — the lag of actual opening behind schedule.
 */
function runOpenLoop(options) {
  const {
    host,
    port,
    request,
    connections,
    rate,
    requestsPerConnection = 1,
    timeoutMs = 10000,
    samples,
    role = 'main',
    connIdBase = 0,
    startOffsetMs = 0,
    signal = null,
    onProgress = null,
  } = options;
  const origin = options.origin ?? samples.origin;
  const schedule = openLoopSchedule(connections, rate, startOffsetMs);
  const active = new Set();
  let next = 0;
  let outstanding = 0;
  let done = 0;
  const lag = scheduleLag();
  let timer = null;
  let aborted = false;
  let unwatch = () => {};

  return new Promise((resolve) => {
    const finishIfDone = () => {
      if ((next >= connections || aborted) && outstanding === 0) {
        unwatch();
        resolve({ launched: next, schedule_lag_ms: lag.summary() });
      }
    };

    unwatch = whenAborted(signal, () => {
      aborted = true;
      if (timer) clearTimeout(timer);
      for (const conn of active) conn.abort('other', 'run aborted');
      finishIfDone();
    });
    if (aborted) return;

    const session = async (index, scheduledAt) => {
      const conn = new HttpConnection({ host, port });
      active.add(conn);
      lag.add(conn.openedAt - scheduledAt);
      let startAt = scheduledAt;
      for (let r = 0; r < requestsPerConnection && !aborted; r++) {
        const last = r === requestsPerConnection - 1;
        const res = await conn.request({
          method: request.method,
          path: request.path,
          headers: request.headers,
          uploadBytes: request.upload_bytes,
          keepAlive: !last,
          deadlineAt: startAt + timeoutMs,
        });
        samples.add({
          startAt,
          endAt: res.doneAt,
          connectMs: r === 0 ? conn.connectMs : null,
          status: res.status,
          error: res.error ? res.error.kind : null,
          role,
          conn: connIdBase + index + 1,
        });
        if (res.error || !res.keepAlive) break;
        startAt = performance.now();
      }
      await conn.closeGracefully(1000);
      active.delete(conn);
    };

    const launchDue = () => {
      timer = null;
      if (aborted) return;
      const now = performance.now();
      // Launch everything that is due, catching up at once if the event loop was late.
      while (next < connections && origin + schedule[next] <= now) {
        const index = next++;
        outstanding += 1;
        session(index, origin + schedule[index]).finally(() => {
          outstanding -= 1;
          done += 1;
          if (onProgress) onProgress({ done, total: connections });
          finishIfDone();
        });
      }
      if (next < connections) {
        timer = setTimeout(launchDue, Math.max(0, origin + schedule[next] - performance.now()));
      } else {
        finishIfDone();
      }
    };
    launchDue();
  });
}

/** The engine (./index.js): connections opened on a schedule. */
const openLoopEngine = {
  supports: (s) => s.kind === 'open',
  // Each connection's first request starts when it was due (a ramp's steps have one a
  // connection); a later one on it starts when the one before ended.
  samplesOnSchedule: (s) => s.requests_per_connection === 1,
  run: ({ host, port, scenario: s, samples, signal, onProgress }) =>
    runOpenLoop({
      host,
      port,
      request: s.request,
      connections: s.connections,
      rate: s.rate,
      requestsPerConnection: s.requests_per_connection,
      timeoutMs: s.timeout_s * 1000,
      samples,
      signal,
      onProgress,
    }),
};

module.exports = { openLoopEngine, openLoopSchedule, runOpenLoop };
