'use strict';
// Listening, as the Ruby servers' listener.rb: with the listen backlog both servers
// use (contract.json listen_backlog), and one line and exit 1 when the address cannot be had.

const { contract } = require('./config');

/** Listens on config's host and port; onListening once it does. */
function listen(server, config, onListening) {
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
    onListening();
  });
}

module.exports = { listen };
