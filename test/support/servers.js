'use strict';
// Starts the project servers once per test file, the way the README runs them.

const { startServer } = require('../../perf/lib/hosts/server_process');

const SERVER_NAMES = ['node', 'em', 'async'];

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

/**
 * Resolves once the server has printed a line matching `pattern` (stdout or stderr); rejects
 * after timeoutMs. A line the server wrote may reach us after the socket event that caused it.
 */
function waitForOutput(server, pattern, timeoutMs = 3000) {
  return new Promise((resolve, reject) => {
    const streams = [server.child.stdout, server.child.stderr];
    const check = () => {
      if (!pattern.test(server.output())) return;
      finish();
      resolve();
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`the server printed nothing matching ${pattern} within ${timeoutMs} ms: ${server.output()}`));
    }, timeoutMs);
    function finish() {
      clearTimeout(timer);
      for (const stream of streams) stream.off('data', onData);
    }
    // The server's own data listener runs first (registered at start), so output() is current.
    const onData = () => setImmediate(check);
    for (const stream of streams) stream.on('data', onData);
    check();
  });
}

module.exports = { SERVER_NAMES, useServers, waitForOutput };
