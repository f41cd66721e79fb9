'use strict';
// What each route answers, independent of connections, as the EventMachine server's app.rb:
// the routes (httpdispatcher) over the static site (static_site.js), for a request that the
// request gate (request_gate.js) has let through.

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
 * The delay in ms for a /delay query (what follows the first '?'), or null when it is not an
 * integer 0..delay_max_ms: the first '&'-separated pair named ms, as app.rb's delay_ms reads it.
 */
function delayMs(query) {
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=');
    if (decodeComponent(equals === -1 ? pair : pair.slice(0, equals)) !== 'ms') continue;
    const value = equals === -1 ? '' : decodeComponent(pair.slice(equals + 1));
    return value !== null && /^\d{1,5}$/.test(value) && Number(value) <= contract.delay_max_ms ? Number(value) : null;
  }
  return null;
}

/**
 * The decoded path of an origin-form target (queryAt: where its '?' is, or -1), or null. A
 * fragment is never part of a request target (RFC 9112 §3.2): '#' anywhere is null.
 */
function sitePathOf(target, queryAt) {
  if (!target.startsWith('/') || target.includes('#')) return null;
  return decodeSitePath(queryAt === -1 ? target : target.slice(0, queryAt));
}

function createApp(site) {
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
    const timer = setTimeout(() => sendReply(res, 200, 'text/plain; charset=utf-8', Buffer.from(`waited ${ms} ms\n`)), ms);
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
