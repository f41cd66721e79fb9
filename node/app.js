'use strict';
// What each route answers, independent of connections, as the Ruby servers' app.rb:
// the routes (httpdispatcher) over the static site (static_site.js), for a request that the
// request gate (request_gate.js) has let through; /upstream and /db ask the backends that
// server.js built (upstream.js, database.js), each null when not configured.

const crypto = require('node:crypto');
const HttpDispatcher = require('httpdispatcher');
const { contract } = require('./config');
const { decodeSitePath, lookup } = require('./static_site');
const { sendReply, sendError } = require('./reply');

// A method no route takes is a method error: the reply closes the connection even when it is a 404.
const ROUTED_METHODS = new Set(['GET', 'HEAD', 'POST']);

/** A query component percent-decoded, '+' a space; null for a bad escape or one that is not UTF-8. */
function decodeComponent(text) {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

/**
 * The value of the first '&'-separated pair of a query (what follows the first '?') whose
 * decoded name is `name`: its decoded value ('' without '='), undefined when no pair has that
 * name, null for a bad escape. As app.rb's query_value.
 */
function queryValue(query, name) {
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=');
    if (decodeComponent(equals === -1 ? pair : pair.slice(0, equals)) !== name) continue;
    return equals === -1 ? '' : decodeComponent(pair.slice(equals + 1));
  }
  return undefined;
}

/** An integer 0..most written in at most as many digits as most, or null. */
function integerUpTo(value, most) {
  const digits = String(most).length;
  return typeof value === 'string' && value.length <= digits && /^\d+$/.test(value) && Number(value) <= most ? Number(value) : null;
}

/**
 * The delay in ms for a /delay (or /upstream) query, or null when it is not an integer
 * 0..delay_max_ms: the first pair named ms, as app.rb's delay_ms reads it.
 */
function delayMs(query) {
  return integerUpTo(queryValue(query, 'ms'), contract.delay_max_ms);
}

/**
 * The row for a /db query: the first pair named id, read as delayMs reads ms, an integer
 * 1..db_rows; with no id pair a random row (TechEmpower's single query); null for anything
 * else. As app.rb's db_id.
 */
function dbId(query) {
  const value = queryValue(query, 'id');
  if (value === undefined) return 1 + Math.floor(Math.random() * contract.backends.db_rows);
  const id = integerUpTo(value, contract.backends.db_rows);
  return id === 0 ? null : id;
}

/**
 * The decoded path of an origin-form target (queryAt: where its '?' is, or -1), or null. A
 * fragment is never part of a request target (RFC 9112 §3.2): '#' anywhere is null.
 */
function sitePathOf(target, queryAt) {
  if (!target.startsWith('/') || target.includes('#')) return null;
  return decodeSitePath(queryAt === -1 ? target : target.slice(0, queryAt));
}

const TEXT = 'text/plain; charset=utf-8';
// A socket's backend calls still pending (awaitBackend), made on its first.
const PENDING_CALLS = Symbol('pendingCalls');

function createApp(site, { upstream = null, database = null } = {}) {
  const helloBody = Buffer.from(contract.hello_body);
  const dispatcher = new HttpDispatcher();

  function hello(req, res) {
    sendReply(res, 200, contract.hello_type, helloBody);
  }

  function delay(req, res, query) {
    const ms = delayMs(query);
    if (ms === null) {
      sendError(res, 400);
      return;
    }
    // A timer, never a busy wait: the loop stays free for other connections.
    const timer = setTimeout(() => sendReply(res, 200, TEXT, Buffer.from(`waited ${ms} ms\n`)), ms);
    res.once('close', () => clearTimeout(timer));
  }

  /**
   * A reply that waits on a backend call (start(done) makes it, returning { cancel }): Node's
   * server sends it in its request's turn. A client gone first cancels the call, so that its
   * result is dropped and nothing is written after the close. The socket's close, not the
   * reply's: a reply queued behind another (pipelining) hears no close of its own. Its calls are
   * kept per socket behind one listener, as connection.rb keeps @calls.
   */
  function awaitBackend(req, start) {
    const { socket } = req;
    let calls = socket[PENDING_CALLS];
    if (!calls) {
      calls = new Set();
      socket[PENDING_CALLS] = calls;
      socket.once('close', () => {
        for (const pending of calls) pending.cancel();
        calls.clear();
      });
    }
    let answered = false;
    const call = start((reply) => {
      answered = true;
      calls.delete(call);
      if (!socket.destroyed) reply();
    });
    if (!answered) calls.add(call);
  }

  function upstreamRoute(req, res, query) {
    const ms = delayMs(query);
    if (ms === null) {
      sendError(res, 400);
      return;
    }
    if (!upstream) {
      sendError(res, 502);
      return;
    }
    // The upstream's /delay, whose body comes back verbatim: /upstream?ms=N answers as /delay?ms=N.
    awaitBackend(req, (reply) => upstream.get(`/delay?ms=${ms}`, (body) => reply(() => {
      if (body === null) sendError(res, 502);
      else sendReply(res, 200, TEXT, body);
    })));
  }

  function dbRoute(req, res, query) {
    const id = dbId(query);
    if (id === null) {
      sendError(res, 400);
      return;
    }
    if (!database) {
      sendError(res, 503);
      return;
    }
    awaitBackend(req, (reply) => database.get(id, (value) => reply(() => {
      // The stored value is an integer's digits, written as a JSON number; anything else (a
      // missing row, a value that is no integer) is the store's failure.
      if (value === null || !/^-?\d{1,15}$/.test(value)) sendError(res, 503);
      else sendReply(res, 200, 'application/json', Buffer.from(`{"id":${id},"randomNumber":${Number(value)}}`));
    })));
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
  dispatcher.onGet('/upstream', upstreamRoute);
  dispatcher.onHead('/upstream', upstreamRoute);
  dispatcher.onGet('/db', dbRoute);
  dispatcher.onHead('/db', dbRoute);
  dispatcher.onPost('/upload', upload);
  dispatcher.onGet(/^\//, staticFile);
  dispatcher.onHead(/^\//, staticFile);

  /** The Allow value for a path with no handler for the method, or null when the path is unknown. */
  function allowFor(sitePath) {
    if (Object.hasOwn(contract.routes, sitePath)) return contract.routes[sitePath];
    return lookup(site, sitePath) ? contract.static_allow : null;
  }

  /** The route table: what a request gets (connection.js has passed it through the gate). */
  function route(req, res) {
    const target = req.url;
    const queryAt = target.indexOf('?');
    const query = queryAt === -1 ? '' : target.slice(queryAt + 1);
    const sitePath = sitePathOf(target, queryAt);
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

  /** Whether a request's body is read before its reply: only an upload's is. */
  function readsBody(req) {
    return req.method === 'POST' && sitePathOf(req.url, req.url.indexOf('?')) === '/upload';
  }

  return { route, readsBody };
}

module.exports = { createApp };
