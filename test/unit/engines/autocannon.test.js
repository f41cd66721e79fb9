'use strict';
// The autocannon engine (perf/lib/engines/autocannon.js) against real stand-in servers: every
// request recorded in our samples with its connection, request bodies, a duration, each error
// kind (refused, timeout, a server that dies: the requests it lost are resets), and which
// scenarios it runs.

const assert = require('node:assert/strict');
const net = require('node:net');
const { runAutocannon, autocannonEngine } = require('../../../perf/lib/engines/autocannon');
const { Samples } = require('../../../perf/lib/measure/samples');
const { summarizeSamples } = require('../../../perf/lib/measure/stats');
const { startStandin, useStandin, HELLO, rowsOf } = require('../../support/runner_helpers');

describe('perf drivers: against the stand-in server', function () {
  this.timeout(30000);
  const server = useStandin();

  it('autocannon: every request recorded, one connect time per connection', async () => {
    const samples = new Samples();
    samples.start();
    const res = await runAutocannon({ host: server.host, port: server.port, request: HELLO, concurrency: 8, requestsPerConnection: 10, samples });
    const rows = rowsOf(samples);
    assert.equal(rows.length, 80);
    assert.ok(rows.every((r) => r.status === 200));
    assert.equal(new Set(rows.map((r) => r.conn)).size, 8);
    assert.equal(rows.filter((r) => r.connect_ms !== null).length, 8);
    assert.equal(res.engine_totals.replies, 80);
  });

  it('autocannon: a POST body', async () => {
    const samples = new Samples();
    samples.start();
    await runAutocannon({ host: server.host, port: server.port, request: { method: 'POST', path: '/upload', headers: {}, upload_bytes: 5000 }, concurrency: 2, requests: 10, samples });
    assert.equal(samples.length, 10);
    assert.ok(rowsOf(samples).every((r) => r.status === 200));
  });

  it('autocannon: a duration bounds the run; requests still in flight at the end are not counted', async () => {
    const samples = new Samples();
    samples.start();
    await runAutocannon({ host: server.host, port: server.port, request: HELLO, concurrency: 4, durationMs: 300, samples });
    const rows = rowsOf(samples);
    assert.ok(rows.length > 4);
    assert.ok(rows.every((r) => r.status === 200 && r.error === ''));
    // autocannon notices the end at its next sample tick (100 ms).
    assert.ok(Math.max(...rows.map((r) => r.t_ms + r.latency_ms)) < 300 + 150);
  });

  it('autocannon: no reply in time is a timeout', async () => {
    const samples = new Samples();
    samples.start();
    await runAutocannon({ host: server.host, port: server.port, request: { ...HELLO, path: '/delay?ms=3000' }, concurrency: 2, requests: 2, timeoutMs: 1000, samples });
    assert.deepEqual(summarizeSamples(samples).errors, { refused: 0, reset: 0, timeout: 2, other: 0 });
  });
});

describe('perf drivers: autocannon against servers that fail', function () {
  this.timeout(30000);

  it('nobody listening: every request refused', async () => {
    const port = await new Promise((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address();
        probe.close(() => resolve(free));
      });
    });
    const samples = new Samples();
    samples.start();
    await runAutocannon({ host: '127.0.0.1', port, request: HELLO, concurrency: 2, requests: 10, samples });
    assert.deepEqual(summarizeSamples(samples).errors, { refused: 10, reset: 0, timeout: 0, other: 0 });
  });

  it('a server that dies mid-run: the requests it held are resets, the ones after refused, every request counted', async () => {
    const dying = await startStandin({ STANDIN_EXIT_AFTER: '30' }); // exits on its 30th request
    try {
      const samples = new Samples();
      samples.start();
      const res = await runAutocannon({ host: dying.host, port: dying.port, request: HELLO, concurrency: 4, requests: 100, timeoutMs: 2000, samples });
      const sum = summarizeSamples(samples);
      assert.equal(sum.replies, 29);
      assert.ok(sum.errors.reset >= 1, JSON.stringify(sum.errors));
      assert.ok(sum.errors.refused > 0, JSON.stringify(sum.errors));
      assert.equal(sum.requests, res.engine_totals.requests_sent);
    } finally {
      await dying.stop();
    }
  });
});

describe('perf drivers: autocannon against a server that closes kept connections', function () {
  this.timeout(30000);
  let server;
  before(async () => {
    // Answers the first request on each connection; on the second, closes it without a reply.
    server = net.createServer((socket) => {
      let requests = 0;
      let head = '';
      socket.on('error', () => {});
      socket.on('data', (chunk) => {
        head += chunk;
        for (let end = head.indexOf('\r\n\r\n'); end >= 0; end = head.indexOf('\r\n\r\n')) {
          head = head.slice(end + 4);
          requests += 1;
          if (requests === 1) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
          else socket.end();
        }
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(() => server.close());

  it('a request lost with its connection is a reset, though autocannon reconnects and counts no error', async () => {
    const samples = new Samples();
    samples.start();
    const res = await runAutocannon({ host: '127.0.0.1', port: server.address().port, request: HELLO, concurrency: 1, requests: 10, samples });
    const sum = summarizeSamples(samples);
    // Requests 2, 4, 6 and 8 were lost (each noticed when the next was written); 10 was still pending at the end.
    assert.deepEqual([sum.replies, sum.errors], [5, { refused: 0, reset: 4, timeout: 0, other: 0 }]);
    assert.equal(res.engine_totals.errors, 0);
  });
});

describe('autocannon engine: which scenarios it runs', () => {
  it('closed loops over keep-alive connections', () => {
    assert.equal(autocannonEngine.supports({ kind: 'closed', keep_alive: true }), true);
    assert.equal(autocannonEngine.supports({ kind: 'closed', keep_alive: false }), false);
    assert.equal(autocannonEngine.supports({ kind: 'open', keep_alive: true }), false);
  });
});
