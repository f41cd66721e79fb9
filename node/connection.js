'use strict';
// Connections, as the EventMachine server's connection.rb and connection_cap.rb handle them:
// Node's http server with the contract's timeouts and back-pressure, the connection cap, and
// what happens to a request the parser refuses, an Expect header, a CONNECT.

const http = require('node:http');
const { sendError, rawErrorReply } = require('./reply');
const { CURRENT_REPLY } = require('./app');
const { capConnections } = require('./connection_cap');

function createServer(config, app) {
  const { limits } = config;
  const server = http.createServer(
    {
      maxHeaderSize: limits.MAX_HEADER_BYTES,
      requireHostHeader: false,
      keepAliveTimeout: limits.KEEPALIVE_TIMEOUT_MS,
      // Slowloris: a header section must arrive within HEADERS_TIMEOUT_MS; checked this often.
      headersTimeout: limits.HEADERS_TIMEOUT_MS,
      // A whole request, header and body, must arrive within REQUEST_TIMEOUT_MS: a trickle.
      requestTimeout: limits.REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(1000, Math.min(limits.HEADERS_TIMEOUT_MS, limits.BODY_TIMEOUT_MS) / 2),
      // Back-pressure: Node stops reading a connection's requests while this much of its replies is unsent.
      highWaterMark: limits.MAX_UNSENT_BYTES,
    },
    app.handleRequest,
  );
  server.keepAliveTimeout = limits.KEEPALIVE_TIMEOUT_MS;
  capConnections(server, limits);
  // 413 must come before the client sends its body, so 100-continue is decided here too.
  // The only expectation is exactly 100-continue (Node would also take '100-continue, foo').
  server.on('checkContinue', (req, res) => {
    if (req.headersDistinct.expect.some((value) => value.trim().toLowerCase() !== '100-continue')) {
      sendError(res, 417);
      return;
    }
    if (Number(req.headers['content-length'] || 0) <= config.limits.MAX_UPLOAD_BYTES) res.writeContinue();
    app.handleRequest(req, res);
  });
  server.on('checkExpectation', (req, res) => sendError(res, 417));
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
