'use strict';
// "Does one slow client hurt everyone else?" A fast probe opens connections on an open-loop
// schedule for the whole run (its latency is the result), while a group of slow clients is
// active in a window in the middle:
//   mode 'read'    GET a file, reading the reply at bytes_per_s (the socket is paused when
//                  ahead of the byte budget, so the kernel window closes and the server's
//                  writes back up, as behind a slow link)
//   mode 'upload'  POST upload_bytes, sending the body at bytes_per_s (null: as fast as the
//                  socket drains, e.g. the 16 MiB uploads)
// With repeat, each slow client starts a new transfer as soon as one ends; transfers still
// running when the window closes are cut (recorded as 'cut', not as server errors).
// autocannon cannot pace reads or trickle a body, hence this engine.

const { performance } = require('node:perf_hooks');
const { HttpConnection } = require('./http_exchange');
const { runOpenLoop } = require('./open_loop');
const { latencySummary, round3 } = require('../measure/stats');

/**
 * options: { host, port, scenario (kind slow_clients), timeoutMs, samples (started), signal,
 *   onProgress }
 * Resolves with { slow_clients, probe_by_phase } (see perf/REFERENCE.md, "Scenarios").
 */
async function runSlowClients(options) {
  const { host, port, scenario, timeoutMs = 10000, samples, signal = null, onProgress = null } = options;
  const origin = samples.origin;
  const { probe, slow } = scenario;
  const probeCount = Math.max(1, Math.round(probe.rate * probe.duration_s));
  const windowStart = origin + slow.start_s * 1000;
  const windowEnd = windowStart + slow.active_s * 1000;
  const active = new Set();
  const periods = [];
  let aborted = false;
  let windowClosed = false;
  let probeDone = 0;
  let slowDone = 0;
  const progress = () => onProgress && onProgress({ done: probeDone, total: probeCount, slow: slowDone });

  const sleepers = new Set();
  const sleepUntil = (at) =>
    new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, at - performance.now()));
      sleepers.add(wake);
    });
  const onAbort = () => {
    aborted = true;
    for (const conn of active) conn.abort('other', 'run aborted');
    for (const wake of [...sleepers]) wake();
  };
  if (signal) signal.addEventListener('abort', onAbort, { once: true });
  const closeWindow = setTimeout(() => {
    windowClosed = true;
    for (const conn of active) conn.abort('cut', 'slow-client window closed');
  }, Math.max(0, windowEnd - performance.now()));

  let connSeq = probeCount; // probe connections are 1..probeCount
  const slowClient = async (client) => {
    if (windowStart > performance.now()) await sleepUntil(windowStart);
    do {
      if (aborted || windowClosed || performance.now() >= windowEnd) return;
      const conn = new HttpConnection({ host, port });
      const id = ++connSeq;
      active.add(conn);
      const startAt = conn.openedAt;
      const res = await conn.request({
        method: slow.request.method,
        path: slow.request.path,
        headers: slow.request.headers,
        uploadBytes: slow.mode === 'upload' ? slow.request.upload_bytes : null,
        uploadBytesPerS: slow.mode === 'upload' ? slow.bytes_per_s : null,
        readBytesPerS: slow.mode === 'read' ? slow.bytes_per_s : null,
        // The window bounds a slow transfer; a server that stops answering is cut with it.
        deadlineAt: Math.max(windowEnd, startAt + timeoutMs) + 1,
        keepAlive: false,
      });
      const kind = res.error ? res.error.kind : null;
      samples.add({ startAt, endAt: res.doneAt, connectMs: conn.connectMs, status: res.status, error: kind, role: 'slow', conn: id });
      periods.push({
        client,
        start_ms: round3(startAt - origin),
        end_ms: round3(res.doneAt - origin),
        bytes: slow.mode === 'upload' ? res.sentBytes : res.bodyBytes,
        outcome: kind || 'complete',
        status: res.status,
      });
      await conn.closeGracefully(1000);
      active.delete(conn);
      slowDone += 1;
      progress();
    } while (slow.repeat);
  };

  try {
    await Promise.all([
      runOpenLoop({
        host,
        port,
        request: probe.request,
        connections: probeCount,
        rate: probe.rate,
        timeoutMs,
        samples,
        origin,
        role: 'probe',
        signal,
        onProgress: ({ done }) => {
          probeDone = done;
          progress();
        },
      }),
      ...Array.from({ length: slow.clients }, (_, i) => slowClient(i + 1)),
    ]);
  } finally {
    clearTimeout(closeWindow);
    if (signal) signal.removeEventListener('abort', onAbort);
  }

  periods.sort((a, b) => a.start_ms - b.start_ms || a.client - b.client);
  const activeFrom = periods.length ? Math.min(...periods.map((p) => p.start_ms)) : null;
  const activeTo = periods.length ? Math.max(...periods.map((p) => p.end_ms)) : null;
  const outcomes = {};
  for (const p of periods) outcomes[p.outcome] = (outcomes[p.outcome] || 0) + 1;
  const completed = periods.filter((p) => p.outcome === 'complete');

  return {
    slow_clients: {
      mode: slow.mode,
      clients: slow.clients,
      path: slow.request.path,
      bytes_per_s: slow.bytes_per_s,
      transfer_bytes: slow.mode === 'upload' ? slow.request.upload_bytes : null,
      window_ms: [round3(slow.start_s * 1000), round3((slow.start_s + slow.active_s) * 1000)],
      active_ms: [activeFrom, activeTo],
      transfers: periods.length,
      outcomes,
      replies_2xx: periods.filter((p) => p.status >= 200 && p.status < 300).length,
      bytes: periods.reduce((a, p) => a + p.bytes, 0),
      transfer_ms: latencySummary(completed.map((p) => p.end_ms - p.start_ms)),
      active_periods: periods,
    },
    probe_by_phase: probePhases(samples, activeFrom, activeTo),
  };
}

/** Probe latency before, during and after the slow clients' active period. */
function probePhases(samples, from, to) {
  const phases = { before: [], during: [], after: [] };
  for (let i = 0; i < samples.length; i++) {
    if (samples.roleName(i) !== 'probe' || samples.errorKind(i)) continue;
    const t = samples.t[i];
    const phase = from === null || t < from ? 'before' : t < to ? 'during' : 'after';
    phases[phase].push(samples.latency[i]);
  }
  const out = {};
  for (const [phase, values] of Object.entries(phases)) {
    const s = latencySummary(values);
    out[phase] = { replies: s.count, mean: s.mean, p50: s.p50, p99: s.p99, max: s.max };
  }
  return out;
}

/** The engine (./index.js): slow clients beside a probe. */
const slowClientsEngine = {
  supports: (s) => s.kind === 'slow_clients',
  run: ({ host, port, scenario: s, samples, signal, onProgress }) => runSlowClients({ host, port, scenario: s, timeoutMs: s.timeout_s * 1000, samples, signal, onProgress }),
};

module.exports = { slowClientsEngine, runSlowClients, probePhases };
