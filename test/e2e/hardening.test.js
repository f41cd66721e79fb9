'use strict';
// Both servers under hostile clients: slowloris, stalled and slow readers, resets mid-reply and
// mid-upload, a connection cap. Servers run with short limits so the tests stay quick.

const assert = require('node:assert/strict');
const { exchange, request, openWith, untilClosed } = require('../support/raw_http');
const { SERVER_NAMES, useServers, waitForOutput } = require('../support/servers');
const { startServer } = require('../../perf/lib/hosts/server_process');

const HEADERS_TIMEOUT_MS = 1000;

/** Resident set size of a process, in kB. */
function rssKb(pid) {
  const status = require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
}

describe('hardening, on both servers', function () {
  this.timeout(30000);
  const servers = useServers({ env: { HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) } });

  for (const name of SERVER_NAMES) {
    describe(name, () => {
      it('answers 408 and closes when a header section stalls (slowloris)', async () => {
        const socket = await openWith(servers[name].port, 'GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: ');
        const text = await untilClosed(socket);
        assert.match(text, /^HTTP\/1\.1 408 /);
      });

      it('closes a connection that never sends a byte', async () => {
        const socket = await openWith(servers[name].port);
        const text = await untilClosed(socket);
        assert.ok(text === '' || /^HTTP\/1\.1 408 /.test(text), text);
      });

      it('serves a normal client promptly while 300 connections stall mid-header', async () => {
        const stalled = await Promise.all(
          Array.from({ length: 300 }, () => openWith(servers[name].port, 'GET /lipsum100k.txt HTTP/1.1\r\nHost: x\r\n')),
        );
        const closedAll = Promise.all(stalled.map(untilClosed));
        const { replies } = await exchange(servers[name].port, request('GET', '/hello'), { timeoutMs: HEADERS_TIMEOUT_MS / 2 });
        assert.equal(replies[0].status, 200);
        await closedAll; // and the header timeout frees every one of them
      });

      it('serves a normal client promptly while 50 clients read the 1 MiB file and stop reading', async () => {
        const readers = await Promise.all(
          Array.from({ length: 50 }, async () => {
            const socket = await openWith(servers[name].port, request('GET', '/data/random-1m.bin'));
            socket.pause(); // reads nothing more: the server's writes back up
            return socket;
          }),
        );
        try {
          const { replies } = await exchange(servers[name].port, request('GET', '/hello'), { timeoutMs: 2000 });
          assert.equal(replies[0].status, 200);
        } finally {
          readers.forEach((s) => s.destroy());
        }
      });

      it('shrugs off resets in the middle of replies and uploads', async () => {
        const before = rssKb(servers[name].pid);
        for (let round = 0; round < 20; round += 1) {
          const sockets = await Promise.all(
            Array.from({ length: 20 }, (_, i) =>
              openWith(
                servers[name].port,
                i % 2 ? request('GET', '/data/random-1m.bin') : request('POST', '/upload', { 'Content-Length': 4 * 1024 * 1024 }, 'x'.repeat(65536)),
              ),
            ),
          );
          sockets.forEach((s) => s.resetAndDestroy());
        }
        const { replies } = await exchange(servers[name].port, request('GET', '/hello'));
        assert.equal(replies[0].status, 200);
        const after = rssKb(servers[name].pid);
        // 400 connections each held up to 1 MiB of reply; none of it may stay.
        assert.ok(after - before < 100 * 1024, `RSS grew from ${before} kB to ${after} kB`);
      });
    });
  }
});

describe('a connection cap, on both servers', function () {
  this.timeout(30000);
  for (const name of SERVER_NAMES) {
    it(`${name}: accepts 2000 idle connections at once and still serves a normal client`, async () => {
      const server = await startServer(name);
      const idle = [];
      try {
        for (let i = 0; i < 2000; i += 100) idle.push(...(await Promise.all(Array.from({ length: 100 }, () => openWith(server.port)))));
        const { replies } = await exchange(server.port, request('GET', '/hello'));
        assert.equal(replies[0].status, 200);
        const open = require('node:fs').readdirSync(`/proc/${server.pid}/fd`).length;
        assert.ok(open >= 2000, `the server holds ${open} descriptors for 2000 connections`);
      } finally {
        idle.forEach((s) => s.destroy());
        await server.stop();
      }
    });

    it(`${name}: closes connections past MAX_CONNECTIONS at once, says so once, and recovers`, async () => {
      const server = await startServer(name, { env: { MAX_CONNECTIONS: '20' } });
      try {
        const held = await Promise.all(Array.from({ length: 20 }, () => openWith(server.port, 'GET /hello HTTP/1.1\r\nHost: x\r\n\r\n')));
        const { replies, closed } = await exchange(server.port, request('GET', '/hello'), { count: 1, timeoutMs: 3000 }).catch(() => ({ replies: [], closed: true }));
        assert.equal(replies.length, 0, 'a connection past the cap was served');
        assert.ok(closed);
        await waitForOutput(server, /20 connections open, the limit; new connections are closed/);
        held.forEach((s) => s.destroy());
        // Once connections close, new ones are served again.
        let served = false;
        for (let attempt = 0; attempt < 50 && !served; attempt += 1) {
          const result = await exchange(server.port, request('GET', '/hello'), { timeoutMs: 1000 }).catch(() => null);
          served = Boolean(result && result.replies[0] && result.replies[0].status === 200);
        }
        assert.ok(served, 'not served again after the held connections closed');
      } finally {
        await server.stop();
      }
    });
  }
});
