'use strict';
// The autocannon engine (perf/lib/engines/autocannon.js) against a real stand-in server: every
// request recorded in our samples with its connection, request bodies, errors and which
// scenarios it runs.

const assert = require('node:assert/strict');
const { runAutocannon } = require('../../../perf/lib/engines/autocannon');
const { Samples } = require('../../../perf/lib/measure/samples');
const { startStandin } = require('../../support/runner_helpers');

const HELLO = { method: 'GET', path: '/hello', headers: {}, upload_bytes: null };
const rowsOf = (samples) => Array.from({ length: samples.length }, (_, i) => samples.row(i));

describe('perf drivers: against the stand-in server', function () {
  this.timeout(30000);
  let server;
  before(async () => {
    server = await startStandin();
  });
  after(() => server && server.stop());

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
});
