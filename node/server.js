'use strict';
// The Node.js server: Node's own http module, one process, one event loop; routing with
// httpdispatcher. Behaviour is defined by contract.json and the README's contract table.

const http = require('node:http');
const crypto = require('node:crypto');
const HttpDispatcher = require('httpdispatcher');
const { readConfig, connectionLimit, USAGE, contract } = require('./config');
const { loadSite, decodeSitePath, lookup } = require('./static_site');

const ERROR_TYPE = 'text/plain; charset=utf-8';
// Replies to requests that are wrong in themselves (not just for a missing file) close the
// connection, as the EventMachine server must: its parser cannot resume after them.
const CLOSING_STATUSES = new Set(contract.closing_statuses);
const HOST_VALUE = new RegExp(contract.host_pattern);
// The reply in progress on a socket, so that a parser error or timeout that comes after the
// handler has answered (a bad body, a trickle) does not get a second reply.
const CURRENT_REPLY = Symbol('currentReply');
// A method no route takes is a method error: the reply closes the connection even when it is a 404.
const ROUTED_METHODS = new Set(['GET', 'HEAD', 'POST']);

function sendReply(res, status, type, body, extraHeaders = {}) {
  res.statusCode = status;
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', body.length);
  for (const [name, value] of Object.entries(extraHeaders)) res.setHeader(name, value);
  if (CLOSING_STATUSES.has(status)) res.setHeader('Connection', 'close');
  res.end(body);
}

function sendError(res, status, extraHeaders) {
  sendReply(res, status, ERROR_TYPE, Buffer.from(`${contract.status_text[status]}\n`), extraHeaders);
}

/** A raw reply for errors the parser finds before there is a request object. */
function rawErrorReply(status) {
  const body = `${contract.status_text[status]}\n`;
  return (
    `HTTP/1.1 ${status} ${contract.status_text[status]}\r\n` +
    `Content-Type: ${ERROR_TYPE}\r\nContent-Length: ${body.length}\r\n` +
    `Date: ${new Date().toUTCString()}\r\nConnection: close\r\n\r\n${body}`
  );
}

function createApp(config) {
  const { limits } = config;
  const site = loadSite(config.root, contract);
  const helloBody = Buffer.from(contract.hello_body);
  const dispatcher = new HttpDispatcher();

  function hello(req, res) {
    sendReply(res, 200, contract.hello_type, helloBody);
  }

  function delay(req, res, query) {
    const ms = new URLSearchParams(query).get('ms');
    if (ms === null || !/^\d{1,5}$/.test(ms) || Number(ms) > contract.delay_max_ms) {
      sendError(res, 400);
      return;
    }
    // A timer, never a busy wait: the loop stays free for other connections.
    const timer = setTimeout(() => sendReply(res, 200, 'text/plain; charset=utf-8', Buffer.from(`waited ${Number(ms)} ms\n`)), Number(ms));
    res.once('close', () => clearTimeout(timer));
  }

  function upload(req, res) {
    // The body streams through the digest; it is never held whole.
    const digest = crypto.createHash('sha256');
    let bytes = 0;
    req.on('data', (chunk) => {
      bytes += chunk.length;
      digest.update(chunk);
    });
    req.on('end', () => {
      const body = Buffer.from(JSON.stringify({ bytes, sha256: digest.digest('hex') }));
      sendReply(res, 200, 'application/json', body);
    });
  }

  function staticFile(req, res, query, sitePath) {
    if (Object.hasOwn(contract.routes, sitePath)) {
      sendError(res, 405, { Allow: contract.routes[sitePath] });
      return;
    }
    const file = lookup(site, sitePath);
    if (file) sendReply(res, 200, file.type, file.body);
    else sendError(res, 404);
  }

  dispatcher.onGet('/hello', hello);
  dispatcher.onHead('/hello', hello);
  dispatcher.onGet('/delay', delay);
  dispatcher.onHead('/delay', delay);
  dispatcher.onPost('/upload', upload);
  dispatcher.onGet(/^\//, staticFile);
  dispatcher.onHead(/^\//, staticFile);

  /** The Allow value for a path with no handler for the method, or null when the path is unknown. */
  function allowFor(sitePath) {
    if (Object.hasOwn(contract.routes, sitePath)) return contract.routes[sitePath];
    return lookup(site, sitePath) ? contract.static_allow : null;
  }

  /**
   * Checks that apply before routing; returns an error status or 0. Framing and Host as the
   * contract decides (README "The contract"), in one pass over the raw header lines: one Host, of
   * host syntax (required in HTTP/1.1); Transfer-Encoding never with Content-Length, its last
   * coding chunked and chunked only once, and then 411 (the EventMachine parser cannot read
   * chunked bodies). Node's parser has already refused a malformed or repeated Content-Length.
   */
  function requestError(req) {
    if (req.httpVersion !== '1.1' && req.httpVersion !== '1.0') return 400;
    const raw = req.rawHeaders;
    let hosts = 0;
    let hostValue = '';
    let codings = null;
    for (let i = 0; i < raw.length; i += 2) {
      if (raw[i].length + 2 + raw[i + 1].length > limits.MAX_HEADER_LINE_BYTES) return 431;
      const name = raw[i].toLowerCase();
      if (name === 'host') {
        hosts += 1;
        hostValue = raw[i + 1];
      } else if (name === 'transfer-encoding') {
        codings = (codings ?? []).concat(raw[i + 1].split(',').map((c) => c.trim().toLowerCase()));
      }
    }
    if (hosts > 1 || (hosts === 1 ? !HOST_VALUE.test(hostValue) : req.httpVersion === '1.1')) return 400;
    if (codings) {
      if (req.headers['content-length'] !== undefined) return 400;
      return codings.at(-1) === 'chunked' && codings.filter((c) => c === 'chunked').length === 1 ? 411 : 400;
    }
    if (req.url.length > limits.MAX_URL_BYTES) return 414;
    if (Number(req.headers['content-length'] || 0) > limits.MAX_UPLOAD_BYTES) return 413;
    return 0;
  }

  /** A body that makes no progress for BODY_TIMEOUT_MS gets 408 (REQUEST_TIMEOUT_MS bounds the whole request). */
  function watchBody(req, res) {
    const timer = setTimeout(() => {
      if (res.headersSent) req.socket.destroy();
      else sendError(res, 408);
    }, limits.BODY_TIMEOUT_MS);
    req.on('data', () => timer.refresh());
    const stop = () => clearTimeout(timer);
    req.once('end', stop);
    res.once('close', stop);
  }

  function route(req, res) {
    const failure = requestError(req);
    if (failure) {
      sendError(res, failure);
      return;
    }
    if (Number(req.headers['content-length'] || 0) > 0) watchBody(req, res);
    const target = req.url;
    const queryAt = target.indexOf('?');
    const rawPath = queryAt === -1 ? target : target.slice(0, queryAt);
    const query = queryAt === -1 ? '' : target.slice(queryAt + 1);
    const sitePath = rawPath.startsWith('/') && !rawPath.includes('#') ? decodeSitePath(rawPath) : null;
    if (sitePath === null) {
      sendError(res, 400);
      return;
    }
    const method = req.method.toLowerCase();
    const handler = Object.hasOwn(dispatcher.listeners, method) ? dispatcher.getListener(sitePath, method) : undefined;
    if (handler) {
      handler(req, res, query, sitePath);
      return;
    }
    const allow = allowFor(sitePath);
    if (allow) sendError(res, 405, { Allow: allow });
    else sendError(res, 404, ROUTED_METHODS.has(req.method) ? {} : { Connection: 'close' });
  }

  /** A bug of ours must cost one connection, never the server: 500, close, and one line. */
  function handleRequest(req, res) {
    req.socket[CURRENT_REPLY] = res;
    try {
      route(req, res);
    } catch (err) {
      console.error(`node server: internal error, connection closed: ${err.stack.split('\n', 2).join(' ')}`);
      if (res.headersSent) res.destroy();
      else sendError(res, 500, { Connection: 'close' });
    }
  }

  return { handleRequest, site };
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

function createServer(config) {
  const { limits } = config;
  const app = createApp(config);
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
  // Past the descriptor limit libuv would accept and reset; a cap below it closes new connections
  // at once and says so, as the EventMachine server does.
  server.maxConnections = connectionLimit(limits);
  const warnFull = rateLimited(() =>
    console.error(`node server: ${server.maxConnections} connections open, the limit; new connections are closed (raise ulimit -n or MAX_CONNECTIONS)`),
  );
  server.on('drop', warnFull);
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

function main() {
  let config;
  try {
    config = readConfig();
  } catch (err) {
    console.error(`node server: ${err.message}`);
    process.exit(2);
  }
  if (config.help) {
    console.log(USAGE);
    return;
  }
  let server;
  try {
    server = createServer(config);
  } catch (err) {
    console.error(`node server: cannot load the document root ${config.root}: ${err.message}`);
    process.exit(1);
  }
  let listening = false;
  server.on('error', (err) => {
    if (listening) {
      // An error of one connection or accept after start: the server goes on.
      console.error(`node server: ${err.code || err.message}`);
      return;
    }
    const hint = err.code === 'EADDRINUSE' ? ' (another process uses this port; choose another with --port)' : '';
    console.error(`node server: cannot listen on ${config.host}:${config.port}: ${err.code || err.message}${hint}`);
    process.exit(1);
  });
  server.listen({ port: config.port, host: config.host, backlog: contract.listen_backlog }, () => {
    listening = true;
    console.log(`node server listening on http://${config.host}:${config.port} (root ${config.root})`);
  });
  const stop = () => {
    server.close();
    server.closeAllConnections();
    // Whatever still holds the loop open (a pending /delay timer) must not delay the exit.
    setTimeout(() => process.exit(0), 200).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) main();

module.exports = { createServer, createApp };
