'use strict';
// Starts a server described as data (perf/servers.json) as a child process, waits until it is
// ready (its ready line, or with "ready": {"port": true} its port accepting connections), and
// stops it. Every wait has a deadline, so a server that never comes up or
// never goes down cannot hang its caller.

const { spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');
const { RuntimeEventsFile } = require('../measure/runtime_events');
const { runtimeOf, runtimeEnv, unavailable } = require('./runtimes');
const contract = require('../../../contract.json');
const { PROJECT_ROOT } = require('../project_root');

const SERVERS_FILE = path.join(PROJECT_ROOT, 'perf', 'servers.json');

// Every server child still running, so an exiting caller can make sure none is orphaned.
const liveChildren = new Set();

/** Sends signal to every server started here that is still running (synchronous; for exit paths). */
function killLiveServers(signal = 'SIGKILL') {
  for (const child of liveChildren) {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

function loadServerDefinitions(file = SERVERS_FILE) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

// The kernel's range of ephemeral ports: every outgoing connection's source port comes from it.
const EPHEMERAL_RANGE_FILE = '/proc/sys/net/ipv4/ip_local_port_range';
// Where a server's port is drawn from otherwise: registered ports, above the well-known ones.
const LOWEST_PORT = 10000;
const PORT_TRIES = 50;

/** The kernel's ephemeral range [low, high], or null where it cannot be read. */
function ephemeralRange(file = EPHEMERAL_RANGE_FILE) {
  try {
    const [low, high] = fs.readFileSync(file, 'utf8').trim().split(/\s+/).map(Number);
    return Number.isInteger(low) && Number.isInteger(high) ? [low, high] : null;
  } catch {
    return null;
  }
}

/** Whether host:port can be listened on now (resolves the port, or null when it is taken). */
function tryListen(host, port) {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', (err) => (err.code === 'EADDRINUSE' || err.code === 'EACCES' ? resolve(null) : reject(err)));
    probe.listen(port, host, () => {
      const bound = probe.address().port;
      probe.close(() => resolve(bound));
    });
  });
}

/**
 * A port nobody listens on, for a server to bind. Drawn at random below the kernel's ephemeral
 * range: a port the kernel hands out (listen on port 0) is free only until the server binds it,
 * and on a machine under load the next outgoing connection may take it as its source port (a
 * server of npm test's two-at-a-time lane once failed its start on "Address already in use"
 * beside another file's load). Below the range only another process choosing the same port at
 * the same moment can take it. The kernel's choice where no port there is free or the range
 * cannot be read.
 */
async function findFreePort(host = '127.0.0.1', random = Math.random) {
  const range = ephemeralRange();
  if (range && range[0] > LOWEST_PORT) {
    for (let i = 0; i < PORT_TRIES; i++) {
      const port = await tryListen(host, LOWEST_PORT + Math.floor(random() * (range[0] - LOWEST_PORT)));
      if (port !== null) return port;
    }
  }
  return tryListen(host, 0);
}

/** One TCP connect attempt; resolves true when it connected. */
function tryConnect(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls host:port every 25 ms until it accepts a connection (true) or stop() says so (false). */
async function waitForPort(host, port, stop) {
  while (!stop()) {
    if (await tryConnect(host, port)) return !stop();
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

function substitute(value, vars) {
  return value.replace(/\{(\w+)\}/g, (whole, key) => (key in vars ? String(vars[key]) : whole));
}

// What both project servers print, at most every 10 s, while they close new connections at
// their cap (the open-files limit less fd_reserve, or MAX_CONNECTIONS; CONTRACT.md, "Limits").
const CONNECTION_CAP_LINE = 'connections open, the limit';

/**
 * Starts one server. Resolves once it printed its ready line (or, for "ready": {"port": true},
 * once its port accepts a connection), with
 * { name, pid, host, port, url, child, exited, output(), stop() }.
 * Rejects with a one-line message when it exits or stays silent past readyTimeoutMs.
 */
async function startServer(name, options = {}) {
  const definitions = options.definitions || loadServerDefinitions();
  const def = definitions[name];
  if (!def) {
    throw new Error(`unknown server '${name}' (known: ${Object.keys(definitions).join(', ')})`);
  }
  // The runtime it runs on (perf/runtimes.json): its commands first on PATH, its variables.
  const runtime = def.runtime ? runtimeOf(def.runtime) : null;
  const why = runtime && unavailable(runtime);
  if (why) throw new Error(`server '${name}' cannot start: ${why}`);
  const host = options.host || '127.0.0.1';
  const port = options.port || (await findFreePort(host));
  const vars = { host, port, root: options.root || path.join(PROJECT_ROOT, 'shared_www') };
  let command = def.command;
  let args = def.args.map((a) => substitute(a, vars));
  if (options.root) args.push('--root', options.root);
  if (options.prefix) {
    // A command that execs the server (ip netns exec NS …), so its pid is still the server's.
    args = [...options.prefix.slice(1), command, ...args];
    command = options.prefix[0];
  }
  if (options.cpu !== undefined && options.cpu !== null) {
    // taskset execs the server, so the child's pid is the server's pid.
    args = ['-c', String(options.cpu), command, ...args];
    command = 'taskset';
  }
  // The runtime's events (GC, loop stalls), written by the project's servers where asked
  // (perf/lib/measure/runtime_events.js); a server that writes none has none.
  const eventsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-events-'));
  const eventsFile = path.join(eventsDir, `${name}.events`);
  const child = spawn(command, args, {
    cwd: path.resolve(PROJECT_ROOT, def.cwd || '.'),
    // A definition may turn them off ("env": { "RUNTIME_EVENTS_FILE": "" }: what they cost, measured).
    env: { ...(runtime ? runtimeEnv(runtime) : process.env), [contract.runtime_events.env]: eventsFile, ...(def.env || {}), ...(options.env || {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  liveChildren.add(child);
  const forget = () => {
    liveChildren.delete(child);
    fs.rmSync(eventsDir, { recursive: true, force: true });
  };
  child.once('exit', forget);
  child.once('error', forget);

  const outputTail = [];
  let capWarnings = 0;
  const remember = (chunk) => {
    if (chunk.includes(CONNECTION_CAP_LINE)) capWarnings += 1;
    outputTail.push(chunk.toString());
    while (outputTail.length > 50) outputTail.shift();
  };
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (err) => resolve({ code: null, signal: null, error: err }));
  });
  const output = () => outputTail.join('').trim();

  const readyTimeoutMs = options.readyTimeoutMs || 15000;
  const byPort = def.ready !== null && typeof def.ready === 'object' && def.ready.port === true;
  const ready = new Promise((resolve, reject) => {
    let stdoutBuffer = '';
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      reject(new Error(byPort ? `server '${name}' did not accept connections on ${host}:${port} within ${readyTimeoutMs} ms` : `server '${name}' printed no ready line ('${def.ready}') within ${readyTimeoutMs} ms`));
    }, readyTimeoutMs);
    child.stdout.on('data', (chunk) => {
      remember(chunk);
      if (byPort) return;
      stdoutBuffer += chunk.toString();
      if (stdoutBuffer.includes(def.ready)) {
        clearTimeout(timer);
        resolve();
      }
      if (stdoutBuffer.length > 65536) stdoutBuffer = stdoutBuffer.slice(-4096);
    });
    child.stderr.on('data', remember);
    if (byPort) {
      // A server that prints no ready line (nginx): ready once its port accepts a connection.
      waitForPort(host, port, () => settled || child.exitCode !== null || child.signalCode !== null).then((up) => {
        if (!up) return;
        settled = true;
        clearTimeout(timer);
        resolve();
      });
    }
    exited.then(({ code, signal, error }) => {
      settled = true;
      clearTimeout(timer);
      const why = error ? error.message : signal ? `signal ${signal}` : `exit code ${code}`;
      const last = output().split('\n').filter(Boolean).slice(-1)[0] || '';
      reject(new Error(`server '${name}' exited before it was ready (${why})${last ? `: ${last}` : ''}`));
    });
  });

  const handle = {
    name,
    pid: child.pid,
    host,
    port,
    url: `http://${host}:${port}`,
    child,
    exited,
    output,
    /** Its runtime's events (GC, loop stalls), read window by window. */
    runtimeEvents: new RuntimeEventsFile(eventsFile),
    /** How many times it has said it reached its connection cap (CONNECTION_CAP_LINE). */
    capWarnings: () => capWarnings,
    /** SIGTERM, then SIGKILL after graceMs; resolves when the process is gone. */
    async stop(graceMs = 3000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(killer);
      return result;
    },
  };

  try {
    await ready;
  } catch (err) {
    await handle.stop(500);
    throw err;
  }
  return handle;
}

/**
 * A server that is already running elsewhere (--target): the same shape as startServer's
 * handle, with no process to measure, watch or stop.
 */
function remoteServer(name, url) {
  const { hostname, port } = new URL(url);
  return {
    name,
    pid: null,
    host: hostname,
    port: Number(port),
    url: `http://${hostname}:${port}`,
    child: null,
    exited: new Promise(() => {}),
    output: () => '',
    runtimeEvents: null,
    capWarnings: () => 0,
    stop: async () => null,
  };
}

module.exports = { remoteServer, startServer, findFreePort, ephemeralRange, loadServerDefinitions, killLiveServers };
