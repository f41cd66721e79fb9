'use strict';
// Backends for the /upstream and /db tests until perf/lib/hosts/backends.js lands, with its
// interface: startBackends({ upstream, redis, log }) → { upstream, redis, env, stop() }. A real
// redis-server on a free port in a temporary folder, rows world:1..ROWS loaded, and a tiny Node
// upstream answering GET /delay?ms=N with `waited N ms\n` after N ms (the C upstream's reply).
// startRedis and startUpstream start one alone, on a given port, for tests that stop a
// backend and bring it back.

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { findFreePort } = require('../../perf/lib/hosts/server_process');

const ROWS = 10000;
const HOST = '127.0.0.1';

/** Why the backends cannot run here, or null. */
function missingBackends() {
  return spawnSync('sh', ['-c', 'command -v redis-server && command -v redis-cli']).status === 0
    ? null
    : 'redis-server and redis-cli are not installed (apt-get install redis-server)';
}

/** A row's stored value: an integer 1..10000, as TechEmpower's World table holds. */
const rowValue = (id) => 1 + ((id * 7919) % 10000);

/** Resolves once redis-server says it is ready; rejects if it exits first. */
async function startRedis(port, { load = true } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'em-vs-node-redis-'));
  const child = spawn('redis-server', ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output.slice(-300)}`)));
  });
  if (load) {
    // One MSET of every row through redis-cli's standard input (-x: the last argument).
    const pairs = [];
    for (let id = 1; id <= ROWS; id += 1) pairs.push(`world:${id}`, String(rowValue(id)));
    const loaded = spawnSync('redis-cli', ['-h', HOST, '-p', String(port), 'MSET', ...pairs], { encoding: 'utf8' });
    if (loaded.stdout.trim() !== 'OK') throw new Error(`loading redis failed: ${loaded.stdout}${loaded.stderr}`);
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { host: HOST, port, pid: child.pid, stop };
}

/** The tiny upstream: GET /delay?ms=N → 200 `waited N ms\n` after N ms; anything else 404. */
async function startUpstream(port) {
  const server = http.createServer((req, res) => {
    const match = /^\/delay\?ms=(\d+)$/.exec(req.url);
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    const body = `waited ${Number(match[1])} ms\n`;
    const timer = setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length }).end(body), Number(match[1]));
    res.once('close', () => clearTimeout(timer));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, resolve);
  });
  const stop = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { host: HOST, port, pid: process.pid, server, stop };
}

async function startBackends({ upstream = true, redis = true, log = () => {} } = {}) {
  const started = {
    upstream: upstream ? await startUpstream(await findFreePort()) : null,
    redis: redis ? await startRedis(await findFreePort()) : null,
  };
  const env = {};
  if (started.upstream) env.UPSTREAM = `${HOST}:${started.upstream.port}`;
  if (started.redis) env.REDIS = `${HOST}:${started.redis.port}`;
  log(`backends: ${JSON.stringify(env)}`);
  return {
    ...started,
    env,
    stop: async () => {
      await Promise.all(Object.values(started).filter(Boolean).map((backend) => backend.stop()));
    },
  };
}

module.exports = { startBackends, startRedis, startUpstream, missingBackends, rowValue, ROWS };
