'use strict';
// Shared helpers of the runner's tests (test/perf_*.test.js).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { startServer } = require('../../perf/lib/hosts/server_process');
const { normalizeScenario } = require('../../perf/lib/plan/scenarios');
const { PROJECT_ROOT } = require('../../perf/lib/project_root');
const { loadResults } = require('../../perf/lib/store/results_doc');
const { judgeResults } = require('../../perf/lib/judge/judged');

const STANDIN = path.join(__dirname, 'standin_server.js');

/** Server definitions (perf/servers.json format) for stand-in servers: { name: env }. */
function standinDefinitions(variants) {
  const defs = {};
  for (const [name, env] of Object.entries(variants)) {
    defs[name] = {
      description: `stand-in server (${name})`,
      command: process.execPath,
      args: [STANDIN, '--host', '{host}', '--port', '{port}'],
      cwd: '.',
      env,
      ready: 'listening on http://',
    };
  }
  return defs;
}

/** Starts one stand-in server with the given env; resolves the startServer handle. */
function startStandin(env = {}) {
  return startServer('standin', { definitions: standinDefinitions({ standin: env }), readyTimeoutMs: 10000 });
}

/**
 * One stand-in server for the mocha block this is called in: started before its tests, stopped
 * after them. Returns its handle, filled in once it has started (host, port, pid, stop …).
 */
function useStandin() {
  const server = {};
  before(async () => {
    Object.assign(server, await startStandin());
  });
  after(() => server.stop && server.stop());
  return server;
}

/**
 * For tests that each start their own stand-in (with their own knobs): returns start(env), which
 * starts it and resolves its handle; the stand-in is stopped after each test, whatever its outcome.
 */
function standinEachTest() {
  let handle = null;
  afterEach(async () => {
    if (handle) await handle.stop(3000);
    handle = null;
  });
  return async (env) => {
    handle = await startStandin(env);
    return handle;
  };
}

/** The request most engine tests send: GET /hello, nothing else. */
const HELLO = { method: 'GET', path: '/hello', headers: {}, upload_bytes: null };

/** A Samples' rows as objects, in the order they were recorded. */
const rowsOf = (samples) => Array.from({ length: samples.length }, (_, i) => samples.row(i));

// Every folder makeTmpDir makes goes when the process that made it ends (a mocha worker, or the
// suite), so that runs of the suite leave nothing behind in the system's temporary folder;
// KEEP_TEST_DIRS=1 keeps them, to read after a failure.
const madeDirs = [];
process.on('exit', () => {
  if (process.env.KEEP_TEST_DIRS) return;
  for (const dir of madeDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new folder in the system's temporary folder, removed when the process ends. */
function makeTmpDir(prefix = 'perf-test-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  madeDirs.push(dir);
  return dir;
}

/** Writes scenario files { name: object } into a new directory; returns it. */
function writeScenarioDir(scenarios) {
  const dir = makeTmpDir('perf-scenarios-');
  for (const [name, body] of Object.entries(scenarios)) fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(body));
  return dir;
}

/**
 * A scenarios folder (--scenarios-dir) holding the project's own scenarios by name, each with
 * its --quick values overridden ({ sequential_6000: { requests: 200 } }): the same scenario,
 * smaller, for a test whose subject is what the runner does with it, not its size.
 */
function smallerScenarioDir(quickOverrides) {
  return writeScenarioDir(Object.fromEntries(Object.entries(quickOverrides).map(([name, quick]) => {
    const raw = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'perf', 'scenarios', `${name}.json`), 'utf8'));
    return [name, { ...raw, quick: { ...raw.quick, ...quick } }];
  })));
}

/**
 * Starts a command from the project root and watches its output: waitFor('stdout' | 'stderr',
 * regex) resolves once the output so far matches (rejects if it exits first); exited resolves
 * { code, signal, stdout, stderr }.
 */
function watchCommand(command, args) {
  const child = spawn(command, args, { cwd: PROJECT_ROOT });
  const output = { stdout: '', stderr: '' };
  let waiters = [];
  let closed = false;
  const settle = () => {
    waiters = waiters.filter((w) => {
      if (w.re.test(output[w.stream])) w.resolve();
      else if (closed) w.reject(new Error(`exited before its ${w.stream} matched ${w.re}:\n${output.stdout}${output.stderr}`));
      else return true;
      return false;
    });
  };
  for (const stream of ['stdout', 'stderr']) {
    child[stream].on('data', (chunk) => {
      output[stream] += chunk;
      settle();
    });
  }
  const exited = new Promise((resolve) =>
    child.once('close', (code, signal) => {
      closed = true;
      settle();
      resolve({ code, signal, ...output });
    }),
  );
  const waitFor = (stream, re) =>
    new Promise((resolve, reject) => {
      waiters.push({ stream, re, resolve, reject });
      settle();
    });
  return { child, waitFor, exited };
}

/** True while a process with this pid runs (a zombie waiting to be reaped does not). */
function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Mounts a tmpfs of sizeKb on a new temporary directory (read-only with readOnly), so that
 * tests can meet a full or read-only disk for real. Returns { dir, unmount } or, when this
 * process may not mount (not root, no CAP_SYS_ADMIN), { skip: reason }.
 */
function mountTmpfs(sizeKb, { readOnly = false } = {}) {
  if (process.getuid() !== 0) return { skip: 'mounting a tmpfs needs root' };
  // Not removed at exit with the others: unmount() removes it, and only once nothing is mounted there.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perf-tmpfs-'));
  const mount = (args) => spawnSync('mount', args, { encoding: 'utf8' });
  let res = mount(['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir]);
  if (res.status === 0 && readOnly) res = mount(['-o', 'remount,ro', dir]);
  const unmount = () => {
    spawnSync('umount', [dir]);
    fs.rmdirSync(dir); // fails, rather than deleting what is inside, when still mounted
  };
  if (res.status !== 0) {
    unmount();
    return { skip: `cannot mount a tmpfs here: ${(res.stderr || res.error?.message || '').trim()}` };
  }
  return { dir, unmount };
}

/**
 * Runs a command from the project root with a deadline (SIGTERM at timeoutMs); resolves
 * { code, stdout, stderr } when it exits.
 */
function runCommand(command, args, { env = {}, timeoutMs = 150000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A scenario as the runner normalizes it, named `name` (its file's name too). */
/** A results folder as a reader reads it: its results.json decoded and judged once (perf/lib/judge/judged.js). */
const judgedOf = (dir) => judgeResults(loadResults(dir));

const namedScenario = (name, raw) => normalizeScenario({ description: name, ...raw }, name, name);

// Forty requests over four keep-alive connections, after a warm-up of 0.3 s: a run's record in a second.
const TINY_SCENARIO = namedScenario('tiny', { kind: 'closed', concurrency: 4, requests: 40, warmup_s: 0.3 });

/** What the runner keeps of a server while its scenarios run (perf/lib/run/runner.js), for runOne's serverState. */
function watchServer(handle) {
  const serverState = { exit: null, diedDuring: null, hung: null, abortRun: null, current: null };
  handle.exited.then((info) => {
    serverState.exit = info;
    if (serverState.abortRun) serverState.abortRun();
  });
  return serverState;
}

module.exports = { judgedOf, namedScenario, TINY_SCENARIO, watchServer, runCommand, watchCommand, standinDefinitions, startStandin, useStandin, standinEachTest, HELLO, rowsOf, makeTmpDir, writeScenarioDir, smallerScenarioDir, alive, mountTmpfs, STANDIN };
