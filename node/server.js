'use strict';
// The Node.js server: Node's own http module, one process, one event loop; routing with
// httpdispatcher. Behaviour is defined by contract.json and the README's contract table. Its
// files mirror the EventMachine server's (ruby/em/): config, app (routes), request_gate,
// reply, connection, static_site, and this entry point.
//   npm start, or node node/server.js [--host HOST] [--port PORT] [--root DIR]

const { readConfig, USAGE, contract } = require('./config');
const { createApp } = require('./app');
const { createServer } = require('./connection');

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
  let server;
  try {
    server = createServer(config, createApp(config));
  } catch (err) {
    console.error(`node server: cannot load the document root ${config.root}: ${err.message}`);
    process.exit(1);
  }
  let listening = false;
  server.on('error', (err) => {
    if (listening) {
      // An error of one connection or accept after start: the server goes on.
      console.error(`node server: ${err.code || err.message}`);
      return;
    }
    const hint = err.code === 'EADDRINUSE' ? ' (another process uses this port; choose another with --port)' : '';
    console.error(`node server: cannot listen on ${config.host}:${config.port}: ${err.code || err.message}${hint}`);
    process.exit(1);
  });
  server.listen({ port: config.port, host: config.host, backlog: contract.listen_backlog }, () => {
    listening = true;
    console.log(`node server listening on http://${config.host}:${config.port} (root ${config.root})`);
  });
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
