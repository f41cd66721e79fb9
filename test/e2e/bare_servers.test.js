'use strict';
// The bare-runtime references (node/bare_server.js, ruby/em/bare_server.rb,
// ruby/async/bare_server.rb) speak correct
// HTTP/1.1: Date, Content-Length and Content-Type on every reply, and Connection: close when
// they close, so that load generators (wrk) do not count a read error on every closed connection.

const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const { startServer } = require('../../perf/lib/hosts/server_process');
const { parseWrk } = require('../../perf/lib/engines/wrk');
const { exchange } = require('../support/raw_http');

const BARE = ['node_bare', 'em_bare', 'async_bare'];

function get(version, headers = []) {
  return [`GET /hello HTTP/${version}`, 'Host: 127.0.0.1', ...headers, '', ''].join('\r\n');
}

function assertHelloReply(reply) {
  assert.equal(reply.status, 200);
  assert.equal(reply.body.toString('latin1'), 'asdfghjkl;');
  assert.equal(reply.headers['content-length'], '10');
  assert.match(reply.headers['content-type'], /^text\/plain/);
  assert.match(reply.headers.date, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
}

for (const name of BARE) {
  describe(`${name}: correct HTTP/1.1`, function () {
    this.timeout(20000);
    let server;
    before(async () => {
      server = await startServer(name);
    });
    after(async () => {
      if (server) await server.stop();
    });

    it('keeps an HTTP/1.1 connection open, with Date, Content-Length and Content-Type', async () => {
      const { replies, closed } = await exchange(server.port, get('1.1') + get('1.1'), { count: 2 });
      assert.equal(replies.length, 2);
      for (const reply of replies) {
        assertHelloReply(reply);
        assert.notEqual(reply.headers.connection, 'close');
      }
      assert.equal(closed, false);
    });

    for (const [what, request] of [
      ['Connection: close asked', get('1.1', ['Connection: close'])],
      ['HTTP/1.0 without keep-alive', get('1.0')],
    ]) {
      it(`says Connection: close and closes (${what})`, async () => {
        const { replies, closed } = await exchange(server.port, request, { waitForClose: true });
        assert.equal(replies.length, 1);
        assertHelloReply(replies[0]);
        assert.equal(replies[0].headers.connection, 'close');
        assert.equal(closed, true);
      });
    }

    it('keeps an HTTP/1.0 connection that asks for keep-alive open, and says so', async () => {
      const { replies, closed } = await exchange(server.port, get('1.0', ['Connection: keep-alive']));
      assertHelloReply(replies[0]);
      assert.equal(replies[0].headers.connection.toLowerCase(), 'keep-alive');
      assert.equal(closed, false);
    });

    it('gives wrk no read errors with Connection: close', async () => {
      const stdout = await new Promise((resolve, reject) => {
        const args = ['-t1', '-c10', '-d1s', '-H', 'Connection: close', `${server.url}/hello`];
        execFile('wrk', args, { timeout: 15000 }, (err, out) => (err ? reject(err) : resolve(out)));
      });
      const wrk = parseWrk(stdout);
      assert.ok(wrk.requests > 0, stdout);
      assert.deepEqual(wrk.socket_errors, { connect: 0, read: 0, write: 0, timeout: 0 }, stdout);
    });
  });
}
