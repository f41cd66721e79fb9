'use strict';
// Reading a run's samples back (perf/lib/measure/samples.js readSamples, findSamplesFile), as the
// report reads them. These belong with that module's own tests, test/unit/measure/samples.test.js,
// which another change is writing; they wait here until it takes them.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const { Samples, readSamples, findSamplesFile, ROLE } = require('../../../perf/lib/measure/samples');
const { makeTmpDir } = require('../../support/runner_helpers');

describe('report: samples reader', () => {
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
