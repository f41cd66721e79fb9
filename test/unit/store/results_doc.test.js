'use strict';
// The results document (perf/lib/store/results_doc.js): its schema, checked when it is read;
// its encoder; and its one reader, decodeResults, on made-up documents: runs normalised, the
// rest as stored, nothing decided (perf/lib/judge/judged.js judges what it read:
// test/unit/judge/judged.test.js).

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { schemaProblem, readResultsFile, loadResults, decodeResults, encodeResults, runsOf, ResultsError, SCHEMA_VERSION } = require('../../../perf/lib/store/results_doc');
const { analyzeRuns } = require('../../../perf/lib/judge/verdicts');
const { trialRun } = require('../../support/made_up_results');
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

describe('results.json: the encoder', () => {
  it('writes the version first and the runs last, indented, ending in a line break; read back as written', () => {
    const text = encodeResults({ environment: { node: 'v20' }, runs: [{ server: 'node', scenario: 's' }], interrupted: false, skipped: [] });
    assert.deepEqual(Object.keys(JSON.parse(text)), ['schema_version', 'environment', 'interrupted', 'skipped', 'runs']);
    assert.equal(JSON.parse(text).schema_version, SCHEMA_VERSION);
    assert.match(text, /^\{\n {2}"schema_version": 1,\n/);
    assert.ok(text.endsWith('}\n'));
  });
});

describe('results.json: the one reader (decodeResults)', () => {
  // Three trials a side, em's p50 twice node's.
  const runs = [1, 2, 3].flatMap((t) => [trialRun('node', 's', t, 1 + t / 100, 1000), trialRun('em', 's', t, 2 + t / 100, 500)]);

  it('runs: every field an output reads, present; numbers as numbers, null where unknown', () => {
    const { runs: [r] } = decodeResults({ runs: [{ server: 'em', scenario: 'x', requests: '300', replies: '', latency_ms: { p50: '1.5', p99: 'n/a' }, errors: { reset: 2 }, server_cpu: { ms_per_request: 0.2 } }] });
    assert.deepEqual([r.ok, r.failure, r.client_bound, r.requests, r.replies, r.trial], [true, null, false, 300, null, null]);
    assert.deepEqual(r.latency_ms, { min: null, mean: null, p50: 1.5, p90: null, p99: null, p999: null, max: null });
    assert.deepEqual(r.errors, { refused: 0, reset: 2, timeout: 0, other: 0 });
    assert.deepEqual([r.status, r.connect_ms, r.server_cpu.ms_per_request, r.server_cpu.resolution_ms, r.throughput_rps], [{}, { mean: null, p99: null }, 0.2, null, null]);
  });

  it('runs: a failure recorded makes a run failed; a failed run without one says so', () => {
    const decoded = decodeResults({ runs: [{ server: 'em', scenario: 'x', ok: true, failure: 'crashed' }, { server: 'em', scenario: 'y', ok: false }] });
    assert.deepEqual(decoded.runs.map((r) => [r.ok, r.failure]), [[false, 'crashed'], [false, 'run failed (no reason recorded)']]);
  });

  it('runs: client_bound null is kept (the engine\'s CPU says nothing of its load); anything but true is not client-bound', () => {
    const decoded = decodeResults({ runs: [null, true, false, undefined, 'yes'].map((client_bound, i) => ({ server: 'node', scenario: `s${i}`, client_bound })) });
    assert.deepEqual(decoded.runs.map((r) => r.client_bound), [null, true, false, false, false]);
  });

  it('runs: one that names no server or scenario is refused, saying which', () => {
    assert.throws(() => decodeResults({ runs: [{ server: 'node', scenario: 's' }, { server: '', scenario: 's' }] }), (e) => e instanceof ResultsError && e.message === 'results.json: runs[1] has no "server" name');
    assert.throws(() => decodeResults({ runs: [{ server: 'node' }] }), (e) => e instanceof ResultsError && e.message === 'results.json: runs[0] has no "scenario" name');
    assert.throws(() => decodeResults({ runs: ['node'] }), (e) => e instanceof ResultsError && e.message === 'results.json: runs[0] is not an object');
  });

  it('what the outputs read beside: servers and scenarios in the order asked, else in run order, the most trials, the document\'s parts as stored', () => {
    const doc = { environment: { servers: { node_bare: { reference_for: ['node'] } } }, runs: [trialRun('node_bare', 't', 1, 1, 10), ...runs, trialRun('node', 't', 1, 1, 10)], skipped: [{ server: 'em', scenario: 't', reason: 'x' }], interrupted: 1 };
    const decoded = decodeResults(doc, { dir: '/r', file: '/r/results.json' });
    assert.deepEqual([decoded.servers, decoded.scenarios, decoded.trials], [['node_bare', 'node', 'em'], ['t', 's'], 3]);
    assert.deepEqual([decoded.dir, decoded.file, decoded.interrupted, decoded.error, decoded.doc, decoded.definitions, decoded.skipped], ['/r', '/r/results.json', true, null, doc, doc.environment.servers, doc.skipped]);
    // Paired rounds take the servers in a random order: the order asked for comes first.
    const asked = decodeResults({ environment: { options: { servers: ['node', 'em'], scenarios: ['s', 't'] } }, runs: [...doc.runs].reverse() });
    assert.deepEqual([asked.servers, asked.scenarios], [['node', 'em', 'node_bare'], ['s', 't']]);
    const bare = decodeResults({ runs: [{ server: 'node', scenario: 's', trial: 'x' }] });
    assert.deepEqual([bare.environment, bare.definitions, bare.skipped, bare.trials, bare.interrupted], [{}, {}, [], 1, false]);
  });

  it('decides nothing: verdicts, waiting and backends as stored, null (or undefined backends) where the file has none', () => {
    const { comparisons, aggregates } = analyzeRuns(runs);
    const stored = decodeResults({ runs, comparisons, aggregates, waiting: { bound_ms: 10, scenarios: [], memory: {} }, backends: null });
    assert.deepEqual([stored.comparisons, stored.aggregates, stored.waiting, stored.backends], [comparisons, aggregates, { bound_ms: 10, scenarios: [], memory: {} }, null]);
    assert.ok(stored.comparisons.every((c) => !('answer' in c)), 'no answer given on reading');
    const older = decodeResults({ runs, comparisons });
    assert.deepEqual([older.comparisons, older.aggregates, older.waiting, older.held, older.backends], [null, null, null, null, undefined], 'stored comparisons without their aggregates are no stored verdicts');
  });

  it('runsOf: the runs of one server in one scenario, every trial', () => {
    const decoded = decodeResults({ runs });
    assert.deepEqual(runsOf(decoded, 's', 'em').map((r) => [r.server, r.trial]), [['em', 1], ['em', 2], ['em', 3]]);
    assert.deepEqual(runsOf(decoded, 't', 'em'), []);
  });
});
