'use strict';
// The smallest HTTP/1.1 client the built-in engines need: one TCP connection, one request at a
// time, the reply framed by Content-Length (every reply in the contract has one). It exists
// because the built-in engines must control what autocannon cannot: when a connection opens
// (open-loop arrivals), how fast the reply is read (slow readers) and how fast a body is
// sent (trickled uploads). Times are performance.now() milliseconds.

const net = require('node:net');
const { performance } = require('node:perf_hooks');

const MAX_HEADER_BYTES = 64 * 1024;
const WRITE_CHUNK = 64 * 1024;

/** Maps a socket error to one of the error kinds (measure/samples.js ERROR_KINDS; or keeps an explicit kind such as 'cut'). */
function classifyError(err) {
  if (!err) return null;
  if (err.kind) return err.kind;
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'refused';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
      return 'reset';
    case 'ETIMEDOUT':
      return 'timeout';
    default:
      return 'other';
  }
}

// Connections this process could not open for want of a descriptor (EMFILE: its open-files
// limit; ENFILE: the system's), over its life: a run compares the count before and after
// itself (perf/lib/run/run_one.js), so that a run at the fd limit says so instead of showing
// some errors of kind 'other'.
let descriptorFailures = 0;
const outOfDescriptors = () => descriptorFailures;

function kindError(kind, message) {
  const err = new Error(message);
  err.kind = kind;
  return err;
}

let payloadCache = null;
/** A 1 MiB pseudo-random buffer, built once; upload bodies are slices of it, repeated. */
function payloadSource() {
  if (!payloadCache) {
    payloadCache = Buffer.alloc(1024 * 1024);
    let x = 0x9e3779b9;
    for (let i = 0; i < payloadCache.length; i += 4) {
      // xorshift32: cheap, deterministic, incompressible enough for a benchmark body
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      payloadCache.writeUInt32LE(x >>> 0, i);
    }
  }
  return payloadCache;
}

/** Up to `length` payload bytes starting at stream offset `offset` (shorter at the 1 MiB wrap). */
function payloadSlice(offset, length) {
  const src = payloadSource();
  const start = offset % src.length;
  return src.subarray(start, Math.min(src.length, start + length));
}

function buildRequestHead({ method = 'GET', path = '/', host, headers = {}, keepAlive = true, contentLength = null }) {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`, 'User-Agent: em-vs-node-runner'];
  if (!keepAlive) lines.push('Connection: close');
  if (contentLength !== null) {
    lines.push(`Content-Length: ${contentLength}`);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      lines.push('Content-Type: application/octet-stream');
    }
  }
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1');
}

/**
 * Incremental response parser. feed(chunk) returns true once the reply is complete.
 * Skips 1xx interim replies; HEAD replies have no body; without Content-Length the body
 * runs until the peer closes (finishOnEnd()).
 */
class ResponseParser {
  constructor(isHead) {
    this.isHead = isHead;
    this.head = null; // Buffer of header bytes collected so far
    this.status = 0;
    this.contentLength = -1;
    this.bodyBytes = 0;
    this.headerDone = false;
    this.untilClose = false;
    this.keepAlive = true;
    this.complete = false;
  }

  /** Returns the number of body bytes in this chunk (for read pacing). Throws on malformed input. */
  feed(chunk) {
    let bodyChunk = 0;
    while (!this.complete && chunk.length > 0) {
      if (!this.headerDone) {
        this.head = this.head ? Buffer.concat([this.head, chunk]) : chunk;
        const end = this.head.indexOf('\r\n\r\n');
        if (end < 0) {
          if (this.head.length > MAX_HEADER_BYTES) throw kindError('other', 'reply header larger than 64 KiB');
          return bodyChunk;
        }
        const headerText = this.head.subarray(0, end).toString('latin1');
        chunk = this.head.subarray(end + 4);
        this.head = null;
        this.parseHeader(headerText);
        if (this.status >= 100 && this.status < 200) {
          this.resetForNextHeader();
          continue;
        }
        this.headerDone = true;
        if (this.isHead || this.status === 204 || this.status === 304 || this.contentLength === 0) {
          this.complete = true;
          return bodyChunk;
        }
        if (this.contentLength < 0) this.untilClose = true;
      }
      if (this.untilClose) {
        this.bodyBytes += chunk.length;
        bodyChunk += chunk.length;
        return bodyChunk;
      }
      const take = Math.min(chunk.length, this.contentLength - this.bodyBytes);
      this.bodyBytes += take;
      bodyChunk += take;
      if (this.bodyBytes >= this.contentLength) this.complete = true;
      return bodyChunk;
    }
    return bodyChunk;
  }

  parseHeader(text) {
    const lines = text.split('\r\n');
    const m = /^HTTP\/1\.(\d) (\d{3})/.exec(lines[0]);
    if (!m) throw kindError('other', `malformed status line: ${JSON.stringify(lines[0].slice(0, 80))}`);
    this.status = Number(m[2]);
    let connection = '';
    for (let i = 1; i < lines.length; i++) {
      const colon = lines[i].indexOf(':');
      if (colon < 0) continue;
      const name = lines[i].slice(0, colon).trim().toLowerCase();
      if (name === 'content-length') this.contentLength = Number(lines[i].slice(colon + 1).trim());
      else if (name === 'connection') connection = lines[i].slice(colon + 1).trim().toLowerCase();
      else if (name === 'transfer-encoding' && !/^\s*identity\s*$/i.test(lines[i].slice(colon + 1))) {
        throw kindError('other', 'chunked reply (the contract promises Content-Length)');
      }
    }
    if (!Number.isFinite(this.contentLength)) throw kindError('other', 'malformed Content-Length');
    this.keepAlive = m[1] === '1' ? connection !== 'close' : connection === 'keep-alive';
  }

  resetForNextHeader() {
    this.status = 0;
    this.contentLength = -1;
  }

  /** The peer closed: completes an until-close body, otherwise the reply was cut short. */
  finishOnEnd() {
    if (this.headerDone && this.untilClose) {
      this.complete = true;
      this.keepAlive = false;
    }
    return this.complete;
  }
}

/**
 * One client connection to host:port. Opens immediately. request() sends one request and
 * resolves (never rejects) with { status, bodyBytes, sentBytes, doneAt, keepAlive, error }
 * where error is null or { kind, message }.
 */
class HttpConnection {
  constructor({ host, port }) {
    this.host = host;
    this.port = port;
    this.openedAt = performance.now();
    this.connectedAt = null;
    this.closed = false;
    this.current = null;
    this.socket = net.connect({ host, port });
    this.socket.setNoDelay(true);
    this.closedPromise = new Promise((resolve) => {
      this.socket.once('close', () => {
        this.closed = true;
        resolve();
      });
    });
    this.socket.once('connect', () => {
      this.connectedAt = performance.now();
    });
    this.socket.on('data', (chunk) => {
      if (this.current) this.current.onData(chunk);
    });
    this.socket.on('end', () => {
      if (this.current) this.current.onEnd();
    });
    this.socket.on('error', (err) => {
      if (this.current) this.current.fail(err);
    });
    this.socket.on('close', () => {
      if (this.current) this.current.fail(kindError('reset', 'connection closed before the reply was complete'));
    });
  }

  /** Milliseconds from opening to the TCP connection being established, or null. */
  get connectMs() {
    return this.connectedAt === null ? null : this.connectedAt - this.openedAt;
  }

  /**
   * options: { method, path, headers, keepAlive, uploadBytes, uploadBytesPerS,
   *            readBytesPerS, deadlineAt (performance.now() ms) }
   */
  request(options) {
    if (this.current) throw new Error('HttpConnection: one request at a time');
    if (this.closed) {
      return Promise.resolve({ status: 0, bodyBytes: 0, sentBytes: 0, doneAt: performance.now(), keepAlive: false, error: { kind: 'reset', message: 'connection already closed' } });
    }
    const exchange = new Exchange(this, options);
    this.current = exchange;
    return exchange.promise.then((result) => {
      this.current = null;
      return result;
    });
  }

  /** Ends the connection with `kind` as the error of an unfinished request (e.g. 'cut'). */
  abort(kind = 'other', message = 'aborted by the engine') {
    if (this.current) this.current.fail(kindError(kind, message));
    this.socket.destroy();
  }

  /** Half-closes and waits for the peer to close too, destroying at the deadline. Resolves, never rejects. */
  closeGracefully(timeoutMs = 1000) {
    if (this.closed) return Promise.resolve();
    this.socket.end();
    const timer = setTimeout(() => this.socket.destroy(), timeoutMs);
    return this.closedPromise.then(() => clearTimeout(timer));
  }

  destroy() {
    this.socket.destroy();
  }
}

class Exchange {
  constructor(conn, options) {
    this.conn = conn;
    this.options = options;
    this.parser = new ResponseParser((options.method || 'GET') === 'HEAD');
    this.sentBytes = 0;
    this.finished = false;
    this.readStartedAt = null;
    this.readTimer = null;
    this.promise = new Promise((resolve) => {
      this.resolve = resolve;
    });
    const uploadBytes = options.uploadBytes ?? null;
    const head = buildRequestHead({
      method: options.method || (uploadBytes !== null ? 'POST' : 'GET'),
      path: options.path || '/',
      host: `${conn.host}:${conn.port}`,
      headers: options.headers || {},
      keepAlive: options.keepAlive !== false,
      contentLength: uploadBytes,
    });
    if (options.deadlineAt !== undefined && options.deadlineAt !== null) {
      const wait = Math.max(0, options.deadlineAt - performance.now());
      this.deadlineTimer = setTimeout(() => this.fail(kindError('timeout', 'no complete reply before the deadline')), wait);
    }
    conn.socket.write(head);
    if (uploadBytes) this.sendBody(uploadBytes, options.uploadBytesPerS || null);
  }

  async sendBody(total, bytesPerS) {
    const socket = this.conn.socket;
    const startedAt = performance.now();
    // Paced uploads send ~10 pieces a second; unpaced ones as fast as the socket drains.
    const piece = bytesPerS ? Math.max(1, Math.min(WRITE_CHUNK, Math.floor(bytesPerS / 10))) : WRITE_CHUNK;
    while (!this.finished && this.sentBytes < total) {
      if (bytesPerS) {
        const allowed = Math.floor((bytesPerS * (performance.now() - startedAt)) / 1000) + piece;
        if (this.sentBytes >= allowed) {
          const waitMs = ((this.sentBytes - allowed + piece) * 1000) / bytesPerS;
          await new Promise((r) => setTimeout(r, Math.max(1, Math.min(waitMs, 200))));
          continue;
        }
      }
      const n = Math.min(piece, total - this.sentBytes);
      const chunk = payloadSlice(this.sentBytes, n);
      this.sentBytes += chunk.length;
      if (!socket.write(chunk)) {
        await new Promise((r) => {
          socket.once('drain', r);
          this.promise.then(r);
        });
      }
    }
  }

  onData(chunk) {
    if (this.finished) return;
    let body;
    try {
      body = this.parser.feed(chunk);
    } catch (err) {
      this.fail(err);
      return;
    }
    if (this.parser.complete) {
      this.succeed();
      return;
    }
    const rate = this.options.readBytesPerS;
    if (rate && body > 0) {
      // Read pacing: stop reading (the kernel window closes, the server's writes back up)
      // until the byte budget for the elapsed time catches up.
      if (this.readStartedAt === null) this.readStartedAt = performance.now();
      const dueAt = this.readStartedAt + (this.parser.bodyBytes * 1000) / rate;
      const ahead = dueAt - performance.now();
      if (ahead > 1) {
        this.conn.socket.pause();
        this.readTimer = setTimeout(() => {
          this.readTimer = null;
          if (!this.finished) this.conn.socket.resume();
        }, ahead);
      }
    }
  }

  onEnd() {
    if (this.finished) return;
    if (this.parser.finishOnEnd()) this.succeed();
    else this.fail(kindError('reset', 'server closed the connection before the reply was complete'));
  }

  succeed() {
    this.finish({
      status: this.parser.status,
      bodyBytes: this.parser.bodyBytes,
      sentBytes: this.sentBytes,
      doneAt: performance.now(),
      keepAlive: this.parser.keepAlive,
      error: null,
    });
  }

  fail(err) {
    if (this.finished) return;
    if (err && (err.code === 'EMFILE' || err.code === 'ENFILE')) descriptorFailures += 1;
    this.finish({
      status: 0,
      bodyBytes: this.parser.bodyBytes,
      sentBytes: this.sentBytes,
      doneAt: performance.now(),
      keepAlive: false,
      error: { kind: classifyError(err), message: err.message || String(err) },
    });
    this.conn.socket.destroy();
  }

  finish(result) {
    this.finished = true;
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    if (this.readTimer) clearTimeout(this.readTimer);
    if (this.conn.socket.isPaused()) this.conn.socket.resume();
    this.resolve(result);
  }
}

module.exports = {
  HttpConnection,
  ResponseParser,
  buildRequestHead,
  classifyError,
  kindError,
  outOfDescriptors,
  payloadSource,
};
