'use strict';
// Sends one case of the grammar to one server over a fresh TCP connection and records what an
// HTTP client can see: each reply's status, framing headers and body, the 1xx replies, whether
// and when the server closed the connection, and any bytes that are not a reply. Bounded in
// time: a connection still open OPEN_CAP_MS after the last write is recorded as open.

const net = require('node:net');
const crypto = require('node:crypto');

// The headers that frame a reply or decide the connection; Date and Keep-Alive's figure vary.
const COMPARED_HEADERS = ['content-length', 'content-type', 'connection', 'transfer-encoding', 'allow'];

/**
 * The replies in `buffer`: heads[i] says request i was a HEAD (its reply has no body). A HEAD's
 * reply is taken with a body only when one follows that is not itself a reply, so a server that
 * wrongly sends one is seen doing it.
 */
function parseReplies(buffer, heads) {
  const replies = [];
  let interim = 0;
  let offset = 0;
  while (offset < buffer.length) {
    const headerEnd = buffer.indexOf('\r\n\r\n', offset);
    if (headerEnd === -1) break;
    const lines = buffer.subarray(offset, headerEnd).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]);
    if (!match) break;
    const status = Number(match[1]);
    const headers = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      headers[name] = headers[name] === undefined ? line.slice(colon + 1).trim() : `${headers[name]}, ${line.slice(colon + 1).trim()}`;
    }
    const bodyStart = headerEnd + 4;
    if (status < 200) {
      interim += 1;
      offset = bodyStart;
      continue;
    }
    const declared = Number(headers['content-length'] ?? 0);
    const headOnly = heads[replies.length] === true && !(buffer.length >= bodyStart + declared && declared > 0 && !buffer.subarray(bodyStart, bodyStart + 5).equals(Buffer.from('HTTP/')));
    const length = headOnly ? 0 : declared;
    if (buffer.length < bodyStart + length) break;
    const body = buffer.subarray(bodyStart, bodyStart + length);
    const framing = Object.fromEntries(COMPARED_HEADERS.filter((h) => headers[h] !== undefined).map((h) => [h, headers[h]]));
    replies.push({ status, headers: framing, keepAliveHeader: headers['keep-alive'] !== undefined, bodyBytes: body.length, body: crypto.createHash('sha1').update(body).digest('hex').slice(0, 12), bodyText: body.length <= 40 ? body.toString('latin1') : null });
    offset = bodyStart + length;
  }
  return { replies, interim, rest: buffer.length - offset };
}

/**
 * Sends the case to host:port; resolves { replies, interim, rest, closed, closeMs, quietMs,
 * reset }: closed, whether the server closed within openCapMs of the last write; closeMs, when
 * (ms after the last write); quietMs, the longest the connection was silent between the last
 * write and the close (or the cap): a server that waits for a timeout leaves a silence that
 * long, one still sending a reply when the close comes late does not; reset, whether the
 * connection was reset.
 */
function observe(port, testCase, { openCapMs, host = '127.0.0.1' }) {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.setNoDelay(true);
    const chunks = [];
    let lastWriteAt = performance.now();
    let quietFrom = lastWriteAt;
    let quietMs = 0;
    const heard = (now) => {
      quietMs = Math.max(quietMs, now - quietFrom);
      quietFrom = now;
    };
    let closedAt = null;
    let cap = null;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(cap);
      socket.destroy();
      const parsed = parseReplies(Buffer.concat(chunks), testCase.heads);
      const since = (t) => (t === null ? null : Math.max(0, Math.round(t - lastWriteAt)));
      heard(closedAt ?? performance.now());
      resolve({ ...parsed, closed: closedAt !== null, closeMs: since(closedAt), quietMs: Math.round(quietMs), reset });
    };
    const closingAnnounced = () => chunks.some((chunk) => chunk.includes('\r\nConnection: close\r\n'));
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      heard(performance.now());
    });
    // The server's close is when its end arrives; the observation ends at the socket's close,
    // which a reset (an error) comes before.
    const ended = () => {
      if (closedAt === null) closedAt = performance.now();
    };
    socket.on('end', ended);
    socket.on('close', () => {
      ended();
      finish();
    });
    let reset = false;
    socket.on('error', () => {
      reset = true; // a reset is a close; 'close' follows
    });
    socket.on('connect', async () => {
      for (const { bytes, pauseMs } of testCase.writes) {
        if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
        else await new Promise((r) => setImmediate(r));
        // Bytes sent after the server closed would have it reset the connection, and a reset
        // can drop a reply already received: what follows a reply that closes is not sent.
        if (settled || socket.destroyed || socket.readableEnded || closingAnnounced()) break;
        socket.write(bytes);
        lastWriteAt = performance.now();
        quietFrom = lastWriteAt;
        quietMs = 0; // only the silences after the last write
      }
      if (!settled) cap = setTimeout(finish, openCapMs);
    });
  });
}

module.exports = { observe, parseReplies, COMPARED_HEADERS };
