'use strict';
// The backends behind the servers' /upstream and /db routes (CONTRACT.md, "Backends"):
// the upstream HTTP service (perf/c/upstream.c, libevent, answering GET /delay?ms=N) and a
// Redis server holding TechEmpower's World table (world:1..db_rows). The runner starts the ones
// its scenarios need, each in a fresh directory of its own with its own configuration, on a
// loopback port nobody listens on, never touching a system service; checks them before a run;
// and removes them at the end, on Ctrl-C and on exit. The servers are told where they are
// through UPSTREAM and REDIS (node/config.js, ruby/shared/config.rb). Their pids are kept with each
// server's handle, so that every run measures their CPU beside the server's
// (perf/lib/run/run_one.js), and a run whose backend, not the server, was the limit is not judged.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startServer, findFreePort } = require('./server_process');
const { send } = require('./one_request');
const contract = require('../../../contract.json');
const { PROJECT_ROOT } = require('../project_root');

const HOST = '127.0.0.1';
const UPSTREAM_BINARY = path.join(PROJECT_ROOT, 'perf', 'c', 'build', 'upstream');
const REDIS_CANDIDATES = ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/usr/sbin/redis-server'];
const READY_TIMEOUT_MS = 15000;
// Keys written per MSET while the data set loads.
const LOAD_CHUNK = 1000;

/** Which backend a capability (servers.json `serves`, perf/lib/plan/trial_plan.js) calls. */
const BACKEND_OF_CAPABILITY = { upstream: 'upstream', db: 'redis' };

/** What each backend is, in one line, and how to install it. */
const BACKENDS = {
  upstream: {
    description: 'the upstream HTTP service (perf/c/upstream.c: libevent, GET /delay?ms=N)',
    env: 'UPSTREAM',
    install: 'scripts/setup.sh --backends builds it (needs Debian\'s libevent-dev)',
  },
  redis: {
    description: `Redis (Debian's redis-server), world:1..${contract.backends.db_rows.toLocaleString('en-US')} loaded`,
    env: 'REDIS',
    install: 'scripts/setup.sh --backends installs it (Debian\'s redis-server)',
  },
};

function redisBinary() {
  return REDIS_CANDIDATES.find((file) => fs.existsSync(file)) || null;
}

/** Why a backend cannot run on this machine (one line), or null. */
function missingBackend(name) {
  if (name === 'upstream') return fs.existsSync(UPSTREAM_BINARY) ? null : `the upstream service is not built (${path.relative(PROJECT_ROOT, UPSTREAM_BINARY)}): ${BACKENDS.upstream.install}`;
  if (name === 'redis') return redisBinary() ? null : `redis-server is not installed: ${BACKENDS.redis.install}`;
  throw new Error(`unknown backend '${name}'`);
}

/** The backends that the given capabilities call, in a fixed order. */
function backendsFor(capabilities) {
  const names = new Set(capabilities.map((c) => BACKEND_OF_CAPABILITY[c]).filter(Boolean));
  return Object.keys(BACKENDS).filter((name) => names.has(name));
}

/**
 * The World table's randomNumber of row id (1..db_rows): reproducible (mulberry32 of the id),
 * so that a test can check a reply without asking Redis.
 */
function worldValue(id) {
  let t = (id + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (((t ^ (t >>> 14)) >>> 0) % contract.backends.db_rows) + 1;
}

/** The directories of the backends still running, removed on exit whatever happens. */
const liveDirs = new Set();
let exitHookInstalled = false;
function removeOnExit(dir) {
  liveDirs.add(dir);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => liveDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
}

function redisConfig(port, dir) {
  // Loopback only, nothing saved, no background save nor append-only file: a cache of the
  // run's own data set that leaves nothing behind.
  return `bind ${HOST}
port ${port}
protected-mode yes
daemonize no
dir ${dir}
save ""
appendonly no
logfile ""
loglevel warning
maxclients 10000
`;
}

/** Loads world:1..db_rows and checks a row (the same client library the Node server uses). */
async function loadWorld(port) {
  const { createClient } = require('redis');
  const client = createClient({ socket: { host: HOST, port, reconnectStrategy: false } });
  client.on('error', () => {}); // a failure rejects the command below, with its reason
  await client.connect();
  try {
    const rows = contract.backends.db_rows;
    for (let first = 1; first <= rows; first += LOAD_CHUNK) {
      const pairs = {};
      for (let id = first; id < Math.min(rows + 1, first + LOAD_CHUNK); id++) pairs[`${contract.backends.db_key_prefix}${id}`] = String(worldValue(id));
      await client.mSet(pairs);
    }
    const probe = await client.get(`${contract.backends.db_key_prefix}${rows}`);
    if (probe !== String(worldValue(rows))) throw new Error(`row ${rows} reads '${probe}' after loading`);
    return rows;
  } finally {
    await client.quit().catch(() => {});
  }
}

/** GET /delay?ms=0 on the upstream: its own contract, the bytes the servers pass on. */
async function checkUpstream(port) {
  const res = await send({ host: HOST, port }, { path: '/delay?ms=0', timeoutMs: 5000 });
  const body = res.body.toString('latin1');
  if (res.status !== 200 || body !== 'waited 0 ms\n') throw new Error(`GET /delay?ms=0 answered ${res.status} ${JSON.stringify(body.slice(0, 40))}`);
}

async function startOne(name, dir, { cpu, port: asked, load }) {
  const port = asked || (await findFreePort(HOST));
  if (name === 'upstream') {
    const definitions = { upstream: { command: UPSTREAM_BINARY, args: ['--host', '{host}', '--port', '{port}'], cwd: '.', ready: 'listening on http://' } };
    const handle = await startServer('upstream', { definitions, host: HOST, port, cpu, readyTimeoutMs: READY_TIMEOUT_MS });
    try {
      await checkUpstream(port);
    } catch (err) {
      await handle.stop(1000);
      throw new Error(`the upstream service failed its check: ${err.message}`, { cause: err });
    }
    return handle;
  }
  const conf = path.join(dir, 'redis.conf');
  fs.writeFileSync(conf, redisConfig(port, dir));
  const definitions = { redis: { command: redisBinary(), args: [conf], cwd: '.', ready: { port: true } } };
  const handle = await startServer('redis', { definitions, host: HOST, port, cpu, readyTimeoutMs: READY_TIMEOUT_MS });
  try {
    if (load) await loadWorld(port);
  } catch (err) {
    await handle.stop(1000);
    throw new Error(`redis-server did not take the data set: ${err.message}`, { cause: err });
  }
  return handle;
}

/**
 * Starts the named backends ('upstream', 'redis') in a fresh directory, pinned to `cpu` when
 * given (the load generator's: the servers' core stays the servers'), loads and checks them.
 * Resolves { dir, processes: [{ name, pid, host, port }], env: { UPSTREAM, REDIS }, environment
 * (what results.json records), stop() } ; rejects with a one-line message (and leaves nothing
 * running, nothing on disk) when one cannot start. log(line): progress. For the tests: ports
 * ({ name: port }, default a free one each: a backend brought back where it was) and load
 * (false: Redis left empty).
 */
async function startBackends(names, { cpu = null, log = () => {}, ports = {}, load = true } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'em-vs-node-backends.'));
  removeOnExit(dir);
  const handles = [];
  const stop = async () => {
    for (const h of handles.splice(0)) await h.handle.stop(2000);
    fs.rmSync(dir, { recursive: true, force: true });
    liveDirs.delete(dir);
  };
  log(`backends: ${names.join(', ')}, in ${dir}`);
  try {
    for (const name of names) {
      const missing = missingBackend(name);
      if (missing) throw new Error(missing);
      log(`backend: starting ${BACKENDS[name].description}`);
      const handle = await startOne(name, dir, { cpu, port: ports[name], load });
      handles.push({ name, handle });
      log(`backend: ${name} pid ${handle.pid} on ${HOST}:${handle.port}, checked`);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const processes = handles.map(({ name, handle }) => ({ name, pid: handle.pid, host: HOST, port: handle.port }));
  const env = Object.fromEntries(processes.map((p) => [BACKENDS[p.name].env, `${p.host}:${p.port}`]));
  const environment = { dir, cpu, backends: processes.map((p) => ({ ...p, description: BACKENDS[p.name].description })) };
  return { dir, processes, env, environment, stop, exited: () => handles.find((h) => h.handle.child.exitCode !== null || h.handle.child.signalCode !== null)?.name || null };
}

module.exports = { startBackends, missingBackend, backendsFor, worldValue, BACKENDS, BACKEND_OF_CAPABILITY };
