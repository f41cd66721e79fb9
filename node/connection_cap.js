'use strict';
// The connection cap, as the EventMachine server's connection_cap.rb: below the descriptor
// limit (MAX_CONNECTIONS, or the open-files limit less contract.json's fd_reserve for
// everything else), new connections are closed at once and the server says so, at most every
// ten seconds. Past the descriptor limit libuv would accept and reset.

const fs = require('node:fs');
const { contract } = require('./config');

/** The soft limit on open files of this process, from /proc (Node has no getrlimit). */
function openFilesLimit() {
  try {
    const line = fs.readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const soft = Number(line.split(/\s{2,}/)[1]);
    return Number.isFinite(soft) ? soft : null;
  } catch {
    return null;
  }
}

/** MAX_CONNECTIONS, or when 0 the open-files limit less a reserve for everything else. */
function connectionLimit(limits, filesLimit = openFilesLimit()) {
  if (limits.MAX_CONNECTIONS > 0) return limits.MAX_CONNECTIONS;
  return filesLimit ? Math.max(filesLimit - contract.fd_reserve, 1) : Infinity;
}

/** Calls warn at most once per interval: a flood of refusals gets a line, not a line each. */
function rateLimited(warn, intervalMs = 10000) {
  let last = -Infinity;
  return (...args) => {
    const now = Date.now();
    if (now - last < intervalMs) return;
    last = now;
    warn(...args);
  };
}

/** Caps server's open connections (limits from config.js) and warns when the cap turns some away. */
function capConnections(server, limits) {
  server.maxConnections = connectionLimit(limits);
  server.on('drop', rateLimited(() =>
    console.error(`node server: ${server.maxConnections} connections open, the limit; new connections are closed (raise ulimit -n or MAX_CONNECTIONS)`),
  ));
}

module.exports = { capConnections, connectionLimit };
