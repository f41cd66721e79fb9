'use strict';
// A raw HTTP/1.x client for tests: writes exact bytes on a fresh TCP connection and parses the
// replies itself, so the tests see what the servers really send (no client library fixes it up).

const net = require('node:net');

/**
 * Parses as many complete replies as `buffer` holds; HEAD replies have no body. From `offset`,
 * with `finalsBefore` final replies before it (exchange parses as the bytes come, not all again).
 */
function parseReplies(buffer, headFlags, { offset: from = 0, finalsBefore = 0 } = {}) {
  const replies = [];
  let offset = from;
  let finals = finalsBefore;
  while (offset < buffer.length) {
    const headerEnd = buffer.indexOf('\r\n\r\n', offset);
    if (headerEnd === -1) break;
    const lines = buffer.subarray(offset, headerEnd).toString('latin1').split('\r\n');
    const statusMatch = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]);
    if (!statusMatch) throw new Error(`not an HTTP status line: ${JSON.stringify(lines[0])}`);
    const headers = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(statusMatch[1]);
    const informational = status >= 100 && status < 200;
    const headOnly = !informational && headFlags[finals] === true;
    const length = informational || headOnly ? 0 : Number(headers['content-length'] ?? NaN);
    if (Number.isNaN(length)) throw new Error(`reply without Content-Length: ${lines[0]}`);
    if (buffer.length < headerEnd + 4 + length) break;
    replies.push({ status, headers, body: buffer.subarray(headerEnd + 4, headerEnd + 4 + length) });
    if (status >= 200) finals += 1;
    offset = headerEnd + 4 + length;
  }
  return { replies, rest: buffer.subarray(offset), offset, finals };
}

/**
 * Opens a connection, writes each of `writes` (strings are latin1), and collects replies until
 * `count` final (non-1xx) replies arrived and, when `waitForClose`, the server closed. Resolves
 * { replies, closed, extra } where extra holds bytes after the last complete reply.
 */
function exchange(port, writes, { count = 1, waitForClose = false, headFlags = [], timeoutMs = 5000, host = '127.0.0.1' } = {}) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    // The bytes received, and the replies parsed from them so far: each chunk's are parsed as it
    // comes, from where the last complete reply ended (10,000 pipelined replies come in
    // thousands of chunks: parsing everything again on each took seconds).
    const chunks = [];
    let pending = Buffer.alloc(0);
    const parsedReplies = [];
    let finals = 0;
    let closed = false;
    let settled = false;
    const finish = (err) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) return reject(err);
      resolve({ replies: parsedReplies, closed, extra: pending });
    };
    const timer = setTimeout(() => {
      finish(new Error(`timed out after ${timeoutMs} ms with ${parsedReplies.length} replies, closed=${closed}`));
    }, timeoutMs);
    const check = () => {
      if (chunks.length) {
        pending = Buffer.concat([pending, ...chunks.splice(0)]);
        let parsed;
        try {
          parsed = parseReplies(pending, headFlags, { finalsBefore: finals });
        } catch (err) {
          finish(err);
          return;
        }
        parsedReplies.push(...parsed.replies);
        finals = parsed.finals;
        pending = parsed.rest;
      }
      if (finals >= count && (!waitForClose || closed)) finish();
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      check();
    });
    socket.on('end', () => {
      closed = true;
      check();
      if (!settled) finish();
    });
    socket.on('error', (err) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') {
        closed = true;
        if (!settled) finish();
      } else finish(err);
    });
    socket.on('connect', () => {
      for (const data of [].concat(writes)) socket.write(typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
    });
  });
}

/** A GET (or other method) request with Host, as a string. */
function request(method, target, headers = {}, body = '') {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Opens a connection and writes `data` (if any); resolves once connected. */
function openWith(port, data) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      if (data) socket.write(data);
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

/** Resolves with what the socket received (latin1) once the server closed it. */
function untilClosed(socket) {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (c) => {
      text += c.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(text));
  });
}

module.exports = { exchange, request, parseReplies, openWith, untilClosed };
