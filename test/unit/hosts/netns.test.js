'use strict';
// --link's network: a namespace behind a veth pair shaped with tbf. Needs root; skipped otherwise.

const assert = require('node:assert/strict');
const http = require('node:http');
const { spawn } = require('node:child_process');
const path = require('node:path');
const { createLink, removeLink, parseRate, namespaceExists, linkUnavailableReason } = require('../../../perf/lib/hosts/netns');

const SERVE_BYTES = 1024 * 1024;
// A server inside the namespace: 1 MiB to every request, then its ready line.
const SERVER_SCRIPT = `
const http = require('node:http');
const body = Buffer.alloc(${SERVE_BYTES}, 97);
const server = http.createServer((req, res) => res.end(body));
server.listen(8099, process.argv[1], () => console.log('ready'));
process.on('SIGTERM', () => process.exit(0));
`;

function startInside(link) {
  return new Promise((resolve, reject) => {
    const child = spawn(link.commandPrefix[0], [...link.commandPrefix.slice(1), process.execPath, '-e', SERVER_SCRIPT, link.serverAddress]);
    child.stdout.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}

function fetchTimed(host) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    http
      .get({ host, port: 8099, path: '/', agent: false }, (res) => {
        let bytes = 0;
        res.on('data', (c) => {
          bytes += c.length;
        });
        res.on('end', () => resolve({ bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 }));
      })
      .on('error', reject);
  });
}

describe('--link: a rate-limited network namespace', function () {
  this.timeout(30000);

  it('reads rates in tc units and refuses anything else in one line', () => {
    assert.equal(parseRate('54mbit'), 54e6);
    assert.equal(parseRate('1gbit'), 1e9);
    assert.equal(parseRate('512kbit'), 512e3);
    for (const bad of ['fast', '54', '-1mbit', '54 furlongs']) assert.throws(() => parseRate(bad), /--link takes a rate such as 54mbit/);
  });

  describe('as root', () => {
    before(function () {
      if (linkUnavailableReason()) this.skip();
    });

    it('carries traffic between the host and the namespace no faster than the rate, and is removed after', async () => {
      const link = createLink('8mbit', { tag: `t${process.pid}` });
      let server;
      try {
        assert.ok(namespaceExists(link.namespace));
        server = await startInside(link);
        const { bytes, seconds } = await fetchTimed(link.serverAddress);
        assert.equal(bytes, SERVE_BYTES);
        const bitsPerSecond = (bytes * 8) / seconds;
        // A shaped link can be slower than its rate on a busy machine, never much faster.
        assert.ok(bitsPerSecond < 8e6 * 1.25, `${(bitsPerSecond / 1e6).toFixed(1)} Mbit/s through an 8 Mbit/s link`);
      } finally {
        if (server) server.kill('SIGTERM');
        removeLink(link);
      }
      assert.equal(namespaceExists(link.namespace), false);
    });

    it('is removed when the process that made it is interrupted', async () => {
      const tag = `i${process.pid}`;
      const script = `
        const { createLink } = require(${JSON.stringify(path.join(__dirname, '..', '..', '..', 'perf', 'lib', 'hosts', 'netns.js'))});
        createLink('1mbit', { tag: ${JSON.stringify(tag)} });
        process.on('SIGINT', () => process.exit(130));
        console.log('made');
        setInterval(() => {}, 1000);
      `;
      const child = spawn(process.execPath, ['-e', script]);
      await new Promise((resolve, reject) => {
        child.stdout.once('data', resolve);
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      assert.ok(namespaceExists(`evn-${tag.slice(-6)}`));
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
      assert.equal(namespaceExists(`evn-${tag.slice(-6)}`), false);
    });
  });
});
