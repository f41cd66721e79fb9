'use strict';
// scripts/compare.sh run as a user runs it, for the tests of what it compares and prints.

const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { PROJECT_ROOT } = require('../../perf/lib/project_root');

const COMPARE = path.join(PROJECT_ROOT, 'scripts', 'compare.sh');

/** compare.sh with args, from cwd: spawnSync's { status, stdout, stderr }. */
function compare(args, cwd = PROJECT_ROOT) {
  return spawnSync('bash', [COMPARE, ...args], { cwd, encoding: 'utf8', timeout: 30000 });
}

/** compare(args, cwd) without blocking: resolves the same { status, stdout, stderr }, so that several run at once. */
function compareAsync(args, cwd = PROJECT_ROOT) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [COMPARE, ...args], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGTERM'), 30000);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

module.exports = { compare, compareAsync };
