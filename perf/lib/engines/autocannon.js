'use strict';
// Closed-loop keep-alive scenarios through autocannon's Node API. autocannon's own latency
// histogram keeps neither request start times nor error kinds, so setupClient hooks every
// client's events and records each request into our Samples:
//   'request'   a request was written (a new socket means a new connection: time its connect)
//   'response'  its reply completed (status)
//   'connError' the socket failed (refused / reset / other)
//   'timeout'   no reply within `timeout`
// A request still pending when a new one is written was lost to a connection the server
// closed (autocannon reconnects silently): it is recorded as 'reset'. Requests in flight when
// a duration-bounded run ends are not counted (as wrk and autocannon do).

const { performance } = require('node:perf_hooks');
const { classifyError, payloadSource } = require('./http_exchange');
const { closedLoopOptions } = require('../store/scenario_doc');

// autocannon is loaded by the first run that uses it, not with the engines: its modules cost a
// command 0.29 s of CPU of the 0.68 s `node perf/cli/run.js --bogus` took to say its usage
// error (0.39 s without them), and every command and test process that loads the engines paid it.
let autocannon = null;

/**
 * options: { host, port, request, concurrency, requests | requestsPerConnection | durationMs,
 *   timeoutMs, samples (started), role, signal, onProgress({done,total}) }
 * Resolves with { engine_totals } (autocannon's own counts, for cross-checking).
 */
function runAutocannon(options) {
  const { host, port, request, concurrency, requests = null, requestsPerConnection = null, durationMs = null, timeoutMs = 10000, samples, role = 'main', signal = null, onProgress = null } = options;
  const amount = requests !== null ? requests : requestsPerConnection !== null ? requestsPerConnection * concurrency : null;
  let done = 0;
  let connSeq = 0;
  let body;
  if (request.upload_bytes) {
    const src = payloadSource();
    body = request.upload_bytes <= src.length ? src.subarray(0, request.upload_bytes) : Buffer.alloc(request.upload_bytes, 0x61);
  }

  const record = (pending, endAt, status, kind) => {
    samples.add({ startAt: pending.startAt, endAt, connectMs: pending.connectMs(), status, error: kind, role, conn: pending.conn });
    done += 1;
    if (onProgress && (done & 255) === 0) onProgress({ done, total: amount });
  };

  const setupClient = (client) => {
    const state = { socket: null, conn: 0, connOpenedAt: 0, connectMs: null, pending: null, orphan: null };
    client.on('request', () => {
      const now = performance.now();
      if (state.pending) {
        // Written again before a reply: the previous request's connection went away. A
        // 'timeout' emitted in this same tick claims it; otherwise it is a reset.
        state.orphan = state.pending;
        queueMicrotask(() => {
          if (state.orphan) {
            record(state.orphan, now, 0, 'reset');
            state.orphan = null;
          }
        });
      }
      let first = false;
      if (client.conn !== state.socket) {
        const socket = client.conn;
        const conn = ++connSeq;
        state.socket = socket;
        state.conn = conn;
        state.connOpenedAt = now;
        state.connectMs = null;
        first = true;
        socket.once('connect', () => {
          if (state.conn === conn) state.connectMs = performance.now() - state.connOpenedAt;
        });
      }
      const conn = state.conn;
      state.pending = { startAt: now, conn, connectMs: first ? () => (state.conn === conn ? state.connectMs : null) : () => null };
    });
    client.on('response', (statusCode) => {
      if (!state.pending) return;
      record(state.pending, performance.now(), Number(statusCode), null);
      state.pending = null;
    });
    client.on('connError', (err) => {
      const pending = state.pending;
      if (!pending) return;
      state.pending = null;
      record(pending, performance.now(), 0, classifyError(err));
    });
    client.on('timeout', () => {
      const pending = state.orphan || state.pending;
      if (!pending) return;
      if (state.orphan) state.orphan = null;
      else state.pending = null;
      record(pending, performance.now(), 0, 'timeout');
    });
  };

  const opts = {
    url: `http://${host}:${port}${request.path}`,
    method: request.method,
    headers: request.headers,
    connections: concurrency,
    timeout: Math.max(1, Math.ceil(timeoutMs / 1000)),
    sampleInt: 100, // autocannon notices the end only at its next sample tick
    setupClient,
  };
  if (body) opts.body = body;
  if (amount !== null) opts.amount = amount;
  else opts.duration = durationMs / 1000;

  return new Promise((resolve, reject) => {
    let instance;
    const onAbort = () => instance && instance.stop();
    try {
      autocannon ??= require('autocannon');
      instance = autocannon(opts, (err, result) => {
        if (signal) signal.removeEventListener('abort', onAbort);
        if (err) return reject(err);
        resolve({
          engine_totals: {
            requests_sent: result.requests.sent,
            replies: result.requests.total,
            errors: result.errors,
            timeouts: result.timeouts,
            non2xx: result.non2xx,
          },
        });
      });
    } catch (err) {
      reject(err);
      return;
    }
    if (signal) {
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
  });
}

/** The engine (./index.js): closed loops over keep-alive connections. */
const autocannonEngine = {
  supports: (s) => s.kind === 'closed' && s.keep_alive,
  run: ({ scenario, ...ctx }) => runAutocannon({ ...ctx, ...closedLoopOptions(scenario) }),
};

module.exports = { autocannonEngine, runAutocannon };
