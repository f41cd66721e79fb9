'use strict';
// Reading a Tsung run's log folder back: the per-request dumps of each load host, which host
// each dump is from, the error counters, and the complaints that make a run untrustworthy.
// The fixture is a real run's folder (two netns load hosts, 150 connections at 100 a second
// against a stand-in server that stalls for 800 ms on its 20th request).

const assert = require('node:assert/strict');
const path = require('node:path');
const { parseDumpLine, parseDump, nodesOfHosts, counterTotals, repliesCounted, errorsOf, controllerFailure, scheduleWarnings, readTsungLog } = require('../../../perf/lib/engines/tsung_output');

const FIXTURE = path.join(__dirname, '..', '..', 'fixtures', 'tsung', 'stall_open');

describe('tsung output: a dump line', () => {
  it('reads the end time, the duration, the user, the status and the size', () => {
    const row = parseDumpLine('1795404837.123586;<0.136.0>;2;get;198.18.0.2;/hello;200;159;8.410;-;;;');
    assert.deepEqual(row, { endMs: 1795404837123.586, durationMs: 8.41, user: 2, method: 'get', url: '/hello', status: 200, bytes: 159 });
  });

  it('skips the header and blank lines, and gives status 0 when there was no HTTP status', () => {
    assert.equal(parseDumpLine('#date;pid;id;http method;host;URL;HTTP status;size;duration;transaction;match;error;tag'), null);
    assert.equal(parseDumpLine(''), null);
    assert.equal(parseDumpLine('1795404837.1;<0.1.0>;3;get;h;/hello;error_no_http_status;0;2.5;-;;;').status, 0);
  });

  it('refuses a line that is not a dump line, naming it', () => {
    assert.throws(() => parseDumpLine('stats: users 0 4'), /not a Tsung protocol dump line: 'stats: users 0 4'/);
    assert.throws(() => parseDumpLine('x;<0.1.0>;y;get;h;/;200;1;z;-'), /not a Tsung protocol dump line/);
  });
});

describe('tsung output: the logs around the dumps', () => {
  it('finds which host each node ran on', () => {
    assert.deepEqual(nodesOfHosts("Remote beam started on node 'tsung0@evn-h2-1' \nRemote beam started on node 'tsung1@evn-h1-1' "), { 0: 'evn-h2-1', 1: 'evn-h1-1' });
  });

  it('keeps the last total of each counter and sorts the errors into kinds', () => {
    const totals = counterTotals('stats: users_count 3 3\nstats: error_connect_econnrefused 2 2\nstats: users_count 4 7\nstats: error_connect_econnrefused 1 3\nstats: error_closed 0 1\nstats: error_connect_timeout 5 5\nstats: error_abort 1 1\nstats: error_unknown 2 2\n');
    assert.equal(totals.users_count, 7);
    // error_abort is Tsung stopping the load (a duration-bounded load ends so), not a request's.
    assert.deepEqual(errorsOf(totals), { refused: 3, reset: 1, timeout: 5, other: 2 });
  });

  it('counts the replies the controller saw, of every status, from the last totals of its status counters', () => {
    assert.equal(repliesCounted('stats: 200 40 40\nstats: 404 1 1\nstats: request 41 3.1 0.2 4 1 0 0\nstats: 200 60 100\nstats: 404 0 1\n'), 101);
    assert.equal(repliesCounted('stats: users_count 3 3\n'), null);
  });

  it("takes the controller's first error report as the reason the run failed (Tsung exits 0 even so)", () => {
    const log = '=INFO REPORT==== 23-Nov-2026::03:26:39 ===\n    ts_mon: starting\n=ERROR REPORT==== 23-Nov-2026::03:26:40 ===\n    ts_config_server: Can\'t start newbeam on host evn-h1 (reason: timeout) ! Aborting!\n';
    assert.equal(controllerFailure(log), "ts_config_server: Can't start newbeam on host evn-h1 (reason: timeout) ! Aborting!");
    assert.equal(controllerFailure('=INFO REPORT==== x ===\n  all is well\n'), null);
  });

  it("finds a launcher's complaint that it fell behind its arrival phase", () => {
    const log = '=INFO REPORT==== 23-Nov-2026::03:27:07 ===\n         ts_launcher:(4:<0.134.0>) Phase duration exceeded, more than 20% (93.5%) of users were not launched in time (187 users), tsung may be overloaded !\n';
    assert.deepEqual(scheduleWarnings(log), ['Phase duration exceeded, more than 20% (93.5%) of users were not launched in time (187 users), tsung may be overloaded !']);
    assert.deepEqual(scheduleWarnings('nothing'), []);
  });
});

describe('tsung output: a real run folder', () => {
  const read = readTsungLog(FIXTURE);

  it('reads both hosts, every request, and a run that finished cleanly', () => {
    assert.deepEqual(Object.keys(read.hosts).sort(), ['evn-h1-23097', 'evn-h2-23097']);
    assert.equal(read.hosts['evn-h1-23097'].rows.length + read.hosts['evn-h2-23097'].rows.length, 150);
    assert.equal(read.hosts['evn-h2-23097'].node, 'tsung0@evn-h2-23097');
    assert.equal(read.totals.users_count, 150);
    assert.equal(read.counted, 150);
    assert.deepEqual(read.errors, { refused: 0, reset: 0, timeout: 0, other: 0 });
    assert.equal(read.failure, null);
    assert.equal(read.finished, true);
  });

  it('keeps the stall: requests that arrived during it waited for it', () => {
    const rows = Object.values(read.hosts).flatMap((h) => h.rows);
    assert.ok(rows.every((r) => r.status === 200));
    assert.ok(rows.filter((r) => r.durationMs > 300).length >= 40);
    assert.ok(Math.max(...rows.map((r) => r.durationMs)) >= 600);
  });

  it('reads a dump file whole', () => {
    assert.equal(parseDump('#header\n1.5;<0.1.0>;1;get;h;/;200;10;1.25;-;;;\n\n2.5;<0.2.0>;2;get;h;/;404;10;2;-;;;\n').length, 2);
  });
});
