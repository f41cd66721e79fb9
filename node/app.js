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

function createApp(site) {
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

  /** The route table: what a request gets (connection.js has passed it through the gate). */
  function route(req, res) {
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

  return { route };
}

module.exports = { createApp };
