'use strict';
// A stand-in for the project's servers in the runner's tests: the same contract (routes,
// ready line, SIGTERM), synthetic file bodies, and knobs to misbehave on purpose:
//   STANDIN_HELLO_BODY   answer /hello with this body (a contract violation)
//   STANDIN_EXIT_AFTER   exit (code 3) on the Nth request to /hello (a server dying mid-run)
//   STANDIN_STALL_AT     on the Nth request to /hello, block the event loop for STANDIN_STALL_MS
//   STANDIN_STALL_EVERY  on every Nth request to /hello, likewise (a loop that stalls again and again)
//   STANDIN_HOLD_AT      hold the reply to the Nth request to /hello for STANDIN_HOLD_MS, the event
//                        loop free meanwhile (one reply late, the others answered at once)
//   STANDIN_HOLD_EVERY   likewise every Nth request to /hello (a tail of waiting, not of pauses)
//   STANDIN_BUSY_MS      spend this many ms of CPU on each request to /hello (a heavy server)
//   STANDIN_COLD_FOR     spend up to STANDIN_COLD_MS of CPU on each of the first N requests to
//                        /hello, less and less (a server that speeds up under load, as a JIT)
//   STANDIN_COLD_FOR_MS  likewise, but over the first N ms after its first /hello rather than its
//                        first N requests: a cold phase that ends at a known time, however fast
//                        the machine serves it
//   STANDIN_FILL_AT      on the Nth request to /hello, fill the disk holding STANDIN_FILL_FILE
//                        (writes it until ENOSPC) before answering: a disk that fills mid-run
//   STANDIN_PIDFILE      write the pid here (tests check that no server is left running)
//   STANDIN_PIDS_FILE    append the pid here, a line each start (tests count the restarts)
//   STANDIN_PEERS_FILE   append the address of each connection's client here, a line each
// It writes its runtime's events as the project's Node server does (node/runtime_events.js).
// Usage: node standin_server.js --host H --port P

const http = require('node:http');
const crypto = require('node:crypto');
const fs = require('node:fs');
const { startRuntimeEvents } = require('../../node/runtime_events');

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
}

const host = arg('--host', process.env.HOST || '127.0.0.1');
const port = Number(arg('--port', process.env.PORT || 8090));
const helloBody = Buffer.from(process.env.STANDIN_HELLO_BODY || 'asdfghjkl;');
const exitAfter = Number(process.env.STANDIN_EXIT_AFTER || 0);
const stallAt = Number(process.env.STANDIN_STALL_AT || 0);
const stallEvery = Number(process.env.STANDIN_STALL_EVERY || 0);
const stallMs = Number(process.env.STANDIN_STALL_MS || 0);
const holdAt = Number(process.env.STANDIN_HOLD_AT || 0);
const holdEvery = Number(process.env.STANDIN_HOLD_EVERY || 0);
const holdMs = Number(process.env.STANDIN_HOLD_MS || 0);
const fillAt = Number(process.env.STANDIN_FILL_AT || 0);
const busyMs = Number(process.env.STANDIN_BUSY_MS || 0);
const coldFor = Number(process.env.STANDIN_COLD_FOR || 0);
const coldMs = Number(process.env.STANDIN_COLD_MS || 0);
const coldForMs = Number(process.env.STANDIN_COLD_FOR_MS || 0);
const index = Buffer.from('<!doctype html><title>stand-in</title><p>stand-in server</p>\n');
const files = {
  '/lipsum100k.txt': Buffer.alloc(102400, 'lorem ipsum '),
  '/data/random-1m.bin': crypto.randomBytes(1048576),
};
let hellos = 0;
let firstHelloAt = null;

/** The ms of CPU a cold server spends on this /hello (STANDIN_COLD_FOR, STANDIN_COLD_FOR_MS). */
function coldCost() {
  if (coldForMs) {
    firstHelloAt ??= performance.now();
    return coldMs * Math.max(0, 1 - (performance.now() - firstHelloAt) / coldForMs);
  }
  return hellos <= coldFor ? coldMs * (1 - hellos / coldFor) : 0;
}

function fillDisk(file) {
  const fd = fs.openSync(file, 'a');
  const chunk = Buffer.alloc(1 << 20, 1);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (err) {
    if (err.code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
}

function reply(res, status, type, body) {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': body.length });
  res.end(body);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (req.method === 'POST' && url.pathname === '/upload') {
    const digest = crypto.createHash('sha256');
    let bytes = 0;
    req.on('data', (c) => {
      bytes += c.length;
      digest.update(c);
    });
    req.on('end', () => reply(res, 200, 'application/json', Buffer.from(JSON.stringify({ bytes, sha256: digest.digest('hex') }))));
    return;
  }
  if (url.pathname === '/hello') {
    hellos += 1;
    if (exitAfter && hellos >= exitAfter) process.exit(3);
    if ((stallAt && hellos === stallAt) || (stallEvery && hellos % stallEvery === 0)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, stallMs);
    if (fillAt && hellos === fillAt) fillDisk(process.env.STANDIN_FILL_FILE);
    for (const until = performance.now() + busyMs + coldCost(); performance.now() < until; );
    if ((holdAt && hellos === holdAt) || (holdEvery && hellos % holdEvery === 0)) setTimeout(() => reply(res, 200, 'text/plain', helloBody), holdMs);
    else reply(res, 200, 'text/plain', helloBody);
    return;
  }
  if (url.pathname === '/delay') {
    setTimeout(() => reply(res, 200, 'text/plain', Buffer.from('waited\n')), Number(url.searchParams.get('ms')) || 0);
    return;
  }
  const body = url.pathname === '/' ? index : files[url.pathname];
  if (body && (req.method === 'GET' || req.method === 'HEAD')) reply(res, 200, url.pathname === '/' ? 'text/html' : 'application/octet-stream', body);
  else reply(res, 404, 'text/plain', Buffer.from('Not Found\n'));
});

if (process.env.STANDIN_PEERS_FILE) {
  server.on('connection', (socket) => fs.appendFileSync(process.env.STANDIN_PEERS_FILE, `${socket.remoteAddress}\n`));
}

const events = startRuntimeEvents('stand-in');
server.listen(port, host, () => {
  if (process.env.STANDIN_PIDFILE) fs.writeFileSync(process.env.STANDIN_PIDFILE, String(process.pid));
  if (process.env.STANDIN_PIDS_FILE) fs.appendFileSync(process.env.STANDIN_PIDS_FILE, `${process.pid}\n`);
  console.log(`stand-in listening on http://${host}:${port}`);
});
const stop = () => {
  server.close();
  server.closeAllConnections();
  events?.stop();
  setTimeout(() => process.exit(0), 100).unref();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
