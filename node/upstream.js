'use strict';
// The upstream HTTP server behind /upstream, reached through Node's own event-driven client
// (http.request) over a keep-alive pool, as the EventMachine server's upstream_pool.rb reaches
// it with em-http-request. Here the pool is Node's http.Agent: at most `size` connections,
// idle ones reused, requests beyond them queued in order. What the Agent does not do is written
// here, as upstream_pool.rb does it: a deadline on each call (BACKEND_TIMEOUT_MS, from the
// call to the whole reply, the wait for a connection included), a result that can be dropped
// (cancel, for a client that went away), and one retry of a request that failed on a
// connection that had been idle (a stale keep-alive connection the upstream closed as we
// reused it: not the upstream's failure).

const http = require('node:http');

class UpstreamPool {
  #agent;
  #host;
  #port;
  #timeoutMs;

  constructor(host, port, { size, timeoutMs }) {
    this.#host = host;
    this.#port = port;
    this.#timeoutMs = timeoutMs;
    // LIFO: the connection used last is reused first, as upstream_pool.rb does; it is the
    // least likely to have been closed by the upstream while idle.
    this.#agent = new http.Agent({ keepAlive: true, maxSockets: size, maxFreeSockets: size, scheduling: 'lifo' });
  }

  /**
   * GETs path; done(body) once, with the body (a Buffer) of a 200 reply, or null for anything
   * else: refused, reset, another status, past the deadline. Returns { cancel() }: done is
   * then never called; a call still waiting for a connection leaves the queue, one under way
   * runs on (bounded by its deadline) so that its connection stays usable.
   */
  get(path, done) {
    const call = { path, done, request: null, finished: false };
    // One timer per call, cleared whichever way the call ends: none outlives it. Node keeps
    // timers of one duration in one list behind one timer, as call_deadlines.rb does for EM.
    call.timer = setTimeout(() => this.#timeOut(call), this.#timeoutMs);
    this.#send(call, false);
    return { cancel: () => this.#cancel(call) };
  }

  /** Idle connections are closed (server.js, at exit), so that none holds the loop open. */
  close() {
    this.#agent.destroy();
  }

  #send(call, retried) {
    const request = http.request({ host: this.#host, port: this.#port, path: call.path, agent: this.#agent });
    call.request = request;
    let answered = false;
    request.on('response', (reply) => {
      answered = true;
      // Another status is read to its end all the same, so that its connection goes back to
      // the pool before the 502 is sent (as em-http-request's reply is whole before its callback).
      const ok = reply.statusCode === 200;
      const chunks = [];
      reply.on('data', (chunk) => {
        if (ok) chunks.push(chunk);
      });
      reply.on('end', () => this.#finish(call, ok ? Buffer.concat(chunks) : null));
      // A reply cut short (the upstream reset mid-body) ends in close without end.
      reply.on('close', () => this.#finish(call, null));
    });
    request.on('error', () => {
      if (call.finished) return;
      if (request.reusedSocket && !answered && !retried) {
        // The connection had been idle and failed before any reply: stale. The others idle as
        // long are likely stale too (an upstream restart closes them all), so they go, and the
        // request is sent once more, on a fresh connection.
        this.#dropIdle();
        this.#send(call, true);
        return;
      }
      this.#finish(call, null);
    });
    request.end();
  }

  #dropIdle() {
    for (const sockets of Object.values(this.#agent.freeSockets)) {
      for (const socket of [...sockets]) socket.destroy();
    }
  }

  /** Past the deadline: a request on a connection cannot be taken back, so that connection goes. */
  #timeOut(call) {
    call.request.destroy();
    this.#finish(call, null);
  }

  #cancel(call) {
    call.done = null;
    // Still queued in the Agent (no socket yet): it leaves the queue, and its timer goes.
    if (!call.finished && !call.request.socket) {
      call.request.destroy();
      this.#finish(call, null);
    }
  }

  #finish(call, body) {
    if (call.finished) return;
    call.finished = true;
    clearTimeout(call.timer);
    const { done } = call;
    call.done = null;
    if (done) done(body);
  }
}

module.exports = { UpstreamPool };
