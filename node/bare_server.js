'use strict';
// Reference: the bare runtime. Node's http.createServer answering /hello and nothing else: no
// router, no files, no limits. The project server's ratio to this one is what its routing and
// file layer cost. Minimal, but correct HTTP/1.1, all of it Node's own: every reply has Date,
// Content-Length and Content-Type, and Connection: close when the connection closes after it
// (HTTP/1.0 without keep-alive, or Connection: close asked).

const http = require('node:http');
const { readConfig, contract } = require('./config');
const { startRuntimeEvents } = require('./runtime_events');

const HELLO = Buffer.from(contract.hello_body);
const NOT_FOUND = Buffer.from('Not Found\n');

let config;
try {
  config = readConfig();
} catch (err) {
  console.error(`node bare server: ${err.message}`);
  process.exit(2);
}
const events = startRuntimeEvents('node bare server');
const server = http.createServer((req, res) => {
  const found = req.url === '/hello';
  res.writeHead(found ? 200 : 404, { 'Content-Type': 'text/plain', 'Content-Length': found ? HELLO.length : NOT_FOUND.length });
  res.end(found ? HELLO : NOT_FOUND);
});
server.on('error', (err) => {
  console.error(`node bare server: cannot listen on ${config.host}:${config.port}: ${err.code || err.message}`);
  process.exit(1);
});
server.listen(config.port, config.host, () => console.log(`node bare server listening on http://${config.host}:${config.port}`));
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    events?.stop();
  });
}
