'use strict';
// The project's root folder, from which every stage finds the files it reads and writes
// (perf/servers.json, contract.json, perf/results/, .runtimes/…): one home, which every stage
// may import, as it imports nothing itself.

const path = require('node:path');

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

module.exports = { PROJECT_ROOT };
