'use strict';
// The async-http server (ruby/async_http/, async_http in perf/servers.json) on a real socket:
// every route of the contract answered as the other servers answer it, the limits and deadlines
// set on the library, and each difference the library leaves (contract.json known_differences
// scoped to async_http): each test below fails when its difference disappears, so that the
// documentation cannot outlive it. The census of the shared e2e tests run on this server is
// docs/async_http_census.md.

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { exchange, request, openWith, untilClosed } = require('../support/raw_http');
const { startServer } = require('../../perf/lib/hosts/server_process');
const { startBackends, missingBackend } = require('../../perf/lib/hosts/backends');
const contract = require('../../contract.json');

const WWW = path.join(__dirname, '..', '..', 'shared_www');
const file = (name) => fs.readFileSync(path.join(WWW, name));
const sha256 = (data) => crypto.createHash('sha256').update(data).digest('hex');
const LIMITS = { HEADERS_TIMEOUT_MS: '1000', BODY_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2500', KEEPALIVE_TIMEOUT_MS: '1000' };
const KEEPALIVE_MS = Number(LIMITS.KEEPALIVE_TIMEOUT_MS);
const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

describe('async_http: async-http\'s own server serving the contract', function () {
  this.timeout(30000);
  let server;
  let backends = null;
  const missing = ['upstream', 'redis'].map(missingBackend).filter(Boolean).join('; ');
  before(async () => {
    if (!missing) backends = await startBackends(['upstream', 'redis']);
    server = await startServer('async_http', { env: { ...LIMITS, ...(backends ? backends.env : {}) } });
  });
  after(async () => {
    await server?.stop();
    await backends?.stop();
  });
  const send = (bytes, options) => exchange(server.port, bytes, options);

  describe('routes', () => {
    it('GET /hello: 200, the seed reply, Date, Content-Type, and the connection kept', async () => {
      const { replies: [reply] } = await send(request('GET', '/hello'));
      assert.equal(reply.status, 200);
      assert.equal(reply.body.toString(), contract.hello_body);
      assert.equal(reply.headers['content-type'], contract.hello_type);
      assert.match(reply.headers.date, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      assert.equal(reply.headers.connection, 'keep-alive');
      assert.equal(reply.headers['keep-alive'], `timeout=${KEEPALIVE_MS / 1000}`);
    });

    it('the files of shared_www/ by extension, a folder\'s index.html, HEAD without a body, 404 kept open', async () => {
      const result = await send(request('GET', '/css/site.css') + request('GET', '/docs/') + request('HEAD', '/') + request('GET', '/no/such'),
        { count: 4, headFlags: [false, false, true, false] });
      const [css, docs, head, missingFile] = result.replies;
      assert.ok(css.body.equals(file('css/site.css')));
      assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
      assert.ok(docs.body.equals(file('docs/index.html')));
      assert.equal(Number(head.headers['content-length']), file('index.html').length);
      assert.deepEqual([missingFile.status, missingFile.body.toString(), missingFile.headers.connection], [404, 'Not Found\n', 'keep-alive']);
      assert.equal(result.extra.length, 0, 'HEAD carried a body');
    });

    it('an upload: its bytes and SHA-256, after a 100 Continue when asked; 413 at once over the limit; 411 chunked', async () => {
      const body = file('lipsum100k.txt');
      const { replies } = await send(request('POST', '/upload', { 'Content-Length': body.length, Expect: '100-continue' }) + body.toString('latin1'));
      assert.equal(replies[0].status, 100);
      assert.deepEqual(JSON.parse(replies[1].body), { bytes: body.length, sha256: sha256(body) });
      assert.equal(replies[1].headers['content-type'], 'application/json');
      const over = await send(request('POST', '/upload', { 'Content-Length': contract.limits.MAX_UPLOAD_BYTES + 1 }), { waitForClose: true });
      assert.deepEqual([over.replies[0].status, over.closed], [413, true]);
      const chunked = await send(request('POST', '/upload', { 'Transfer-Encoding': 'chunked' }, '5\r\nhello\r\n0\r\n\r\n'), { waitForClose: true });
      assert.deepEqual([chunked.replies[0].status, chunked.closed], [411, true]);
    });

    it('/delay on the scheduler\'s timer, pipelined replies in order, 400 for a bad ms, 405 with Allow and a close', async () => {
      const result = await send(request('GET', '/delay?ms=100') + request('GET', '/hello') + request('GET', '/delay?ms=10001'), { count: 3, waitForClose: true });
      assert.deepEqual(result.replies.map((r) => r.body.toString()), ['waited 100 ms\n', contract.hello_body, 'Bad Request\n']);
      assert.ok(result.closed, 'a 400 closes the connection');
      const put = await send(request('PUT', '/hello'), { waitForClose: true });
      assert.deepEqual([put.replies[0].status, put.replies[0].headers.allow, put.closed], [405, 'GET, HEAD', true]);
    });

    it('/upstream through async-http\'s client pool and /db through async-redis', async function () {
      if (missing) this.skip();
      const result = await send(request('GET', '/upstream?ms=5') + request('GET', '/db?id=1'), { count: 2 });
      assert.equal(result.replies[0].body.toString(), 'waited 5 ms\n');
      assert.equal(result.replies[0].headers['content-type'], 'text/plain; charset=utf-8');
      assert.match(result.replies[1].body.toString(), /^\{"id":1,"randomNumber":-?\d+\}$/);
    });

    it('a parse error is the contract\'s 400 (Date, Content-Type, its text), not the library\'s', async () => {
      const result = await send('GET /hello HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n', { waitForClose: true });
      const [reply] = result.replies;
      assert.deepEqual([reply.status, reply.body.toString(), reply.headers['content-type'], result.closed], [400, 'Bad Request\n', 'text/plain; charset=utf-8', true]);
      assert.ok(reply.headers.date);
    });

    it('only origin-form targets of HTTP/1.x methods it serves: absolute form, *, PRI and CONNECT are 400', async () => {
      for (const line of ['GET http://127.0.0.1/hello HTTP/1.1', 'HEAD * HTTP/1.1', 'PRI //hello HTTP/1.1', 'CONNECT 127.0.0.1:443 HTTP/1.1']) {
        const result = await send(`${line}\r\nHost: a\r\n\r\n`, { waitForClose: true, headFlags: [line.startsWith('HEAD')] });
        assert.deepEqual([result.replies[0].status, result.closed], [400, true], line);
      }
    });
  });

  describe('limits set on the library', () => {
    it('a header line of MAX_HEADER_LINE_BYTES is read; one byte more is 431 and a close, to HEAD without a body (as Node\'s)', async () => {
      const line = (length) => `X-Long: ${'b'.repeat(length - 'X-Long: '.length)}`;
      const most = await send(`GET /hello HTTP/1.1\r\nHost: a\r\n${line(contract.limits.MAX_HEADER_LINE_BYTES)}\r\n\r\n`);
      assert.equal(most.replies[0].status, 200);
      for (const method of ['GET', 'HEAD']) {
        const over = await send(`${method} /hello HTTP/1.1\r\nHost: a\r\n${line(contract.limits.MAX_HEADER_LINE_BYTES + 1)}\r\n\r\n`, { waitForClose: true, headFlags: [method === 'HEAD'] });
        assert.deepEqual([over.replies[0].status, over.closed], [431, true], method);
        assert.equal(over.replies[0].body.length, method === 'HEAD' ? 0 : 'Request Header Fields Too Large\n'.length, method);
      }
    });
  });

  describe('deadlines set on the library', () => {
    it('a header section that stalls: 408 and a close', async () => {
      const text = await untilClosed(await openWith(server.port, 'GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: '));
      assert.match(text, /^HTTP\/1\.1 408 /);
    });

    it('an upload body that stalls: 408 and a close', async () => {
      const text = await untilClosed(await openWith(server.port, request('POST', '/upload', { 'Content-Length': 10 }, 'abc')));
      assert.match(text, /^HTTP\/1\.1 408 /);
    });

    it('an idle keep-alive connection: closed after KEEPALIVE_TIMEOUT_MS without a reply', async () => {
      const socket = await openWith(server.port, request('GET', '/hello'));
      const started = Date.now();
      const text = await untilClosed(socket);
      assert.equal((text.match(/HTTP\/1\.1 /g) || []).length, 1);
      assert.ok(Date.now() - started >= KEEPALIVE_MS - 50, `closed after ${Date.now() - started} ms`);
    });
  });

  // Each difference of contract.json scoped to async_http, as the library answers it.
  const DIFFERENCES = {
    'async-http-request-line': async () => {
      for (const bytes of ['GET  /hello HTTP/1.1\r\nHost: a\r\n\r\n', `\r\n${request('GET', '/hello')}`]) {
        const result = await send(bytes, { waitForClose: true });
        assert.deepEqual([result.replies[0].status, result.closed], [400, true], JSON.stringify(bytes));
      }
    },
    'async-http-refusal-moment': async () => {
      // Node's parser refuses at the '@'; the library waits for the line's end: the header deadline comes first.
      const text = await untilClosed(await openWith(server.port, 'GET /hello HTTP/1.1\r\nHost: a\r\nFo@: x'));
      assert.match(text, /^HTTP\/1\.1 408 /);
    },
    'async-http-field-white-space': async () => {
      const tab = await send('GET /hello HTTP/1.1\r\nHost: a\r\nContent-Length: 0\t\r\n\r\n', { waitForClose: true });
      assert.equal(tab.replies[0].status, 400);
      const padded = await send(request('GET', '/hello', { 'X-Pad': `${' '.repeat(500)}${'v'.repeat(7400)}${' '.repeat(500)}` }), { waitForClose: true });
      assert.equal(padded.replies[0].status, 431);
    },
    'async-http-transfer-codings': async () => {
      const twice = await send(request('POST', '/upload', { 'Transfer-Encoding': 'chunked, chunked' }, '0\r\n\r\n'), { waitForClose: true });
      assert.equal(twice.replies[0].status, 411);
      const head = await send('HEAD /hello HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n\r\n', { waitForClose: true, headFlags: [true] });
      assert.deepEqual([head.replies[0].status, head.replies[0].headers['content-length'], head.extra.length], [400, '12', 0]);
    },
    'async-http-single-fields': async () => {
      const once = await send(request('GET', '/hello', { 'User-Agent': 'a' }));
      assert.equal(once.replies[0].status, 200, 'one User-Agent is served');
      const twice = await send('GET /hello HTTP/1.1\r\nHost: a\r\nUser-Agent: a\r\nUser-Agent: b\r\n\r\n', { waitForClose: true });
      assert.deepEqual([twice.replies[0].status, twice.closed], [400, true]);
    },
    'async-http-upgrade': async () => {
      // No upgrade option in Connection: the contract keeps the connection; the library closes it.
      const result = await send(request('GET', '/hello', { Upgrade: 'websocket' }) + request('GET', '/hello'), { waitForClose: true });
      assert.deepEqual(result.replies.map((r) => [r.status, r.headers.connection]), [[200, 'close']]);
      assert.ok(result.closed);
      const over = await send(request('GET', '/hello', { Upgrade: 'websocket', 'Content-Length': contract.limits.MAX_UPLOAD_BYTES + 1 }), { waitForClose: true });
      assert.equal(over.replies[0].status, 413, 'its Content-Length is still checked');
    },
    'async-http-line-ends': async () => {
      // Never a whole line to the library: no reply to it; the header deadline's 408 or the
      // socket's timeout, whichever comes first (here both are 1 s), closes the connection.
      const started = Date.now();
      const text = await untilClosed(await openWith(server.port, 'GET /hello HTTP/1.1\nHost: a\n\n'));
      assert.ok(text === '' || /^HTTP\/1\.1 408 /.test(text), JSON.stringify(text.slice(0, 40)));
      assert.ok(Date.now() - started >= Math.min(KEEPALIVE_MS, Number(LIMITS.HEADERS_TIMEOUT_MS)) - 50, `closed after ${Date.now() - started} ms`);
    },
    'async-http-field-controls': async () => {
      const result = await send(request('GET', '/hello', { 'X-A': 'a\u0001b' }));
      assert.equal(result.replies[0].status, 200, 'served where Node says 400');
    },
    'async-http-field-name-case': async () => {
      const text = await untilClosed(await openWith(server.port, request('GET', '/hello', { Connection: 'close' })));
      assert.match(text, /\r\ncontent-length: 10\r\n/);
      assert.match(text, /\r\nconnection: close\r\n/);
      assert.doesNotMatch(text, /\r\nConnection: close\r\n/);
    },
    'async-http-write-buffer': async () => {
      // 40 readers that read nothing, three 1 MiB replies each: a copy of the file waits per
      // connection (not the one shared string): RSS grows by most of 40 MiB.
      const before = rssKb(server.pid);
      const sockets = await Promise.all(Array.from({ length: 40 }, () => openWith(server.port, request('GET', '/data/random-1m.bin').repeat(3))));
      for (const socket of sockets) socket.pause();
      try {
        const deadline = Date.now() + 5000;
        let grown = 0;
        while (grown < 30 * 1024 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          grown = rssKb(server.pid) - before;
        }
        assert.ok(grown >= 30 * 1024, `RSS grew ${grown} kB for 40 stalled 1 MiB replies`);
      } finally {
        for (const socket of sockets) socket.destroy();
      }
    },
    'async-http-socket-timeout': async () => {
      // Ten 1 MiB replies to a client that reads nothing for twice the keep-alive timeout: cut
      // mid-reply (Node would wait and send all ten).
      const socket = net.connect(server.port, '127.0.0.1');
      socket.write(request('GET', '/data/random-1m.bin').repeat(10));
      socket.pause();
      const received = new Promise((resolve) => {
        let bytes = 0;
        socket.on('data', (chunk) => {
          bytes += chunk.length;
        });
        socket.on('close', () => resolve(bytes));
      });
      await new Promise((resolve) => setTimeout(resolve, 2 * KEEPALIVE_MS));
      socket.resume();
      const bytes = await received;
      assert.ok(bytes < 10 * file('data/random-1m.bin').length, `received ${bytes} bytes`);
    },
  };

  describe('the library\'s differences (contract.json known_differences, server async_http)', () => {
    it('names the same differences as contract.json and CONTRACT.md', () => {
      const documented = contract.known_differences.filter((d) => d.server === 'async_http').map((d) => d.id);
      assert.deepEqual(Object.keys(DIFFERENCES).sort(), documented.sort());
      const text = fs.readFileSync(path.join(__dirname, '..', '..', 'CONTRACT.md'), 'utf8');
      for (const id of documented) assert.ok(text.includes(`**${id}**`), `CONTRACT.md does not name ${id}`);
    });
    for (const [id, check] of Object.entries(DIFFERENCES)) it(id, check);
  });
});
