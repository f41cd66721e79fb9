'use strict';
// A run's per-request samples (perf/lib/measure/samples.js): what add() records and refuses,
// the CSV file (its header, start-time order, round trip) and where a run's file is named.
// Reading a file back (readSamples, findSamplesFile) is tested with the report's parts
// (test/unit/report/report_units.test.js).

const assert = require('node:assert/strict');
const { Samples, parseSamplesCsv, samplesFileName, CSV_HEADER } = require('../../../perf/lib/measure/samples');

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
  function sampleSet() {
    const s = new Samples(2); // tiny, so it must grow
    s.start(1000);
    s.add({ startAt: 1000, endAt: 1002, connectMs: 0.5, status: 200, conn: 1 });
    s.add({ startAt: 1010, endAt: 1014, connectMs: null, status: 200, conn: 1 });
    s.add({ startAt: 1020, endAt: 1021, status: 404, conn: 2 });
    s.add({ startAt: 1005, endAt: 1006, error: 'refused', conn: 3 });
    s.add({ startAt: 1030, endAt: 2030, error: 'timeout', conn: 4 });
    s.add({ startAt: 1040, endAt: 1041, status: 503, role: 'probe', conn: 5 });
    s.add({ startAt: 1050, endAt: 5000, error: 'cut', role: 'slow', conn: 6 });
    return s;
  }

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
