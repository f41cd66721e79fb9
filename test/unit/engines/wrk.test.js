'use strict';
// The wrk engine: its command lines, what it refuses to fake, and its parser on recorded
// outputs (test/fixtures/engine_outputs/).

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { plan, parseWrk, toRunFields, whyNot, timeMs } = require('../../../perf/lib/engines/wrk');
const { loadScenarios } = require('../../../perf/lib/plan/scenarios');

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'engine_outputs');
const fixture = (name) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const at = { host: '127.0.0.1', port: 8080 };

function scenario(name, quick = false) {
  return loadScenarios({ quick, names: [name] })[0];
}

describe('wrk engine: command lines', () => {
  it('long_conn_256: seed 004 with one thread', () => {
    const p = plan(scenario('long_conn_256'), at);
    assert.deepEqual(p.args, ['-t', '1', '-c', '256', '-d', '10s', '--latency', '--timeout', '10s']);
    assert.equal(p.url, 'http://127.0.0.1:8080/hello');
    assert.equal(p.script, null);
  });

  it('short_conn_256: Connection: close on every request', () => {
    const p = plan(scenario('short_conn_256', true), at);
    assert.deepEqual(p.args, ['-t', '1', '-c', '256', '-d', '1s', '--latency', '--timeout', '10s', '-H', 'Connection: close']);
  });

  it('a method other than GET, or a body, goes into a Lua script', () => {
    const s = { ...scenario('long_conn_256'), request: { method: 'POST', path: '/upload', headers: { 'X-A': '1' }, upload_bytes: 1000 } };
    const p = plan(s, at);
    assert.equal(p.script, 'wrk.method = "POST"\nwrk.body = string.rep("a", 1000)\n');
    assert.deepEqual(p.args.slice(-2), ['-H', 'X-A: 1']);
  });

  it('skips, with a reason, what it cannot express faithfully', () => {
    assert.match(whyNot(scenario('concurrent_2000_20')), /closed-loop: it cannot open connections on a schedule/);
    assert.match(whyNot(scenario('sequential_6000')), /not after a number of requests/);
    assert.match(whyNot(scenario('keepalive_400x100')), /not after a number of requests/);
    assert.match(whyNot(scenario('bigfile_100k')), /not after a number of requests/);
    assert.match(whyNot(scenario('slow_upload')), /slow clients/);
    assert.match(whyNot({ ...scenario('long_conn_256'), duration_s: 2.5 }), /whole seconds/);
    assert.throws(() => plan(scenario('concurrent_2000_20'), at), /wrk cannot run concurrent_2000_20/);
  });
});

describe('wrk engine: parser on recorded outputs', () => {
  it('reads its time units', () => {
    assert.equal(timeMs('717.76us'), 0.71776);
    assert.equal(timeMs('7.50ms'), 7.5);
    assert.equal(timeMs('1.66s'), 1660);
    assert.equal(timeMs('1.00m'), 60000);
    assert.equal(timeMs('-nan%'), null);
  });

  it('every recorded output parses (or is refused when wrk could not start)', () => {
    const files = fs.readdirSync(FIXTURES).filter((f) => f.startsWith('wrk_'));
    assert.ok(files.length >= 9, files.join(', '));
    for (const f of files) {
      if (f.includes('refused')) assert.throws(() => parseWrk(fixture(f)), /wrk printed no summary: unable to connect to 127\.0\.0\.1:18099 Connection refused/, f);
      else assert.equal(typeof parseWrk(fixture(f)).requests, 'number', f);
    }
  });

  it('long connections against Node: every field', () => {
    const p = parseWrk(fixture('wrk_node_long_conn_256.txt'));
    assert.equal(p.url, 'http://127.0.0.1:18080/hello');
    assert.deepEqual([p.threads, p.connections], [1, 256]);
    assert.deepEqual(p.latency, { mean_ms: 4.13, stdev_ms: 4.74, max_ms: 128.5, within_stdev_pct: 97.41 });
    assert.deepEqual(p.req_per_sec, { mean: 68060, stdev: 13930, max: 75260, within_stdev_pct: 90 });
    assert.deepEqual(p.percentiles, { 50: 3.47, 75: 3.64, 90: 4.39, 99: 12.99 });
    assert.equal(p.requests, 67591);
    assert.equal(p.duration_s, 1.02);
    assert.equal(p.requests_per_sec, 66308.14);
    assert.deepEqual(p.socket_errors, { connect: 0, read: 0, write: 0, timeout: 0 });

    const { summary, fields } = toRunFields(p);
    assert.deepEqual(summary.latency_ms, { min: null, mean: 4.13, p50: 3.47, p90: 4.39, p99: 12.99, p999: null, max: 128.5 });
    assert.equal(summary.replies, 67591);
    assert.equal(summary.requests, 67591);
    // The exact length of the run, from requests and Requests/sec (wrk prints "1.02s").
    assert.ok(Math.abs(summary.last_end_ms - (67591 / 66308.14) * 1000) < 1e-6);
    assert.equal(fields.engine_latency.p75_ms, 3.64);
    assert.equal(fields.engine_latency.co_corrected, true);
    assert.equal(summary.connect_ms.mean, null);
  });

  it('"Non-2xx or 3xx responses": replies, not in 2xx', () => {
    const { summary, fields } = toRunFields(parseWrk(fixture('wrk_node_404.txt')));
    assert.equal(summary.replies, 61458);
    assert.equal(summary.status['2xx'], 0);
    assert.equal(summary.status['4xx'], null); // wrk does not tell 4xx from 5xx
    assert.equal(fields.engine_totals.non_2xx_3xx, 61458);
  });

  it('replies slower than --timeout are timeouts, not replies', () => {
    const { summary } = toRunFields(parseWrk(fixture('wrk_node_timeouts.txt')));
    assert.deepEqual(summary.errors, { refused: 0, reset: 0, timeout: 8, other: 0 });
    assert.equal(summary.replies, 0);
    assert.equal(summary.requests, 8);
    assert.equal(summary.latency_ms.mean, null); // "0.00us" of no samples is not a latency
  });

  it('socket errors map to the runner\'s kinds', () => {
    const p = parseWrk(fixture('wrk_handmade_errors.txt'));
    assert.deepEqual(p.socket_errors, { connect: 12, read: 345, write: 6, timeout: 78 });
    assert.equal(p.duration_s, 60);
    assert.equal(p.req_per_sec.max, 2.1e6);
    const { summary } = toRunFields(p);
    assert.deepEqual(summary.errors, { refused: 12, reset: 351, timeout: 78, other: 0 });
    assert.equal(summary.replies, 91234 - 78);
    assert.equal(summary.requests, 91234 - 78 + 12 + 351 + 78);
    assert.equal(summary.status['2xx'], 91234 - 78 - 910);
    assert.deepEqual(summary.latency_ms, { min: null, mean: 1210, p50: 1100, p90: 1900, p99: 4500, p999: null, max: 9980 });
    assert.equal(p.transfer_per_sec_b, Math.round(237.2 * 1024));
  });

  it('without --latency: mean and max, no percentiles', () => {
    const { summary } = toRunFields(parseWrk(fixture('wrk_handmade_no_distribution.txt')));
    assert.deepEqual(summary.latency_ms, { min: null, mean: 0.812, p50: null, p90: null, p99: null, p999: null, max: 3.02 });
  });
});
