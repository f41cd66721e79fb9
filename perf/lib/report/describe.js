'use strict';
// A scenario in words, from the parameters it actually ran with (a run's `params`, recorded by
// the runner after --quick scaling). The scenario files' `description` is written for the full
// size; a --quick run (a shorter load: perf/REFERENCE.md, "Quick runs") must not be described
// with the full counts.

const count = (n) => Number(n).toLocaleString('en-US');
const plural = (n, word) => `${count(n)} ${word}${n === 1 ? '' : 's'}`;

function bytes(n) {
  if (n >= 1048576 && n % 1048576 === 0) return `${n / 1048576} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${count(n)} bytes`;
}

function requestText(req) {
  if (!req || typeof req !== 'object') return 'GET /hello';
  const body = req.upload_bytes ? ` (${bytes(req.upload_bytes)} body)` : '';
  return `${req.method || 'GET'} ${req.path || '/'}${body}`;
}

function closed(p) {
  const req = requestText(p.request);
  const conns = p.concurrency === 1 ? 'one connection at a time' : `${count(p.concurrency)} concurrent connections`;
  const reuse = p.keep_alive ? 'keep-alive' : 'a new connection per request';
  if (p.requests_per_connection) return `${plural(p.concurrency, 'keep-alive connection')}, ${count(p.requests_per_connection)} requests each (${count(p.concurrency * p.requests_per_connection)} in all), ${req}`;
  if (p.duration_s) return `${conns} for ${p.duration_s} s, ${reuse}, ${req} back to back`;
  if (p.concurrency === 1 && !p.keep_alive) return `${plural(p.requests, 'connection')} one after another, one ${req} each`;
  return `${plural(p.requests, 'request')} over ${conns} (${reuse}), ${req}`;
}

function open(p) {
  const each = p.requests_per_connection > 1 ? `${count(p.requests_per_connection)} requests` : 'one request';
  return `${plural(p.connections, 'connection')} opened at ${count(p.rate)} per second whatever the server does (open loop), ${each} each, ${requestText(p.request)}`;
}

function slowClients(p) {
  const s = p.slow || {};
  const rate = s.bytes_per_s ? ` at ${bytes(s.bytes_per_s)}/s each` : '';
  const who = s.mode === 'upload' ? `${plural(s.clients, 'slow client')} upload ${requestText(s.request)}${rate}` : `${plural(s.clients, 'slow reader')} take ${requestText(s.request)}${rate}`;
  const when = Number.isFinite(s.start_s) && Number.isFinite(s.active_s) ? ` from ${+s.start_s.toFixed(2)} s for ${+s.active_s.toFixed(2)} s` : '';
  const probe = p.probe || {};
  return `${who}${when}, while a probe opens ${count(probe.rate)} connections/s for ${requestText(probe.request)} during ${probe.duration_s} s; the probe's latency is the result`;
}

const BY_KIND = { closed, open, slow_clients: slowClients };

/**
 * The scenario as run, or null when the parameters do not say (older results, other runners):
 * the caller then falls back to the recorded description.
 */
function describeRun(params) {
  if (!params || typeof params !== 'object' || !BY_KIND[params.kind]) return null;
  return BY_KIND[params.kind](params);
}

module.exports = { describeRun };
