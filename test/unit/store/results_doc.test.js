'use strict';
// The results document (perf/lib/store/results_doc.js): its schema, checked when it is read;
// reading a results folder.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { schemaProblem, readResultsFile, loadResults, ResultsError, SCHEMA_VERSION } = require('../../../perf/lib/store/results_doc');
const { makeTmpDir } = require('../../support/runner_helpers');

const FIXTURE = path.join(__dirname, '..', '..', 'fixtures', 'results_small', 'results.json');
const fixture = () => JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));

describe('results.json: the schema', () => {
  let dir;
  before(() => { dir = makeTmpDir('results-doc-'); });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (doc) => {
    const file = path.join(dir, 'results.json');
    fs.writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
    return file;
  };

  it('the runner\'s format passes, with its version', () => {
    const doc = fixture();
    assert.equal(doc.schema_version, SCHEMA_VERSION);
    assert.equal(schemaProblem(doc), null);
    assert.equal(readResultsFile(FIXTURE).runs.length, doc.runs.length);
  });

  it('says where a document breaks it, in one line', () => {
    const doc = fixture();
    doc.runs[3].replies = -1;
    assert.equal(schemaProblem(doc), '/runs/3/replies must be >= 0');
    delete doc.runs[3].replies;
    assert.throws(() => readResultsFile(write(doc)), (e) => e instanceof ResultsError && /results\.json does not match perf\/schemas\/results\.schema\.json: \/runs\/3 must have required property 'replies'$/.test(e.message));
  });

  it('holds the verdict rule: a winner only where the interval excludes 1', () => {
    const doc = fixture();
    const c = doc.comparisons.find((x) => x.significant !== true);
    c.winner = c.a;
    assert.match(schemaProblem(doc), /^\/comparisons\/\d+\/winner must be null$/);
  });

  it('refuses another version, and a file that is not JSON; reads an older file without a version unchecked', () => {
    assert.throws(() => readResultsFile(write({ ...fixture(), schema_version: 2 })), /has schema_version 2; this version of the project reads 1$/);
    assert.throws(() => readResultsFile(write('{"runs": [')), /results\.json is not valid JSON: /);
    const older = fixture();
    delete older.schema_version;
    older.runs[0].latency_ms = 'garbled';
    assert.equal(readResultsFile(write(older)).runs[0].latency_ms, 'garbled');
  });
});

describe('report: loading results', () => {
  let dir;
  before(() => { dir = makeTmpDir('results-doc-'); });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('rejects unusable folders with one-line messages', () => {
    const expectError = (d, re) => assert.throws(() => loadResults(d), (e) => e instanceof ResultsError && re.test(e.message) && !e.message.includes('\n'));
    expectError(path.join(dir, 'nope'), /results folder not found/);
    expectError(dir, /no results\.json/);
    fs.writeFileSync(path.join(dir, 'results.json'), '{"runs": [');
    expectError(dir, /not valid JSON/);
    fs.writeFileSync(path.join(dir, 'results.json'), '{"runs": []}');
    expectError(dir, /lists no runs/);
    fs.writeFileSync(path.join(dir, 'results.json'), '{"runs": [{"scenario": "x"}]}');
    expectError(dir, /has no "server"/);
  });

  it('fills what a failed run leaves out', () => {
    fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ runs: [{ server: 'em', scenario: 'x', ok: false, latency_ms: null }] }));
    const r = loadResults(dir);
    assert.equal(r.runs[0].ok, false);
    assert.equal(r.runs[0].latency_ms.p50, null);
    assert.match(r.runs[0].failure, /no reason/);
  });
});
