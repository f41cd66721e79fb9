'use strict';
// How the differential tester watches one connection (test/difftest/observe.js), against real
// servers on loopback: when a close counts as at once, however long the reply announcing it took
// to arrive.

const assert = require('node:assert/strict');
const net = require('node:net');
const { observe } = require('../../difftest/observe');
const { closing, AT_ONCE_MS } = require('../../difftest/compare');

const REQUEST = { writes: [{ bytes: Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'), pauseMs: 0 }], heads: [false] };
const CHUNK = 64 * 1024;
const CHUNKS = 16;
const CHUNK_EVERY_MS = 80; // 16 chunks 80 ms apart: 1.2 s to send, never silent for AT_ONCE_MS

/** A server that answers the first request with `answer(socket)`; resolves its port and a closer. */
async function serverAnswering(answer) {
  const server = net.createServer((socket) => socket.once('data', () => answer(socket)));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('difftest observe', () => {
  let server;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('a reply announcing the close that takes longer than AT_ONCE_MS to arrive, the close right after it: closed at once', async () => {
    server = await serverAnswering((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${CHUNK * CHUNKS}\r\nConnection: close\r\n\r\n`);
      let sent = 0;
      const timer = setInterval(() => {
        socket.write(Buffer.alloc(CHUNK, 'x'));
        sent += 1;
        if (sent === CHUNKS) {
          clearInterval(timer);
          socket.end();
        }
      }, CHUNK_EVERY_MS);
    });
    const seen = await observe(server.port, REQUEST, { openCapMs: 5000 });
    assert.equal(seen.replies.length, 1);
    assert.equal(seen.replies[0].bodyBytes, CHUNK * CHUNKS);
    assert.ok(seen.closeMs > AT_ONCE_MS, `the close came ${seen.closeMs} ms after the last write`);
    assert.ok(seen.quietMs <= AT_ONCE_MS, `never silent long: ${seen.quietMs} ms`);
    assert.equal(closing(seen), 'closed at once');
  });

  it('a reply after a silence (a timeout\'s 408), the close right after it: closed later', async () => {
    const SILENCE_MS = 1000;
    server = await serverAnswering((socket) => {
      setTimeout(() => socket.end('HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'), SILENCE_MS);
    });
    const seen = await observe(server.port, REQUEST, { openCapMs: 5000 });
    assert.equal(seen.replies[0].status, 408);
    assert.ok(seen.quietMs >= SILENCE_MS - 5 && seen.closeMs >= seen.quietMs, JSON.stringify(seen));
    assert.equal(closing(seen), `closed after ${(seen.closeMs / 1000).toFixed(1)} s`);
  });
});
