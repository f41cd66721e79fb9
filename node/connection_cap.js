'use strict';
// The connection cap, as the Ruby servers' connection_cap.rb: below the descriptor
// limit (MAX_CONNECTIONS, or the open-files limit less contract.json's fd_reserve for
// everything else), new connections are closed at once and the server says so, at most every
// ten seconds. Past the descriptor limit libuv would accept and reset.

const fs = require('node:fs');
const { contract } = require('./config');

const WARN_INTERVAL_MS = 10000;

/**
 * The soft limit on open files of this process, from /proc (Node has no getrlimit). Node has
 * raised it to the hard limit at start, as connection_cap.rb does for Ruby.
 */
function openFilesLimit() {
  try {
    const line = fs.readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const soft = Number(line.split(/\s{2,}/)[1]);
    return Number.isFinite(soft) ? soft : null;
  } catch {
    return null;
  }
}

class ConnectionCap {
  #warnedAt = -Infinity;

  /** configured: MAX_CONNECTIONS, or when 0 the open-files limit less a reserve for everything else. */
  constructor(configured) {
    if (configured > 0) {
      this.limit = configured;
      return;
    }
    const filesLimit = openFilesLimit();
    this.limit = filesLimit ? Math.max(filesLimit - contract.fd_reserve, 1) : Infinity;
  }

  /** Node's server counts its connections and closes those past the cap itself; the cap says so. */
  guard(server) {
    server.maxConnections = this.limit;
    server.on('drop', () => this.#warnFull());
  }

  /** A flood of refusals gets a line, not a line each. */
  #warnFull() {
    const now = Date.now();
    if (now - this.#warnedAt < WARN_INTERVAL_MS) return;
    this.#warnedAt = now;
    console.error(`node server: ${this.limit} connections open, the limit; new connections are closed (raise ulimit -n or MAX_CONNECTIONS)`);
  }
}

module.exports = { ConnectionCap };
