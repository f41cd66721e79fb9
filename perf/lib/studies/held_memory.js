'use strict';
// What a held request costs each server, and what holds it. At each of a few counts from none,
// N keep-alive connections each wait on GET /delay (asked again as soon as answered, so that N
// stay held), and a probe loaded into the server (ruby/held_probe.rb, node/held_probe.js) reports its memory after a full
// collection: resident size, its mappings by kind (stacks, heap, the rest), and for Ruby its
// objects by class, fibers and threads; for Node its heap and handles. Per held connection:
// each figure's least-squares slope over the counts (a server's fixed cost falls out).

const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { startServer, loadServerDefinitions } = require('../hosts/server_process');
const { PROJECT_ROOT } = require('../project_root');
const { setTimeout: sleep } = require('node:timers/promises');
const { withRuntimeVariants, RuntimeError } = require('../hosts/runtimes');
const { ensureDescriptors, descriptorsFor } = require('../hosts/fd_limits');
const { readMemory, readMappings, countFds } = require('../measure/proc_stats');
const { leastSquares } = require('../measure/stats');

const DEFAULTS = { counts: [0, 1000, 2000, 4000], waitMs: 5000, readyTimeoutMs: 60000 };
// The most a probe may take to answer: a full collection and a walk of every object, a second or
// two at 4,000 held connections.
const PROBE_TIMEOUT_MS = 30000;
// The rounds of waits a report may be taken again in before the wait is called too short.
const ROUNDS = 3;

/** A mistake in what was asked (an unknown server, a runtime not known): the CLI says it with its usage, exit 2. */
const usageError = (message) => Object.assign(new Error(message), { usage: true });
const PROBES = { ruby: path.join(PROJECT_ROOT, 'ruby', 'held_probe.rb'), node: path.join(PROJECT_ROOT, 'node', 'held_probe.js') };

/**
 * The environment that loads the probe into a server of this definition, after whatever
 * RUBYOPT or NODE_OPTIONS env already gives; throws for a server that runs neither Ruby nor Node.
 */
function probeEnv(name, definition, socketPath, env = {}) {
  const after = (given, option) => [given, option].filter(Boolean).join(' ');
  if (definition.command === 'ruby') return { RUBYOPT: after(env.RUBYOPT, `-r${PROBES.ruby}`), HELD_PROBE_SOCKET: socketPath };
  if (definition.command === 'node') return { NODE_OPTIONS: after(env.NODE_OPTIONS, `--require ${PROBES.node}`), HELD_PROBE_SOCKET: socketPath };
  throw usageError(`server '${name}' runs ${definition.command}, neither Ruby nor Node: the held-memory probe cannot load into it`);
}

/** The probe's report: one line of JSON from the server's Unix socket. */
function askProbe(socketPath) {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = net.connect(socketPath);
    socket.setEncoding('utf8');
    socket.setTimeout(PROBE_TIMEOUT_MS, () => socket.destroy(new Error(`the held-memory probe did not answer within ${PROBE_TIMEOUT_MS / 1000} s`)));
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('end', () => {
      try {
        const facts = JSON.parse(text);
        if (facts.error) reject(new Error(`the held-memory probe failed: ${facts.error}`));
        else resolve(facts);
      } catch (err) {
        reject(new Error(`the held-memory probe answered no JSON (${text.slice(0, 80) || 'nothing'})`, { cause: err }));
      }
    });
    socket.on('error', reject);
  });
}

/**
 * Holds `count` keep-alive connections to url, each with a GET /delay?ms=waitMs outstanding,
 * asking again on each reply; { replies(), everyAnswered(k): each holder answered k times or
 * more, failures(): requests that failed, stop(): closes them all }.
 */
function holdConnections(url, count, waitMs) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: count, maxFreeSockets: count });
  const answered = new Array(count).fill(0);
  let replies = 0;
  let stopped = false;
  let failures = 0;
  const ask = (holder) => {
    if (stopped) return;
    const req = http.get(`${url}/delay?ms=${waitMs}`, { agent }, (res) => {
      res.resume();
      res.on('end', () => {
        answered[holder] += 1;
        replies += 1;
        ask(holder);
      });
    });
    req.on('error', () => {
      if (!stopped) failures += 1;
    });
  };
  for (let holder = 0; holder < count; holder += 1) ask(holder);
  return {
    replies: () => replies,
    everyAnswered: (times) => answered.every((n) => n >= times),
    failures: () => failures,
    stop() {
      stopped = true;
      agent.destroy();
    },
  };
}

/** Least-squares slope of ys over xs (null with fewer than two distinct xs). */
const slope = (xs, ys) => leastSquares(xs.map((x, i) => ({ x, y: ys[i] })))?.slope ?? null;

/** The numeric figures of a probe's report, flattened (mappings_kb.stacks, resources.Timeout, classes as class.<name>.bytes and .count). */
function figuresOf(facts) {
  const out = {};
  for (const [key, value] of Object.entries(facts)) {
    if (typeof value === 'number') out[key] = value;
    else if (key === 'classes') for (const c of value) Object.assign(out, { [`class.${c.name}.bytes`]: c.bytes, [`class.${c.name}.count`]: c.count });
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (typeof v === 'number') out[`${key}.${k}`] = v;
  }
  return out;
}

/**
 * Per held connection, each figure's slope over the points ({ held, facts }); a figure a point
 * lacks (a class not among the largest there) counts as 0 at that point.
 */
function perHeld(points) {
  const figures = points.map((p) => figuresOf(p.facts));
  const names = [...new Set(figures.flatMap((f) => Object.keys(f)))];
  const held = points.map((p) => p.held);
  return Object.fromEntries(names.map((name) => [name, slope(held, figures.map((f) => f[name] ?? 0))]));
}

/** Resolves once check() is true, polling every pollMs; rejects after timeoutMs with why(). */
async function until(check, { timeoutMs, pollMs = 100, why, signal }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (signal?.aborted) throw new Error('interrupted');
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/**
 * One server through every count, started once: { name, runtime, points: [{ held, facts }], per_held }.
 * A count's report is taken half a wait after every connection's request was answered the same
 * number of times (each then read, answered and asked again: the server holds every one), and
 * stands only if no reply came while it was taken; else it is taken again a round later.
 */
async function measureServer(name, { counts, waitMs, env, definitions, log, signal }) {
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'held-probe-'));
  const socketPath = path.join(socketDir, 'probe.sock');
  const server = await startServer(name, { definitions, env: { ...env, ...probeEnv(name, definitions[name], socketPath, env) }, readyTimeoutMs: DEFAULTS.readyTimeoutMs });
  const points = [];
  try {
    await until(() => fs.existsSync(socketPath), { timeoutMs: 10000, why: () => `server '${name}' started without the held-memory probe (its output: ${server.output().split('\n').pop()})`, signal });
    const idleFds = countFds(server.pid);
    for (const held of counts) {
      const hold = holdConnections(server.url, held, waitMs);
      try {
        await until(() => countFds(server.pid) >= idleFds + held, { timeoutMs: 30000, why: () => `server '${name}' did not open ${held} connections within 30 s`, signal });
        const facts = await reportWhileHeld(name, server, socketPath, hold, { held, waitMs, signal });
        if (hold.failures() > 0) throw new Error(`server '${name}' failed ${hold.failures()} of the requests at ${held} held (its output: ${server.output().split('\n').pop()})`);
        points.push({ held, facts });
        log(`${name}: ${held} held, ${facts.rss_kb} kB resident`);
      } finally {
        hold.stop();
      }
      await until(() => countFds(server.pid) <= idleFds, { timeoutMs: 30000, why: () => `server '${name}' kept connections open after the clients left`, signal });
    }
  } finally {
    await server.stop();
    fs.rmSync(socketDir, { recursive: true, force: true });
  }
  return { name, runtime: points[0]?.facts.runtime, points, per_held: perHeld(points) };
}

/**
 * The probe's report, the resident size, descriptors and mappings, taken while every one of the
 * held connections has its request waiting (measureServer says how); throws after ROUNDS rounds
 * in which a reply came while it was taken (a wait too short for the server to be read in time).
 */
async function reportWhileHeld(name, server, socketPath, hold, { held, waitMs, signal }) {
  for (let round = 1; round <= ROUNDS; round += 1) {
    await until(() => hold.everyAnswered(round), { timeoutMs: 2 * waitMs + 30000, why: () => `server '${name}' did not answer each of ${held} held requests ${round} time(s) within ${(2 * waitMs + 30000) / 1000} s`, signal });
    const repliesBefore = hold.replies();
    if (repliesBefore !== round * held) continue; // a connection already in its next round
    await sleep(waitMs / 2, undefined, { signal });
    const facts = { ...(await askProbe(socketPath)), rss_kb: readMemory(server.pid).rss_kb, fds: countFds(server.pid), mappings_kb: readMappings(server.pid) };
    if (hold.replies() === repliesBefore) return facts;
  }
  throw new Error(`server '${name}': in ${ROUNDS} rounds a held request was answered while its memory was read, so not every connection was held then: ask for a longer wait (--wait-ms, now ${waitMs})`);
}

/**
 * The study: each server in turn (one at a time: the counts' connections are this process's),
 * { counts, wait_ms, env, servers: [measureServer's answer] }.
 */
async function runHeldMemory({ servers, counts = DEFAULTS.counts, waitMs = DEFAULTS.waitMs, env = {}, log = () => {}, signal } = {}) {
  let definitions;
  try {
    definitions = withRuntimeVariants(loadServerDefinitions(), servers);
  } catch (err) {
    throw err instanceof RuntimeError ? usageError(err.message) : err;
  }
  const unknown = servers.filter((name) => !definitions[name]);
  if (unknown.length) throw usageError(`unknown server '${unknown[0]}' (known: ${Object.keys(definitions).join(', ')})`);
  for (const name of servers) probeEnv(name, definitions[name], '', env);
  // Each held connection is a descriptor of this process's, and the servers inherit its limit.
  const descriptors = ensureDescriptors(descriptorsFor(Math.max(...counts)));
  if (descriptors.why) throw new Error(`the open-files limit is ${descriptors.soft}, too few for ${Math.max(...counts)} held connections (${descriptors.why}): raise it (ulimit -n), run as root, or ask for fewer (--counts)`);
  const measured = [];
  for (const name of servers) measured.push(await measureServer(name, { counts, waitMs, env, definitions, log, signal }));
  return { counts, wait_ms: waitMs, env, servers: measured };
}

module.exports = { runHeldMemory, perHeld, slope, figuresOf, probeEnv, DEFAULTS };
