'use strict';
// The archive of full runs (perf/lib/store/archive.js): a record of a run, its encoder and its
// one reader; records read back oldest first; a record never overwritten; a file that is not a
// record, or of another version, refused in one line.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const archive = require('../../../perf/lib/store/archive');
const { loadResults } = require('../../../perf/lib/store/results_doc');
const { runAnswers } = require('../../../perf/lib/judge/meta');
const { judgeResults } = require('../../../perf/lib/judge/judged');
const { makeTmpDir } = require('../../support/runner_helpers');

const FIXTURE_DIR = path.join(__dirname, '..', '..', 'fixtures', 'results_small');

/** A made-up ramp section: one server's search with a step that drew its pauses. */
function withRamp(results) {
  const step = { rate: 1000, achieved_rps: 1000, p99_ms: 3, runtime: { gc: { collections: 1 }, pauses: [{ kind: 'gc', from_ms: 1, to_ms: 2 }], tail: { p99: {} } } };
  return { ...results, ramps: { objective: { percentile: 'p99', ms: 10 }, repeat: 1, ramps: [{ name: 'hello_keepalive', servers: { node: { searches: [{ sustainable_rps: 1000, steps: [step] }] } }, comparisons: [] }] } };
}

describe('archive: records of full runs', () => {
  let dir;
  beforeEach(() => {
    dir = makeTmpDir('archive-');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const recordOfFixture = () => {
    const results = withRamp(judgeResults(loadResults(FIXTURE_DIR)));
    return archive.recordOf(results, { answers: runAnswers(results), sources: { node: 'abc', em: 'def' } });
  };

  it('keeps the host, the commit, the answers and the ramps, without the runs or the steps\' pauses', () => {
    const record = recordOfFixture();
    assert.equal(record.id, '2024-06-01T12-00-00Z__0123456');
    assert.equal(record.commit, '0123456789abcdef0123456789abcdef01234567');
    assert.equal(record.host.cpu_model, loadResults(FIXTURE_DIR).environment.cpu_model);
    assert.equal(record.runs, undefined);
    assert.ok(record.answers.length > 0);
    assert.ok(record.answers.every((x) => x.key && x.subject && x.metric && x.a && x.b));
    const step = record.ramps.ramps[0].servers.node.searches[0].steps[0];
    assert.deepEqual(step.runtime, { gc: { collections: 1 } });
    assert.equal(record.machine.runs, loadResults(FIXTURE_DIR).runs.length);
  });

  it('keeps the why: each server\'s runtime events per scenario over its verdict\'s runs, and the engine behind each verdict', () => {
    const results = judgeResults(loadResults(FIXTURE_DIR));
    const scenario = results.scenarios[0];
    // Two of em's runs with their events: GC explained 80 % and 60 % of the p99 tail's excess.
    const events = (gcShare, explained) => ({
      gc: { collections: 10, minor: 9, major: 1, time_ms: 40, longest_ms: 12, share_pct: gcShare },
      loop: { stall_ms: 5, stalls: 2, stalled_ms: 11, longest_stall_ms: 6 },
      allocations: { unit: 'objects', total: 1000, per_request: 20 },
      tail: { p99: { coincided: 'gc', gc: { explained_pct: explained }, stalls: { explained_pct: 5 } } },
    });
    const used = results.runs.filter((r) => r.scenario === scenario && r.server === 'em' && r.usable && !r.superseded);
    assert.ok(used.length >= 2);
    used[0].runtime = events(4, 80);
    used[1].runtime = events(6, 60);
    const reasons = { short_conn_256: 'the built-in load generator was the bottleneck' };
    const record = archive.recordOf({ ...results, doc: { ...results.doc, verdict_engine_reasons: reasons } }, { answers: runAnswers(results), sources: {} });
    const em = record.runtime_events[scenario].em;
    assert.deepEqual([em.runs, em.gc_share_pct, em.coincided.gc, em.explained_pct.gc, em.explained_pct.stalls], [2, 5, 2, 70, 5]);
    assert.equal(record.runtime_events[scenario].node, undefined);
    assert.deepEqual(record.verdict_engines, { short_conn_256: 'wrk' });
    assert.equal(record.calibration, null, 'a run from before the calibration');
    const yardstick = { server: 'libevent', cpu_ms_per_request: 0.0123 };
    assert.deepEqual(archive.recordOf({ ...results, environment: { ...results.environment, calibration: yardstick } }, { answers: [], sources: {} }).calibration, yardstick);
    assert.deepEqual(record.verdict_engine_reasons, reasons);
  });

  it('reads back what it wrote, oldest first, and never overwrites a run\'s record', () => {
    const first = recordOfFixture();
    const later = { ...first, id: '2025-01-01T00-00-00Z__fedcba9', started_at: '2025-01-01T00:00:00Z' };
    archive.writeRecord(later, dir);
    const file = archive.writeRecord(first, dir);
    assert.equal(path.basename(file), `${first.id}.json`);
    const read = archive.readArchive(dir);
    assert.deepEqual(read.map((r) => r.id), [first.id, later.id]);
    assert.deepEqual(read[0], archive.decodeRecord(archive.encodeRecord(first), 'x'));
    const ratio = first.answers.find((x) => x.ratio !== null).ratio;
    assert.ok(Math.abs(read[0].answers.find((x) => x.ratio !== null).ratio / ratio - 1) < 1e-5, 'numbers kept to six digits');
    assert.throws(() => archive.writeRecord(first, dir), (e) => e instanceof archive.ArchiveError && /exists already: this run is in the archive/.test(e.message));
  });

  it('names each server by its runtime, SERVER@RUNTIME: its definition\'s, else the machine\'s of the version a run from before runtimes were data recorded', () => {
    const software = { node: 'v20.20.2', ruby: '3.1.2p20' };
    const servers = { node: { command: 'node' }, em: { command: 'ruby', args: ['--yjit'] }, today: { command: 'node', runtime: 'node24' }, 'em@ruby33': { command: 'ruby', runtime: 'ruby33', variant_of: 'em' }, nginx: { command: 'bash' } };
    assert.deepEqual(Object.keys(servers).map((name) => archive.runtimeLabel(servers, software, name)), ['node@node20', 'em@ruby31', 'today@node24', 'em@ruby33', 'nginx']);
    assert.equal(archive.runtimeOfServer(servers, {}, 'node'), null, 'no version recorded: no runtime to name');
    assert.equal(archive.runtimeLabel({}, software, 'gone'), 'gone', 'a server the record does not define keeps its name');
  });

  it('keeps the runtimes the run recorded (environment.runtimes)', () => {
    const results = judgeResults(loadResults(FIXTURE_DIR));
    const runtimes = { node24: { id: 'node24', version: '24.22.3', v8: '13.6' } };
    const record = archive.recordOf({ ...results, environment: { ...results.environment, runtimes } }, { answers: runAnswers(results), sources: {} });
    assert.deepEqual(record.runtimes, runtimes);
  });

  it('reads no record from a folder that does not exist', () => {
    assert.deepEqual(archive.readArchive(path.join(dir, 'none')), []);
  });

  it('refuses, in one line, a file that is not JSON, not a record, or of another version', () => {
    const file = path.join(dir, 'x.json');
    const refused = (text, pattern) => {
      fs.writeFileSync(file, text);
      assert.throws(() => archive.readArchive(dir), (e) => e instanceof archive.ArchiveError && pattern.test(e.message) && !e.message.includes('\n'));
    };
    refused('{', /x\.json is not valid JSON/);
    refused('{"archive_version": 1}', /x\.json is not an archive record: no id, started_at, host, commit, options, answers/);
    refused(JSON.stringify({ ...recordOfFixture(), archive_version: 99 }), /archive_version 99; this version of the project reads 1/);
  });
});
