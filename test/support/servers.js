'use strict';
// Starts the project servers once per test file, the way the README runs them: on today's
// runtimes (perf/servers.json), or each on another runtime of perf/runtimes.json (em@ruby31).

const { startServer, loadServerDefinitions } = require('../../perf/lib/hosts/server_process');
const { runtimeEnv, runtimeOf, runtimesFile, withRuntimeVariants } = require('../../perf/lib/hosts/runtimes');

// The servers the e2e tests hold to the contract: node, em and async, or those E2E_SERVERS names
// (comma-separated, of perf/servers.json), e.g. E2E_SERVERS=node,em,async_http to hold the
// async-http server to the same tests (docs/async_http_census.md).
const DEFAULT_SERVER_NAMES = ['node', 'em', 'async'];
const SERVER_NAMES = namedServers(process.env.E2E_SERVERS);

/** The names E2E_SERVERS lists (each one perf/servers.json defines), else the default three. */
function namedServers(list, definitions = loadServerDefinitions()) {
  if (!list) return DEFAULT_SERVER_NAMES;
  const names = list.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !definitions[name]);
  if (names.length === 0 || unknown.length > 0) {
    throw new Error(`E2E_SERVERS must name servers of perf/servers.json, got '${list}'${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
  }
  return names;
}

/**
 * The project servers on every runtime the project runs them on, a set of three per
 * combination: today's (the servers' own), history's, then the others of each kind (Node 22,
 * Ruby 3.3 without YJIT, Ruby 3.1 with YJIT), each kind's list walked in step (today's of a kind
 * standing in where its list is shorter). [{ names (node, em, async: each SERVER@RUNTIME but
 * today's, which are the servers' own) }]; with E2E_SERVERS, its servers on their own runtimes only.
 */
function runtimeSets(file = runtimesFile()) {
  if (SERVER_NAMES !== DEFAULT_SERVER_NAMES) return [{ names: SERVER_NAMES }];
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

/**
 * How the tests of settings refused at start run each server by hand: [command, args, env]. The
 * machine's node and ruby, as the README runs them; async_http needs Ruby 3.3's async gems
 * (IO::TimeoutError, async-http 0.105), so its runtime's environment.
 */
function startCommand(name) {
  const commands = {
    node: ['node', ['node/server.js']],
    em: ['ruby', ['ruby/em/server.rb']],
    async: ['ruby', ['ruby/async/server.rb']],
    async_http: ['ruby', ['ruby/async_http/server.rb'], runtimeEnv(runtimeOf(loadServerDefinitions().async_http.runtime))],
  };
  const [command, args, env = process.env] = commands[name];
  return [command, args, env];
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

module.exports = { SERVER_NAMES, runtimeSets, startCommand, useServers, waitForOutput };
