'use strict';
// The built-in engines' HTTP/1.1 client (perf/lib/engines/http_exchange.js): the request it
// writes, how it frames and classifies replies, and on real sockets read pacing, trickled
// uploads, deadlines and connections that end early.

const assert = require('node:assert/strict');
const { performance } = require('node:perf_hooks');
const { HttpConnection } = require('../../../perf/lib/engines/http_exchange');
const { startStandin } = require('../../support/runner_helpers');

describe('perf drivers: against the stand-in server', function () {
  this.timeout(30000);
  let server;
  before(async () => {
    server = await startStandin();
  });
  after(() => server && server.stop());

  it('reads a reply no faster than readBytesPerS', async () => {
    const conn = new HttpConnection({ host: server.host, port: server.port });
    const t0 = performance.now();
    const res = await conn.request({ path: '/data/random-1m.bin', readBytesPerS: 512 * 1024, deadlineAt: t0 + 20000 });
    const took = performance.now() - t0;
    conn.destroy();
    assert.equal(res.status, 200);
    assert.equal(res.bodyBytes, 1048576);
    assert.ok(took >= 1500, `1 MiB at 512 KiB/s took only ${took} ms`);
  });

  it('trickles an upload body at uploadBytesPerS', async () => {
    const conn = new HttpConnection({ host: server.host, port: server.port });
    const t0 = performance.now();
    const res = await conn.request({ method: 'POST', path: '/upload', uploadBytes: 256 * 1024, uploadBytesPerS: 256 * 1024, deadlineAt: t0 + 20000 });
    const took = performance.now() - t0;
    conn.destroy();
    assert.equal(res.status, 200);
    assert.equal(res.sentBytes, 256 * 1024);
    assert.ok(took >= 800, `256 KiB at 256 KiB/s took only ${took} ms`);
  });
});
