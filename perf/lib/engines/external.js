'use strict';
// What the external load generators (httperf, wrk) share: finding the binary (or saying in one
// line how to install it), spawning it on the load generator's CPU with taskset, a hard stop
// when the run is abandoned (and when this process exits), and its CPU time measured from its
// own process, not the runner's.
//
// CPU of the engine: /proc/<child pid>/stat (utime + stime, all its threads) is polled while
// it runs; once it has exited and been reaped, its final times are in this process's
// cutime/cstime (/proc/self/stat fields 16 and 17: CPU of waited-for children), so the delta of
// those across the run is exact (10 ms ticks). The larger of the two readings is used: the
// delta counts every child reaped during the run, and during a run the engine is the only one
// (a server that exits mid-run fails the run anyway).

const fs = require('node:fs');
const path = require('node:path');
const { spawn, execFileSync } = require('node:child_process');
const { performance } = require('node:perf_hooks');
const { readCpu, clkTck } = require('../measure/proc_stats');
const { allowedCpus } = require('../hosts/pinning');
const { round3 } = require('../measure/stats');

const MAX_OUTPUT = 1 << 20; // engines print a few KiB; keep at most 1 MiB of each stream

/** The engine's binary is missing: the message is one line saying how to install it. */
class EngineUnavailable extends Error {}

// Every engine child still running, so that no load generator outlives this process.
const liveChildren = new Set();
let exitHookInstalled = false;

/** Kills an engine at once: its whole process group when it has one of its own. */
function killEngine(child) {
  try {
    if (child.ownGroup) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    // already gone
  }
}

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => liveChildren.forEach(killEngine));
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** First executable `name` on PATH, or null. */
function whichSync(name, envPath = process.env.PATH || '') {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    if (isExecutable(file)) return file;
  }
  return null;
}

/**
 * The binary of an engine: $<ENV_VAR> when set (it must exist), else `name` on PATH.
 * Throws EngineUnavailable with a one-line message naming the Debian package.
 */
function findBinary({ name, envVar, debianPackage = name, env = process.env }) {
  const how = `install it with: apt-get install ${debianPackage} (or scripts/setup.sh --engines)`;
  const override = env[envVar];
  if (override) {
    if (isExecutable(override)) return override;
    throw new EngineUnavailable(`${name} not found at ${override} (from $${envVar}); ${how}, or point $${envVar} at it`);
  }
  const found = whichSync(name, env.PATH || '');
  if (!found) throw new EngineUnavailable(`${name} is not installed (not on PATH); ${how}`);
  return found;
}

/** The Debian package version of a tool (e.g. "0.9.0-9+b2"), or null. Cached. */
const versionCache = new Map();
function debianVersion(pkg) {
  if (!versionCache.has(pkg)) {
    let v;
    try {
      v = execFileSync('dpkg-query', ['-W', '-f', '${Version}', pkg], { encoding: 'utf8', timeout: 3000, stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
    } catch {
      v = null;
    }
    versionCache.set(pkg, v);
  }
  return versionCache.get(pkg);
}

/** argv as one shell-pasteable line. */
function shellQuote(argv) {
  return argv.map((a) => (/^[A-Za-z0-9_./:=,@%+-]+$/.test(a) ? a : `'${String(a).replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** { children_s } of this process: CPU seconds of its waited-for children (cutime + cstime). */
function readChildrenCpu() {
  try {
    const text = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); cutime is field 16, cstime field 17.
    const cutime = Number(fields[13]);
    const cstime = Number(fields[14]);
    if (!Number.isFinite(cutime) || !Number.isFinite(cstime)) return null;
    return { user_s: cutime / clkTck(), system_s: cstime / clkTck() };
  } catch {
    return null;
  }
}

/** The CPUs the engine runs on: those this process may use (the client CPU when pinned). */
function engineCpus() {
  const cpus = allowedCpus();
  return cpus && cpus.length ? cpus : null;
}

/**
 * Spawns the engine and waits for it. options: { bin, args, signal, cpus (default: this
 * process's CPUs), useTaskset (default true), env, ownGroup (default false: the engine runs
 * in a process group of its own, killed whole; for an engine whose launcher script leaves its
 * real process behind when only the script is killed, as tsung's does), onSpawn (called with
 * the engine's pid once it is started) }.
 * Resolves { stdout, stderr, code, signal, wallMs, cpu: { user_s, system_s }, pid, argv, cpus }.
 * Rejects when it cannot be started, or with err.aborted when `signal` aborted it (it is
 * killed at once: an abandoned run is not recorded).
 */
function runEngineProcess({ bin, args, signal = null, cpus = engineCpus(), useTaskset = true, env = process.env, ownGroup = false, onSpawn = null }) {
  installExitHook();
  const tasksetBin = useTaskset && cpus ? whichSync('taskset', env.PATH || process.env.PATH || '') : null;
  // taskset execs the engine, so the child's pid is the engine's own.
  const argv = tasksetBin ? [tasksetBin, '-c', cpus.join(','), bin, ...args] : [bin, ...args];
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) {
      const err = new Error('aborted before the engine started');
      err.aborted = true;
      reject(err);
      return;
    }
    const childrenBefore = readChildrenCpu();
    const started = performance.now();
    let child;
    try {
      child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env, detached: ownGroup });
      child.ownGroup = ownGroup;
    } catch (err) {
      reject(new Error(`cannot start ${path.basename(bin)}: ${err.message}`, { cause: err }));
      return;
    }
    liveChildren.add(child);
    if (onSpawn && child.pid) onSpawn(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      if (stdout.length < MAX_OUTPUT) stdout += c;
    });
    child.stderr.on('data', (c) => {
      if (stderr.length < MAX_OUTPUT) stderr += c;
    });
    let polled = null;
    const poll = () => {
      const now = readCpu(child.pid);
      if (now) polled = now;
    };
    const poller = setInterval(poll, 100);
    poller.unref();
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      killEngine(child);
    };
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
    let spawnError = null;
    child.once('error', (err) => {
      spawnError = err;
    });
    // 'close': the process has exited (and been reaped) and its output is fully read.
    child.once('close', (code, sig) => {
      const wallMs = performance.now() - started;
      clearInterval(poller);
      liveChildren.delete(child);
      if (signal) signal.removeEventListener('abort', onAbort);
      if (spawnError) {
        reject(new Error(`cannot start ${path.basename(argv[0])}: ${spawnError.message}`, { cause: spawnError }));
        return;
      }
      if (aborted) {
        const err = new Error(`${path.basename(bin)} was stopped (run abandoned)`);
        err.aborted = true;
        err.pid = child.pid;
        reject(err);
        return;
      }
      const childrenAfter = readChildrenCpu();
      const reaped = childrenBefore && childrenAfter ? (childrenAfter.user_s - childrenBefore.user_s) + (childrenAfter.system_s - childrenBefore.system_s) : -1;
      const seen = polled ? polled.user_s + polled.system_s : -1;
      let cpu = null;
      if (reaped >= 0 && reaped >= seen) cpu = { user_s: round3(childrenAfter.user_s - childrenBefore.user_s), system_s: round3(childrenAfter.system_s - childrenBefore.system_s), source: 'reaped' };
      else if (polled) cpu = { user_s: round3(polled.user_s), system_s: round3(polled.system_s), source: 'polled' };
      resolve({ stdout, stderr, code, signal: sig, wallMs, cpu, pid: child.pid, argv, cpus });
    });
    poll();
  });
}

/**
 * The engine's own CPU over its wall time, % of a core (null when unknown): its client_cpu_pct,
 * from which the runner judges whether it was the bottleneck.
 */
function clientCpuPct(cpu, wallMs) {
  if (!cpu || !(wallMs > 0)) return null;
  return round3((((cpu.user_s + cpu.system_s) * 1000) / wallMs) * 100);
}

/** The first line of a tool's complaint (stderr, else stdout), for a one-line failure. */
function firstComplaint(stderr, stdout, skip = []) {
  const lines = `${stderr}\n${stdout}`.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.find((l) => !skip.some((re) => re.test(l))) || '';
}

module.exports = {
  EngineUnavailable,
  findBinary,
  isExecutable,
  whichSync,
  debianVersion,
  shellQuote,
  runEngineProcess,
  clientCpuPct,
  firstComplaint,
};
