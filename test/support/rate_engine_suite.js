'use strict';
// What both engines of kind rate must do, tested on each against real servers on real sockets
// (test/unit/engines/constant_rate.test.js, rate_client.test.js): the same schedule and samples
// (request i due at i/rate on connection i mod N, latency from when it was due, a stall shown
// as latency, never as a slower schedule), the same request bytes, the pool reused, opened again
// where the server closes, no more connections than requests, and (describeWarmConnections,
// through the engine's runner interface) a scenario's connections warmed before its time zero.

const assert = require('node:assert/strict');
const http = require('node:http');
const net = require('node:net');
const { performance } = require('node:perf_hooks');
const { Samples } = require('../../perf/lib/measure/samples');
const { summarizeSamples } = require('../../perf/lib/measure/stats');
const { startStandin, HELLO, rowsOf } = require('./runner_helpers');

const NO_ERRORS = { refused: 0, reset: 0, timeout: 0, other: 0 };

/** An HTTP server that records each request's socket, method, Host and Connection header and when it came (performance.now()); closeEvery: it closes after that many replies on a connection. */
async function recorder({ closeEvery = 0 } = {}) {
  const seen = [];
  const perSocket = new Map();
  const server = http.createServer((req, res) => {
    const n = (perSocket.get(req.socket) || 0) + 1;
    perSocket.set(req.socket, n);
    seen.push({ socket: req.socket, method: req.method, connection: req.headers.connection || null, host: req.headers.host, at: performance.now() });
    if (closeEvery && n % closeEvery === 0) res.setHeader('Connection', 'close');
    res.end('ok');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, seen, close: () => new Promise((resolve) => server.close(resolve)), sockets: () => new Set(seen.map((s) => s.socket)).size };
}

/**
 * The shared behaviour of an engine of kind rate. run(port, { request, connections, rate,
 * requests, timeoutMs }) resolves { result, samples } (result: launched, reconnects,
 * schedule_lag_ms).
 */
function describeRateEngine(label, run) {
  describe(`${label}: against a server that stalls for 800 ms`, function () {
    this.timeout(30000);
    let server;
    let samples;
    let result;
    before(async () => {
      // The stand-in blocks its event loop for 800 ms on its 20th request (~190 ms in).
      server = await startStandin({ STANDIN_STALL_AT: '20', STANDIN_STALL_MS: '800' });
      ({ samples, result } = await run(server.port, { request: HELLO, connections: 4, rate: 100, requests: 150, timeoutMs: 10000 }));
    });
    after(() => server && server.stop());

    it('hands every request to its connection on schedule anyway (the schedule is not stretched)', () => {
      assert.equal(result.launched, 150);
      assert.equal(samples.length, 150);
      assert.ok(result.schedule_lag_ms.max < 250, `a request handed over ${result.schedule_lag_ms.max} ms behind schedule`);
    });

    it('counts latency from when each request was due: i × 10 ms, request i on connection i mod 4', () => {
      const rows = rowsOf(samples).sort((a, b) => a.t_ms - b.t_ms);
      rows.forEach((r, i) => {
        assert.ok(Math.abs(r.t_ms - i * 10) < 1e-6, `request ${i} starts at ${r.t_ms}`);
        assert.equal(r.conn, (i % 4) + 1);
      });
    });

    it('shows the stall as latency: requests due during it wait for it, behind their busy connection', () => {
      const rows = rowsOf(samples);
      assert.ok(rows.every((r) => r.status === 200), 'every request answered 200');
      assert.ok(rows.filter((r) => r.latency_ms > 300).length >= 40, 'requests due during the stall waited');
      const tail = rows.filter((r) => r.t_ms >= 1400);
      assert.ok(tail.length > 0 && tail.every((r) => r.latency_ms < 300), 'fast again after it');
    });
  });

  describe(`${label}: the pool`, function () {
    this.timeout(30000);

    it('carries every request on the pool\'s keep-alive connections, no more connections than asked, the same request bytes', async () => {
      const rec = await recorder();
      try {
        const { result, samples } = await run(rec.port, { request: HELLO, connections: 3, rate: 200, requests: 20 });
        assert.deepEqual([result.launched, result.reconnects, samples.length], [20, 0, 20]);
        assert.equal(rec.sockets(), 3);
        assert.ok(rec.seen.every((s) => s.connection === null && s.method === 'GET' && s.host === `127.0.0.1:${rec.port}`), 'GET, Host 127.0.0.1:port, no Connection header (HTTP/1.1 keeps it by default)');
        assert.equal(rowsOf(samples).filter((r) => r.connect_ms !== null).length, 3, 'the first request on each connection times its connect');
      } finally {
        await rec.close();
      }
    });

    it('opens a connection again where the server closed it, and loses no request', async () => {
      const rec = await recorder({ closeEvery: 2 });
      try {
        const { result, samples } = await run(rec.port, { request: HELLO, connections: 2, rate: 200, requests: 12 });
        assert.equal(samples.length, 12);
        assert.deepEqual(summarizeSamples(samples).errors, NO_ERRORS);
        assert.equal(rec.sockets(), 6, 'two requests a connection');
        assert.equal(result.reconnects, 0, 'a close the server announced is not a reconnect after a failure');
      } finally {
        await rec.close();
      }
    });

    it('a connection the server closed while it was idle (its keep-alive deadline): the next request goes on a new one, no error', async () => {
      // Each reply keeps the connection (HTTP/1.1, no Connection: close); 60 ms later the server closes it.
      const sockets = new Set();
      const server = net.createServer((socket) => {
        sockets.add(socket);
        socket.on('data', () => {
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
          setTimeout(() => socket.end(), 60);
        });
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { result, samples } = await run(server.address().port, { request: HELLO, connections: 1, rate: 5, requests: 3 });
        assert.deepEqual(summarizeSamples(samples).errors, NO_ERRORS);
        assert.equal(sockets.size, 3, 'each request 200 ms after the last, past the 60 ms idle deadline');
        assert.equal(result.reconnects, 2, 'a close the server did not announce, then a new connection');
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('fewer requests than connections: one connection a request', async () => {
      const rec = await recorder();
      try {
        await run(rec.port, { request: HELLO, connections: 10, rate: 100, requests: 3 });
        assert.equal(rec.sockets(), 3);
      } finally {
        await rec.close();
      }
    });
  });
}

/**
 * What an engine of kind rate does with a scenario's warm_connections (the keep-alive ramps'
 * steps), through its runner interface (engine.run).
 */
function describeWarmConnections(label, engine) {
  describe(`${label}: connections warmed before time zero (warm_connections)`, function () {
    this.timeout(30000);

    it('opens every connection and sends one request on each before the schedule\'s time zero, records none of it, and the schedule runs on those connections', async () => {
      const rec = await recorder();
      try {
        const samples = new Samples();
        samples.start();
        const scenario = { kind: 'rate', request: HELLO, connections: 4, rate: 200, requests: 20, timeout_s: 10, warm_connections: true };
        const result = await engine.run({ host: '127.0.0.1', port: rec.port, scenario, samples });
        assert.equal(result.warmed.connections, 4);
        assert.ok(result.warmed.ms >= 0);
        assert.deepEqual([result.launched, result.reconnects, samples.length], [20, 0, 20]);
        assert.equal(rec.seen.length, 24, 'the 20 of the schedule and one warm-up request a connection');
        assert.equal(rec.sockets(), 4, 'the schedule ran on the warmed connections');
        // The warm-up came before the samples' time zero, the schedule's requests after it.
        const before = rec.seen.filter((x) => x.at < samples.origin);
        assert.equal(before.length, 4, 'four requests before time zero');
        assert.equal(new Set(before.map((x) => x.socket)).size, 4, 'one on each connection');
        const rows = rowsOf(samples);
        assert.ok(rows.every((r) => r.connect_ms === null), 'no request of the schedule waited for a connect');
        rows.forEach((r, i) => assert.ok(Math.abs(r.t_ms - i * 5) < 1e-6, `request ${i} due at ${r.t_ms}`));
        assert.deepEqual(summarizeSamples(samples).errors, NO_ERRORS);
      } finally {
        await rec.close();
      }
    });

    it('without it, the first request on each connection opens it and times the connect', async () => {
      const rec = await recorder();
      try {
        const samples = new Samples();
        samples.start();
        const result = await engine.run({ host: '127.0.0.1', port: rec.port, scenario: { kind: 'rate', request: HELLO, connections: 4, rate: 200, requests: 20, timeout_s: 10 }, samples });
        assert.equal(result.warmed, undefined);
        assert.equal(rec.seen.length, 20);
        assert.equal(rowsOf(samples).filter((r) => r.connect_ms !== null).length, 4);
      } finally {
        await rec.close();
      }
    });
  });
}

module.exports = { describeRateEngine, describeWarmConnections, recorder, NO_ERRORS };
