'use strict';
// /upstream and /db on every server (node, em, async), against real backends: a real redis-server and
// a real upstream HTTP server, on real sockets. With both up the servers give the same
// bytes; with a backend down, unconfigured, hung, or restarted, they give the same 502/503 and
// come back; a client that leaves while its request waits on a backend costs nothing. Skipped,
// saying why, where redis-server is not installed.

const assert = require('node:assert/strict');
const http = require('node:http');
const { spawn, spawnSync } = require('node:child_process');
const { exchange, request, openWith } = require('../support/raw_http');
const { SERVER_NAMES, startCommand, useServers } = require('../support/servers');
const { startServer, findFreePort } = require('../../perf/lib/hosts/server_process');
const { startBackends: startNamed, missingBackend } = require('../../perf/lib/hosts/backends');
const contract = require('../../contract.json');

const POOL = contract.backends.upstream_pool;
const ROWS = contract.backends.db_rows;
// A short backend deadline where a test waits for it (the contract's default is 2000 ms).
const SHORT_TIMEOUT_MS = 300;

/** The stored value of a row, asked of Redis itself (so the test holds whatever was loaded). */
const stored = new Map();
/** Why the backends cannot run here (scripts/setup.sh --backends installs them), or null. */
const missingBackends = () => ['upstream', 'redis'].map(missingBackend).filter(Boolean).join('; ') || null;

/** Both backends, as the runner starts them: { upstream, redis (each { host, port, pid }), env, stop() }. */
async function startBackends() {
  const started = await startNamed(['upstream', 'redis']);
  const [upstream, redis] = started.processes;
  return { upstream, redis, env: started.env, stop: started.stop };
}

/** One backend alone on a given port (to stop it and bring it back there): { host, port, pid, stop() }. */
async function startOne(name, port, options = {}) {
  const started = await startNamed([name], { ports: { [name]: port }, ...options });
  return { ...started.processes[0], stop: started.stop };
}
const startUpstream = (port) => startOne('upstream', port);
const startRedis = (port, { load = true } = {}) => startOne('redis', port, { load });

function storedValue(redis, id) {
  const key = `${redis.port}:${id}`;
  if (!stored.has(key)) stored.set(key, askRedis(redis, id));
  return stored.get(key);
}

function askRedis(redis, id) {
  const got = spawnSync('redis-cli', ['-h', redis.host, '-p', String(redis.port), 'GET', `${contract.backends.db_key_prefix}${id}`], { encoding: 'utf8' });
  return got.stdout.trim();
}

/** One exchange on each server; { node: result, em: result, async: result } and each one's time in ms. */
async function onBoth(servers, send, options) {
  const results = {};
  await Promise.all(SERVER_NAMES.map(async (name) => {
    const started = process.hrtime.bigint();
    results[name] = await exchange(servers[name].port, send, options);
    results[name].ms = Number(process.hrtime.bigint() - started) / 1e6;
  }));
  return results;
}

/** Every server gave the first one's statuses, header names and body bytes, and closed alike. */
function assertSame(results) {
  const [first, ...others] = SERVER_NAMES;
  const a = results[first];
  for (const name of others) {
    const b = results[name];
    const which = `${first} and ${name}`;
    assert.deepEqual(b.replies.map((r) => r.status), a.replies.map((r) => r.status), `${which} differ in status`);
    a.replies.forEach((reply, i) => {
      assert.deepEqual(Object.keys(b.replies[i].headers).sort(), Object.keys(reply.headers).sort(), `${which} differ in header names`);
      assert.ok(b.replies[i].body.equals(reply.body), `${which} differ in body: ${reply.body} / ${b.replies[i].body}`);
    });
    assert.equal(b.closed, a.closed, `${which} differ in closing the connection`);
  }
}

/** { port: the connections established to it from this machine } for each of ports, one ss call. */
function connectionsTo(ports) {
  const counts = Object.fromEntries(ports.map((port) => [port, 0]));
  for (const line of spawnSync('ss', ['-Htn', 'state', 'established'], { encoding: 'utf8' }).stdout.split('\n')) {
    const peer = line.trim().split(/\s+/)[3];
    const port = peer && Number(peer.slice(peer.lastIndexOf(':') + 1));
    if (port in counts) counts[port] += 1;
  }
  return counts;
}

/** Each server's replies, checked by expect(replies, result, name). */
function forEach(results, expect) {
  for (const name of SERVER_NAMES) {
    try {
      expect(results[name].replies, results[name], name);
    } catch (err) {
      err.message = `${name}: ${err.message}`;
      throw err;
    }
  }
}

/**
 * An upstream that counts its connections (open now, the most at once, all) and requests, and
 * answers as `mode` says: 'answer' (/delay?ms=N after N ms), 'hang' (never), 'first-only' (the
 * first request of each connection; a later one resets it: a stale keep-alive connection),
 * 'reset' (every request resets its connection), 'not-found' (404). onRequest(req) is told of each request.
 * gather: 'answer' holds its first replies until that many requests wait at once, so that whether
 * a server's pool grows to its size does not depend on how soon a busy machine lets the server
 * read the requests (with 100 ms replies, one read late by 100 ms found a connection free again).
 */
async function countingUpstream(mode = 'answer', { gather = 0 } = {}) {
  const state = { open: 0, peak: 0, connections: 0, requests: 0, onRequest: () => {} };
  const served = new WeakMap();
  let held = gather > 0 ? [] : null;
  const server = http.createServer((req, res) => {
    state.requests += 1;
    state.onRequest(req);
    const count = (served.get(req.socket) || 0) + 1;
    served.set(req.socket, count);
    if (mode === 'hang') return;
    if (mode === 'not-found') {
      res.writeHead(404, { 'Content-Length': 10 }).end('Not Found\n');
      return;
    }
    if (mode === 'reset' || (mode === 'first-only' && count > 1)) {
      req.socket.destroy();
      return;
    }
    const ms = Number(/ms=(\d+)/.exec(req.url)?.[1] ?? 0);
    const body = `waited ${ms} ms\n`;
    const answer = () => {
      const timer = setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length }).end(body), ms);
      res.once('close', () => clearTimeout(timer));
    };
    if (!held) {
      answer();
      return;
    }
    held.push(answer);
    if (held.length < gather) return;
    const waiting = held;
    held = null;
    waiting.forEach((reply) => reply());
  });
  server.on('connection', (socket) => {
    state.open += 1;
    state.connections += 1;
    state.peak = Math.max(state.peak, state.open);
    socket.once('close', () => {
      state.open -= 1;
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.address = `127.0.0.1:${server.address().port}`;
  state.stop = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return state;
}

/** Starts both servers, each with its own env (a map by name, or one for both). */
async function startBoth(envs) {
  const running = {};
  await Promise.all(SERVER_NAMES.map(async (name) => {
    running[name] = await startServer(name, { env: envs[name] || envs });
  }));
  return running;
}

const stopAll = (running) => Promise.all(Object.values(running).map((server) => server.stop()));

/** Resolves once check() holds, or after deadlineMs (the caller asserts again). */
async function until(check, deadlineMs) {
  const deadline = Date.now() + deadlineMs;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Polls a request on every server until each answers `status`, within deadlineMs; the last results. */
async function untilStatus(servers, target, status, deadlineMs = 5000) {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const results = await onBoth(servers, request('GET', target));
    if (SERVER_NAMES.every((name) => results[name].replies[0]?.status === status) || Date.now() > deadline) return results;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the backend routes, /upstream and /db, on every server', function () {
  this.timeout(60000);
  const skip = missingBackends();
  before(function () {
    if (!skip) return;
    console.log(`    skipped: ${skip}`);
    this.skip();
  });

  describe('with Redis and the upstream up', () => {
    const options = { env: {} };
    let backends;
    before(async function () {
      if (skip) this.skip();
      backends = await startBackends();
      Object.assign(options.env, backends.env);
    });
    const servers = useServers(options);
    after(() => backends?.stop());

    const TABLE = [
      { target: '/upstream?ms=0', status: 200, body: () => 'waited 0 ms\n', type: 'text/plain; charset=utf-8' },
      { target: '/upstream?ms=7', status: 200, body: () => 'waited 7 ms\n', type: 'text/plain; charset=utf-8' },
      { target: '/upstream?a=b&ms=00012', status: 200, body: () => 'waited 12 ms\n', type: 'text/plain; charset=utf-8' },
      { target: '/db?id=1', status: 200, body: () => `{"id":1,"randomNumber":${storedValue(backends.redis, 1)}}`, type: 'application/json' },
      { target: `/db?id=${ROWS}`, status: 200, body: () => `{"id":${ROWS},"randomNumber":${storedValue(backends.redis, ROWS)}}`, type: 'application/json' },
      { target: '/db?id=00042&id=7', status: 200, body: () => `{"id":42,"randomNumber":${storedValue(backends.redis, 42)}}`, type: 'application/json' },
      { target: '/upstream?ms=abc', status: 400 },
      { target: '/upstream', status: 400 },
      { target: `/upstream?ms=${contract.delay_max_ms + 1}`, status: 400 },
      { target: '/db?id=0', status: 400 },
      { target: `/db?id=${ROWS + 1}`, status: 400 },
      { target: '/db?id=x', status: 400 },
      { target: '/db?id=', status: 400 },
      { target: '/db?id=%FF', status: 400 },
      { target: '/db?id=-1', status: 400 },
    ];
    for (const row of TABLE) {
      it(`GET ${row.target} is ${row.status}, alike on every server`, async () => {
        const results = await onBoth(servers, request('GET', row.target), { waitForClose: row.status === 400 });
        forEach(results, ([reply], result) => {
          assert.equal(reply.status, row.status);
          if (row.status === 200) {
            assert.equal(reply.headers['content-type'], row.type);
            assert.equal(reply.body.toString(), row.body());
            assert.equal(reply.headers.connection, 'keep-alive');
          } else {
            assert.equal(reply.body.toString(), 'Bad Request\n');
            assert.ok(result.closed, 'a 400 closes the connection');
          }
        });
        assertSame(results);
      });
    }

    it('/upstream?ms=5 gives the bytes of /delay?ms=5', async () => {
      const upstream = await onBoth(servers, request('GET', '/upstream?ms=5'));
      const delay = await onBoth(servers, request('GET', '/delay?ms=5'));
      for (const name of SERVER_NAMES) {
        const [a, b] = [upstream[name].replies[0], delay[name].replies[0]];
        assert.equal(a.status, 200);
        assert.ok(a.body.equals(b.body), `${name}: ${a.body} / ${b.body}`);
        assert.equal(a.headers['content-type'], b.headers['content-type']);
        assert.deepEqual(Object.keys(a.headers).sort(), Object.keys(b.headers).sort());
      }
    });

    it('/db without an id answers a real row', async () => {
      const results = await onBoth(servers, request('GET', '/db') + request('GET', '/db?ms=3'), { count: 2 });
      forEach(results, (replies) => {
        for (const reply of replies) {
          assert.equal(reply.status, 200);
          const row = JSON.parse(reply.body);
          assert.deepEqual(Object.keys(row), ['id', 'randomNumber']);
          assert.ok(Number.isInteger(row.id) && row.id >= 1 && row.id <= ROWS, `id ${row.id}`);
          assert.equal(String(row.randomNumber), storedValue(backends.redis, row.id));
        }
      });
    });

    it('HEAD gives the length and no body, and the connection goes on', async () => {
      const send = request('HEAD', '/upstream?ms=3') + request('HEAD', '/db?id=9') + request('GET', '/hello');
      const results = await onBoth(servers, send, { count: 3, headFlags: [true, true] });
      forEach(results, (replies, result) => {
        assert.deepEqual(replies.map((r) => r.status), [200, 200, 200]);
        assert.equal(replies[0].headers['content-length'], '12');
        assert.equal(Number(replies[1].headers['content-length']), `{"id":9,"randomNumber":${storedValue(backends.redis, 9)}}`.length);
        assert.equal(replies[0].body.length + replies[1].body.length, 0);
        assert.equal(replies[2].body.toString(), 'asdfghjkl;', 'a HEAD reply carried a body');
        assert.equal(result.extra.length, 0);
      });
      assertSame(results);
    });

    it('pipelined requests are answered in order, a slow backend call first', async () => {
      const send = request('GET', '/upstream?ms=50') + request('GET', '/hello') + request('GET', '/db?id=2') + request('GET', '/upstream?ms=1');
      const results = await onBoth(servers, send, { count: 4 });
      forEach(results, (replies) => {
        assert.deepEqual(replies.map((r) => r.body.toString()), [
          'waited 50 ms\n', 'asdfghjkl;', `{"id":2,"randomNumber":${storedValue(backends.redis, 2)}}`, 'waited 1 ms\n',
        ]);
      });
      assertSame(results);
    });

    it(`answers 200 requests at once over 200 connections, more than the pool (${POOL})`, async () => {
      for (const name of SERVER_NAMES) {
        const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => exchange(
          servers[name].port,
          request('GET', i % 2 ? `/upstream?ms=${20 + (i % 7)}` : `/db?id=${1 + i}`),
          { timeoutMs: 10000 },
        )));
        replies.forEach(({ replies: [reply] }, i) => {
          assert.equal(reply?.status, 200, `${name}: request ${i}`);
          const want = i % 2 ? `waited ${20 + (i % 7)} ms\n` : `{"id":${1 + i},"randomNumber":${storedValue(backends.redis, 1 + i)}}`;
          assert.equal(reply.body.toString(), want, `${name}: request ${i}`);
        });
      }
    });
  });

  describe('the upstream pool', () => {
    let upstreams;
    let servers;
    afterEach(async () => {
      if (servers) await stopAll(servers);
      if (upstreams) await Promise.all(Object.values(upstreams).map((u) => u.stop()));
      servers = null;
      upstreams = null;
    });

    /** A counting upstream per server, in `mode` (with `options`), and both servers on them. */
    async function start(mode, env = {}, options = {}) {
      upstreams = {};
      for (const name of SERVER_NAMES) upstreams[name] = await countingUpstream(mode, options);
      servers = await startBoth(Object.fromEntries(SERVER_NAMES.map((name) => [name, { UPSTREAM: upstreams[name].address, ...env }])));
    }

    it(`holds at most ${POOL} connections, reused, for 200 requests at once`, async function () {
      if (skip) this.skip();
      await start('answer', {}, { gather: POOL });
      for (const name of SERVER_NAMES) {
        const results = await Promise.all(Array.from({ length: 200 }, () => exchange(servers[name].port, request('GET', '/upstream?ms=100'), { timeoutMs: 10000 })));
        assert.ok(results.every((r) => r.replies[0]?.status === 200), `${name}: not every request was answered 200`);
        const seen = upstreams[name];
        assert.equal(seen.requests, 200, `${name}: upstream requests`);
        assert.equal(seen.peak, POOL, `${name}: the most connections open at once`);
        assert.equal(seen.connections, POOL, `${name}: connections opened (each reused, none opened again)`);
      }
    });

    it('retries once, on a fresh connection, a request that failed on a stale idle one', async function () {
      if (skip) this.skip();
      // The upstream answers only the first request of each connection: each reused idle
      // connection fails before any reply, as a keep-alive connection closed under us does.
      await start('first-only');
      for (const name of SERVER_NAMES) {
        for (let i = 0; i < 3; i += 1) {
          const { replies: [reply] } = await exchange(servers[name].port, request('GET', '/upstream?ms=1'));
          assert.equal(reply.status, 200, `${name}: request ${i}`);
          assert.equal(reply.body.toString(), 'waited 1 ms\n');
        }
        // The first on a fresh connection; each later one on a stale one, then a fresh one.
        assert.equal(upstreams[name].requests, 5, `${name}: upstream requests`);
        assert.equal(upstreams[name].connections, 3, `${name}: connections`);
      }
    });

    it('does not retry a request that failed on a fresh connection: 502', async function () {
      if (skip) this.skip();
      await start('reset');
      for (const name of SERVER_NAMES) {
        const { replies: [reply] } = await exchange(servers[name].port, request('GET', '/upstream?ms=1'));
        assert.equal(reply.status, 502, name);
        assert.equal(reply.body.toString(), 'Bad Gateway\n');
        assert.equal(upstreams[name].requests, 1, `${name}: upstream requests`);
      }
    });

    it('an upstream that answers another status than 200: 502, and its connection is reused', async function () {
      if (skip) this.skip();
      await start('not-found');
      // One after another, so that each call can take the connection the one before left idle.
      for (const [method, target] of [['GET', '/upstream?ms=1'], ['HEAD', '/upstream?ms=2'], ['GET', '/upstream?ms=3']]) {
        const results = await onBoth(servers, request(method, target), { headFlags: [method === 'HEAD'] });
        forEach(results, ([reply]) => {
          assert.equal(reply.status, 502);
          assert.equal(reply.body.toString(), method === 'HEAD' ? '' : 'Bad Gateway\n');
          assert.equal(reply.headers.connection, 'keep-alive');
        });
        assertSame(results);
      }
      for (const name of SERVER_NAMES) {
        assert.equal(upstreams[name].requests, 3, name);
        assert.equal(upstreams[name].connections, 1, `${name}: a 404's connection was not reused`);
      }
    });

    it(`an upstream that accepts and never answers: 502 after BACKEND_TIMEOUT_MS (${SHORT_TIMEOUT_MS} ms here)`, async function () {
      if (skip) this.skip();
      await start('hang', { BACKEND_TIMEOUT_MS: String(SHORT_TIMEOUT_MS) });
      const send = request('GET', '/upstream?ms=1') + request('GET', '/hello');
      const results = await onBoth(servers, send, { count: 2 });
      forEach(results, (replies, result) => {
        assert.deepEqual(replies.map((r) => r.status), [502, 200]);
        assert.equal(replies[0].body.toString(), 'Bad Gateway\n');
        assert.equal(replies[0].headers.connection, 'keep-alive', 'a 502 keeps the connection');
        assert.ok(result.ms >= SHORT_TIMEOUT_MS - 5 && result.ms < SHORT_TIMEOUT_MS + 1500, `answered after ${result.ms} ms`);
      });
      assertSame(results);
      // The hung connection was given up, not kept: a second call opens another.
      await onBoth(servers, request('GET', '/upstream?ms=1'));
      for (const name of SERVER_NAMES) {
        assert.equal(upstreams[name].connections, 2, `${name}: connections`);
        // The server closed it before it answered 502; the upstream hears of it a moment later.
        await until(() => upstreams[name].open === 0, 1000);
        assert.equal(upstreams[name].open, 0, `${name}: a timed-out connection is still open`);
      }
    });

    it('keeps the idle timeout off while a reply waits on the upstream', async function () {
      if (skip) this.skip();
      // The idle timeout is 0.5 s; the upstream takes 1.5 s. Both servers close an idle
      // connection within two idle timeouts, so a reply not sent by then would be lost.
      await start('answer', { KEEPALIVE_TIMEOUT_MS: '500' });
      const results = await onBoth(servers, request('GET', '/upstream?ms=1500') + request('GET', '/hello'), { count: 2 });
      forEach(results, (replies) => assert.deepEqual(replies.map((r) => r.body.toString()), ['waited 1500 ms\n', 'asdfghjkl;']));
    });

    it('a client that leaves while its request waits on the upstream costs nothing', async function () {
      if (skip) this.skip();
      await start('answer');
      for (const name of SERVER_NAMES) {
        // Ten clients, each with three pipelined calls, closed once the upstream has the first.
        for (let i = 0; i < 10; i += 1) {
          const arrived = new Promise((resolve) => {
            upstreams[name].onRequest = resolve;
          });
          const socket = await openWith(servers[name].port, request('GET', '/upstream?ms=200') + request('GET', '/upstream?ms=1') + request('GET', '/hello'));
          await arrived;
          socket.destroy();
        }
        upstreams[name].onRequest = () => {};
        const results = await exchange(servers[name].port, request('GET', '/upstream?ms=250') + request('GET', '/hello'), { count: 2 });
        assert.deepEqual(results.replies.map((r) => r.body.toString()), ['waited 250 ms\n', 'asdfghjkl;'], name);
        assert.equal(servers[name].child.exitCode, null, `${name} exited`);
        assert.doesNotMatch(servers[name].output(), /error/i, `${name} said: ${servers[name].output()}`);
      }
    });
  });

  describe('the Redis connections a server opens', () => {
    // CONTRACT.md, "Backends": node-redis and em-hiredis pipeline every command on one
    // connection; async-redis sends one command at a time on a connection, over a pool of at most
    // db_pool.
    const REDIS_CONNECTIONS = { node: 1, em: 1, async: contract.backends.db_pool, async_http: contract.backends.db_pool };
    const BURST = 200;
    const WAIT_MS = 20000;
    const OVERSHOOT_WATCH_MS = 500;
    let servers;
    let redises;
    afterEach(async () => {
      for (const redis of Object.values(redises || {})) process.kill(redis.pid, 'SIGCONT');
      if (servers) await stopAll(servers);
      await Promise.all(Object.values(redises || {}).map((redis) => redis.stop()));
      servers = null;
      redises = null;
    });

    it(`${BURST} /db requests at once while Redis is stopped: node and em wait on their one connection, async opens its pool's ${contract.backends.db_pool}; all answered when Redis goes on`, async function () {
      if (skip) this.skip();
      redises = {};
      for (const name of SERVER_NAMES) redises[name] = await startRedis(await findFreePort());
      // The calls' deadline raised so that a host busy with the other lane's servers (async took
      // over a second to open 44 of its 64 there) is waited for, not failed.
      servers = await startBoth(Object.fromEntries(SERVER_NAMES.map((name) => [name, { REDIS: `127.0.0.1:${redises[name].port}`, BACKEND_TIMEOUT_MS: String(WAIT_MS) }])));
      await untilStatus(servers, '/db?id=1', 200);
      for (const name of SERVER_NAMES) process.kill(redises[name].pid, 'SIGSTOP');
      // A stopped Redis still gets its connections (the kernel completes them into its accept
      // queue), so a server opens what it will while its calls wait.
      const bursts = SERVER_NAMES.map((name) => Promise.all(Array.from({ length: BURST }, (_, i) => exchange(servers[name].port, request('GET', `/db?id=${i + 1}`), { timeoutMs: 2 * WAIT_MS }))));
      // The most connections each server had open at once while its calls waited.
      const most = Object.fromEntries(SERVER_NAMES.map((name) => [name, 0]));
      const look = () => {
        const now = connectionsTo(SERVER_NAMES.map((name) => redises[name].port));
        for (const name of SERVER_NAMES) most[name] = Math.max(most[name], now[redises[name].port]);
        return SERVER_NAMES.every((name) => most[name] >= REDIS_CONNECTIONS[name]);
      };
      await until(look, WAIT_MS / 2);
      // Watched a while longer (still far within the calls' deadline): a pool that overshoots its
      // limit (async-pool's default opened 127 for 64) passes through it on the way up.
      const watchUntil = Date.now() + OVERSHOOT_WATCH_MS;
      while (Date.now() < watchUntil) {
        look();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      for (const name of SERVER_NAMES) process.kill(redises[name].pid, 'SIGCONT');
      const results = await Promise.all(bursts);
      SERVER_NAMES.forEach((name, i) => {
        assert.deepEqual(results[i].map((r) => r.replies[0]?.status).filter((status) => status !== 200), [], `${name}: not every request was answered 200`);
        assert.equal(most[name], REDIS_CONNECTIONS[name], `${name}: the most connections to Redis at once while its calls waited`);
      });
    });
  });

  describe('with the backends down', () => {
    let servers;
    afterEach(async () => {
      if (servers) await stopAll(servers);
      servers = null;
    });

    const DOWN = [
      { target: '/upstream?ms=1', status: 502, text: 'Bad Gateway\n' },
      { target: '/db?id=1', status: 503, text: 'Service Unavailable\n' },
      { target: '/db', status: 503, text: 'Service Unavailable\n' },
    ];

    /** Each DOWN target, GET and HEAD on one connection: the error, at once, the connection kept. */
    async function checkDown() {
      for (const { target, status, text } of DOWN) {
        const send = request('GET', target) + request('HEAD', target) + request('GET', '/hello');
        const results = await onBoth(servers, send, { count: 3, headFlags: [false, true] });
        forEach(results, (replies, result) => {
          assert.deepEqual(replies.map((r) => r.status), [status, status, 200], target);
          assert.equal(replies[0].body.toString(), text);
          assert.equal(replies[0].headers['content-type'], 'text/plain; charset=utf-8');
          assert.equal(replies[1].body.length, 0);
          assert.equal(replies[1].headers['content-length'], String(text.length));
          assert.ok(replies.slice(0, 2).every((r) => r.headers.connection === 'keep-alive'), 'a 502/503 keeps the connection');
          // Promptly: a refused connection is no reason to wait out BACKEND_TIMEOUT_MS.
          assert.ok(result.ms < contract.limits.BACKEND_TIMEOUT_MS / 2, `${target} took ${result.ms} ms`);
        });
        assertSame(results);
      }
    }

    it('not configured: 502 and 503 at once, alike on every server', async function () {
      if (skip) this.skip();
      servers = await startBoth({ UPSTREAM: '', REDIS: '' });
      await checkDown();
    });

    it('configured where nothing listens: 502 and 503 at once, alike on every server', async function () {
      if (skip) this.skip();
      const [upstreamPort, redisPort] = [await findFreePort(), await findFreePort()];
      servers = await startBoth({ UPSTREAM: `127.0.0.1:${upstreamPort}`, REDIS: `127.0.0.1:${redisPort}` });
      await checkDown();
    });

    it('a backend stopped and started again: the routes fail, then recover', async function () {
      if (skip) this.skip();
      const [upstreamPort, redisPort] = [await findFreePort(), await findFreePort()];
      let upstream = await startUpstream(upstreamPort);
      let redis = await startRedis(redisPort);
      try {
        servers = await startBoth({ UPSTREAM: `127.0.0.1:${upstreamPort}`, REDIS: `127.0.0.1:${redisPort}` });
        const up = [['/upstream?ms=2', 'waited 2 ms\n'], ['/db?id=3', `{"id":3,"randomNumber":${storedValue(redis, 3)}}`]];
        for (const [target, body] of up) {
          const results = await untilStatus(servers, target, 200);
          forEach(results, ([reply]) => assert.equal(reply.body.toString(), body));
        }
        await upstream.stop();
        await redis.stop();
        await checkDown();
        upstream = await startUpstream(upstreamPort);
        redis = await startRedis(redisPort);
        for (const [target, body] of up) {
          const results = await untilStatus(servers, target, 200);
          forEach(results, ([reply]) => assert.equal(reply.body.toString(), body, `${target} did not recover`));
          assertSame(results);
        }
      } finally {
        await upstream.stop();
        await redis.stop();
      }
    });

    it('a row Redis does not have, or whose value is no integer: 503', async function () {
      if (skip) this.skip();
      const redis = await startRedis(await findFreePort(), { load: false });
      try {
        const set = (key, value) => spawnSync('redis-cli', ['-h', redis.host, '-p', String(redis.port), 'SET', key, value], { encoding: 'utf8' }).stdout.trim();
        assert.equal(set(`${contract.backends.db_key_prefix}2`, 'abc'), 'OK');
        assert.equal(set(`${contract.backends.db_key_prefix}3`, '77'), 'OK');
        servers = await startBoth({ REDIS: `127.0.0.1:${redis.port}` });
        const found = await untilStatus(servers, '/db?id=3', 200);
        forEach(found, ([reply]) => assert.equal(reply.body.toString(), '{"id":3,"randomNumber":77}'));
        const results = await onBoth(servers, request('GET', '/db?id=1') + request('GET', '/db?id=2') + request('GET', '/db?id=3'), { count: 3 });
        forEach(results, (replies) => {
          assert.deepEqual(replies.map((r) => r.status), [503, 503, 200]);
          assert.equal(replies[0].body.toString(), 'Service Unavailable\n');
        });
        assertSame(results);
      } finally {
        await redis.stop();
      }
    });

    it(`a Redis that hangs: 503 after BACKEND_TIMEOUT_MS (${SHORT_TIMEOUT_MS} ms here), and back when it answers`, async function () {
      if (skip) this.skip();
      const redis = await startRedis(await findFreePort());
      try {
        servers = await startBoth({ REDIS: `127.0.0.1:${redis.port}`, BACKEND_TIMEOUT_MS: String(SHORT_TIMEOUT_MS) });
        await untilStatus(servers, '/db?id=4', 200);
        process.kill(redis.pid, 'SIGSTOP');
        // A client that leaves while its call waits on the hung Redis, and one that waits it out.
        const leaving = await Promise.all(SERVER_NAMES.map((name) => openWith(servers[name].port, request('GET', '/db?id=5'))));
        const results = await onBoth(servers, request('GET', '/db?id=4') + request('GET', '/hello'), { count: 2 });
        for (const socket of leaving) socket.destroy();
        forEach(results, (replies, result) => {
          assert.deepEqual(replies.map((r) => r.status), [503, 200]);
          assert.ok(result.ms >= SHORT_TIMEOUT_MS - 5 && result.ms < SHORT_TIMEOUT_MS + 1500, `answered after ${result.ms} ms`);
        });
        assertSame(results);
        process.kill(redis.pid, 'SIGCONT');
        const back = await untilStatus(servers, '/db?id=4', 200);
        forEach(back, ([reply]) => assert.equal(reply.body.toString(), `{"id":4,"randomNumber":${storedValue(redis, 4)}}`));
        for (const name of SERVER_NAMES) assert.equal(servers[name].child.exitCode, null, `${name} exited`);
      } finally {
        try {
          process.kill(redis.pid, 'SIGCONT');
        } catch {
          // already gone
        }
        await redis.stop();
      }
    });
  });
});

describe('backend addresses the servers cannot read are refused at start, alike', function () {
  this.timeout(20000);
  const refusals = [
    [{ UPSTREAM: 'nope' }, [], "upstream must be HOST:PORT with a port 1..65535, got 'nope'"],
    [{ UPSTREAM: '127.0.0.1:0' }, [], "upstream must be HOST:PORT with a port 1..65535, got '127.0.0.1:0'"],
    [{ UPSTREAM: 'a b:80' }, [], "upstream must be HOST:PORT with a port 1..65535, got 'a b:80'"],
    [{ REDIS: '127.0.0.1:65536' }, [], "redis must be HOST:PORT with a port 1..65535, got '127.0.0.1:65536'"],
    [{ REDIS: ':6379' }, [], "redis must be HOST:PORT with a port 1..65535, got ':6379'"],
    [{}, ['--redis', '[::1]'], "redis must be HOST:PORT with a port 1..65535, got '[::1]'"],
    [{ UPSTREAM: '127.0.0.1:1' }, ['--upstream', 'x:y'], "upstream must be HOST:PORT with a port 1..65535, got 'x:y'"],
    [{ BACKEND_TIMEOUT_MS: '0' }, [], "BACKEND_TIMEOUT_MS must be a positive integer, got '0'"],
  ];
  for (const [env, args, message] of refusals) {
    const said = {};
    for (const name of SERVER_NAMES) {
      it(`${name}: ${[...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...args].join(' ')} is one line and exit 2`, async () => {
        const [command, commandArgs, runtime] = startCommand(name);
        const child = spawn(command, [...commandArgs, '--port', '1', ...args], { cwd: `${__dirname}/../..`, env: { ...runtime, ...env } });
        let stderr = '';
        child.stderr.on('data', (c) => {
          stderr += c;
        });
        // A server that accepts the setting tries to start instead, on port 1 (so that it
        // never takes a port another server uses): it then fails with another code, or is
        // stopped after a while, and the test fails.
        const deadline = setTimeout(() => child.kill('SIGKILL'), 8000);
        const code = await new Promise((resolve) => child.on('exit', resolve));
        clearTimeout(deadline);
        assert.equal(code, 2, `the server did not refuse: ${stderr}`);
        assert.equal(stderr.trim().split('\n').length, 1, stderr);
        assert.equal(stderr.trim(), `${name} server: ${message}`);
        said[name] = stderr.trim().replace(/^\w+ server: /, '');
        if (Object.keys(said).length === SERVER_NAMES.length) for (const other of SERVER_NAMES) assert.equal(said[other], said[SERVER_NAMES[0]]);
      });
    }
  }
});
