'use strict';
// Both servers against what a hostile or broken client does beyond malformed requests: escapes
// that are not UTF-8, pipelining without reading, slow reading, bodies that stall or trickle,
// a connection cap filled with stalled uploads, settings the servers cannot honour alike. Each
// case holds on both servers; short limits keep the tests quick.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const { spawnSync, spawn } = require('node:child_process');
const { exchange, request, openWith, untilClosed } = require('../support/raw_http');
const { SERVER_NAMES, startCommand, useServers } = require('../support/servers');
const { startServer } = require('../../perf/lib/hosts/server_process');
const contract = require('../../contract.json');

const LIMITS = { HEADERS_TIMEOUT_MS: '1000', BODY_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2500' };
const MAX_UNSENT_BYTES = contract.limits.MAX_UNSENT_BYTES;

const procStatusKb = (pid, field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

async function assertServes(server) {
  const { replies } = await exchange(server.port, request('GET', '/hello'), { timeoutMs: 3000 });
  assert.equal(replies[0].status, 200);
}

describe('hostile clients, on both servers', function () {
  this.timeout(40000);
  const servers = useServers({ env: LIMITS });

  for (const name of SERVER_NAMES) {
    describe(name, () => {
      it('answers 400 to /delay escapes that are not UTF-8, and goes on serving', async () => {
        for (const ms of ['%FF', '%80', '%C3', '1%FF', '%FF%FE', '%C3%28']) {
          const { replies } = await exchange(servers[name].port, request('GET', `/delay?ms=${ms}`));
          assert.equal(replies[0].status, 400, ms);
        }
        await assertServes(servers[name]);
        assert.equal(servers[name].child.exitCode, null, 'the server exited');
      });

      it('keeps memory bounded when 1000 pipelined 1 MiB requests are never read, twice over', async () => {
        const { pid } = servers[name];
        const before = procStatusKb(pid, 'VmRSS');
        const burst = request('GET', '/data/random-1m.bin').repeat(1000);
        const hogs = await Promise.all([openWith(servers[name].port, burst), openWith(servers[name].port, burst)]);
        hogs.forEach((s) => s.pause());
        try {
          // A normal client is served meanwhile, and by then both bursts have been read.
          await assertServes(servers[name]);
          await assertServes(servers[name]);
          const after = procStatusKb(pid, 'VmRSS');
          // Before back-pressure EventMachine copied every reply: +1 GB per connection.
          assert.ok(after - before < 64 * 1024, `RSS grew from ${before} kB to ${after} kB`);
        } finally {
          hogs.forEach((s) => s.destroy());
        }
      });

      it('answers 10000 pipelined requests in order to a client that reads', async () => {
        const count = 10000;
        const burst = Array.from({ length: count }, (_, i) => request('GET', i % 2 ? '/hello' : '/nothing')).join('');
        const { replies } = await exchange(servers[name].port, burst, { count, timeoutMs: 20000 });
        assert.equal(replies.length, count);
        assert.ok(replies.every((r, i) => r.status === (i % 2 ? 200 : 404)), 'replies out of order');
      });

      it('answers 408 and closes when a body stops arriving', async () => {
        const socket = await openWith(servers[name].port, request('POST', '/upload', { 'Content-Length': 100 }, 'hello'));
        const text = await untilClosed(socket);
        assert.match(text, /^HTTP\/1\.1 408 /);
        await assertServes(servers[name]);
      });

      it('answers 100 Continue, then 408 and a close, when the promised body never comes', async () => {
        const socket = await openWith(servers[name].port, request('POST', '/upload', { 'Content-Length': 100, Expect: '100-continue' }));
        const text = await untilClosed(socket);
        assert.match(text, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 408 /);
      });

      it('answers 408 to a body trickled too slowly to finish within REQUEST_TIMEOUT_MS', async () => {
        const bodyBytes = 100;
        const socket = await openWith(servers[name].port, request('POST', '/upload', { 'Content-Length': bodyBytes }));
        let sent = 0;
        // One byte every 100 ms keeps the body moving (BODY_TIMEOUT_MS is 1000) but needs 10 s.
        const trickle = setInterval(() => {
          if (sent < bodyBytes && !socket.destroyed) {
            socket.write('x');
            sent += 1;
          }
        }, 100);
        try {
          const text = await untilClosed(socket);
          assert.match(text, /^HTTP\/1\.1 408 /);
          assert.ok(sent < bodyBytes, 'the whole body was sent before the timeout');
        } finally {
          clearInterval(trickle);
        }
      });
    });
  }
});

/** The exit of a command run to its end: { status, stderr }. */
function finished(command, args, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { timeout: timeoutMs });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

/** slowhttptest's slow read against a fresh server of `name`: its peak memory stays bounded. */
async function slowReadKeepsMemoryBounded(name) {
  const server = await startServer(name);
  try {
    const before = procStatusKb(server.pid, 'VmRSS');
    fs.writeFileSync(`/proc/${server.pid}/clear_refs`, '5'); // resets the peak (VmHWM)
    const connections = 300;
    const attack = await finished(
      'slowhttptest',
      ['-X', '-c', String(connections), '-r', '300', '-l', '4', '-w', '10', '-y', '20', '-n', '1', '-z', '32', '-k', '3', '-p', '3', '-u', `${server.url}/data/random-1m.bin`],
      30000,
    );
    assert.equal(attack.status, 0, attack.stderr);
    const peak = procStatusKb(server.pid, 'VmHWM');
    // Each connection may cost its unsent replies (MAX_UNSENT_BYTES) and bookkeeping; before
    // back-pressure EventMachine copied each 1 MiB reply whole (about 4× this bound).
    const boundKb = before + (connections * 3 * MAX_UNSENT_BYTES) / 1024 + 64 * 1024;
    assert.ok(peak < boundKb, `peak RSS ${peak} kB, bound ${Math.round(boundKb)} kB (before: ${before} kB)`);
    await assertServes(server);
  } finally {
    await server.stop();
  }
}

/** A fresh server of `name` with its cap filled by stalled uploads: each gets 408, and the cap frees. */
async function stalledUploadsFreeTheCap(name) {
  const server = await startServer(name, { env: { ...LIMITS, MAX_CONNECTIONS: '10' } });
  try {
    const stalled = await Promise.all(Array.from({ length: 10 }, () => openWith(server.port, request('POST', '/upload', { 'Content-Length': 100 }, 'hello'))));
    const closings = stalled.map(untilClosed);
    // Connection 11 is refused while they hold the cap.
    const refused = await exchange(server.port, request('GET', '/hello'), { timeoutMs: 3000 }).catch(() => ({ replies: [] }));
    assert.equal(refused.replies.length, 0, 'a connection past the cap was served');
    const results = await Promise.all(closings);
    for (const text of results) assert.match(text, /^HTTP\/1\.1 408 /);
    await assertServes(server);
  } finally {
    await server.stop();
  }
}

/**
 * Runs check(name) on every server at once in a before hook (each its own fresh server: the
 * test waits for the clients' timing once), and judges each server's outcome in its own test.
 */
function onBothAtOnce(title, check, { skip = () => null } = {}) {
  describe(title, () => {
    const outcomes = {};
    before(function () {
      if (skip()) return;
      for (const name of SERVER_NAMES) {
        outcomes[name] = check(name);
        outcomes[name].catch(() => {}); // judged in the server's own test below
      }
    });
    for (const name of SERVER_NAMES) {
      it(name, function () {
        const why = skip();
        if (why) {
          this.test.title += ` (skipped: ${why})`;
          this.skip();
        }
        return outcomes[name];
      });
    }
  });
}

describe('slow readers and stalled uploads, on both servers', function () {
  this.timeout(60000);
  // scripts/setup.sh --engines installs slowhttptest.
  const noSlowhttptest = () => (spawnSync('slowhttptest', ['-h']).error ? 'slowhttptest is not installed' : null);
  onBothAtOnce('slowhttptest\'s slow read (300 connections) leaves peak memory bounded', slowReadKeepsMemoryBounded, { skip: noSlowhttptest });
  onBothAtOnce('a connection cap filled with stalled uploads frees itself within BODY_TIMEOUT_MS', stalledUploadsFreeTheCap);
});

describe('settings the servers cannot honour alike are refused at start', function () {
  this.timeout(20000);
  const refusals = [
    [{ MAX_HEADER_LINE_BYTES: '10000' }, /MAX_HEADER_LINE_BYTES=10000 is above 8000/],
    [{ MAX_URL_BYTES: '10000' }, /MAX_URL_BYTES=10000 is above 8000/],
    [{ MAX_HEADER_BYTES: '32768' }, /MAX_HEADER_BYTES=32768 is above 16384/],
    [{ MAX_UPLOAD_BYTES: '30000000' }, /MAX_UPLOAD_BYTES=30000000 is above 20971520/],
    [{ REQUEST_TIMEOUT_MS: '500', HEADERS_TIMEOUT_MS: '1000' }, /REQUEST_TIMEOUT_MS=500 must be at least HEADERS_TIMEOUT_MS=1000/],
  ];
  for (const name of SERVER_NAMES) {
    for (const [env, message] of refusals) {
      it(`${name}: ${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')} is one line and exit 2`, async () => {
        const [command, args, runtime] = startCommand(name);
        const child = spawn(command, args, { cwd: `${__dirname}/../..`, env: { ...runtime, ...env } });
        let stderr = '';
        child.stderr.on('data', (c) => {
          stderr += c;
        });
        // A server that accepts the setting starts instead: stopped after a while, and failed.
        const deadline = setTimeout(() => child.kill('SIGKILL'), 8000);
        const code = await new Promise((resolve) => child.on('exit', resolve));
        clearTimeout(deadline);
        assert.equal(code, 2, `the server did not refuse: ${stderr}`);
        assert.match(stderr, message);
        assert.equal(stderr.trim().split('\n').length, 1, stderr);
      });
    }
  }
});

// Odd but legal clients, and more ways to waste a server.
describe('more odd clients, on both servers', function () {
  this.timeout(40000);
  const servers = useServers({ env: LIMITS });

  for (const name of SERVER_NAMES) {
    describe(name, () => {
      it('finishes a reply to a client that half-closes after its request', async () => {
        for (const [target, bytes] of [['/hello', 10], ['/lipsum100k.txt', 102400]]) {
          const socket = net.connect(servers[name].port, '127.0.0.1');
          const received = [];
          socket.on('data', (c) => received.push(c));
          const closed = new Promise((resolve) => socket.on('close', resolve));
          socket.end(request('GET', target)); // a FIN right behind the request
          await closed;
          const text = Buffer.concat(received);
          assert.match(text.toString('latin1', 0, 12), /^HTTP\/1\.1 200/);
          assert.equal(text.length - text.indexOf('\r\n\r\n') - 4, bytes, `${target}: body cut short`);
        }
      });

      it('serves a normal client while one connection holds 2000 pipelined 10 s delays, and lets them go on reset', async () => {
        const hog = await openWith(servers[name].port, request('GET', '/delay?ms=10000').repeat(2000));
        await assertServes(servers[name]);
        hog.resetAndDestroy();
        await assertServes(servers[name]);
      });

      it('takes a header section of 1000 short lines within MAX_HEADER_BYTES', async () => {
        const headers = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`x-${i}`, 'v']));
        const { replies } = await exchange(servers[name].port, request('GET', '/hello', headers));
        assert.equal(replies[0].status, 200);
      });

      it('answers a request, then 400 and a close for the binary noise behind it on the same connection', async () => {
        const noise = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 97 + 13) % 256));
        const result = await exchange(servers[name].port, [request('GET', '/hello'), noise], { count: 2, waitForClose: true });
        assert.deepEqual(result.replies.map((r) => r.status), [200, 400]);
        assert.ok(result.closed);
      });

      it('shrugs off 1000 connections reset at once, some mid-header', async () => {
        for (let round = 0; round < 10; round += 1) {
          const sockets = await Promise.all(Array.from({ length: 100 }, (_, i) => openWith(servers[name].port, i % 2 ? 'GET /hel' : undefined)));
          sockets.forEach((s) => s.resetAndDestroy());
        }
        await assertServes(servers[name]);
      });

      it('takes an upload of exactly MAX_UPLOAD_BYTES, sent as fast as the socket goes', async () => {
        const body = Buffer.alloc(contract.limits.MAX_UPLOAD_BYTES, 7);
        const head = request('POST', '/upload', { 'Content-Length': body.length });
        const { replies } = await exchange(servers[name].port, [head, body], { timeoutMs: 20000 });
        assert.equal(replies[0].status, 200);
        assert.equal(JSON.parse(replies[0].body).bytes, body.length);
      });
    });
  }
});

// A third hostile review. No reply lost or added, whatever follows a request that
// closes; nothing dropped after a request that asks to upgrade.
describe('replies never lost or added, on both servers', function () {
  this.timeout(20000);
  const servers = useServers({ env: LIMITS });

  /** Every byte the server sends until it closes, parsed; writes go out with pauseMs between them. */
  async function untilServerCloses(port, writes, pauseMs = 0) {
    const socket = await openWith(port);
    const received = untilClosed(socket);
    for (const [i, data] of writes.entries()) {
      if (i > 0 && pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      socket.write(data);
    }
    return received;
  }
  const statuses = (text) => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

  for (const name of SERVER_NAMES) {
    describe(name, () => {
      it('answers a /delay with Connection: close, whatever byte follows it at once or 100 ms later, and then closes', async () => {
        const slow = request('GET', '/delay?ms=300', { Connection: 'close' });
        for (const pauseMs of [0, 100]) {
          const text = await untilServerCloses(servers[name].port, [slow, 'x'], pauseMs);
          assert.deepEqual(statuses(text), [200], `${pauseMs} ms: ${text}`);
          assert.ok(text.endsWith('waited 300 ms\n'), text);
        }
        const text = await untilServerCloses(servers[name].port, ['GET /delay?ms=300 HTTP/1.0\r\n\r\n', 'x'], 100);
        assert.deepEqual(statuses(text), [200], `HTTP/1.0: ${text}`);
      });

      it('answers only the first request after a Connection: close one, or after an HTTP/1.0 one', async () => {
        for (const first of [request('GET', '/hello', { Connection: 'close' }), 'GET /hello HTTP/1.0\r\n\r\n']) {
          const text = await untilServerCloses(servers[name].port, [first + request('GET', '/hello')]);
          assert.deepEqual(statuses(text), [200], text);
          assert.ok(text.endsWith('asdfghjkl;'), text);
        }
      });

      it('answers a request that asks to upgrade and closes at once, rather than drop the ten behind it', async () => {
        const upgrade = request('GET', '/hello', { Connection: 'Upgrade', Upgrade: 'websocket' });
        const text = await untilServerCloses(servers[name].port, [upgrade + request('GET', '/hello').repeat(10)]);
        assert.deepEqual(statuses(text), [200]);
        assert.match(text, /\r\nConnection: close\r\n/);
      });

      it('sends a parse error behind a pending /delay after its reply, in order', async () => {
        const text = await untilServerCloses(servers[name].port, [request('GET', '/delay?ms=200') + 'GARBAGE\r\n\r\n']);
        assert.deepEqual(statuses(text), [200, 400], text);
      });

      it('answers a closing reply only, and stays up, when a CONNECT follows it', async () => {
        const text = await untilServerCloses(servers[name].port, [request('PUT', '/hello') + request('CONNECT', '127.0.0.1:443')]);
        assert.deepEqual(statuses(text), [405], text);
        await assertServes(servers[name]);
        assert.equal(servers[name].child.exitCode, null, 'the server exited');
      });

      it('answers 200 to /delay?&ms=1 (an empty pair before ms), not 500', async () => {
        const { replies } = await exchange(servers[name].port, request('GET', '/delay?&ms=1'));
        assert.equal(replies[0].status, 200);
        assert.equal(replies[0].body.toString(), 'waited 1 ms\n');
        assert.doesNotMatch(servers[name].output(), /internal error/);
      });
    });
  }
});
