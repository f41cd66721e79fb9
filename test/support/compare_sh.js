'use strict';
// scripts/compare.sh run as a user runs it, for the tests of what it compares and prints.

const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { PROJECT_ROOT } = require('../../perf/lib/hosts/server_process');

const COMPARE = path.join(PROJECT_ROOT, 'scripts', 'compare.sh');

/** compare.sh with args, from cwd: spawnSync's { status, stdout, stderr }. */
function compare(args, cwd = PROJECT_ROOT) {
  return spawnSync('bash', [COMPARE, ...args], { cwd, encoding: 'utf8', timeout: 30000 });
}

module.exports = { compare };
