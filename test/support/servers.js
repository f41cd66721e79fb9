'use strict';
// Starts the project servers once per test file, the way the README runs them: on today's
// runtimes (perf/servers.json), or each on another runtime of perf/runtimes.json (em@ruby31).

const { startServer, loadServerDefinitions } = require('../../perf/lib/hosts/server_process');
const { runtimesFile, withRuntimeVariants } = require('../../perf/lib/hosts/runtimes');

const SERVER_NAMES = ['node', 'em', 'async'];

/**
 * The project servers on every runtime the project runs them on, a set of three per
 * combination: today's (the servers' own), history's, then the others of each kind (Node 22,
 * Ruby 3.3 without YJIT, Ruby 3.1 with YJIT), each kind's list walked in step (today's of a kind
 * standing in where its list is shorter). [{ names (node, em, async: each SERVER@RUNTIME but
 * today's, which are the servers' own) }]
 */
function runtimeSets(file = runtimesFile()) {
  const ofKind = (kind) => {
    const ids = Object.keys(file.runtimes).filter((id) => (file.runtimes[id].kind || file.runtimes[file.runtimes[id].of].kind) === kind);
    return [file.today[kind], file.history[kind], ...ids.filter((id) => id !== file.today[kind] && id !== file.history[kind])];
  };
  const [node, ruby] = [ofKind('node'), ofKind('ruby')];
  return Array.from({ length: Math.max(node.length, ruby.length) }, (_, i) => {
    const on = { node: node[i] || node[0], ruby: ruby[i] || ruby[0] };
    return { names: i === 0 ? SERVER_NAMES : [`node@${on.node}`, `em@${on.ruby}`, `async@${on.ruby}`] };
  });
}

/** Mocha hooks that start every server in names; returns a map filled in before(), by name. */
function useServers(options = {}, names = SERVER_NAMES) {
  const running = {};
  before(async function startAll() {
    this.timeout(30000);
    const definitions = withRuntimeVariants(loadServerDefinitions(), names);
    await Promise.all(names.map(async (name) => {
      running[name] = await startServer(name, { definitions, ...options });
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

module.exports = { SERVER_NAMES, runtimeSets, useServers, waitForOutput };
