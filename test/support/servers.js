'use strict';
// Starts both project servers once per test file, the way the README runs them.

const { startServer } = require('../../perf/lib/server_process');

const SERVER_NAMES = ['node', 'em'];

/** Mocha hooks that start every server in SERVER_NAMES; returns a map filled in before(). */
function useServers(options = {}) {
  const running = {};
  before(async function startAll() {
    this.timeout(30000);
    await Promise.all(SERVER_NAMES.map(async (name) => {
      running[name] = await startServer(name, options);
    }));
  });
  after(async () => {
    await Promise.all(Object.values(running).map((server) => server.stop()));
  });
  return running;
}

module.exports = { SERVER_NAMES, useServers };
