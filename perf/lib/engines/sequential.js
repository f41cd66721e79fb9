'use strict';
// Closed loop, one request per connection: `concurrency` independent clients, each opening a
// connection, sending one request with Connection: close, reading the reply, closing, and
// only then opening the next. concurrency 1 is seed 002's sequential test (each connection
// created upon the tear-down of the previous one); 256 for 10 s is seed 004's short
// connections. autocannon cannot do this faithfully: with Connection: close it writes the
// next request onto the closing socket (half of them are lost), and with reconnectRate: 1
// it never reports the replies.

const { performance } = require('node:perf_hooks');
const { HttpConnection } = require('./http_exchange');
const { closedLoopOptions } = require('../store/scenario_doc');

/**
 * options: { host, port, request, concurrency, requests (total) | durationMs, timeoutMs,
 *   samples (started), role, signal, onProgress({done,total}) }
 * Resolves with { connections } once every client stopped. With durationMs, a request that
 * started before the end runs to completion (bounded by timeoutMs).
 */
async function runSequential(options) {
  const { host, port, request, concurrency, requests = null, durationMs = null, timeoutMs = 10000, samples, role = 'main', signal = null, onProgress = null } = options;
  if (requests === null && durationMs === null) throw new Error('runSequential: requests or durationMs required');
  const endAt = durationMs === null ? Infinity : performance.now() + durationMs;
  const total = requests === null ? null : requests;
  const active = new Set();
  let issued = 0;
  let done = 0;
  let aborted = false;
  const onAbort = () => {
    aborted = true;
    for (const conn of active) conn.abort('other', 'run aborted');
  };
  if (signal) {
    if (signal.aborted) return { connections: 0 };
    signal.addEventListener('abort', onAbort, { once: true });
  }

  const client = async () => {
    while (!aborted) {
      if (total !== null && issued >= total) return;
      if (performance.now() >= endAt) return;
      const id = ++issued;
      const conn = new HttpConnection({ host, port });
      active.add(conn);
      const startAt = conn.openedAt;
      const res = await conn.request({
        method: request.method,
        path: request.path,
        headers: request.headers,
        uploadBytes: request.upload_bytes,
        keepAlive: false,
        deadlineAt: startAt + timeoutMs,
      });
      samples.add({
        startAt,
        endAt: res.doneAt,
        connectMs: conn.connectMs,
        status: res.status,
        error: res.error ? res.error.kind : null,
        role,
        conn: id,
      });
      // The next connection opens only after this one is torn down (bounded wait).
      await conn.closeGracefully(1000);
      active.delete(conn);
      done += 1;
      if (onProgress) onProgress({ done, total });
    }
  };

  try {
    await Promise.all(Array.from({ length: concurrency }, client));
  } finally {
    if (signal) signal.removeEventListener('abort', onAbort);
  }
  return { connections: issued };
}

/** The engine (./index.js): closed loops with a new connection per request. */
const sequentialEngine = {
  supports: (s) => s.kind === 'closed' && !s.keep_alive,
  run: ({ scenario, ...ctx }) => runSequential({ ...ctx, ...closedLoopOptions(scenario) }),
};

module.exports = { sequentialEngine, runSequential };
