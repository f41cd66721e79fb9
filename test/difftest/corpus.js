'use strict';
// llhttp's own request tests as cases of the differential tester: every ```http block of a
// request test in an llhttp checkout's test/request/*.md, its bytes as llhttp's test runner
// makes them (its markdown format: the block's last newline dropped, a backslash at a line's
// end joining it to the next, every line end CRLF, then the escapes \r \n \t \f \xHH and \ooo).
// Read from a checkout the user names (scripts/difftest.sh --corpus DIR): the project keeps no
// copy. Written for this project from that format, not from llhttp's code.

const fs = require('node:fs');
const path = require('node:path');

const ESCAPES = { r: '\r', n: '\n', t: '\t', f: '\f' };

/** A block's text as the bytes llhttp's tests send, or null for one computed by code (`${…}`). */
function blockBytes(text) {
  if (/\$\{/.test(text)) return null;
  const joined = text.replace(/\n$/, '').replace(/\\(\r\n|\r|\n)/g, '').replace(/\r\n|\r|\n/g, '\r\n');
  const unescaped = joined.replace(/\\(x[0-9a-fA-F]+|[0-7]{1,3}|[rntf])/g, (all, code) => {
    if (ESCAPES[code]) return ESCAPES[code];
    return String.fromCharCode(code[0] === 'x' ? parseInt(code.slice(1), 16) : parseInt(code, 8));
  });
  return Buffer.from(unescaped, 'latin1');
}

/**
 * The request tests of one markdown file: [{ name (its heading), type (its meta's), bytes }],
 * and how many were left out for being computed by code.
 */
function fileCases(text) {
  const cases = [];
  let computed = 0;
  let heading = '';
  let meta = null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const title = /^#{2,4} (.+)$/.exec(line);
    if (title) heading = title[1].trim();
    const m = /^<!-- meta=(\{.*\}) -->$/.exec(line);
    if (m) meta = JSON.parse(m[1]);
    if (line !== '```http') continue;
    const body = [];
    for (i += 1; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]);
    const type = meta ? meta.type : 'request';
    meta = null;
    if (!/^request/.test(type)) continue;
    const bytes = blockBytes(`${body.join('\n')}\n`);
    if (bytes === null) computed += 1;
    else cases.push({ name: heading, type, bytes });
  }
  return { cases, computed };
}

/**
 * Every request test of the llhttp checkout at `dir` as a tester case ({ seed: 'llhttp', index,
 * writes, heads, labels, again }), in file and block order; computed: the tests left out. Throws
 * a one-line error when `dir` holds no test/request/*.md.
 */
function corpusCases(dir) {
  const folder = path.join(dir, 'test', 'request');
  const files = fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => f.endsWith('.md')).sort() : [];
  if (!files.length) throw new Error(`${dir} has no test/request/*.md: name a checkout of llhttp (its git repository)`);
  const cases = [];
  let computed = 0;
  for (const file of files) {
    const read = fileCases(fs.readFileSync(path.join(folder, file), 'utf8'));
    computed += read.computed;
    for (const { name, type, bytes } of read.cases) {
      const index = cases.length;
      cases.push({
        seed: 'llhttp',
        index,
        writes: [{ bytes, pauseMs: 0 }],
        // A HEAD's reply has no body: only the first request is known to be one without parsing.
        heads: [bytes.subarray(0, 5).toString('latin1') === 'HEAD '],
        labels: [`${file}: ${name}${type === 'request' ? '' : ` (${type})`}`],
        again: `scripts/difftest.sh --corpus ${dir} --case ${index}`,
      });
    }
  }
  return { cases, computed };
}

module.exports = { corpusCases, blockBytes };
