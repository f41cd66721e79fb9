'use strict';
// The documents a reader follows: every relative link in the project's Markdown files reaches a
// file, and every #anchor a heading of it; RESULTS.md's contents list each of its entries;
// README.md's answer cells stay short; and no issue number stands where a user reads.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { markdownAnchor } = require('../../../perf/lib/text/format');

const ROOT = path.resolve(__dirname, '../../..');
// Installed or made here, not the project's own text.
const SKIP = new Set(['node_modules', 'vendor', '.git', '.runtimes', 'test/artifacts', 'perf/results', 'perf/c/build']);

/** The project's files (relative to ROOT) whose name ends in one of exts; symlinks not followed. */
function projectFiles(exts, dir = '') {
  const out = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (SKIP.has(rel) || SKIP.has(entry.name)) continue;
    if (entry.isDirectory()) out.push(...projectFiles(exts, rel));
    else if (entry.isFile() && exts.some((ext) => entry.name.endsWith(ext))) out.push(rel);
  }
  return out;
}

/** A Markdown text's lines outside fenced code blocks, each with its number. */
function proseLines(text) {
  let fence = null;
  const out = [];
  text.split('\n').forEach((line, i) => {
    const open = line.match(/^\s*(```|~~~)/);
    if (open) fence = fence === null ? open[1] : fence === open[1] ? null : fence;
    else if (fence === null) out.push({ line, n: i + 1 });
  });
  return out;
}

/** The anchors a Markdown file's headings (and explicit ids) give, as GitHub numbers repeats. */
function anchorsOf(text) {
  const seen = new Map();
  const anchors = new Set();
  for (const { line } of proseLines(text)) {
    const h = line.match(/^#{1,6}\s+(.*?)\s*#*\s*$/);
    if (h) {
      // The heading's text as shown: links to their words, code without its backticks.
      const base = markdownAnchor(h[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
      const n = seen.get(base) || 0;
      seen.set(base, n + 1);
      anchors.add(n ? `${base}-${n}` : base);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  }
  return anchors;
}

/** The inline links of a Markdown text outside code: [{ target, n }]. */
function linksOf(text) {
  const out = [];
  for (const { line, n } of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push({ target: m[1], n });
  }
  return out;
}

const read = (rel) => fs.readFileSync(path.join(ROOT, rel), 'utf8');

describe('the documents a reader follows', () => {
  it('every relative link in a Markdown file reaches a file, and every #anchor a heading in it', () => {
    const broken = [];
    const anchors = new Map();
    const anchorsIn = (rel) => {
      if (!anchors.has(rel)) anchors.set(rel, anchorsOf(read(rel)));
      return anchors.get(rel);
    };
    for (const file of projectFiles(['.md'])) {
      for (const { target, n } of linksOf(read(file))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        const [where, anchor] = target.split('#');
        const rel = where ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(where))) : file;
        if (!fs.existsSync(path.join(ROOT, rel))) broken.push(`${file}:${n}: ${target} (no ${rel})`);
        else if (anchor !== undefined && rel.endsWith('.md') && !anchorsIn(rel).has(anchor)) broken.push(`${file}:${n}: ${target} (no heading #${anchor} in ${rel})`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('every section named in words (a file, then the first words of its heading in quotes) stands in that file, as a heading or a bold label', () => {
    // A server's comment that names CONTRACT.md's "A runtime's own parser (Node 20)" in other words.
    const missing = [];
    const texts = new Map();
    const textOf = (rel) => {
      if (!texts.has(rel)) texts.set(rel, read(rel));
      return texts.get(rel);
    };
    for (const file of projectFiles(['.md', '.js', '.rb', '.sh']).filter((f) => f !== path.relative(ROOT, __filename))) {
      const text = read(file);
      for (const m of text.matchAll(/([\w./-]*\b[\w-]+\.md),?[ \t]*(?:\n[ \t]*(?:\/\/|#|\*)?[ \t]*)?\(?"([^"\n]{2,80})"/g)) {
        const [, name, title] = m;
        // The file as a reader finds it: beside the one naming it, at the root, or in perf/.
        const rel = [path.posix.join(path.posix.dirname(file), name), name, `perf/${name}`].map((x) => path.posix.normalize(x)).find((x) => fs.existsSync(path.join(ROOT, x)));
        if (!rel || path.basename(name) === 'README.md' && !name.includes('/')) continue; // a bare README.md: whose is unsaid
        const heads = proseLines(textOf(rel)).map(({ line }) => line);
        const stands = heads.some((line) => {
          const h = line.match(/^#{1,6}\s+(.*)$/);
          return (h && h[1].replace(/`/g, '').toLowerCase().startsWith(title.replace(/`/g, '').toLowerCase())) || line.includes(`**${title}`);
        });
        if (!stands) missing.push(`${file}:${text.slice(0, m.index).split('\n').length}: ${name}, "${title}" (not in ${rel})`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('RESULTS.md\'s contents list every entry, in the order they stand', () => {
    const text = read('RESULTS.md');
    const entries = proseLines(text).filter(({ line }) => /^## /.test(line)).map(({ line }) => markdownAnchor(line.slice(3)));
    const listed = [...text.matchAll(/^- \[[^\]]*\]\(#([^)]+)\)/gm)].map((m) => m[1]);
    assert.deepEqual(listed, entries);
  });

  it('README.md\'s answer tables keep each cell within 120 characters', () => {
    const block = read('README.md').match(/<!-- answers:begin[^>]*-->\n([\s\S]*?)<!-- answers:end -->/);
    assert.ok(block, 'README.md has its answer block');
    const rows = block[1].split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| question |'));
    assert.ok(rows.length > 0, 'the block has tables');
    const long = rows.flatMap((row) => row.slice(2, -2).split(' | ')).filter((cell) => [...cell].length > 120);
    assert.deepEqual(long, []);
  });

  it('no issue number stands in a file a user reads (code, comments, scenarios, documents, test names)', () => {
    // The word issue followed by a number, or a hash and a number standing alone; not an HTML
    // entity (&#39;) nor a colour (#2a2a2a).
    const pattern = /\b[Ii]ssues? #?\d+|(?<![&\w#])#\d{1,5}\b(?![;\w])/;
    const colour = /(colou?r|stroke|fill|background|border|--[a-z-]+)\s*[:=]|'#\d+'|"#\d+"/i;
    const found = [];
    for (const file of projectFiles(['.js', '.rb', '.md', '.json', '.sh'])) {
      if (file.startsWith('results/')) continue; // the archive's records: data, as the runs wrote them
      read(file).split('\n').forEach((line, i) => {
        if (pattern.test(line) && !colour.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(found, []);
  });
});
