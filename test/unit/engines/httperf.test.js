'use strict';
// The httperf engine: its command lines for the seed scenarios, what it refuses to fake, and
// its parser on recorded outputs (test/fixtures/engine_outputs/).

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { plan, parseHttperf, toRunFields, whyNot } = require('../../../perf/lib/engines/httperf');
const { loadScenarios } = require('../../../perf/lib/plan/scenarios');

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'engine_outputs');
const fixture = (name) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const at = { host: '127.0.0.1', port: 8080 };

function scenario(name, quick = false) {
  return loadScenarios({ quick, names: [name] })[0];
}

describe('httperf engine: command lines', () => {
  it('sequential_6000: one connection at a time (seed 002 test 1)', () => {
    const p = plan(scenario('sequential_6000'), at);
    assert.deepEqual(p.args, ['--server', '127.0.0.1', '--port', '8080', '--uri', '/hello', '--num-conns', '6000', '--timeout', '10']);
    assert.equal(p.mode, 'connection');
    assert.equal(p.planned_requests, 6000);
  });

  it('concurrent_*: open loop with --rate (seed 002 tests 2-4)', () => {
    for (const [name, conns, rate] of [['concurrent_2000_20', 2000, 20], ['concurrent_2000_100', 2000, 100], ['concurrent_3000_200', 3000, 200]]) {
      const p = plan(scenario(name), at);
      assert.deepEqual(p.args, ['--server', '127.0.0.1', '--port', '8080', '--uri', '/hello', '--num-conns', String(conns), '--rate', String(rate), '--timeout', '10'], name);
      assert.equal(p.mode, 'connection');
    }
  });

  it('keepalive_400x100: seed 000\'s sessions, all at once', () => {
    const p = plan(scenario('keepalive_400x100'), at);
    assert.deepEqual(p.args.slice(6), ['--wsess', '400,100,0', '--rate', '1e6', '--timeout', '10']);
    assert.equal(p.mode, 'calls');
    assert.equal(p.planned_requests, 40000);
    assert.equal(p.note, null);
  });

  it('bigfile_100k: sessions that cover the requests, saying so when they do not divide', () => {
    const p = plan(scenario('bigfile_100k'), at);
    assert.deepEqual(p.args.slice(2, 6), ['--port', '8080', '--uri', '/lipsum100k.txt']);
    assert.deepEqual(p.args.slice(6), ['--wsess', '32,313,0', '--rate', '1e6', '--timeout', '10']);
    assert.equal(p.planned_requests, 10016);
    assert.match(p.note, /32 sessions × 313 calls = 10016 requests \(the scenario asks 10000/);
  });

  it('--quick scales the counts, not the shape', () => {
    assert.deepEqual(plan(scenario('sequential_6000', true), at).args.slice(-4), ['--num-conns', '2000', '--timeout', '10']);
    assert.deepEqual(plan(scenario('keepalive_400x100', true), at).args.slice(-6), ['--wsess', '400,25,0', '--rate', '1e6', '--timeout', '10']);
  });

  it('skips, with a reason, what it cannot express faithfully', () => {
    assert.match(whyNot(scenario('long_conn_256')), /not after a duration/);
    assert.match(whyNot(scenario('short_conn_256')), /not after a duration/);
    assert.match(whyNot(scenario('slow_read')), /slow clients/);
    assert.match(whyNot(scenario('big_upload')), /slow clients/);
    const closedNoKeepAlive = { ...scenario('sequential_6000'), concurrency: 8, requests: 800 };
    assert.match(whyNot(closedNoKeepAlive), /no closed loop of several clients/);
    const upload = { ...scenario('sequential_6000'), request: { method: 'POST', path: '/upload', headers: {}, upload_bytes: 1000 } };
    assert.match(whyNot(upload), /request bodies/);
    assert.throws(() => plan(scenario('slow_read'), at), /httperf cannot run slow_read/);
  });

  it('passes method and headers the way httperf wants them', () => {
    const s = { ...scenario('sequential_6000'), request: { method: 'HEAD', path: '/', headers: { 'X-A': '1' }, upload_bytes: null } };
    const p = plan(s, at);
    assert.deepEqual(p.args.slice(5, 11), ['/', '--method', 'HEAD', '--add-header', 'X-A: 1\\n', '--num-conns']);
  });
});

describe('httperf engine: parser on recorded outputs', () => {
  it('every recorded output parses (or is refused, when truncated)', () => {
    const files = fs.readdirSync(FIXTURES).filter((f) => f.startsWith('httperf_'));
    assert.ok(files.length >= 12, files.join(', '));
    for (const f of files) {
      if (f.includes('truncated')) assert.throws(() => parseHttperf(fixture(f)), /printed no summary/, f);
      else assert.equal(typeof parseHttperf(fixture(f)).total.replies, 'number', f);
    }
  });

  it('sequential against Node: every field', () => {
    const p = parseHttperf(fixture('httperf_node_sequential_300.txt'));
    assert.match(p.command, /^httperf --hog --timeout=10 .* --num-conns=300 --num-calls=1$/);
    assert.deepEqual(p.total, { connections: 300, requests: 300, replies: 300, test_duration_s: 0.238 });
    assert.deepEqual(p.connection_rate, { per_s: 1259.6, ms_per_conn: 0.8, max_concurrent: 1 });
    assert.deepEqual(p.connection_time_ms, { min: 0.1, avg: 0.8, max: 52, median: 0.5, stddev: 3.9 });
    assert.equal(p.connect_ms, 0.1);
    assert.deepEqual(p.reply_time_ms, { response: 0.7, transfer: 0 });
    assert.deepEqual(p.status, { '1xx': 0, '2xx': 300, '3xx': 0, '4xx': 0, '5xx': 0 });
    assert.deepEqual(p.cpu, { user_s: 0.03, system_s: 0.07, total_pct: 42.9 });
    assert.equal(p.errors.total, 0);

    const { summary, fields } = toRunFields(p, { mode: 'connection' });
    assert.deepEqual(summary.latency_ms, { min: 0.1, mean: 0.8, p50: null, p90: null, p99: null, p999: null, max: 52 });
    assert.deepEqual(summary.connect_ms, { mean: 0.1, p99: null });
    assert.equal(summary.requests, 300);
    assert.equal(summary.replies, 300);
    assert.equal(summary.last_end_ms, 238);
    assert.match(fields.latency_basis, /connection time/);
    assert.equal(fields.engine_latency.connection_time_ms.median, 0.5); // kept, but not as p50
  });

  it('keep-alive sessions: latency is the reply time, mean only', () => {
    const p = parseHttperf(fixture('httperf_em_wsess_400x5.txt'));
    assert.deepEqual(p.total, { connections: 400, requests: 2000, replies: 2000, test_duration_s: 0.093 });
    assert.deepEqual(p.sessions, { rate_avg: 4282.2, completed: 400, total: 400, lifetime_s: 0.1 });
    const { summary, fields } = toRunFields(p, { mode: 'calls' });
    assert.deepEqual(summary.latency_ms, { min: null, mean: 13.7, p50: null, p90: null, p99: null, p999: null, max: null });
    assert.equal(summary.connect_ms.mean, 10.9);
    assert.match(fields.latency_basis, /reply time/);
    assert.equal(fields.engine_totals.replies_per_connection, 5);
  });

  it('bigfile: response plus transfer', () => {
    const { summary } = toRunFields(parseHttperf(fixture('httperf_node_wsess_bigfile_32x16.txt')), { mode: 'calls' });
    assert.equal(summary.latency_ms.mean, 4.2); // 1.4 + 2.8
    assert.equal(summary.replies, 512);
  });

  it('4xx replies are replies, in their status class', () => {
    const { summary } = toRunFields(parseHttperf(fixture('httperf_node_404.txt')), { mode: 'connection' });
    assert.equal(summary.replies, 20);
    assert.deepEqual(summary.status, { '1xx': 0, '2xx': 0, '3xx': 0, '4xx': 20, '5xx': 0 });
  });

  it('connection refused: errors, no replies, no latency', () => {
    const { summary, fields } = toRunFields(parseHttperf(fixture('httperf_refused.txt')), { mode: 'connection' });
    assert.deepEqual(summary.errors, { refused: 20, reset: 0, timeout: 0, other: 0 });
    assert.equal(summary.replies, 0);
    assert.equal(summary.requests, 20);
    assert.equal(summary.latency_ms.mean, null);
    assert.equal(summary.connect_ms.mean, null);
    assert.equal(fields.engine_errors.connrefused, 20);
  });

  it('client timeouts are timeouts', () => {
    const { summary } = toRunFields(parseHttperf(fixture('httperf_node_client_timo.txt')), { mode: 'connection' });
    assert.deepEqual(summary.errors, { refused: 0, reset: 0, timeout: 4, other: 0 });
    assert.equal(summary.requests, 4);
  });

  it('every httperf error kind maps to one of the runner\'s', () => {
    const p = parseHttperf(fixture('httperf_handmade_errors.txt'));
    assert.deepEqual(p.errors, { total: 100, 'client-timo': 40, 'socket-timo': 5, connrefused: 20, connreset: 15, 'fd-unavail': 10, addrunavail: 4, 'ftab-full': 3, other: 3 });
    const { summary } = toRunFields(p, { mode: 'connection' });
    assert.deepEqual(summary.errors, { refused: 20, reset: 15, timeout: 45, other: 20 });
    assert.deepEqual(summary.status, { '1xx': 0, '2xx': 2850, '3xx': 0, '4xx': 20, '5xx': 30 });
    assert.equal(summary.replies, 2900);
    assert.equal(summary.requests, 3000);
    assert.deepEqual(p.reply_rate, { min: 150.2, avg: 187, max: 201.4, stddev: 22.1, samples: 3 });
  });

  it('inf and -nan become null, not NaN', () => {
    const p = parseHttperf(fixture('httperf_handmade_nan.txt'));
    assert.equal(p.connection_rate.per_s, null);
    assert.equal(p.cpu.total_pct, null);
    assert.equal(p.total.test_duration_s, 0);
    assert.equal(JSON.stringify(p).includes('NaN'), false);
  });
});
