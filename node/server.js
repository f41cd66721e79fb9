'use strict';
// The Node.js server: Node's own http module, one process, one event loop; routing with
// httpdispatcher. Behaviour is defined by contract.json and CONTRACT.md. Its
// files mirror the EventMachine server's and what it shares (ruby/em/, ruby/shared/), and this entry point builds the same parts
// in the same order as its server.rb, handing them down: the settings (config), the document root
// (static_site), the backends (upstream, database: each only when configured), the routes (app), the connection cap (connection_cap), the deadlines
// (deadlines), the connections that use them (connection, with request_gate and reply), and
// the listener (listener); with RUNTIME_EVENTS_FILE set, the runtime's events for the benchmark
// runner (runtime_events).
//   npm start, or node node/server.js [--host HOST] [--port PORT] [--root DIR]
//                                     [--upstream HOST:PORT] [--redis HOST:PORT]

const { readConfig, USAGE, contract } = require('./config');
const { loadSite } = require('./static_site');
const { UpstreamPool } = require('./upstream');
const { Database } = require('./database');
const { createApp } = require('./app');
const { ConnectionCap } = require('./connection_cap');
const { Deadlines } = require('./deadlines');
const { createServer } = require('./connection');
const { listen } = require('./listener');
const { startRuntimeEvents } = require('./runtime_events');

/**
 * The backends, as server.rb's backends: built now, reached later; each only when configured
 * (else null). One that is down is not a start-up error (its routes answer 502/503 meanwhile,
 * and recover when it is back).
 */
function buildBackends(config) {
  const timeoutMs = config.limits.BACKEND_TIMEOUT_MS;
  const upstream = config.upstream
    ? new UpstreamPool(config.upstream.host, config.upstream.port, { size: contract.backends.upstream_pool, timeoutMs })
    : null;
  const database = config.redis
    ? new Database(config.redis.host, config.redis.port, { keyPrefix: contract.backends.db_key_prefix, timeoutMs })
    : null;
  return { upstream, database };
}

function main() {
  let config;
  try {
    config = readConfig();
  } catch (err) {
    console.error(`node server: ${err.message}`);
    process.exit(2);
  }
  if (config.help) {
    console.log(USAGE);
    return;
  }
  let site;
  try {
    site = loadSite(config.root, contract);
  } catch (err) {
    console.error(`node server: cannot load the document root ${config.root}: ${err.message}`);
    process.exit(1);
  }
  const events = startRuntimeEvents('node server');
  const { upstream, database } = buildBackends(config);
  const app = createApp(site, { upstream, database });
  const cap = new ConnectionCap(config.limits.MAX_CONNECTIONS);
  const deadlines = new Deadlines(config.limits);
  const server = createServer(config.limits, app, cap, deadlines);
  listen(server, config, () => console.log(`node server listening on http://${config.host}:${config.port} (root ${config.root})`));
  // Redis is connected to in the background from here on, as server.rb does inside its loop.
  database?.start();
  const stop = () => {
    server.close();
    server.closeAllConnections();
    upstream?.close();
    database?.close();
    events?.stop();
    // Whatever still holds the loop open (a pending /delay timer) must not delay the exit.
    setTimeout(() => process.exit(0), 200).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) main();
