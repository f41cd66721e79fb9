'use strict';
// One request to a server the harness started, through Node's http client (which checks HTTP
// framing on its own, independent of the engines): for the checks before a server or a backend
// is used (run/contract_check.js, hosts/backends.js) and the probe of a server that may hang
// (run/run_one.js). Each failure rejects with one line that names the request.

const http = require('node:http');

const TIMEOUT_MS = 5000;

/** One request; resolves { status, headers, body (Buffer), socket, reusedSocket }. */
function send(target, { method = 'GET', path = '/', headers = {}, body = null, agent = false, timeoutMs = TIMEOUT_MS }) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: target.host, port: target.port, method, path, headers, agent });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`${method} ${path}: no complete reply within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`${method} ${path}: ${err.code || err.message}`));
    });
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(new Error(`${method} ${path}: reply cut short (${err.code || err.message})`));
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), socket: res.socket, reusedSocket: req.reusedSocket });
      });
    });
    req.end(body);
  });
}

module.exports = { send };
