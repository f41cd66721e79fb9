'use strict';
// A soak: several minutes of mixed load on one server (keep-alive GETs of every size, uploads,
// /delay, idle connections, readers that reset mid-reply, clients that stall mid-header), with
// the server's RSS sampled throughout. Memory must come back near where it started once the
// load stops: what a long-running service needs and a short benchmark never shows.

const net = require('node:net');
const autocannon = require('autocannon');
const { readMemory } = require('../measure/proc_stats');

const UPLOAD_BODY = Buffer.alloc(64 * 1024, 0x61);
const MIXED_REQUESTS = [
  { method: 'GET', path: '/hello' },
  { method: 'GET', path: '/lipsum100k.txt' },
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/delay?ms=5' },
  { method: 'POST', path: '/upload', body: UPLOAD_BODY, headers: { 'content-type': 'application/octet-stream' } },
  { method: 'GET', path: '/no/such/page' },
];

/** Opens `count` connections that do `behave(socket)`; resolves with the sockets. */
function openConnections(port, count, behave) {
  return Promise.all(
    Array.from({ length: count }, () =>
      new Promise((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          behave(socket);
          resolve(socket);
        });
        socket.on('error', () => resolve(socket));
      }),
    ),
  );
}

/** Every tick until the deadline: readers of the 1 MiB file that reset mid-reply, and half headers that stall. */
function startHostileClients(port, deadline) {
  const sockets = new Set();
  const track = (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const timer = setInterval(async () => {
    if (Date.now() > deadline) return;
    const readers = await openConnections(port, 5, (s) => s.write('GET /data/random-1m.bin HTTP/1.1\r\nHost: soak\r\n\r\n'));
    readers.forEach((s) => setTimeout(() => s.resetAndDestroy(), 20));
    const stallers = await openConnections(port, 5, (s) => s.write('GET /hello HTTP/1.1\r\nHost: soak\r\nX-Slow: '));
    stallers.forEach(track);
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      sockets.forEach((s) => s.destroy());
    },
  };
}

function rssMb(pid) {
  const memory = readMemory(pid);
  return memory && memory.rss_kb !== null ? memory.rss_kb / 1024 : null;
}

/** Waits until RSS stops falling (or maxMs); resolves with the last reading. */
async function settledRss(pid, maxMs = 5000) {
  let last = rssMb(pid);
  for (let waited = 0; waited < maxMs; waited += 500) {
    await new Promise((r) => setTimeout(r, 500));
    const now = rssMb(pid);
    if (now === null || now >= last - 0.5) return now;
    last = now;
  }
  return last;
}

/**
 * Soaks one running server. options: { pid, port, seconds, connections, idleConnections,
 * onProgress(elapsed_s, rss_mb), signal (an AbortSignal that ends the load early) }. Resolves with { baseline_mb, peak_mb, final_mb, requests,
 * errors, non_2xx, growth_mb }; baseline is taken after a warm-up of a third of the run.
 */
async function soakServer({ pid, port, seconds, connections = 32, idleConnections = 500, onProgress = () => {}, signal = null }) {
  // V8 and malloc grow their heaps to a working size first; growth after that is what leaks.
  const warmupMs = Math.max(2000, (seconds * 1000) / 3);
  const idle = await openConnections(port, idleConnections, () => {});
  const deadline = Date.now() + seconds * 1000;
  const hostile = startHostileClients(port, deadline);
  let peak = rssMb(pid) || 0;
  let baseline = null;
  const started = Date.now();
  const sampler = setInterval(() => {
    const rss = rssMb(pid);
    if (rss === null) return;
    peak = Math.max(peak, rss);
    if (baseline === null && Date.now() - started >= warmupMs) baseline = rss;
    onProgress((Date.now() - started) / 1000, rss);
  }, 1000);
  let result;
  try {
    const load = autocannon({
      url: `http://127.0.0.1:${port}`,
      connections,
      duration: seconds,
      requests: MIXED_REQUESTS,
      timeout: 10,
    });
    // Stopped early (Ctrl-C): the load ends and what it found so far is reported.
    if (signal) signal.addEventListener('abort', () => load.stop(), { once: true });
    result = await load;
  } finally {
    clearInterval(sampler);
    hostile.stop();
    idle.forEach((s) => s.destroy());
  }
  const final = await settledRss(pid);
  // A short soak may end before a sample after the warm-up: the final reading is then the
  // baseline, and every reading counts toward the peak.
  if (baseline === null) baseline = final;
  if (final !== null) peak = Math.max(peak, final);
  return {
    baseline_mb: round(baseline),
    peak_mb: round(peak),
    final_mb: round(final),
    growth_mb: final === null || baseline === null ? null : round(final - baseline),
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non_2xx: result.non2xx,
  };
}

/** Tenths of a MB; null stays null (a server whose memory could not be read). */
function round(x) {
  return x === null || x === undefined ? null : Math.round(x * 10) / 10;
}

/** The memory verdict: RSS after the load at most max(50% or 32 MB) above the warmed-up baseline. */
function memoryBounded({ baseline_mb: baseline, final_mb: final }) {
  return final !== null && final <= baseline + Math.max(baseline * 0.5, 32);
}

module.exports = { soakServer, memoryBounded };
