'use strict';
// Behaviour of both servers beyond single requests: concurrency, many connections in a row,
// malformed input, requests that arrive in pieces, and starting and stopping.

const assert = require('node:assert/strict');
const http = require('node:http');
const net = require('node:net');
const crypto = require('node:crypto');
const { exchange, request } = require('../support/raw_http');
const { SERVER_NAMES, useServers } = require('../support/servers');
const { startServer } = require('../../perf/lib/hosts/server_process');

const agentless = (port, pathName, options = {}) =>
  new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathName, agent: false, ...options }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(options.body);
  });

/** Writes `data` one small piece per event-loop turn, so the server sees it arrive in pieces. */
function trickle(port, data, pieceSize) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let received = Buffer.alloc(0);
    socket.on('data', (c) => {
      received = Buffer.concat([received, c]);
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received.toString('latin1')));
    socket.on('connect', async () => {
      for (let i = 0; i < data.length; i += pieceSize) {
        socket.write(data.subarray(i, i + pieceSize));
        await new Promise((r) => setImmediate(r));
      }
    });
  });
}

// Requests no parser may accept. Each must get a 4xx reply or a closed connection, and the
// server must then still answer a normal request.
const MALFORMED = {
  'binary noise': crypto.createHash('sha512').update('noise').digest(),
  'an HTTP/2 preface': 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
  'a NUL in a header value': 'GET /hello HTTP/1.1\r\nHost: x\r\nX-Bad: a\0b\r\n\r\n',
  'a NUL in the path': 'GET /hel\0lo HTTP/1.1\r\nHost: x\r\n\r\n',
  'a lower-case method': 'get /hello HTTP/1.1\r\nHost: x\r\n\r\n',
  'an unknown method': 'FROB /hello HTTP/1.1\r\nHost: x\r\n\r\n',
  'HTTP/2.0 in the request line': 'GET /hello HTTP/2.0\r\nHost: x\r\n\r\n',
  'HTTP/1.2 in the request line': 'GET /hello HTTP/1.2\r\nHost: x\r\n\r\n',
  'no version': 'GET /hello\r\nHost: x\r\n\r\n',
  'an absolute-form target': 'GET http://127.0.0.1/hello HTTP/1.1\r\nHost: x\r\n\r\n',
  'an asterisk target': 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n',
  'a raw non-ASCII byte in the path': 'GET /caf\xe9 HTTP/1.1\r\nHost: x\r\n\r\n',
  'bare LF line ends': 'GET /hello HTTP/1.1\nHost: x\n\n',
  'a header without a colon': 'GET /hello HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n',
  'a space before the colon': 'GET /hello HTTP/1.1\r\nHost : x\r\n\r\n',
  'an obsolete folded header': 'GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n',
  'a negative Content-Length': 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
  'a huge Content-Length': 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n',
  'Transfer-Encoding: gzip alone': 'POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n',
  'a bad chunk size': 'POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
  'a URL over MAX_URL_BYTES': `GET /${'a'.repeat(5000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
  'a header line over MAX_HEADER_LINE_BYTES': `GET /hello HTTP/1.1\r\nHost: x\r\nX-Long: ${'b'.repeat(9000)}\r\n\r\n`,
  'a header section over MAX_HEADER_BYTES': `GET /hello HTTP/1.1\r\nHost: x\r\n${'X-Many: cccccccccccccccccccccccccccccc\r\n'.repeat(600)}\r\n`,
  'an incomplete request line of binary noise': '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03',
  'a request line with bare LF, still incomplete': 'GET /hello HTTP/1.1\nHost: x\n',
};
const EXPECTED_STATUS = {
  'a URL over MAX_URL_BYTES': 414,
  'a header line over MAX_HEADER_LINE_BYTES': 431,
  'a header section over MAX_HEADER_BYTES': 431,
};

describe('both servers', function () {
  const servers = useServers();

  for (const name of SERVER_NAMES) {
    describe(name, () => {
      it('answers 100 concurrent /delay?ms=200 together, not one after another', async () => {
        const started = process.hrtime.bigint();
        const replies = await Promise.all(Array.from({ length: 100 }, () => agentless(servers[name].port, '/delay?ms=200')));
        const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
        assert.ok(replies.every((r) => r.status === 200));
        // One after another would take 20 s; together, little more than 200 ms.
        assert.ok(elapsedMs < 1000, `took ${elapsedMs.toFixed(0)} ms`);
      });

      it('serves 5000 connections in a row, one request each', async function () {
        this.timeout(120000);
        for (let i = 0; i < 5000; i += 1) {
          const { replies, closed } = await exchange(servers[name].port, request('GET', '/hello', { Connection: 'close' }), { waitForClose: true });
          if (replies.length !== 1 || replies[0].status !== 200 || !closed) {
            assert.fail(`connection ${i + 1}: ${replies.map((r) => r.status).join(',') || 'no reply'}, closed=${closed}`);
          }
        }
      });

      it('reuses one keep-alive connection for 50 requests', async () => {
        const writes = Array.from({ length: 50 }, (_, i) => request('GET', i % 2 ? '/hello' : '/css/site.css'));
        const { replies, closed } = await exchange(servers[name].port, writes, { count: 50 });
        assert.equal(replies.length, 50);
        assert.ok(replies.every((r) => r.status === 200));
        assert.equal(closed, false);
      });

      it('parses a request that arrives a byte at a time', async () => {
        const text = await trickle(servers[name].port, Buffer.from(request('GET', '/hello', { Connection: 'close' })), 1);
        assert.match(text, /^HTTP\/1\.1 200 /);
        assert.ok(text.endsWith('asdfghjkl;'));
      });

      it('parses pipelined uploads split at odd places', async () => {
        const body = crypto.randomBytes(70000);
        const head = request('POST', '/upload', { 'Content-Length': body.length });
        const data = Buffer.concat([Buffer.from(head), body, Buffer.from(request('GET', '/hello', { Connection: 'close' }))]);
        const text = await trickle(servers[name].port, data, 997);
        const digest = crypto.createHash('sha256').update(body).digest('hex');
        assert.ok(text.includes(`{"bytes":70000,"sha256":"${digest}"}`), text.slice(0, 300));
        assert.ok(text.endsWith('asdfghjkl;'));
      });

      it('sends 100 Continue, then takes the body and answers', async () => {
        const socket = net.connect(servers[name].port, '127.0.0.1');
        let text = '';
        const done = new Promise((resolve, reject) => {
          socket.on('data', (chunk) => {
            text += chunk.toString('latin1');
            if (text.startsWith('HTTP/1.1 100') && !text.includes('\r\n\r\nHTTP')) socket.write('hello');
            if (text.includes('sha256')) resolve();
          });
          socket.on('error', reject);
          socket.on('close', () => reject(new Error(`closed early: ${text}`)));
        });
        socket.write(request('POST', '/upload', { 'Content-Length': 5, Expect: '100-continue' }));
        await done;
        socket.destroy();
        assert.match(text, /^HTTP\/1\.1 100 [^\r]*\r\n\r\nHTTP\/1\.1 200 /);
        assert.ok(text.includes('"bytes":5'));
      });

      for (const [caseName, raw] of Object.entries(MALFORMED)) {
        it(`survives ${caseName}: 4xx or close, then serves a normal request`, async () => {
          const { replies, closed } = await exchange(servers[name].port, raw, { waitForClose: true, count: 1 });
          if (replies.length > 0) {
            const expected = EXPECTED_STATUS[caseName];
            if (expected) assert.equal(replies[0].status, expected);
            else assert.ok(replies[0].status >= 400 && replies[0].status < 500, `status ${replies[0].status}`);
          }
          assert.ok(closed, 'the connection stayed open after a malformed request');
          const after = await exchange(servers[name].port, request('GET', '/hello'));
          assert.equal(after.replies[0].status, 200);
        });
      }
    });
  }
});

describe('starting and stopping', () => {
  for (const name of SERVER_NAMES) {
    describe(name, () => {
      it('prints one ready line, and stops within a second on SIGTERM and on SIGINT', async function () {
        this.timeout(30000);
        for (const signal of ['SIGTERM', 'SIGINT']) {
          const server = await startServer(name);
          assert.equal(server.output().split('\n').filter((l) => l.includes('listening on http://')).length, 1);
          assert.match(server.output(), new RegExp(`listening on http://127\\.0\\.0\\.1:${server.port}`));
          // Hold a keep-alive connection and a pending /delay: neither may hold the exit up.
          const pending = exchange(server.port, request('GET', '/delay?ms=5000'), { timeoutMs: 3000 }).catch(() => null);
          await exchange(server.port, request('GET', '/hello'));
          const started = Date.now();
          server.child.kill(signal);
          const { code, signal: bySignal } = await server.exited;
          assert.ok(Date.now() - started < 1000, `${signal}: took ${Date.now() - started} ms`);
          assert.ok(code === 0 || bySignal === signal, `${signal}: exit ${code} ${bySignal}`);
          await pending;
        }
      });

      it('refuses a port in use with one clear line and a non-zero exit', async function () {
        this.timeout(20000);
        const blocker = net.createServer();
        await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve));
        try {
          await assert.rejects(startServer(name, { port: blocker.address().port }), (err) => {
            assert.match(err.message, /exited before it was ready \(exit code 1\): .*cannot listen on 127\.0\.0\.1:\d+/);
            return true;
          });
        } finally {
          blocker.close();
        }
      });
    });
  }
});
