'use strict';
// Shared helpers of the runner's tests (test/perf_*.test.js).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startServer, PROJECT_ROOT } = require('../../perf/lib/server_process');

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

function makeTmpDir(prefix = 'perf-test-') {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes scenario files { name: object } into a new directory; returns it. */
function writeScenarioDir(scenarios) {
  const dir = makeTmpDir('perf-scenarios-');
  for (const [name, body] of Object.entries(scenarios)) fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(body));
  return dir;
}

/** True while a process with this pid exists. */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
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

module.exports = { runCommand, standinDefinitions, startStandin, makeTmpDir, writeScenarioDir, alive, STANDIN };
