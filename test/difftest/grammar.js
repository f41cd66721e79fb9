'use strict';
// The differential tester's request grammar: from a seed and a case number, one connection's
// worth of bytes, the ways HTTP/1.x requests go right and wrong. Each production picks among
// its forms with a weight, so that most cases are ordinary requests with one or two odd parts:
// a request line (method, spacing, target and query forms, version), header fields (Host,
// Connection, Upgrade, Expect, framing, fillers with odd names, values and white space, long
// lines, many lines), a body (as the framing promises, short of it, chunked), pipelining, bytes
// after the last request, and how the bytes are split across writes (at once, per request, at
// random cuts with pauses, a byte at a time). Written for this project; every case is
// regenerated from (seed, number) alone, so a disagreement is reproduced by its two numbers.

const { mulberry32 } = require('../support/seeded_random');
const contract = require('../../contract.json');

const MAX_URL_BYTES = contract.limits.MAX_URL_BYTES;
const MAX_HEADER_LINE_BYTES = contract.limits.MAX_HEADER_LINE_BYTES;
const MAX_HEADER_BYTES = contract.limits.MAX_HEADER_BYTES;

/** Random choices from one seeded stream; `labels` records what was chosen, for the report. */
class Chooser {
  constructor(seed) {
    this.next = mulberry32(seed);
    this.labels = [];
  }

  /** An integer in [lo, hi]. */
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p) {
    return this.next() < p;
  }

  pick(items) {
    return items[Math.floor(this.next() * items.length)];
  }

  /** One of [weight, value] pairs; a function value is called (so only the chosen form is built). */
  weighted(pairs) {
    const total = pairs.reduce((sum, [w]) => sum + w, 0);
    let at = this.next() * total;
    for (const [weight, value] of pairs) {
      at -= weight;
      if (at < 0) return typeof value === 'function' ? value() : value;
    }
    const last = pairs[pairs.length - 1][1];
    return typeof last === 'function' ? last() : last;
  }

  label(text) {
    this.labels.push(text);
  }
}

/** A case's own seed from the run's seed and its number, so that any case is made alone. */
function caseSeed(seed, index) {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  return (h ^ (h >>> 15)) >>> 0;
}

// ---- request line -------------------------------------------------------------------------

function method(c) {
  return c.weighted([
    [40, 'GET'], [8, 'HEAD'], [14, 'POST'], [3, 'PUT'], [2, 'DELETE'], [2, 'OPTIONS'], [2, 'PATCH'],
    [1, 'CONNECT'], [1, 'TRACE'], [1, 'PROPFIND'], [1, () => c.pick(['get', 'FOO', 'G@T', 'GET/'])],
    // Methods Node's parser reads that Node's server does not serve: RTSP's, HTTP/2's preface.
    [1, () => c.pick(['DESCRIBE', 'FLUSH', 'PRI', 'SOURCE', 'QUERY'])],
  ]);
}

function delayValue(c) {
  return c.weighted([
    [10, () => String(c.int(0, 40))], [2, '00001'], [1, '10001'], [1, '99999999'], [1, 'abc'], [1, '-5'],
    [1, '1.5'], [1, ''], [1, '+1'], [1, '%31'], [1, '1%'], [1, '%FF'], [1, '1e1'],
  ]);
}

/**
 * The query of a /delay target (or /upstream's, read alike; or /db's, name 'id'), in the forms
 * clients write and mistype.
 */
function delayQuery(c, name = 'ms') {
  const ms = delayValue(c);
  const encoded = name === 'ms' ? 'm%73' : 'i%64';
  return c.weighted([
    [12, `?${name}=${ms}`], [2, `?&${name}=${ms}`], [2, `??${name}=${ms}`], [1, `?${name}=${ms}&${name}=5`], [1, `?${encoded}=${ms}`],
    [1, `?a=b&${name}=${ms}`], [1, `?${name}=${ms}#x`], [1, `?${name}`], [1, `?${name.toUpperCase()}=${ms}`], [1, `?${name}=${ms};x`], [1, ''],
    [1, `?${name}=${ms}&`], [1, `?=&${name}=${ms}`], [1, `?${name}==${ms}`],
  ]);
}

const PATHS = [
  [30, '/hello'], [4, '/'], [3, '/index.html'], [2, '/css/site.css'], [2, '/lipsum100k.txt'], [1, '/data/random-1m.bin'],
  [2, '/docs'], [2, '/docs/'], [1, '/files/'], [1, '/img/logo.png'], [1, '/files/caf%C3%A9%20menu.txt'], [4, '/nothing'],
  [3, '/upload'], [1, '/%zz'], [1, '/caf%E9'], [1, '/..%2fhello'], [1, '/docs/../hello'], [1, '//hello'], [1, '/hello/'],
  [1, '/HELLO'], [1, '*'], [1, 'http://127.0.0.1/hello'], [1, '/hel%6co'], [1, '/a\\b'], [1, '/hello#top'], [1, '/%00'],
];

function target(c) {
  const form = c.weighted([[70, 'path'], [18, 'delay'], [2, 'long']]);
  if (form === 'delay') {
    // /upstream and /db read their query as /delay does; the tester's servers run
    // without backends, so both must give the same 502 and 503.
    const route = c.weighted([[6, 'delay'], [2, 'upstream'], [2, 'db']]);
    c.label(`target:${route}`);
    return `/${route}${delayQuery(c, route === 'db' ? 'id' : 'ms')}`;
  }
  if (form === 'long') {
    // Around MAX_URL_BYTES, and far past it.
    const length = c.pick([MAX_URL_BYTES - 1, MAX_URL_BYTES, MAX_URL_BYTES + 1, 5000, 7990, 8100]);
    c.label(`target:long ${length}`);
    const head = '/hello?pad=';
    return head + 'p'.repeat(length - head.length);
  }
  const path = c.weighted(PATHS);
  const query = c.weighted([
    [20, ''], [2, '?'], [1, '??'], [1, '?a=1'], [1, '?a#b'], [1, '?&'], [1, '?x=%FF'], [1, '?a=b c'.replace(' ', '+')],
  ]);
  return path + query;
}

function requestLine(c, m, t, version) {
  const gap = () => c.weighted([[40, ' '], [1, '  '], [1, '\t'], [1, '   ']]);
  const line = `${m}${gap()}${t}${gap()}${version}`;
  if (line !== `${m} ${t} ${version}`) c.label('request-line:spacing');
  return c.weighted([[60, line], [1, ` ${line}`], [1, `${line} `]]);
}

function version(c) {
  return c.weighted([[75, 'HTTP/1.1'], [22, 'HTTP/1.0'], [1, 'HTTP/1.2'], [1, 'HTTP/2.0'], [1, 'http/1.1'], [1, 'RTSP/1.0']]);
}

// ---- header fields ------------------------------------------------------------------------

function hostFields(c) {
  return c.weighted([
    [40, ['Host: 127.0.0.1']], [3, []], [2, ['Host: a', 'Host: b']], [2, ['Host:']], [1, ['Host: a b']],
    [1, ['Host: [::1]:8080']], [1, ['HOST: x']], [1, ['Host:    x   ']], [1, ['Host: x:y:z']], [1, ['Host: x@y']],
  ]);
}

function connectionFields(c) {
  return c.weighted([
    [40, []], [6, ['Connection: close']], [5, ['Connection: keep-alive']], [1, ['Connection: Keep-Alive']],
    [1, ['Connection: TE, close']], [1, ['Connection: closed']], [1, ['Connection: keep-alive, close']],
    [1, ['Connection: close', 'Connection: keep-alive']], [1, ['Connection: ']], [1, ['Connection: CLOSE ']],
    [3, ['Connection: Upgrade', 'Upgrade: websocket']], [1, ['Connection: keep-alive, Upgrade', 'Upgrade: h2c']],
    [1, ['Connection: close, upgrade', 'Upgrade: websocket']], [1, ['Upgrade: websocket']], [1, ['Connection: Upgrade']],
    [1, ['Connection: upgrade', 'Upgrade:']],
  ]);
}

function expectFields(c) {
  return c.weighted([
    [40, []], [5, ['Expect: 100-continue']], [1, ['Expect: 100-Continue']], [2, ['Expect: foo']],
    [1, ['Expect: 100-continue, foo']], [1, ['Expect:']], [1, ['Expect: 100-continue', 'Expect: 100-continue']],
  ]);
}

function fillerName(c) {
  return c.weighted([
    [30, () => c.pick(['X-A', 'Accept', 'User-Agent', 'x-y-z', 'Cookie', 'Content-Type', 'If-None-Match'])],
    [1, 'Fo@'], [1, 'X A'], [1, 'X-A '], [1, ''], [1, 'X\u0001A'], [1, 'X"A'],
  ]);
}

function fillerValue(c) {
  return c.weighted([
    [30, () => c.pick(['v', '*/*', 'a=b; c=d', 'text/plain', 'hello world'])], [3, ''], [2, '  padded  '],
    [1, () => `${' '.repeat(c.int(100, 9000))}v`], [1, () => `v${' '.repeat(c.int(100, 9000))}`],
    [1, '\tv\t'], [1, 'a\u0000b'], [1, 'a\u0001b'], [1, 'a\u007fb'], [1, 'caf\u00e9'], [1, 'a\rb'],
  ]);
}

/** Filler fields: a few ordinary ones, or a long line, or many lines, or an obsolete fold. */
function fillerFields(c) {
  return c.weighted([
    [30, []],
    [20, () => Array.from({ length: c.int(1, 3) }, () => {
      const name = fillerName(c);
      const value = fillerValue(c);
      const sep = c.weighted([[20, ': '], [2, ':'], [1, ':  ']]);
      if (!/^[A-Za-z-]+$/.test(name) || !/^[ -~]*$/.test(value) || value.length > 60) c.label('header:odd');
      return `${name}${sep}${value}`;
    })],
    [2, () => {
      // One line around MAX_HEADER_LINE_BYTES (its length with the name, colon and space).
      const length = c.pick([MAX_HEADER_LINE_BYTES - 1, MAX_HEADER_LINE_BYTES, MAX_HEADER_LINE_BYTES + 1, MAX_HEADER_LINE_BYTES + 200]);
      c.label(`header:line ${length}`);
      return [`X-Long: ${'b'.repeat(length - 8)}`];
    }],
    [2, () => {
      // Many short lines, the section around MAX_HEADER_BYTES.
      const lines = c.int(Math.floor(MAX_HEADER_BYTES / 24), Math.floor(MAX_HEADER_BYTES / 8));
      c.label(`header:many ${lines}`);
      return Array.from({ length: lines }, (_, i) => `x-${i}: v`);
    }],
    [1, () => {
      c.label('header:fold');
      return ['X-A: a', ' b'];
    }],
  ]);
}

// ---- framing and bodies -------------------------------------------------------------------

function bodyBytes(n) {
  return 'b'.repeat(n);
}

/** The framing fields and the body that follows the header section, as one production. */
function framing(c, m) {
  const sends = m === 'POST' || m === 'PUT' || m === 'PATCH';
  const length = c.weighted([[10, () => c.int(0, 40)], [1, 5000], [1, 0]]);
  return c.weighted([
    [sends ? 4 : 40, { fields: [], body: '' }],
    [sends ? 30 : 3, () => ({ fields: [`Content-Length: ${length}`], body: bodyBytes(length) })],
    [2, () => {
      c.label('body:short');
      return { fields: [`Content-Length: ${length + 5}`], body: bodyBytes(length) };
    }],
    [1, () => {
      c.label('body:over-limit');
      return { fields: [`Content-Length: ${contract.limits.MAX_UPLOAD_BYTES + 1}`], body: '' };
    }],
    [3, () => {
      const value = c.pick(['00005', '4 2', '+3', '-1', ' 5 ', '\t5', '5, 5', '99999999999999999999', '0x5', '']);
      c.label(`body:content-length ${JSON.stringify(value)}`);
      return { fields: [`Content-Length:${value.startsWith(' ') || value.startsWith('\t') ? '' : ' '}${value}`], body: bodyBytes(5) };
    }],
    [1, () => {
      const second = c.pick(['5', '6']);
      c.label(`body:two content-lengths 5, ${second}`);
      return { fields: ['Content-Length: 5', `Content-Length: ${second}`], body: bodyBytes(6) };
    }],
    [4, () => {
      const coding = c.pick(['chunked', 'chunked,', ', chunked', 'gzip, chunked', 'gzip', 'identity', 'chunked, chunked', '', 'Chunked', 'chunked ,']);
      const fields = c.chance(0.15) ? [`Transfer-Encoding: ${coding}`, 'Transfer-Encoding:'] : [`Transfer-Encoding: ${coding}`];
      if (c.chance(0.15)) fields.push('Content-Length: 5');
      c.label(`body:transfer-encoding ${JSON.stringify(fields.slice(0, 2).join(' | '))}${fields.length > 1 && fields.at(-1).startsWith('Content') ? ' + CL' : ''}`);
      return { fields, body: '5\r\nhello\r\n0\r\n\r\n' };
    }],
  ]);
}

// ---- requests and connections -------------------------------------------------------------

/** One request: { bytes, head } (head: a HEAD request, whose reply has no body). */
function request(c) {
  const m = method(c);
  const t = m === 'CONNECT' && c.chance(0.5) ? '127.0.0.1:443' : target(c);
  const v = version(c);
  const { fields: framingFields, body } = framing(c, m);
  const fields = [...hostFields(c), ...connectionFields(c), ...expectFields(c), ...framingFields, ...fillerFields(c)];
  // The fields in another order now and then: the servers must not care.
  if (c.chance(0.2)) fields.reverse();
  const eol = c.weighted([[60, '\r\n'], [1, '\n']]);
  if (eol === '\n') c.label('line-ends:LF');
  const blank = c.weighted([[40, ''], [1, '\r\n'], [1, '\r\n\r\n\r\n']]);
  const head = `${blank}${requestLine(c, m, t, v)}${eol}${fields.map((f) => `${f}${eol}`).join('')}${eol}`;
  c.label(`${m} ${t.length > 60 ? `${t.slice(0, 40)}…` : t} ${v}`);
  return { bytes: Buffer.from(head + body, 'latin1'), head: m === 'HEAD' };
}

// Header sections at the moment of refusal (CONTRACT.md, "One moment to refuse"): a start line
// that names another protocol or no version, an empty Content-Length, one past 2^64 - 1 (each
// after llhttp's own request tests), and bad bytes for contrast; each complete, or cut before
// its end so that only the moment of refusal tells the servers apart.
const MOMENT_SECTIONS = [
  'OPTIONS * RTSP/1.0\r\nCSeq: 1\r\n', 'OPTIONS * RTSP/1.0\r\nFo@: x\r\n', 'GET /hello\r\nHost: x\r\n',
  'POST /upload HTTP/1.1\r\nContent-Length: \r\nHost: x\r\n', 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n',
  'POST /upload HTTP/1.1\r\nContent-Length: 18446744073709551616\r\n', 'POST /upload HTTP/1.1\r\nContent-Length: 99999999999999999999999',
  'GET /hello HTTP/1.1\r\nFo@: x\r\n',
  // A protocol its method may not come with, refused as the protocol's name arrives; a method of
  // another protocol, held; a line no method starts (a body shorter than its Content-Length
  // said); HTTP/2's preface after PRI, held while it follows it.
  'GET /hello ICE/1.0', 'PUT /hello RTSP/1.0\r\nCSeq: 1\r\n', 'DESCRIBE /hello HTTP/1.1\r\n', 'DESCRIBE /hello RTSP/1.0\r\nCSeq: 1\r\n',
  '/upload HTTP/1.1\r\nHost: x\r\n', 'PRI * HTTP/1.1\r\n\r\nSM', 'PRI * HTTP/1.1\r\n\r\nXY',
];

/** What follows the last request on the connection. */
function tail(c) {
  return c.weighted([
    [30, ''], [3, 'x'], [1, '\r\n'], [1, 'GARBAGE\r\n\r\n'], [1, '\u0016\u0003\u0001\u0002\u0000'],
    [2, 'GET /hello HTTP/1.1\r\nHost: x\r\n\r\n'], [1, 'GET /hel'],
    [2, () => {
      const section = c.pick(MOMENT_SECTIONS);
      return c.chance(0.5) || section.endsWith('9') ? section : `${section}\r\n`;
    }],
  ]);
}

/** How the bytes go out: [{ bytes, pauseMs }], pauseMs before each write. */
function writes(c, requests, after) {
  const whole = Buffer.concat([...requests.map((r) => r.bytes), Buffer.from(after, 'latin1')]);
  const plan = c.weighted([[50, 'once'], [10, 'per-request'], [10, 'cuts'], [3, 'bytes'], [5, 'tail-later']]);
  if (plan !== 'once') c.label(`split:${plan}`);
  if (plan === 'per-request' || plan === 'tail-later') {
    const parts = requests.map((r) => ({ bytes: r.bytes, pauseMs: 0 }));
    if (after) parts.push({ bytes: Buffer.from(after, 'latin1'), pauseMs: plan === 'tail-later' ? c.pick([20, 100, 300]) : 0 });
    if (plan === 'tail-later' && !after) parts[parts.length - 1].pauseMs = 0;
    return parts.map((p) => ({ ...p, pauseMs: plan === 'per-request' ? c.pick([0, 0, 10, 50]) : p.pauseMs }));
  }
  if (plan === 'cuts' && whole.length > 2) {
    const cuts = [...new Set(Array.from({ length: c.int(1, 3) }, () => c.int(1, whole.length - 1)))].sort((a, b) => a - b);
    return [0, ...cuts].map((from, i) => ({ bytes: whole.subarray(from, cuts[i] ?? whole.length), pauseMs: i === 0 ? 0 : c.pick([0, 5, 30, 120]) }));
  }
  if (plan === 'bytes' && whole.length <= 300) {
    return [...whole].map((byte) => ({ bytes: Buffer.from([byte]), pauseMs: 0 }));
  }
  return [{ bytes: whole, pauseMs: 0 }];
}

/**
 * Case `index` of `seed`: { seed, index, writes: [{ bytes, pauseMs }], heads: [bool per
 * request], lengths: [bytes per request; what follows the last is the tail], labels: [what was
 * chosen] }.
 */
function makeCase(seed, index) {
  const c = new Chooser(caseSeed(seed, index));
  const count = c.weighted([[70, 1], [20, 2], [10, () => c.int(3, 6)]]);
  const requests = Array.from({ length: count }, () => request(c));
  const after = tail(c);
  if (after) c.label(`tail:${JSON.stringify(after)}`);
  return { seed, index, writes: writes(c, requests, after), heads: requests.map((r) => r.head), lengths: requests.map((r) => r.bytes.length), labels: c.labels };
}

module.exports = { makeCase, caseSeed };
