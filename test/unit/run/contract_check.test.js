'use strict';
// The contract checks made before a server is benchmarked (perf/lib/run/contract_check.js),
// against the stand-in server (test/support/standin_server.js, on real sockets; run under the
// shared lock): what is checked for what a server serves, the short check of later trials, the
// scenarios' own requests, and the first failure's words.

const assert = require('node:assert/strict');
const http = require('node:http');
const { checkContract, HELLO_BODY } = require('../../../perf/lib/run/contract_check');
const { standinEachTest, namedScenario: scenario } = require('../../support/runner_helpers');

const BASE = ['GET /hello', 'GET / and HEAD /', '404 for a missing file', 'keep-alive', 'Connection: close', 'small upload'];

describe('contract_check: before a server is benchmarked', function () {
  this.timeout(30000);
  const start = standinEachTest();

  it('a server that honours it passes every check, the scenarios\' requests each checked once', async () => {
    const handle = await start();
    const file = scenario('file', { kind: 'closed', concurrency: 2, requests: 10, request: { path: '/lipsum100k.txt' } });
    const again = scenario('again', { kind: 'open', connections: 10, rate: 10, request: { path: '/lipsum100k.txt' } });
    const upload = scenario('upload', { kind: 'closed', concurrency: 2, requests: 10, request: { method: 'POST', path: '/upload', upload_bytes: 5000 } });
    const result = await checkContract({ host: handle.host, port: handle.port }, [file, again, upload]);
    assert.deepEqual(result.checks.map((c) => [c.name, c.ok]), [...BASE, 'GET /lipsum100k.txt', 'POST /upload 5000'].map((name) => [name, true]));
    assert.deepEqual([result.ok, result.failure], [true, null]);
  });

  it('checks only what the server serves; a later trial only GET /hello', async () => {
    const handle = await start();
    const target = { host: handle.host, port: handle.port };
    assert.deepEqual((await checkContract(target, [], { serves: ['hello'] })).checks.map((c) => c.name), ['GET /hello', 'keep-alive', 'Connection: close']);
    assert.deepEqual((await checkContract(target, [], { serves: ['files'] })).checks.map((c) => c.name), ['GET / and HEAD /', '404 for a missing file']);
    assert.deepEqual((await checkContract(target, [scenario('file', { kind: 'closed', concurrency: 2, requests: 10, request: { path: '/lipsum100k.txt' } })], { short: true })).checks.map((c) => c.name), ['GET /hello']);
  });

  it('a wrong reply fails it, the first failure saying what was expected; nothing after it is checked', async () => {
    const handle = await start({ STANDIN_HELLO_BODY: 'hello!!!!!' });
    const result = await checkContract({ host: handle.host, port: handle.port });
    assert.equal(result.ok, false);
    assert.equal(result.failure, `GET /hello answered "hello!!!!!" (expected ${JSON.stringify(HELLO_BODY)})`);
    assert.deepEqual(result.checks, [{ name: 'GET /hello', ok: false, detail: result.failure }]);
  });

  it('a file of another size than the site\'s is named with both sizes', async () => {
    // A server of our own whose /lipsum100k.txt is short; framed correctly, so only the size is wrong.
    const short = http.createServer((req, res) => {
      res.writeHead(200, { 'Content-Length': 10 });
      res.end('0123456789');
    });
    await new Promise((resolve) => short.listen(0, '127.0.0.1', resolve));
    try {
      const file = scenario('file', { kind: 'closed', concurrency: 2, requests: 10, request: { path: '/lipsum100k.txt' } });
      // serves nothing of the general checks: only the scenario's file is checked.
      const result = await checkContract({ host: '127.0.0.1', port: short.address().port }, [file], { serves: [] });
      assert.deepEqual(result.checks.map((c) => c.name), ['GET /lipsum100k.txt']);
      assert.equal(result.failure, 'GET /lipsum100k.txt is 10 bytes (expected 102400)');
    } finally {
      short.close();
    }
  });
});
