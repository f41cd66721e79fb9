'use strict';
// llhttp's request tests as the tester's cases (test/difftest/corpus.js): the bytes its markdown
// format stands for, which blocks are requests, and a folder that holds none refused in a line.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { corpusCases, blockBytes } = require('../../../test/difftest/corpus');
const { makeTmpDir } = require('../../support/runner_helpers');

const FILE = [
  'Invalid requests',
  '================',
  '',
  '### ICE protocol and GET method',
  '',
  '<!-- meta={"type": "request"} -->',
  '```http',
  'GET /music ICE/1.0',
  'Host: example.com',
  '',
  '',
  '```',
  '',
  '```log',
  'off=0 message begin',
  '```',
  '',
  '### A header folded \\',
  '',
  '<!-- meta={"type": "request-lenient-headers"} -->',
  '```http',
  'GET / HTTP/1.1',
  'X: a\\tb\\x7f\\',
  'z',
  '',
  '',
  '```',
  '',
  '### A response',
  '',
  '<!-- meta={"type": "response"} -->',
  '```http',
  'HTTP/1.1 200 OK',
  '',
  '',
  '```',
  '',
  '### Computed',
  '',
  '<!-- meta={"type": "request"} -->',
  '```http',
  'GET /${"a".repeat(3)} HTTP/1.1',
  '',
  '',
  '```',
].join('\n');

describe('llhttp\'s request tests as cases', () => {
  it('makes the bytes as llhttp\'s markdown tests do: CRLF line ends, the last newline dropped, a trailing backslash joining lines, escapes', () => {
    assert.equal(blockBytes('GET / HTTP/1.1\nHost: x\n\n\n').toString('latin1'), 'GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal(blockBytes('X: a\\tb\\x7f\\\nz\\r\\n\\0\n').toString('latin1'), 'X: a\tb\x7fz\r\n\0');
    assert.equal(blockBytes('GET /${"a"} HTTP/1.1\n'), null, 'computed by code: left out');
  });

  it('reads every request block of every file, in order, with a way to send each again; not responses; a folder without tests refused', () => {
    const dir = makeTmpDir('llhttp-');
    fs.mkdirSync(path.join(dir, 'test', 'request'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'test', 'request', 'invalid.md'), FILE);
    const { cases, computed } = corpusCases(dir);
    assert.equal(computed, 1);
    assert.deepEqual(cases.map((c) => [c.index, c.labels[0], c.writes[0].bytes.toString('latin1')]), [
      [0, 'invalid.md: ICE protocol and GET method', 'GET /music ICE/1.0\r\nHost: example.com\r\n\r\n'],
      [1, 'invalid.md: A header folded \\ (request-lenient-headers)', 'GET / HTTP/1.1\r\nX: a\tb\x7fz\r\n\r\n'],
    ]);
    assert.equal(cases[1].again, `scripts/difftest.sh --corpus ${dir} --case 1`);
    assert.throws(() => corpusCases(os.tmpdir()), /has no test\/request\/\*\.md: name a checkout of llhttp/);
  });
});
