'use strict';
// One request to a server (perf/lib/hosts/one_request.js): the reply whole, and each failure in
// one line that names the request.

const assert = require('node:assert/strict');
const http = require('node:http');
const net = require('node:net');
const { send } = require('../../../perf/lib/hosts/one_request');

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
const close = (server) => new Promise((resolve) => server.close(resolve));

describe('one request: the reply, or one line that says what went wrong', () => {
  it('the status, headers and whole body of the reply', async () => {
    const server = http.createServer((req, res) => res.end(`${req.method} ${req.url}`));
    const port = await listen(server);
    try {
      const res = await send({ host: '127.0.0.1', port }, { method: 'POST', path: '/upload', body: 'x' });
      assert.equal(res.status, 200);
      assert.equal(res.body.toString(), 'POST /upload');
      assert.equal(res.headers['content-length'], '12');
    } finally {
      await close(server);
    }
  });

  it('a port nobody listens on: the system\'s code', async () => {
    const server = net.createServer();
    const port = await listen(server);
    await close(server);
    await assert.rejects(send({ host: '127.0.0.1', port }, { path: '/hello' }), { message: 'GET /hello: ECONNREFUSED' });
  });

  it('a server that never answers: no complete reply within the time given', async () => {
    const sockets = [];
    const server = net.createServer((socket) => sockets.push(socket));
    const port = await listen(server);
    try {
      await assert.rejects(send({ host: '127.0.0.1', port }, { path: '/hello', timeoutMs: 100 }), { message: 'GET /hello: no complete reply within 100 ms' });
    } finally {
      for (const socket of sockets) socket.destroy();
      await close(server);
    }
  });
});
