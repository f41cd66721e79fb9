'use strict';
// Connections, as the EventMachine server's connection.rb handles them: Node's http server with
// the parts the entry point (server.js) built, the routes (app.js), the connection cap and the
// deadlines; back-pressure and the idle timeout; each request through the request gate to its
// route; and what happens to a request the parser refuses, or a CONNECT.

const http = require('node:http');
const { sendError, sendContinue, rawErrorReply, LAST_REPLY_DECIDED } = require('./reply');
const { requestError, expectationError, asksToUpgrade } = require('./request_gate');

// The newest request's reply on a socket: a parser error or timeout that comes after the
// handler has answered (a bad body, a trickle) gets no second reply, and one that comes while
// replies are still going out waits for them, so that replies keep their requests' order.
const CURRENT_REPLY = Symbol('currentReply');

function createServer(limits, app, cap, deadlines) {
  /**
   * A request through the gate (failure: its error status, or 0) to its route. After the
   * connection's last reply is decided nothing more is answered (RFC 9112 §9.6). A bug of ours
   * must cost one connection, never the server: 500, close, and one line.
   */
  function handleRequest(req, res, failure) {
    if (req.socket[LAST_REPLY_DECIDED]) return;
    req.socket[CURRENT_REPLY] = res;
    try {
      if (failure) {
        sendError(res, failure);
        return;
      }
      // Node reads on past a request that asks to upgrade as if the rest were another protocol,
      // and drops what it already has: such a request is answered and the connection closed.
      if (asksToUpgrade(req)) closeAfter(res);
      if (Number(req.headers['content-length'] || 0) > 0) deadlines.watchBody(req, res);
      app.route(req, res);
    } catch (err) {
      console.error(`node server: internal error, connection closed: ${err.stack.split('\n', 2).join(' ')}`);
      if (res.headersSent) res.destroy();
      else sendError(res, 500, { Connection: 'close' });
    }
  }

  function closeAfter(res) {
    res.setHeader('Connection', 'close');
    res.req.socket[LAST_REPLY_DECIDED] = true;
  }

  /**
   * A refusal the parser decided (status) or a CONNECT: the connection's last reply, sent
   * once the replies already due are out (socket._httpMessage is the reply going out now; the
   * newest one finishes last). With status null, the connection just closes then.
   */
  function refuseInTurn(socket, status) {
    if (socket[LAST_REPLY_DECIDED]) return;
    socket[LAST_REPLY_DECIDED] = true;
    const send = () => {
      if (socket.writable && status !== null) socket.end(rawErrorReply(status));
      else socket.destroySoon();
    };
    if (socket._httpMessage) socket[CURRENT_REPLY].once('finish', send);
    else send();
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
    (req, res) => handleRequest(req, res, requestError(req, limits)),
  );
  server.keepAliveTimeout = limits.KEEPALIVE_TIMEOUT_MS;
  // Every field is seen, as the EventMachine gate sees it (Node would keep only the first 2000;
  // MAX_HEADER_BYTES bounds them).
  server.maxHeadersCount = 0;
  cap.guard(server);
  // An HTTP/1.1 request with an Expect header comes here instead (Node ignores Expect in
  // HTTP/1.0, as RFC 9110 asks of 100-continue): the request's own errors come first, then the
  // expectation, and 100 Continue goes only to the one request whose body is read before its
  // reply, an upload (any other is answered at once: RFC 9110 §10.1.1 lets a server that
  // knows its final status skip the 100), in its turn (sendContinue).
  const expecting = (req, res) => {
    const failure = requestError(req, limits) || expectationError(req);
    if (!failure && !req.socket[LAST_REPLY_DECIDED] && app.readsBody(req)) sendContinue(res);
    handleRequest(req, res, failure);
  };
  server.on('checkContinue', expecting);
  server.on('checkExpectation', expecting);
  // Neither server is a proxy: CONNECT, whatever its target, is a bad request.
  server.on('connect', (req, socket) => refuseInTurn(socket, 400));
  server.on('clientError', (err, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    // Bytes after the connection's last request are not read (RFC 9112 §9.6): the replies due
    // go out, then the connection closes.
    if (err.code === 'HPE_CLOSED_CONNECTION') return;
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const current = socket[CURRENT_REPLY];
    if (current && !current.req.complete) {
      // The error is in a request the handler already has (its body, or its time is up): its
      // reply says so if it has not been given, else the connection closes after it.
      if (current.writableEnded || current.headersSent) refuseInTurn(socket, null);
      else sendError(current, status);
      return;
    }
    refuseInTurn(socket, status);
  });
  return server;
}

module.exports = { createServer };
