'use strict';
// The built-in engines' HTTP/1.1 client (perf/lib/engines/http_exchange.js): the request it
// writes, how it frames and classifies replies, the upload payload, and on real sockets read
// pacing, trickled uploads, deadlines, refusals and connections that end early or are cut.

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const net = require('node:net');
const zlib = require('node:zlib');
const { performance } = require('node:perf_hooks');
const { HttpConnection, ResponseParser, buildRequestHead, classifyError, kindError, payloadSource } = require('../../../perf/lib/engines/http_exchange');
const { useStandin } = require('../../support/runner_helpers');

/** The parser fed these chunks (strings are latin1); { parser, bodies: what each feed returned }. */
function parse(chunks, { isHead = false } = {}) {
  const parser = new ResponseParser(isHead);
  const bodies = chunks.map((c) => parser.feed(Buffer.from(c, 'latin1')));
  return { parser, bodies };
}

/**
 * A raw TCP server for replies no HTTP library would send: onConnection(socket, received) is
 * called once per connection, received() gives the bytes so far. A connection stays open on its
 * side when the client ends its own (half-open), until onConnection ends it. Resolves
 * { port, close() }.
 */
function rawServer(onConnection) {
  return new Promise((resolve) => {
    const sockets = new Set();
    const server = net.createServer({ allowHalfOpen: true }, (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
      let data = Buffer.alloc(0);
      socket.on('data', (chunk) => {
        data = Buffer.concat([data, chunk]);
      });
      onConnection(socket, () => data);
    });
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: server.address().port,
        close: () => {
          sockets.forEach((s) => s.destroy());
          server.close();
        },
      }),
    );
  });
}

/** Resolves once fn() is true, checking on each of the socket's data events. */
const once = (socket, fn) => new Promise((resolve) => {
  const check = () => fn() && resolve();
  socket.on('data', check);
  check();
});

describe('http exchange: the request it writes', () => {
  it('a GET: the request line, Host and User-Agent', () => {
    assert.equal(buildRequestHead({ path: '/hello', host: '127.0.0.1:8080' }).toString('latin1'), 'GET /hello HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: em-vs-node-runner\r\n\r\n');
  });

  it('Connection: close when the connection is not kept; a body\'s length and, unless given, its type; the scenario\'s headers last', () => {
    const head = buildRequestHead({ method: 'POST', path: '/upload', host: 'h', keepAlive: false, contentLength: 5, headers: { 'X-Test': 'a' } }).toString('latin1');
    assert.equal(head, 'POST /upload HTTP/1.1\r\nHost: h\r\nUser-Agent: em-vs-node-runner\r\nConnection: close\r\nContent-Length: 5\r\nContent-Type: application/octet-stream\r\nX-Test: a\r\n\r\n');
    const typed = buildRequestHead({ method: 'POST', host: 'h', contentLength: 0, headers: { 'content-type': 'text/plain' } }).toString('latin1');
    assert.equal(typed.match(/content-type/gi).length, 1);
    assert.match(typed, /Content-Length: 0\r\n/);
  });

  it('the upload payload: 1 MiB, the same every time, and incompressible', () => {
    const a = payloadSource();
    assert.equal(a.length, 1024 * 1024);
    assert.equal(payloadSource(), a);
    assert.ok(zlib.deflateSync(a).length > 0.99 * a.length, 'it compresses');
  });
});

describe('http exchange: framing replies', () => {
  it('a reply framed by Content-Length, whole or in pieces; feed says how many body bytes each piece held', () => {
    const whole = parse(['HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello']);
    assert.deepEqual([whole.parser.complete, whole.parser.status, whole.parser.bodyBytes, whole.parser.keepAlive, whole.bodies], [true, 200, 5, true, [5]]);
    const pieces = parse(['HTTP/1.1 404 Not', ' Found\r\nContent-Le', 'ngth: 10\r\n\r\nabc', 'defg', 'hij']);
    assert.deepEqual([pieces.parser.status, pieces.parser.complete, pieces.bodies], [404, true, [0, 0, 3, 4, 3]]);
    // What follows the body (the next reply on the connection) is not this reply's.
    const followed = parse(['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n']);
    assert.deepEqual([followed.parser.bodyBytes, followed.bodies], [2, [2]]);
  });

  it('not complete until the last body byte', () => {
    const { parser } = parse(['HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n123456789']);
    assert.equal(parser.complete, false);
    assert.equal(parser.finishOnEnd(), false, 'a peer closing now cut the reply short');
  });

  it('skips interim 1xx replies', () => {
    const { parser } = parse(['HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok']);
    assert.deepEqual([parser.status, parser.bodyBytes, parser.complete], [201, 2, true]);
  });

  it('no body for HEAD, 204 and 304, whatever Content-Length says', () => {
    assert.deepEqual([parse(['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n'], { isHead: true }).parser.complete], [true]);
    for (const status of [204, 304]) assert.equal(parse([`HTTP/1.1 ${status} X\r\nContent-Length: 100\r\n\r\n`]).parser.complete, true, status);
  });

  it('without Content-Length the body runs until the peer closes, and the connection is not kept', () => {
    const { parser, bodies } = parse(['HTTP/1.1 200 OK\r\n\r\nsome', ' more']);
    assert.deepEqual([parser.complete, bodies], [false, [4, 5]]);
    assert.equal(parser.finishOnEnd(), true);
    assert.deepEqual([parser.bodyBytes, parser.keepAlive], [9, false]);
  });

  it('keeps the connection as HTTP/1.1 and 1.0 say', () => {
    const kept = (text) => parse([`${text}\r\nContent-Length: 0\r\n\r\n`]).parser.keepAlive;
    assert.equal(kept('HTTP/1.1 200 OK'), true);
    assert.equal(kept('HTTP/1.1 200 OK\r\nConnection: Close'), false);
    assert.equal(kept('HTTP/1.0 200 OK'), false);
    assert.equal(kept('HTTP/1.0 200 OK\r\nConnection: keep-alive'), true);
  });

  it('refuses what the contract rules out, as an error of kind other', () => {
    for (const [chunks, re] of [
      [['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'], /^chunked reply/],
      [['SMTP ready\r\n\r\n'], /^malformed status line: "SMTP ready"$/],
      [['HTTP/1.1 200 OK\r\nContent-Length: lots\r\n\r\n'], /^malformed Content-Length$/],
      [[`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(70 * 1024)}`], /^reply header larger than 64 KiB$/],
    ]) {
      assert.throws(() => parse(chunks), (err) => err.kind === 'other' && re.test(err.message), String(re));
    }
    assert.equal(parse(['HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\nContent-Length: 0\r\n\r\n']).parser.complete, true);
  });

  it('classifies socket errors into the runner\'s kinds, and keeps a kind the engine gave', () => {
    const code = (c) => classifyError(Object.assign(new Error(c), { code: c }));
    assert.deepEqual(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT', 'EHOSTUNREACH'].map(code), ['refused', 'reset', 'reset', 'reset', 'timeout', 'other']);
    assert.equal(classifyError(kindError('cut', 'window closed')), 'cut');
    assert.equal(classifyError(null), null);
  });
});

describe('perf drivers: against the stand-in server', function () {
  this.timeout(30000);
  const server = useStandin();

  it('reads a reply no faster than readBytesPerS', async () => {
    const conn = new HttpConnection({ host: server.host, port: server.port });
    const t0 = performance.now();
    const res = await conn.request({ path: '/data/random-1m.bin', readBytesPerS: 512 * 1024, deadlineAt: t0 + 20000 });
    const took = performance.now() - t0;
    conn.destroy();
    assert.equal(res.status, 200);
    assert.equal(res.bodyBytes, 1048576);
    assert.ok(took >= 1500, `1 MiB at 512 KiB/s took only ${took} ms`);
  });

  it('trickles an upload body at uploadBytesPerS', async () => {
    const conn = new HttpConnection({ host: server.host, port: server.port });
    const t0 = performance.now();
    const res = await conn.request({ method: 'POST', path: '/upload', uploadBytes: 256 * 1024, uploadBytesPerS: 256 * 1024, deadlineAt: t0 + 20000 });
    const took = performance.now() - t0;
    conn.destroy();
    assert.equal(res.status, 200);
    assert.equal(res.sentBytes, 256 * 1024);
    assert.ok(took >= 800, `256 KiB at 256 KiB/s took only ${took} ms`);
  });

  it('keeps a connection for the next request; only the first had to connect', async () => {
    const conn = new HttpConnection({ host: server.host, port: server.port });
    const first = await conn.request({ path: '/hello' });
    const connectMs = conn.connectMs;
    const second = await conn.request({ path: '/hello', keepAlive: false });
    conn.destroy();
    assert.deepEqual([first.status, first.keepAlive, second.status, second.keepAlive], [200, true, 200, false]);
    assert.ok(connectMs > 0 && conn.connectMs === connectMs);
  });

  it('one request at a time on a connection', async () => {
    const conn = new HttpConnection({ host: server.host, port: server.port });
    const pending = conn.request({ path: '/hello' });
    assert.throws(() => conn.request({ path: '/hello' }), /^Error: HttpConnection: one request at a time$/);
    assert.equal((await pending).status, 200);
    conn.destroy();
  });
});

describe('http exchange: connections that go wrong', function () {
  this.timeout(10000);
  const servers = [];
  const serve = async (onConnection) => {
    const s = await rawServer(onConnection);
    servers.push(s);
    return s;
  };
  afterEach(() => servers.splice(0).forEach((s) => s.close()));

  it('nobody listening: refused, never connected', async () => {
    const { port, close } = await rawServer(() => {});
    close();
    const conn = new HttpConnection({ host: '127.0.0.1', port });
    const res = await conn.request({ path: '/hello' });
    assert.deepEqual([res.status, res.error.kind, conn.connectMs], [0, 'refused', null]);
  });

  it('the server closes before the reply is complete: reset, with the body bytes that came', async () => {
    const { port } = await serve((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789'));
    const res = await new HttpConnection({ host: '127.0.0.1', port }).request({ path: '/x' });
    assert.deepEqual([res.status, res.bodyBytes, res.keepAlive, res.error.kind], [0, 10, false, 'reset']);
  });

  it('no reply by the deadline: timeout, at the deadline', async () => {
    const { port } = await serve(() => {});
    const t0 = performance.now();
    const res = await new HttpConnection({ host: '127.0.0.1', port }).request({ path: '/x', deadlineAt: t0 + 200 });
    const took = performance.now() - t0;
    assert.equal(res.error.kind, 'timeout');
    assert.ok(took >= 195 && took < 500, `${took} ms`);
  });

  it('a reply the contract rules out ends the exchange as other, and the connection', async () => {
    const { port } = await serve((socket) => socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n'));
    const conn = new HttpConnection({ host: '127.0.0.1', port });
    const res = await conn.request({ path: '/x' });
    assert.deepEqual([res.error.kind, res.error.message], ['other', 'chunked reply (the contract promises Content-Length)']);
    await conn.closedPromise;
    assert.equal(conn.closed, true);
  });

  it('a request on a connection already closed: reset, at once', async () => {
    const { port } = await serve((socket) => socket.end());
    const conn = new HttpConnection({ host: '127.0.0.1', port });
    await conn.closedPromise;
    const res = await conn.request({ path: '/x' });
    assert.deepEqual([res.status, res.error], [0, { kind: 'reset', message: 'connection already closed' }]);
  });

  it('abort: the request in flight ends with the kind the engine gives (a slow transfer cut)', async () => {
    const { port } = await serve((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\nxyz'));
    const conn = new HttpConnection({ host: '127.0.0.1', port });
    const pending = conn.request({ path: '/x' });
    await once(conn.socket, () => conn.current && conn.current.parser.bodyBytes === 3);
    conn.abort('cut', 'slow-client window closed');
    const res = await pending;
    assert.deepEqual([res.status, res.bodyBytes, res.error], [0, 3, { kind: 'cut', message: 'slow-client window closed' }]);
  });

  it('an upload body: as long as asked, the payload repeated past its 1 MiB', async () => {
    const size = 1536 * 1024;
    const uploads = [];
    const { port } = await serve((socket, received) => {
      uploads.push(received);
      // The reply once the whole body is in.
      once(socket, () => received().length >= received().indexOf('\r\n\r\n') + 4 + size).then(() => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'));
    });
    const conn = new HttpConnection({ host: '127.0.0.1', port });
    const res = await conn.request({ method: 'POST', path: '/upload', uploadBytes: size });
    conn.destroy();
    assert.deepEqual([res.status, res.sentBytes], [200, size]);
    const data = uploads[0]();
    const body = data.subarray(data.indexOf('\r\n\r\n') + 4);
    const payload = payloadSource();
    const expected = Buffer.concat([payload, payload.subarray(0, size - payload.length)]);
    assert.equal(crypto.createHash('sha256').update(body).digest('hex'), crypto.createHash('sha256').update(expected).digest('hex'));
  });

  it('closeGracefully: waits for the peer to close, and no longer than the deadline', async () => {
    const { port: closing } = await serve((socket) => socket.on('end', () => socket.end()));
    const polite = new HttpConnection({ host: '127.0.0.1', port: closing });
    await new Promise((resolve) => polite.socket.once('connect', resolve));
    await polite.closeGracefully(5000);
    assert.equal(polite.closed, true);
    const { port: holding } = await serve(() => {}); // never closes its side
    const stuck = new HttpConnection({ host: '127.0.0.1', port: holding });
    const t0 = performance.now();
    await stuck.closeGracefully(300);
    const took = performance.now() - t0;
    assert.equal(stuck.closed, true);
    assert.ok(took >= 290 && took < 800, `${took} ms`);
  });
});
