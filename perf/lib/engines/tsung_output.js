'use strict';
// What a Tsung run leaves in its log folder, read back: the agents' per-request dumps
// (dumptraffic="protocol_local": tsung-<node id>.dump on each load host), which host each
// dump came from (the controller's log names the node started on each host), the error
// counters of tsung.log, and the complaints that mean a run must not be trusted (Tsung exits 0
// when it aborts; a launcher that fell behind its arrival phase says so only in its own log).
// perf/lib/engines/tsung.js runs Tsung and turns this into the run's samples and fields.

const fs = require('node:fs');
const path = require('node:path');

/**
 * One line of a protocol dump, or null for the header and blank lines:
 *   <end, epoch s>;<erlang pid>;<user id>;<method>;<server>;<url>;<status>;<bytes>;<duration ms>;…
 * The time is when the reply ended (written as the agent logs it); the duration runs from when
 * the user was ready to send (before connecting, when the request opens a connection) to the
 * end of the reply, in ms with µs resolution.
 */
function parseDumpLine(line) {
  if (!line || line.startsWith('#')) return null;
  const f = line.split(';');
  if (f.length < 9) throw new Error(`not a Tsung protocol dump line: '${line.slice(0, 80)}'`);
  const endS = Number(f[0]);
  const durationMs = Number(f[8]);
  const user = Number(f[2]);
  if (!Number.isFinite(endS) || !Number.isFinite(durationMs) || !Number.isInteger(user)) {
    throw new Error(`not a Tsung protocol dump line: '${line.slice(0, 80)}'`);
  }
  const status = /^\d{3}$/.test(f[6]) ? Number(f[6]) : 0;
  return { endMs: endS * 1000, durationMs, user, method: f[3], url: f[5], status, bytes: Number(f[7]) || 0 };
}

/** Every request of a dump file's text. */
function parseDump(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const row = parseDumpLine(line.trim());
    if (row) out.push(row);
  }
  return out;
}

/** { node id: host } from the controller's log ("Remote beam started on node 'tsung0@host'"). */
function nodesOfHosts(controllerLog) {
  const nodes = {};
  for (const m of controllerLog.matchAll(/Remote beam started on node '?tsung(\d+)@([^'\s]+)'?/g)) nodes[m[1]] = m[2];
  return nodes;
}

/** Final totals of tsung.log's counters: "stats: NAME <this interval> <total>", last one wins. */
function counterTotals(tsungLog) {
  const totals = {};
  for (const m of tsungLog.matchAll(/^stats: ([a-z_][\w]*) (\d+) (\d+)\s*$/gm)) totals[m[1]] = Number(m[3]);
  return totals;
}

/**
 * The replies the controller counted, whatever their status: the sum of the final totals of
 * tsung.log's status counters ("stats: 200 <this interval> <total>"), or null when it has none.
 * The agents send these counts to the controller as they go, apart from their dumps.
 */
function repliesCounted(tsungLog) {
  const totals = {};
  for (const m of tsungLog.matchAll(/^stats: (\d{3}) (\d+) (\d+)\s*$/gm)) totals[m[1]] = Number(m[3]);
  const counts = Object.values(totals);
  return counts.length ? counts.reduce((a, b) => a + b, 0) : null;
}

// Tsung's error counters, by the project's error kinds (perf/lib/engines/http_exchange.js).
const ERROR_KIND_OF = [
  [/econnrefused/, 'refused'],
  [/econnreset|closed|_closed/, 'reset'],
  [/timeout|etimedout/, 'timeout'],
];

/**
 * { refused, reset, timeout, other } of the error_* counters. error_abort is not a request's:
 * Tsung counts it once when it stops the load, which is how a duration-bounded load ends (an
 * abort for a reason is in the controller's log: controllerFailure).
 */
function errorsOf(totals) {
  const errors = { refused: 0, reset: 0, timeout: 0, other: 0 };
  for (const [name, n] of Object.entries(totals)) {
    if (!name.startsWith('error_') || name === 'error_abort' || !n) continue;
    const kind = (ERROR_KIND_OF.find(([re]) => re.test(name)) || [null, 'other'])[1];
    errors[kind] += n;
  }
  return errors;
}

/** Why the controller's log says the run cannot be trusted (its first error report), or null. */
function controllerFailure(controllerLog) {
  const report = /=(?:ERROR|CRASH) REPORT=+[^\n]*\n\s*([^\n]+)/.exec(controllerLog);
  if (report) return report[1].trim();
  if (/error_abort|abort !/.test(controllerLog)) return 'Tsung aborted the run';
  return null;
}

/** What an agent's log says of its arrival schedule: the launcher's own warnings. */
function scheduleWarnings(agentLog) {
  return [...agentLog.matchAll(/(Phase duration exceeded[^\n]*)/g)].map((m) => m[1].trim());
}

function readIfThere(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Reads a finished run's log folder (the one Tsung made under -l). Returns { hosts: { host:
 * { rows, scheduleWarnings } }, totals, errors, counted, failure, finished } where rows are the
 * requests of that host's dump. `readRemote(host, file)` reads a file on a load host (for
 * hosts that do not share this machine's filesystem); by default the file is read here.
 */
function readTsungLog(logDir, { readRemote = null } = {}) {
  const controllerLogs = fs.readdirSync(logDir).filter((f) => /^tsung_controller@.*\.log$/.test(f));
  const controllerLog = controllerLogs.map((f) => readIfThere(path.join(logDir, f))).join('\n');
  const tsungLog = readIfThere(path.join(logDir, 'tsung.log'));
  const nodes = nodesOfHosts(controllerLog);
  const hosts = {};
  for (const [id, host] of Object.entries(nodes)) {
    const read = (name) => (readRemote ? readRemote(host, path.join(logDir, name)) : readIfThere(path.join(logDir, name)));
    hosts[host] = { node: `tsung${id}@${host}`, rows: parseDump(read(`tsung-${id}.dump`)), scheduleWarnings: scheduleWarnings(read(`tsung${id}@${host}.log`)) };
  }
  const totals = counterTotals(tsungLog);
  return { hosts, totals, errors: errorsOf(totals), counted: repliesCounted(tsungLog), failure: controllerFailure(controllerLog), finished: /EndMonitor/.test(tsungLog) };
}

module.exports = { parseDumpLine, parseDump, nodesOfHosts, counterTotals, repliesCounted, errorsOf, controllerFailure, scheduleWarnings, readTsungLog };
