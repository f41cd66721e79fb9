'use strict';
// A run's per-request samples (perf/lib/measure/samples.js): what add() records and refuses,
// the CSV file (its header, start-time order, round trip), where a run's file is named, and
// reading a file back as the report does (readSamples, findSamplesFile).

const assert = require('node:assert/strict');
const { sampleSet } = require('../../support/made_up_results');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { Samples, parseSamplesCsv, samplesFileName, CSV_HEADER, readSamples, findSamplesFile, ROLE } = require('../../../perf/lib/measure/samples');
const { makeTmpDir } = require('../../support/runner_helpers');

describe('samples: recording requests', () => {
  it('times are relative to start(); a failure has status 0; a reused connection has no connect time', () => {
    const s = new Samples();
    s.start(100);
    s.add({ startAt: 110, endAt: 115.5, connectMs: 0.25, status: 200, conn: 7 });
    s.add({ startAt: 120, endAt: 121, status: 503, error: 'reset', role: 'probe', conn: 7 });
    s.add({ startAt: 130, endAt: 134, status: 404 });
    assert.equal(s.length, 3);
    assert.deepEqual(s.row(0), { t_ms: 10, latency_ms: 5.5, connect_ms: 0.25, status: 200, error: '', role: 'main', conn: 7 });
    assert.deepEqual(s.row(1), { t_ms: 20, latency_ms: 1, connect_ms: null, status: 0, error: 'reset', role: 'probe', conn: 7 });
    assert.deepEqual([s.errorKind(2), s.roleName(2), s.row(2).connect_ms, s.row(2).conn], ['', 'main', null, 0]);
  });

  it('refuses a request before start(), and an error kind or role it does not know, recording nothing', () => {
    const s = new Samples();
    assert.throws(() => s.add({ startAt: 1, endAt: 2, status: 200 }), /^Error: Samples\.start\(\) was not called$/);
    s.start(0);
    assert.throws(() => s.add({ startAt: 1, endAt: 2, error: 'exploded' }), /^Error: unknown error kind 'exploded'$/);
    assert.throws(() => s.add({ startAt: 1, endAt: 2, status: 200, role: 'fast' }), /^Error: unknown role 'fast'$/);
    assert.equal(s.length, 0);
  });

  it('grows past its capacity, keeping every row', () => {
    const s = new Samples(1);
    s.start(0);
    for (let i = 0; i < 1000; i++) s.add({ startAt: i, endAt: i + 1 + (i % 2) / 2, connectMs: i, status: 200 + (i % 3), role: i % 2 ? 'slow' : 'main', conn: i });
    assert.equal(s.length, 1000);
    assert.deepEqual(s.row(0), { t_ms: 0, latency_ms: 1, connect_ms: 0, status: 200, error: '', role: 'main', conn: 0 });
    assert.deepEqual(s.row(999), { t_ms: 999, latency_ms: 1.5, connect_ms: 999, status: 200, error: '', role: 'slow', conn: 999 });
  });
});

describe('samples: the CSV file', () => {
  it('CSV: header, one row per request in start order, round trip', () => {
    const csv = sampleSet().toCsv();
    assert.equal(csv.split('\n')[0], CSV_HEADER);
    const rows = parseSamplesCsv(csv);
    assert.equal(rows.length, 7);
    assert.deepEqual(rows.map((r) => r.t_ms), [0, 5, 10, 20, 30, 40, 50]);
    assert.deepEqual(rows[0], { t_ms: 0, latency_ms: 2, connect_ms: 0.5, status: 200, error: '', role: 'main', conn: 1 });
    assert.deepEqual(rows[1], { t_ms: 5, latency_ms: 1, connect_ms: null, status: 0, error: 'refused', role: 'main', conn: 3 });
    assert.equal(rows[6].role, 'slow');
    assert.equal(rows[6].error, 'cut');
  });

  it('writes times in ms to the microsecond, and an empty cell for no connect time', () => {
    const s = new Samples();
    s.start(0.0004);
    s.add({ startAt: 1.23456, endAt: 3.0001, connectMs: 0.12345, status: 200, conn: 1 });
    s.add({ startAt: 2, endAt: 2.5, status: 200, conn: 1 });
    assert.equal(s.toCsv(), `${CSV_HEADER}\n1.234,1.766,0.123,200,,main,1\n2.000,0.500,,200,,main,1\n`);
  });

  it('refuses to parse text that is not a samples file, naming its header', () => {
    assert.throws(() => parseSamplesCsv('t,ms\n1,2\n'), /^Error: unexpected samples header: t,ms$/);
  });
});

describe('samples: the file of a run', () => {
  it('samples/<server>__<scenario>__t<trial>.csv.gz, without the trial part when there is none', () => {
    assert.equal(samplesFileName('node', 'sequential_6000', 3), 'samples/node__sequential_6000__t3.csv.gz');
    assert.equal(samplesFileName('em', 'long_conn_256', null), 'samples/em__long_conn_256.csv.gz');
    assert.equal(samplesFileName('em', 'long_conn_256'), 'samples/em__long_conn_256.csv.gz');
  });
});

describe('samples: reading a run\'s file back, as the report does', () => {
  let dir;
  before(() => { dir = makeTmpDir('report-unit-'); });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reads the runner's CSV (gzipped) with roles and errors", async () => {
    const csv = 't_ms,latency_ms,connect_ms,status,error,role,conn\n'
      + '0.000,1.500,0.100,200,,probe,1\n'
      + '5.000,4000.000,0.200,0,cut,slow,2\n'
      + '10.000,2.500,,200,,main,3\n'
      + '12.000,0.900,,0,reset,main,4\n';
    const file = path.join(dir, 'a.csv.gz');
    fs.writeFileSync(file, zlib.gzipSync(csv));
    const s = await readSamples(file);
    assert.equal(s.n, 4);
    assert.deepEqual(Array.from(s.t), [0, 5, 10, 12]);
    assert.deepEqual(Array.from(s.ms), [1.5, 4000, 2.5, 0.9]);
    assert.deepEqual(Array.from(s.status), [200, 0, 200, 0]);
    assert.deepEqual(Array.from(s.role), [ROLE.probe, ROLE.slow, ROLE.main, ROLE.main]);
  });

  it('what Samples writes, readSamples reads back; a truncated last line is skipped, not fatal', async () => {
    const samples = new Samples();
    samples.start(0);
    samples.add({ startAt: 1, endAt: 3, connectMs: 0.2, status: 200, role: 'probe', conn: 1 });
    samples.add({ startAt: 2, endAt: 9, status: 0, error: 'timeout', role: 'slow', conn: 2 });
    const file = path.join(dir, 'b.csv');
    fs.writeFileSync(file, `${samples.toCsv()}4.000,1.`);
    const s = await readSamples(file);
    assert.deepEqual([s.n, s.skipped, Array.from(s.t), Array.from(s.ms), Array.from(s.status)], [2, 1, [1, 2], [2, 7], [200, 0]]);
    assert.deepEqual(Array.from(s.role), [ROLE.probe, ROLE.slow]);
  });

  it('refuses a file that is not a samples file, saying what its header is', async () => {
    const file = path.join(dir, 'c.csv');
    fs.writeFileSync(file, 't,ms,status\n1,2,200\n');
    await assert.rejects(readSamples(file), /^Error: not a samples file: its header is 't,ms,status', not 't_ms,latency_ms,connect_ms,status,error,role,conn'$/);
  });

  it('finds a run\'s file by its recorded path, or the name the runner gives it', () => {
    fs.mkdirSync(path.join(dir, 'samples'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'samples', 'node__x__t2.csv.gz'), '');
    fs.writeFileSync(path.join(dir, 'elsewhere.csv'), '');
    assert.equal(findSamplesFile(dir, { server: 'node', scenario: 'x', trial: 2 }), path.join(dir, 'samples', 'node__x__t2.csv.gz'));
    assert.equal(findSamplesFile(dir, { server: 'em', scenario: 'x', trial: 2 }), null);
    assert.equal(findSamplesFile(dir, { server: 'em', scenario: 'x', samples_file: 'elsewhere.csv' }), path.join(dir, 'elsewhere.csv'));
    assert.equal(findSamplesFile(dir, { server: 'node', scenario: 'x', trial: 2, samples: null }), null, 'an engine that keeps none');
  });
});
