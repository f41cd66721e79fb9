'use strict';
// The contract the three servers honour: one table of requests, each sent over a raw socket to
// each server, on each runtime the project runs them on. Every case asserts its own
// expectations on each server, and then that the servers agreed: same status, same set of
// header names, same body bytes.

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { exchange, request } = require('../support/raw_http');
const { runtimeSets, useServers } = require('../support/servers');
const { loadServerDefinitions } = require('../../perf/lib/hosts/server_process');
const { withRuntimeVariants } = require('../../perf/lib/hosts/runtimes');
const contract = require('../../contract.json');

const WWW = path.join(__dirname, '..', '..', 'shared_www');
const file = (name) => fs.readFileSync(path.join(WWW, name));
const sha256 = (data) => crypto.createHash('sha256').update(data).digest('hex');
const PROJECT_SECRET = fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'));

const ok = (type, body) => (reply) => {
  assert.equal(reply.status, 200);
  assert.equal(reply.headers['content-type'], type);
  assert.equal(Number(reply.headers['content-length']), body.length);
  assert.ok(reply.body.equals(body), 'body differs from the file');
};
const status = (code, extra = () => {}) => (reply, result) => {
  assert.equal(reply.status, code);
  extra(reply, result);
};
const neverOutsideRoot = (reply) => {
  assert.ok([400, 404].includes(reply.status), `status ${reply.status}`);
  assert.ok(!reply.body.includes(PROJECT_SECRET.subarray(0, 40)), 'a byte from outside the document root was served');
};

// Each case: send (raw bytes), expect(reply, result), and optional exchange options.
const CASES = [
  { name: 'GET / serves index.html', send: request('GET', '/'), expect: ok('text/html; charset=utf-8', file('index.html')) },
  {
    name: 'HEAD / has the length of index.html and no body',
    send: request('HEAD', '/'),
    options: { headFlags: [true] },
    expect: (reply, result) => {
      assert.equal(reply.status, 200);
      assert.equal(Number(reply.headers['content-length']), file('index.html').length);
      assert.equal(result.extra.length, 0, 'HEAD reply carried a body');
    },
  },
  { name: 'GET /hello is the seed study reply', send: request('GET', '/hello'), expect: ok('text/plain', Buffer.from('asdfghjkl;')) },
  {
    name: 'HEAD /hello',
    send: request('HEAD', '/hello'),
    options: { headFlags: [true] },
    expect: (reply) => assert.equal(reply.headers['content-length'], '10'),
  },
  { name: 'a text file by extension', send: request('GET', '/lipsum100k.txt'), expect: ok('text/plain; charset=utf-8', file('lipsum100k.txt')) },
  { name: 'a stylesheet', send: request('GET', '/css/site.css'), expect: ok('text/css; charset=utf-8', file('css/site.css')) },
  { name: 'a script', send: request('GET', '/js/site.js'), expect: ok('text/javascript; charset=utf-8', file('js/site.js')) },
  { name: 'a JSON file', send: request('GET', '/data/servers.json'), expect: ok('application/json', file('data/servers.json')) },
  { name: 'an SVG image', send: request('GET', '/img/logo.svg'), expect: ok('image/svg+xml', file('img/logo.svg')) },
  { name: 'a PNG image', send: request('GET', '/img/logo.png'), expect: ok('image/png', file('img/logo.png')) },
  { name: 'a JPEG image', send: request('GET', '/img/photo.jpg'), expect: ok('image/jpeg', file('img/photo.jpg')) },
  { name: 'the 1 MiB binary as octet-stream', send: request('GET', '/data/random-1m.bin'), expect: ok('application/octet-stream', file('data/random-1m.bin')) },
  {
    name: 'a name with a space and a non-ASCII letter',
    send: request('GET', '/files/caf%C3%A9%20menu.txt'),
    expect: ok('text/plain; charset=utf-8', file('files/café menu.txt')),
  },
  { name: 'a folder with a trailing slash serves its index.html', send: request('GET', '/docs/'), expect: ok('text/html; charset=utf-8', file('docs/index.html')) },
  { name: 'a folder without a trailing slash serves its index.html', send: request('GET', '/docs'), expect: ok('text/html; charset=utf-8', file('docs/index.html')) },
  { name: 'a folder without index.html is 404', send: request('GET', '/files/'), expect: status(404) },
  {
    name: 'an unknown path is 404 with a short text body, and the connection stays open',
    send: request('GET', '/no/such/page'),
    expect: status(404, (reply) => {
      assert.equal(reply.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(reply.body.toString(), 'Not Found\n');
      assert.equal(reply.headers.connection, 'keep-alive');
    }),
  },
  { name: 'hidden files are never served', send: request('GET', '/.gitkeep'), expect: status(404) },
  {
    name: 'PUT on /hello is 405 with Allow',
    send: request('PUT', '/hello'),
    options: { waitForClose: true },
    expect: status(405, (reply, result) => {
      assert.equal(reply.headers.allow, 'GET, HEAD');
      assert.ok(result.closed, 'a refused request closes the connection');
    }),
  },
  { name: 'DELETE on a file is 405 with Allow', send: request('DELETE', '/index.html'), expect: status(405, (r) => assert.equal(r.headers.allow, 'GET, HEAD')) },
  { name: 'GET on /upload is 405 with Allow: POST', send: request('GET', '/upload'), expect: status(405, (r) => assert.equal(r.headers.allow, 'POST')) },
  {
    name: 'PATCH (a method the EM parser does not know) on /hello is 405 with Allow',
    send: request('PATCH', '/hello', { 'Content-Length': 3 }, 'abc'),
    expect: status(405, (r) => assert.equal(r.headers.allow, 'GET, HEAD')),
  },
  {
    name: 'OPTIONS (no route takes it) on an unknown path is 404, and closes as a method error',
    send: request('OPTIONS', '/nothing'),
    options: { waitForClose: true },
    expect: status(404, (reply, result) => assert.ok(result.closed)),
  },
  { name: 'PUT on an unknown path is 404', send: request('PUT', '/nothing', { 'Content-Length': 2 }, 'hi'), expect: status(404) },
  {
    name: 'POST on an unknown path is 404 and the connection stays open',
    send: request('POST', '/nothing', { 'Content-Length': 2 }, 'hi') + request('GET', '/hello'),
    options: { count: 2 },
    expect: (reply, result) => assert.deepEqual(result.replies.map((r) => r.status), [404, 200]),
  },
  {
    name: 'POST /upload streams the body through SHA-256',
    send: request('POST', '/upload', { 'Content-Length': 102400, 'Content-Type': 'text/plain' }, file('lipsum100k.txt').toString('latin1')),
    expect: (reply) => {
      assert.equal(reply.status, 200);
      assert.equal(reply.headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(reply.body), { bytes: 102400, sha256: sha256(file('lipsum100k.txt')) });
    },
  },
  {
    name: 'POST /upload with no body',
    send: request('POST', '/upload', { 'Content-Length': 0 }),
    expect: (reply) => assert.deepEqual(JSON.parse(reply.body), { bytes: 0, sha256: sha256(Buffer.alloc(0)) }),
  },
  {
    name: 'an upload over MAX_UPLOAD_BYTES is 413 at once, before its body is sent',
    send: request('POST', '/upload', { 'Content-Length': 16 * 1024 * 1024 + 1 }),
    options: { waitForClose: true },
    expect: status(413, (reply, result) => assert.ok(result.closed)),
  },
  {
    name: 'Expect: 100-continue on an upload gets 100 Continue, then the upload result',
    send: request('POST', '/upload', { 'Content-Length': 5, Expect: '100-continue' }),
    options: { count: 0, timeoutMs: 3000 },
    expect: (reply) => assert.equal(reply.status, 100),
  },
  {
    name: 'Expect: 100-continue over the limit is 413 without a 100',
    send: request('POST', '/upload', { 'Content-Length': 16 * 1024 * 1024 + 1, Expect: '100-continue' }),
    expect: status(413),
  },
  { name: 'an unknown expectation is 417', send: request('GET', '/hello', { Expect: 'teapot' }), expect: status(417) },
  { name: '/delay?ms=20 answers after a timer', send: request('GET', '/delay?ms=20'), expect: ok('text/plain; charset=utf-8', Buffer.from('waited 20 ms\n')) },
  { name: '/delay?ms=0', send: request('GET', '/delay?ms=0'), expect: status(200) },
  { name: '/delay without ms is 400', send: request('GET', '/delay'), expect: status(400) },
  { name: '/delay?ms=abc is 400', send: request('GET', '/delay?ms=abc'), expect: status(400) },
  { name: '/delay?ms=10001 is 400', send: request('GET', '/delay?ms=10001'), expect: status(400) },
  { name: '/delay?ms=-5 is 400', send: request('GET', '/delay?ms=-5'), expect: status(400) },
  { name: 'traversal with ..', send: request('GET', '/../package.json'), expect: neverOutsideRoot },
  { name: 'traversal with %2e%2e', send: request('GET', '/%2e%2e/package.json'), expect: neverOutsideRoot },
  { name: 'traversal from a folder', send: request('GET', '/docs/../../package.json'), expect: neverOutsideRoot },
  { name: 'traversal with an encoded slash', send: request('GET', '/..%2fpackage.json'), expect: neverOutsideRoot },
  { name: 'traversal with an encoded slash, upper case', send: request('GET', '/docs%2F..%2F..%2Fpackage.json'), expect: neverOutsideRoot },
  { name: 'traversal with backslashes', send: request('GET', '/..\\package.json'), expect: neverOutsideRoot },
  { name: 'traversal with encoded backslashes', send: request('GET', '/%5c..%5cpackage.json'), expect: neverOutsideRoot },
  { name: 'an encoded NUL', send: request('GET', '/index.html%00.txt'), expect: neverOutsideRoot },
  { name: 'an absolute path', send: request('GET', '//etc/passwd'), expect: neverOutsideRoot },
  { name: 'a bad percent escape is 400', send: request('GET', '/%zz'), expect: status(400) },
  { name: 'an escape that is not UTF-8 is 400', send: request('GET', '/caf%E9'), expect: status(400) },
  {
    name: 'a chunked upload is refused with 411 and the connection closes',
    send: request('POST', '/upload', { 'Transfer-Encoding': 'chunked' }, '5\r\nhello\r\n0\r\n\r\n'),
    options: { waitForClose: true },
    expect: status(411, (reply, result) => assert.ok(result.closed)),
  },
  {
    name: 'Content-Length with Transfer-Encoding (smuggling) is 400 and closes',
    send: request('POST', '/upload', { 'Content-Length': 5, 'Transfer-Encoding': 'chunked' }, '0\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n'),
    options: { waitForClose: true },
    expect: (reply, result) => {
      assert.equal(reply.status, 400);
      assert.equal(result.replies.length, 1, 'the smuggled request was answered');
      assert.ok(result.closed);
    },
  },
  {
    name: 'two Content-Length headers are 400',
    send: request('POST', '/upload', { 'Content-Length': 3, 'content-length': 4 }, 'abcd'),
    options: { waitForClose: true },
    expect: status(400),
  },
  { name: 'a non-numeric Content-Length is 400', send: request('POST', '/upload', { 'Content-Length': '+3' }, 'abc'), expect: status(400) },
  { name: 'HTTP/1.1 without Host is 400', send: 'GET /hello HTTP/1.1\r\n\r\n', expect: status(400) },
  // Where the two parsers disagreed, the contract decides (CONTRACT.md).
  { name: 'two Host headers are 400', send: 'GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n', options: { waitForClose: true }, expect: status(400) },
  { name: 'a Host that is not a host is 400', send: 'GET /hello HTTP/1.1\r\nHost: a b\r\n\r\n', options: { waitForClose: true }, expect: status(400) },
  { name: 'an empty Host is allowed', send: 'GET /hello HTTP/1.1\r\nHost:\r\n\r\n', expect: status(200) },
  { name: 'a Host with an IPv6 address and a port', send: 'GET /hello HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n', expect: status(200) },
  { name: 'CONNECT to host:port is 400 (neither server is a proxy)', send: 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', options: { waitForClose: true }, expect: status(400) },
  { name: 'CONNECT with a path is 400 too', send: request('CONNECT', '/hello'), options: { waitForClose: true }, expect: status(400) },
  {
    name: 'a tab after the Content-Length value is white space',
    send: 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length:\t5\t\r\n\r\nhello',
    expect: (reply) => assert.equal(JSON.parse(reply.body).bytes, 5),
    runtimeDifference: { id: 'node20-content-length-tab', options: { waitForClose: true }, expect: status(400) },
  },
  {
    name: 'a tab before the Content-Length value is white space',
    send: 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length:\t5\r\n\r\nhello',
    expect: (reply) => assert.equal(JSON.parse(reply.body).bytes, 5),
  },
  {
    name: 'a Content-Length with 20 digits of leading zeros is its value',
    send: request('POST', '/upload', { 'Content-Length': '00000000000000000005' }, 'hello'),
    expect: (reply) => assert.deepEqual(JSON.parse(reply.body), { bytes: 5, sha256: sha256(Buffer.from('hello')) }),
  },
  { name: 'a Content-Length past 64 bits is 400', send: request('POST', '/upload', { 'Content-Length': '99999999999999999999' }, 'hello'), options: { waitForClose: true }, expect: status(400) },
  { name: 'chunked twice in one Transfer-Encoding is 400', send: request('POST', '/upload', { 'Transfer-Encoding': 'chunked, chunked' }, '0\r\n\r\n'), options: { waitForClose: true }, expect: status(400) },
  {
    name: 'chunked in two Transfer-Encoding lines is 400',
    send: 'POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    options: { waitForClose: true },
    expect: status(400),
  },
  { name: 'an empty Transfer-Encoding with Content-Length is 400', send: 'POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \r\nContent-Length: 5\r\n\r\nhello', options: { waitForClose: true }, expect: status(400) },
  { name: 'gzip then chunked is a chunked body: 411', send: request('POST', '/upload', { 'Transfer-Encoding': 'gzip, chunked' }, '0\r\n\r\n'), options: { waitForClose: true }, expect: status(411) },
  ...['xchunked', 'identity', 'gzip'].map((coding) => ({
    name: `Transfer-Encoding: ${coding} is one 400 and a close, never two replies`,
    send: request('POST', '/upload', { 'Transfer-Encoding': coding }, '5\r\nhello\r\n0\r\n\r\n'),
    options: { waitForClose: true, timeoutMs: 3000 },
    expect: (reply, result) => {
      assert.equal(reply.status, 400);
      assert.equal(result.replies.length, 1, `${result.replies.length} replies`);
      assert.equal(result.extra.length, 0, 'bytes after the reply');
      assert.ok(result.closed);
    },
  })),
  { name: 'Expect: 100-continue with another expectation is 417', send: request('POST', '/upload', { 'Content-Length': 5, Expect: '100-continue, foo' }), options: { waitForClose: true }, expect: status(417) },
  { name: '/delay?ms=00001 waits 1 ms and says so', send: request('GET', '/delay?ms=00001'), expect: ok('text/plain; charset=utf-8', Buffer.from('waited 1 ms\n')) },
  ...['%FF', '%80', '%C3', '1%FF'].map((ms) => ({ name: `/delay?ms=${ms} (not UTF-8) is 400`, send: request('GET', `/delay?ms=${ms}`), options: { waitForClose: true }, expect: status(400) })),
  // The rows where the servers once disagreed; CONTRACT.md decides each.
  { name: '/delay?&ms=1: an empty pair before ms is skipped', send: request('GET', '/delay?&ms=1'), expect: ok('text/plain; charset=utf-8', Buffer.from('waited 1 ms\n')) },
  { name: '/delay?a=b&m%73=2: the first pair whose decoded name is ms', send: request('GET', '/delay?a=b&m%73=2'), expect: ok('text/plain; charset=utf-8', Buffer.from('waited 2 ms\n')) },
  { name: '/delay??ms=1 has no pair named ms: 400', send: request('GET', '/delay??ms=1'), options: { waitForClose: true }, expect: status(400) },
  { name: 'a # in the query is 400', send: request('GET', '/hello?a#b'), options: { waitForClose: true }, expect: status(400) },
  { name: 'Transfer-Encoding: chunked, (anything after chunked) is 400', send: request('POST', '/upload', { 'Transfer-Encoding': 'chunked,' }, '0\r\n\r\n'), options: { waitForClose: true }, expect: status(400) },
  { name: 'Transfer-Encoding: , chunked (an empty element first) is chunked: 411', send: request('POST', '/upload', { 'Transfer-Encoding': ', chunked' }, '0\r\n\r\n'), options: { waitForClose: true }, expect: status(411) },
  {
    name: 'Transfer-Encoding: chunked and a second, empty field is 400 (an empty field is refused)',
    send: 'POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding:\r\n\r\n0\r\n\r\n',
    options: { waitForClose: true },
    expect: status(400),
    runtimeDifference: { id: 'node20-empty-transfer-encoding', options: { waitForClose: true }, expect: status(411) },
  },
  {
    name: 'HEAD with an empty Transfer-Encoding is the parser\'s 400, with its body',
    send: 'HEAD /hello HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n\r\n',
    options: { waitForClose: true },
    expect: (reply) => {
      assert.equal(reply.status, 400);
      assert.equal(reply.body.toString(), 'Bad Request\n');
    },
    runtimeDifference: { id: 'node20-empty-transfer-encoding', options: { waitForClose: true, headFlags: [true] }, expect: (reply) => assert.equal(reply.status, 400) },
  },
  ...[
    ['a URL over MAX_URL_BYTES', request('GET', `/hello?${'a'.repeat(5000)}`, { Expect: 'foo' }), 414],
    ['two Hosts', 'GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\nExpect: foo\r\n\r\n', 400],
    ['a chunked body', request('POST', '/upload', { Expect: 'foo', 'Transfer-Encoding': 'chunked' }, '0\r\n\r\n'), 411],
    ['an upload over the limit', request('POST', '/upload', { Expect: 'foo', 'Content-Length': 16 * 1024 * 1024 + 1 }), 413],
  ].map(([what, send, code]) => ({ name: `Expect: foo with ${what} is that error (${code}), not 417`, send, options: { waitForClose: true }, expect: status(code) })),
  {
    name: 'Expect: 100-continue with two Hosts is 400 and no 100 Continue',
    send: 'POST /upload HTTP/1.1\r\nHost: a\r\nHost: b\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n',
    options: { waitForClose: true },
    expect: (reply, result) => assert.deepEqual(result.replies.map((r) => r.status), [400]),
  },
  {
    name: 'Expect: 100-continue on a route that reads no body: the reply at once, no 100, and a close',
    send: request('GET', '/hello', { Expect: '100-continue' }),
    options: { waitForClose: true },
    expect: (reply, result) => {
      assert.deepEqual(result.replies.map((r) => r.status), [200]);
      assert.equal(reply.headers.connection, 'close');
    },
  },
  { name: 'Expect: foo on HTTP/1.0 is ignored', send: 'GET /hello HTTP/1.0\r\nExpect: foo\r\n\r\n', options: { waitForClose: true }, expect: status(200) },
  {
    name: 'Expect: 100-continue on HTTP/1.0 is ignored: no 100, the upload read as sent',
    send: 'POST /upload HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello',
    options: { waitForClose: true },
    expect: (reply, result) => {
      assert.deepEqual(result.replies.map((r) => r.status), [200]);
      assert.equal(JSON.parse(reply.body).bytes, 5);
    },
  },
  {
    name: 'a header line counted without the white space around its value (raw 8400 bytes, 7407 counted)',
    send: request('GET', '/hello', { 'X-Pad': `${' '.repeat(500)}${'v'.repeat(7400)}${' '.repeat(500)}` }),
    expect: status(200),
  },
  { name: 'a request line over MAX_HEADER_LINE_BYTES is 414 (its target is over MAX_URL_BYTES)', send: request('GET', `/${'a'.repeat(8100)}`), options: { waitForClose: true }, expect: status(414) },
  {
    name: 'two spaces between method, target and version are read as one, and the connection stays open',
    send: 'GET  /hello  HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n',
    options: { count: 2 },
    expect: (reply, result) => assert.deepEqual(result.replies.map((r) => `${r.status} ${r.headers.connection}`), ['200 keep-alive', '200 keep-alive']),
  },
  { name: 'a tab between method and target is 400', send: 'GET\t/hello HTTP/1.1\r\nHost: x\r\n\r\n', options: { waitForClose: true }, expect: status(400) },
  { name: 'GET /hello with a Content-Length whose body never comes is answered at once', send: request('GET', '/hello', { 'Content-Length': 5 }), options: { timeoutMs: 2000 }, expect: status(200) },
  { name: 'POST /hello with a Content-Length whose body never comes is 405 at once', send: request('POST', '/hello', { 'Content-Length': 100 }), options: { waitForClose: true, timeoutMs: 2000 }, expect: status(405) },
  {
    name: 'a body sent to a route that reads none is dropped, and the next request is read',
    send: request('GET', '/hello', { 'Content-Length': 5 }, 'GET /') + request('GET', '/nothing'),
    options: { count: 2 },
    expect: (reply, result) => assert.deepEqual(result.replies.map((r) => r.status), [200, 404]),
  },
  ...[
    ['a bad byte in a field name', 'GET /hello HTTP/1.1\r\nHost: x\r\nFo@: x'],
    ['a line starting with a space', 'GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b'],
    ['a Content-Length of 4 2', 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 4 2'],
  ].map(([what, send]) => ({ name: `${what}, before the section ends, is 400 at once`, send, options: { waitForClose: true, timeoutMs: 2000 }, expect: status(400) })),
  {
    name: 'HEAD refused by the server (two Hosts) is 400 without a body',
    send: 'HEAD /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n',
    options: { waitForClose: true, headFlags: [true] },
    expect: (reply, result) => {
      assert.equal(reply.status, 400);
      assert.equal(result.extra.length, 0, 'a body after the reply to HEAD');
    },
  },
  {
    name: 'HEAD refused by Node\'s parser (a Content-Length that is no number) is 400 with its body',
    send: 'HEAD /hello HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    options: { waitForClose: true },
    expect: (reply) => assert.equal(reply.body.toString(), 'Bad Request\n'),
  },
  {
    name: 'Content-Length, then an empty Transfer-Encoding, is 400 (Node\'s parser: its body even to HEAD)',
    send: 'HEAD /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding:\r\n\r\nhello',
    options: { waitForClose: true },
    expect: (reply) => assert.equal(reply.body.toString(), 'Bad Request\n'),
  },
  {
    name: 'an upload with a # in its target and Expect: 100-continue is 400 and no 100',
    send: request('POST', '/upload?a#b', { Expect: '100-continue', 'Content-Length': 5 }),
    options: { waitForClose: true },
    expect: (reply, result) => assert.deepEqual(result.replies.map((r) => r.status), [400]),
  },
  { name: 'HTTP/2.0 in the request line is 400', send: 'GET /hello HTTP/2.0\r\nHost: x\r\n\r\n', options: { waitForClose: true }, expect: status(400) },
  {
    name: 'a request line split in two writes with two spaces in it',
    send: ['GET  /hel', 'lo  HTTP/1.1\r\nHost: x\r\n\r\n'],
    expect: status(200),
  },
  {
    name: 'a request that cannot be parsed: 4xx and close',
    send: 'GARBAGE\r\n\r\n',
    options: { waitForClose: true },
    expect: (reply, result) => {
      assert.equal(reply.status, 400);
      assert.ok(result.closed);
    },
  },
  {
    name: 'empty lines before a request are ignored',
    send: `${'\r\n'.repeat(40)}${request('GET', '/hello')}`,
    expect: ok('text/plain', Buffer.from('asdfghjkl;')),
  },
  {
    name: 'HTTP/1.0 closes after the reply',
    send: 'GET /hello HTTP/1.0\r\n\r\n',
    options: { waitForClose: true },
    expect: (reply, result) => {
      assert.equal(reply.status, 200);
      assert.equal(reply.headers.connection, 'close');
      assert.ok(result.closed);
    },
  },
  {
    name: 'HTTP/1.0 with Connection: keep-alive stays open for a second request',
    send: 'GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /hello HTTP/1.0\r\n\r\n',
    options: { count: 2, waitForClose: true },
    expect: (reply, result) => {
      assert.deepEqual(result.replies.map((r) => r.headers.connection), ['keep-alive', 'close']);
      assert.ok(result.closed);
    },
  },
  {
    name: 'HTTP/1.1 with Connection: close closes after the reply',
    send: request('GET', '/hello', { Connection: 'close' }),
    options: { waitForClose: true },
    expect: (reply, result) => {
      assert.equal(reply.headers.connection, 'close');
      assert.ok(result.closed);
    },
  },
  {
    name: 'a close token anywhere in Connection, in any case or header, closes after the reply',
    send: 'GET /hello HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nConnection: TE, \tCLOSE \r\n\r\n',
    options: { waitForClose: true },
    expect: (reply, result) => {
      assert.equal(reply.headers.connection, 'close');
      assert.ok(result.closed);
    },
  },
  {
    name: 'Connection tokens that merely contain close or keep-alive change nothing',
    send: 'GET /hello HTTP/1.1\r\nHost: a\r\nConnection: closed, x-close\r\n\r\nGET /hello HTTP/1.0\r\nConnection: keep-alives\r\n\r\n',
    options: { count: 2, waitForClose: true },
    expect: (reply, result) => {
      assert.deepEqual(result.replies.map((r) => r.headers.connection), ['keep-alive', 'close']);
      assert.ok(result.closed);
    },
  },
  {
    name: 'HTTP/1.0 with keep-alive among other Connection tokens stays open',
    send: 'GET /hello HTTP/1.0\r\nConnection: TE, Keep-Alive\r\n\r\nGET /hello HTTP/1.0\r\n\r\n',
    options: { count: 2, waitForClose: true },
    expect: (reply, result) => {
      assert.deepEqual(result.replies.map((r) => r.headers.connection), ['keep-alive', 'close']);
      assert.ok(result.closed);
    },
  },
  {
    name: 'pipelined requests are answered in order, a slow one first',
    send: request('GET', '/delay?ms=150') + request('GET', '/hello') + request('HEAD', '/lipsum100k.txt') + request('GET', '/nope'),
    options: { count: 4, headFlags: [false, false, true, false] },
    expect: (reply, result) => {
      assert.deepEqual(result.replies.map((r) => r.status), [200, 200, 200, 404]);
      assert.equal(result.replies[0].body.toString(), 'waited 150 ms\n');
      assert.equal(result.replies[1].body.toString(), 'asdfghjkl;');
      assert.equal(result.replies[2].headers['content-length'], '102400');
    },
  },
  ...['/delay?ms=50', '/hello'].map((first) => ({
    name: `an upload expecting 100-continue pipelined behind GET ${first}: its 100 Continue in its turn, after that reply and before its own, and the connection kept`,
    send: request('GET', first) + request('POST', '/upload', { 'Content-Length': 5, Expect: '100-continue' }) + 'hello',
    options: { count: 2 },
    expect: (reply, result) => {
      assert.deepEqual(result.replies.map((r) => r.status), [200, 100, 200]);
      assert.deepEqual(JSON.parse(result.replies[2].body), { bytes: 5, sha256: sha256(Buffer.from('hello')) });
      assert.equal(result.replies[2].headers.connection, 'keep-alive');
      assert.equal(result.extra.length, 0, 'bytes after the last reply');
    },
  })),
];

// On every runtime the project runs the servers on (test/support/servers.js runtimeSets): the
// contract is the servers', whatever runs them, but where a runtime's own parser answers
// otherwise (contract.json runtime_differences): a case names that difference, and the server
// on that runtime is held to its runtime's answer and left out of the agreement.
const RUNTIME_DIFFERENCES = new Map(contract.runtime_differences.map((d) => [d.id, d]));
for (const { names } of runtimeSets()) {
  const definitions = withRuntimeVariants(loadServerDefinitions(), names);
  const onRuntime = (name, difference) => {
    const d = RUNTIME_DIFFERENCES.get(difference.id);
    assert.ok(d, `contract.json runtime_differences has no ${difference.id}`);
    return (definitions[name].variant_of || name) === d.server && definitions[name].runtime === d.runtime;
  };
  describe(`the contract, on the three servers: ${names.map((n) => `${n.split('@')[0]} on ${definitions[n].runtime}`).join(', ')}`, function () {
    const servers = useServers({}, names);

    for (const testCase of CASES) {
      it(testCase.name, async () => {
        const results = {};
        const differing = testCase.runtimeDifference ? names.filter((name) => onRuntime(name, testCase.runtimeDifference)) : [];
        for (const name of names) {
          const own = differing.includes(name) ? testCase.runtimeDifference : testCase;
          const result = await exchange(servers[name].port, testCase.send, own.options);
          assert.ok(result.replies.length > 0, `${name}: no reply`);
          for (const reply of result.replies) {
            if (reply.status < 200) continue;
            assert.ok(reply.headers.date, `${name}: no Date header`);
            assert.ok(reply.headers['content-type'], `${name}: no Content-Type header`);
            assert.ok(reply.headers['content-length'] !== undefined, `${name}: no Content-Length header`);
            assert.equal(reply.headers['transfer-encoding'], undefined, `${name}: chunked reply`);
          }
          try {
            own.expect(result.replies[0], result);
          } catch (err) {
            err.message = `${name}: ${err.message}`;
            throw err;
          }
          results[name] = result;
        }
        const [first, ...others] = names.filter((name) => !differing.includes(name));
        for (const other of others) {
          const a = results[first].replies;
          const b = results[other].replies;
          assert.deepEqual(b.map((r) => r.status), a.map((r) => r.status), `${other} and ${first} differ in status`);
          a.forEach((replyA, i) => {
            assert.deepEqual(Object.keys(b[i].headers).sort(), Object.keys(replyA.headers).sort(), `${other} and ${first} differ in header names`);
            assert.ok(b[i].body.equals(replyA.body), `${other} and ${first} differ in body`);
          });
          assert.equal(results[other].closed, results[first].closed, `${other} and ${first} differ in closing the connection`);
        }
      });
    }
  });
}
