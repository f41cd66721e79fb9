'use strict';
// The request timeouts of the contract, as the Ruby servers' deadlines.rb (ruby/shared/) keeps them:
// - a header section must arrive within HEADERS_TIMEOUT_MS (slowloris): Node's headersTimeout;
// - a whole request, header and body, must arrive within REQUEST_TIMEOUT_MS (a trickle):
//   Node's requestTimeout; Node checks both on one periodic sweep, as deadlines.rb does;
// - a body must make progress at least every BODY_TIMEOUT_MS: Node has no such timeout, so a
//   request with a body gets a timer of its own (watchBody).
// Past any of them: 408 and close.

const { sendError } = require('./reply');

class Deadlines {
  #bodyMs;

  constructor(limits) {
    this.#bodyMs = limits.BODY_TIMEOUT_MS;
    /** The options of http.createServer that keep the header and request deadlines. */
    this.serverOptions = {
      headersTimeout: limits.HEADERS_TIMEOUT_MS,
      requestTimeout: limits.REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(1000, Math.min(limits.HEADERS_TIMEOUT_MS, limits.BODY_TIMEOUT_MS) / 2),
    };
  }

  /**
   * A body that makes no progress for BODY_TIMEOUT_MS gets 408 (REQUEST_TIMEOUT_MS bounds the
   * whole request); when its request was answered already (every route but /upload answers
   * before the body), the connection closes once the reply is out.
   */
  watchBody(req, res) {
    const timer = setTimeout(() => {
      if (res.headersSent) req.socket.destroySoon();
      else sendError(res, 408);
    }, this.#bodyMs);
    req.on('data', () => timer.refresh());
    const { socket } = req;
    const stop = () => {
      clearTimeout(timer);
      socket.off('close', stop);
    };
    req.once('end', stop);
    socket.once('close', stop);
  }
}

module.exports = { Deadlines };
