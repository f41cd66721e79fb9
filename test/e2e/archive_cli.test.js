'use strict';
// The archive's command line (perf/cli/archive.js, `npm run archive` and `npm run answers`): a run
// added, a run it refuses in one line (exit 2), the pooled answers printed, --check's exit status
// against the committed blocks, and a missing subcommand.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { writeRecord, readArchive } = require('../../perf/lib/store/archive');
const { around, resultsDir } = require('../support/made_up_archive');
const { makeTmpDir } = require('../support/runner_helpers');

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'perf', 'cli', 'archive.js');

const cli = (...args) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60000 });

describe('archive command line', function () {
  this.timeout(120000);
  let root;
  beforeEach(() => {
    root = makeTmpDir('archive-cli-');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('adds a full run, and refuses a quick one in one line with exit 2', () => {
    const archive = path.join(root, 'archive');
    const added = cli('add', resultsDir(root, { quick: false, design: 'rounds' }), '--archive', archive);
    assert.equal(added.status, 0, added.stderr);
    assert.match(added.stdout, /^archived: .*2024-06-01T12-00-00Z__0123456\.json \(npm run answers -- --write updates README\.md and docs\/answers\.md\)\n$/);
    assert.equal(readArchive(archive).length, 1);
    const again = cli('add', resultsDir(root, { quick: false, design: 'rounds' }), '--archive', archive);
    assert.equal(again.status, 2);
    assert.match(again.stderr, /^archive: .* exists already: this run is in the archive\n$/);
    const quick = cli('add', resultsDir(root, { quick: true }), '--archive', archive);
    assert.equal(quick.status, 2);
    assert.match(quick.stderr, /^archive: .*results\.json is not archived: a quick run \(the archive holds full runs\)\n$/);
    const missing = cli('add', path.join(root, 'nowhere'), '--archive', archive);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /^archive: results folder not found: .*nowhere\n$/);
  });

  it('prints every comparison pooled, and --check says when the committed blocks differ from the archive given', () => {
    const archive = path.join(root, 'archive');
    for (const r of around('AMD EPYC', [0.56, 0.57, 0.55])) writeRecord({ ...r, sources: {} }, archive);
    const printed = cli('answers', '--archive', archive);
    assert.equal(printed.status, 0, printed.stderr);
    // Each server named with the runtime it ran on: answers pool per runtime.
    assert.match(printed.stdout, /^short_conn_256 req\/s \(node@node24 vs em@ruby33_yjit\): em@ruby33_yjit 1\.\d+× more req\/s \[[\d.]+–[\d.]+\] · 3 runs, 1 host, I² \d+ %\n/);
    // Then each run set against the other runs' pool: the three agree within their noise.
    assert.match(printed.stdout, /\nEach current run's answer set against the pool of the other runs of its comparison: 0 of 3 \(0\.0 %\) beyond their 95 % across runs .*\n$/);
    const check = cli('answers', '--check', '--archive', archive);
    assert.equal(check.status, 1);
    assert.match(check.stderr, /^archive: README\.md differs from what results\/archive\/ gives: npm run answers -- --write\n/);
    const committed = cli('answers', '--check');
    assert.equal(committed.status, 0, committed.stderr);
  });

  it('sets runs against the archive, question by question: each run\'s answer beside the pooled one on the same runtimes, exit 1 when one contradicts it', () => {
    const archive = path.join(root, 'archive');
    // The fixture's run is of Node 20 and Ruby 3.1: the archive's answers on those runtimes are its measure.
    const on = { node: 'node20', em: 'ruby31' };
    for (const r of around('AMD EPYC', [0.56, 0.57, 0.55], 0.05, { on })) writeRecord({ ...r, sources: {} }, archive);
    const run = resultsDir(root, { quick: true });
    const agrees = cli('against', run, '--archive', archive);
    assert.equal(agrees.status, 0, agrees.stderr);
    const lines = agrees.stdout.trim().split('\n');
    const at = lines.findIndex((l) => l.startsWith('A new connection per request, throughput of 256 clients: the full runs: em@ruby31 1.79× more req/s'));
    assert.ok(at >= 0, agrees.stdout);
    assert.match(lines[at + 1], /^ {2}.*run-\w+ {2}em@ruby31 1\.24× more req\/s \[1\.16–1\.32\] {2}\[same winner\]$/);
    assert.equal(lines[lines.length - 1], '0 contradictions of the full runs\' answers.');
    // The full runs the other way round: node 1.8×; the run's em 1.24× contradicts them.
    const flipped = path.join(root, 'flipped');
    for (const r of around('AMD EPYC', [1.78, 1.8, 1.82], 0.05, { on })) writeRecord({ ...r, sources: {} }, flipped);
    const contradicts = cli('against', run, '--archive', flipped);
    assert.equal(contradicts.status, 1);
    assert.match(contradicts.stdout, /em@ruby31 1\.24× more req\/s \[1\.16–1\.32\] {2}\[CONTRADICTS: opposite\]\n/);
    assert.match(contradicts.stdout, /\n1 contradiction of the full runs' answers\.\n$/);
  });

  it('asks, in one line with exit 2, for what to do when no subcommand is given', () => {
    const r = cli();
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^archive: say what to do: add DIR, against DIR…, or answers\nusage: /);
  });
});
