'use strict';
// Connections, as the EventMachine server's connection.rb handles them: Node's http server with
// the parts the entry point (server.js) built, the routes (app.js), the connection cap and the
// deadlines; back-pressure and the idle timeout; each request through the request gate to its
// route; and what happens to a request the parser refuses, or a CONNECT.

const http = require('node:http');
const { sendError, rawErrorReply } = require('./reply');
const { requestError, answerExpectation } = require('./request_gate');

// The reply in progress on a socket, so that a parser error or timeout that comes after the
// handler has answered (a bad body, a trickle) does not get a second reply.
const CURRENT_REPLY = Symbol('currentReply');

function createServer(limits, app, cap, deadlines) {
  /** A request through the gate to its route. A bug of ours must cost one connection, never the server: 500, close, and one line. */
  function handleRequest(req, res) {
    req.socket[CURRENT_REPLY] = res;
    try {
      const failure = requestError(req, limits);
      if (failure) {
        sendError(res, failure);
        return;
      }
      if (Number(req.headers['content-length'] || 0) > 0) deadlines.watchBody(req, res);
      app.route(req, res);
    } catch (err) {
      console.error(`node server: internal error, connection closed: ${err.stack.split('\n', 2).join(' ')}`);
      if (res.headersSent) res.destroy();
      else sendError(res, 500, { Connection: 'close' });
    }
  }

  const server = http.createServer(
    {
      maxHeaderSize: limits.MAX_HEADER_BYTES,
      requireHostHeader: false,
      keepAliveTimeout: limits.KEEPALIVE_TIMEOUT_MS,
      ...deadlines.serverOptions,
      // Back-pressure: Node stops reading a connection's requests while this much of its replies is unsent.
      highWaterMark: limits.MAX_UNSENT_BYTES,
    },
    handleRequest,
  );
  server.keepAliveTimeout = limits.KEEPALIVE_TIMEOUT_MS;
  cap.guard(server);
  // A request with an Expect header comes to one of these instead of handleRequest (request_gate.js).
  const expecting = (req, res) => {
    if (answerExpectation(req, res, limits)) handleRequest(req, res);
  };
  server.on('checkContinue', expecting);
  server.on('checkExpectation', expecting);
  // Neither server is a proxy: CONNECT, whatever its target, is a bad request.
  server.on('connect', (req, socket) => socket.end(rawErrorReply(400)));
  server.on('clientError', (err, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const current = socket[CURRENT_REPLY];
    if (current && !current.req.complete) {
      // The error is in a request the handler already has (its body, or its time is up).
      if (current.headersSent) socket.end();
      else sendError(current, status);
      return;
    }
    socket.end(rawErrorReply(status));
  });
  return server;
}

module.exports = { createServer };
