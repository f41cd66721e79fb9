'use strict';
// Redis behind /db, reached through node-redis (the Redis project's own client) on one
// connection, commands pipelined on it, as the EventMachine server's database.rb reaches it
// with em-hiredis. A call fails at once while the connection is down (disableOfflineQueue:
// node-redis would otherwise hold commands until it reconnects, and a request would wait for
// a Redis that may never come back), and the client reconnects in the background every
// RECONNECT_MS, as em-hiredis does (its reconnect_timeout). Each call has a deadline
// (BACKEND_TIMEOUT_MS): node-redis has none of its own for a Redis that accepts and hangs.

// em-hiredis's fixed retry interval, so that both servers come back alike.
const RECONNECT_MS = 500;

class Database {
  #client;
  #keyPrefix;
  #timeoutMs;
  #where;
  #down = false;

  constructor(host, port, { keyPrefix, timeoutMs }) {
    this.#keyPrefix = keyPrefix;
    this.#timeoutMs = timeoutMs;
    this.#where = `${host}:${port}`;
    // Loaded only when Redis is configured: a server started without one (as every server was
    // before the backend routes) keeps its start-up and memory as they were then. database.rb
    // does the same.
    const { createClient } = require('redis');
    this.#client = createClient({
      socket: { host, port, connectTimeout: timeoutMs, reconnectStrategy: () => RECONNECT_MS },
      disableOfflineQueue: true,
    });
    // Without a listener node-redis's errors would end the process; an outage is said once.
    this.#client.on('error', (err) => {
      if (this.#down) return;
      this.#down = true;
      console.error(`node server: redis at ${this.#where} unreachable (${err.code || err.message}); /db answers 503, reconnecting`);
    });
    this.#client.on('ready', () => {
      if (this.#down) console.error(`node server: redis at ${this.#where} reachable again`);
      this.#down = false;
    });
  }

  /** Connects in the background: an unreachable Redis is no start-up error (/db is 503 meanwhile). */
  start() {
    this.#client.connect().catch(() => {});
  }

  /**
   * GET of the row id's key; done(value) once, the stored string, or null: missing, an error,
   * disconnected, past the deadline. Returns { cancel() }: done is then never called (the
   * command, already on the wire, runs on; its reply is dropped).
   */
  get(id, done) {
    const call = { done, finished: false };
    // As upstream.js: one timer per call, cleared whichever way it ends (call_deadlines.rb on EM).
    call.timer = setTimeout(() => this.#finish(call, null), this.#timeoutMs);
    this.#client.get(`${this.#keyPrefix}${id}`).then(
      (value) => this.#finish(call, value),
      () => this.#finish(call, null),
    );
    return { cancel: () => this.#finish(call, null, false) };
  }

  /** The connection is closed (server.js, at exit), so that it holds the loop open no longer. */
  close() {
    this.#client.destroy();
  }

  #finish(call, value, tell = true) {
    if (call.finished) return;
    call.finished = true;
    clearTimeout(call.timer);
    if (tell) call.done(value);
  }
}

module.exports = { Database };
