'use strict';
// The Node.js server: Node's own http module, one process, one event loop; routing with
// httpdispatcher. Behaviour is defined by contract.json and CONTRACT.md. Its
// files mirror the EventMachine server's (ruby/em/), and this entry point builds the same parts
// in the same order as server.rb, handing them down: the settings (config), the document root
// (static_site), the routes (app), the connection cap (connection_cap), the deadlines
// (deadlines), the connections that use them (connection, with request_gate and reply), and
// the listener (listener).
//   npm start, or node node/server.js [--host HOST] [--port PORT] [--root DIR]

const { readConfig, USAGE, contract } = require('./config');
const { loadSite } = require('./static_site');
const { createApp } = require('./app');
const { ConnectionCap } = require('./connection_cap');
const { Deadlines } = require('./deadlines');
const { createServer } = require('./connection');
const { listen } = require('./listener');

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
  const app = createApp(site);
  const cap = new ConnectionCap(config.limits.MAX_CONNECTIONS);
  const deadlines = new Deadlines(config.limits);
  const server = createServer(config.limits, app, cap, deadlines);
  listen(server, config, () => console.log(`node server listening on http://${config.host}:${config.port} (root ${config.root})`));
  const stop = () => {
    server.close();
    server.closeAllConnections();
    // Whatever still holds the loop open (a pending /delay timer) must not delay the exit.
    setTimeout(() => process.exit(0), 200).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) main();
