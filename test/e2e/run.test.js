'use strict';
// End to end: scripts/run_scenarios.sh --quick with two scenarios on both real servers, then
// every file it writes and every field of results.json.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { parseSamplesCsv, CSV_HEADER } = require('../../perf/lib/measure/samples');
const { percentileResolved } = require('../../perf/lib/rule/compare');
const { mergeLatencyHistograms } = require('../../perf/lib/measure/stats');
const { schemaProblem, SCHEMA_VERSION } = require('../../perf/lib/store/results_doc');
const { makeTmpDir, runCommand } = require('../support/runner_helpers');
const { PROJECT_ROOT } = require('../../perf/lib/project_root');

const SCENARIOS = ['concurrent_2000_100', 'keepalive_400x100'];
const SERVERS = ['node', 'em'];

function isNum(x) {
  return typeof x === 'number' && Number.isFinite(x);
}

describe('perf end to end: scripts/run_scenarios.sh --quick on both servers', function () {
  this.timeout(180000);
  const out = makeTmpDir('perf-e2e-');
  let result;
  let doc;

  before(async () => {
    result = await runCommand('bash', [path.join(PROJECT_ROOT, 'scripts', 'run_scenarios.sh'), '--quick', '--repeat', '1', '--no-lighter-engines', '--servers', SERVERS.join(','), '--scenarios', SCENARIOS.join(','), '--out', out], { timeoutMs: 150000 });
    doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
  });

  it('exits 0, prints a line per run, the answers, where the tables are, and the results path', () => {
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    for (const server of SERVERS) for (const scenario of SCENARIOS) assert.match(result.stdout, new RegExp(`^${server}\\s+${scenario}\\s+\\d+/\\d+ replies`, 'm'));
    assert.match(result.stdout, /^Answers, node vs em \(95 % intervals of the factor\):$/m);
    for (const scenario of SCENARIOS) assert.match(result.stdout, new RegExp(`^  ${scenario}\\s+\\S`, 'm'));
    assert.match(result.stdout, /^Decided \d+ of \d+ comparisons/m);
    assert.match(result.stdout, /^Tables, every verdict with its interval.*: summary\.txt and summary\.md, beside results\.json\.$/m);
    assert.match(fs.readFileSync(path.join(out, 'summary.txt'), 'utf8'), /^scenario\s+mean ms\s+p99 ms\s+req\/s\s+CPU ms\/req\s+mean ms/m);
    assert.match(result.stdout, new RegExp(`^results: ${path.join(out, 'results.json')}$`, 'm'));
    assert.ok(result.stdout.trim().endsWith(`report:  ${path.join(out, 'report.html')} (open it in a browser)`), result.stdout.slice(-300));
  });

  it('writes a results.json that matches its committed schema', () => {
    assert.equal(doc.schema_version, SCHEMA_VERSION);
    assert.equal(schemaProblem(doc), null);
  });

  it('leaves a report with a chart per scenario for both servers, as SVG and PNG', () => {
    const html = fs.readFileSync(path.join(out, 'report.html'), 'utf8');
    for (const server of SERVERS) assert.ok(html.includes(`>${server}<`), server);
    for (const scenario of SCENARIOS) {
      assert.ok(html.includes(`<section id="s-${scenario}">`), scenario);
      for (const ext of ['svg', 'png']) {
        const charts = fs.readdirSync(path.join(out, 'charts')).filter((f) => f.startsWith(scenario) && f.endsWith(`.${ext}`)).sort();
        // A quick open loop's 50 requests are too few for a percentile curve: said instead of drawn.
        assert.deepEqual(charts, scenario === 'concurrent_2000_100' ? [`${scenario}_timeline.${ext}`] : [`${scenario}_percentiles.${ext}`, `${scenario}_timeline.${ext}`]);
      }
    }
    assert.match(html, /<p class="muted">No percentile curve: node: 50 requests, too few for a percentile curve \(n too small: it needs 100\)\. em: 50 requests, too few/);
  });

  it('results.json: the environment', () => {
    const env = doc.environment;
    for (const key of ['os', 'kernel', 'cpu_model', 'node', 'ruby', 'eventmachine', 'eventmachine_httpserver', 'project_commit', 'started_at', 'finished_at']) {
      assert.equal(typeof env[key], 'string', key);
    }
    assert.ok(env.cores >= 1);
    assert.equal(env.eventmachine_httpserver, '0.2.1');
    assert.equal(typeof env.pinning.enabled, 'boolean');
    if (env.cores >= 2) assert.deepEqual([env.pinning.server_cpu === null, env.pinning.client_cpu === null], [false, false]);
    assert.deepEqual(env.options.scenarios, SCENARIOS);
    assert.equal(env.options.quick, true);
    assert.equal(doc.interrupted, false);
  });

  it('results.json: the servers ran with their backends, as in a full run, though no scenario called them', () => {
    assert.deepEqual(doc.environment.backends.backends.map((b) => b.name), ['upstream', 'redis']);
  });

  it('results.json: one complete run per server and scenario', () => {
    assert.deepEqual(
      doc.runs.map((r) => `${r.server}/${r.scenario}`),
      SERVERS.flatMap((s) => SCENARIOS.map((c) => `${s}/${c}`)),
    );
    for (const r of doc.runs) {
      const what = `${r.server}/${r.scenario}`;
      assert.equal(r.ok, true, `${what}: ${r.failure}`);
      assert.equal(r.failure, null);
      assert.equal(r.engine, r.scenario === 'keepalive_400x100' ? 'autocannon' : 'open_loop');
      assert.deepEqual(Object.keys(r.errors), ['refused', 'reset', 'timeout', 'other']);
      assert.deepEqual(Object.keys(r.status), ['1xx', '2xx', '3xx', '4xx', '5xx']);
      const errors = Object.values(r.errors).reduce((a, b) => a + b, 0);
      assert.equal(r.requests, r.replies + errors, what);
      assert.equal(r.requests, r.scenario === 'keepalive_400x100' ? 10000 : 50, what);
      assert.equal(Object.values(r.status).reduce((a, b) => a + b, 0), r.replies);
      const l = r.latency_ms;
      assert.ok([l.min, l.mean, l.p50, l.p90, l.p99, l.p999, l.max].every(isNum), what);
      assert.ok(l.min <= l.p50 && l.p50 <= l.p90 && l.p90 <= l.p99 && l.p99 <= l.p999 && l.p999 <= l.max, what);
      assert.ok(l.min <= l.mean && l.mean <= l.max);
      assert.ok(isNum(r.connect_ms.mean) && isNum(r.connect_ms.p99));
      assert.ok(isNum(r.duration_s) && r.duration_s > 0);
      assert.ok(Math.abs(r.throughput_rps - r.replies / r.duration_s) < 0.01 * r.throughput_rps + 0.01);
      assert.ok(isNum(r.server_cpu.user_s) && isNum(r.server_cpu.system_s) && isNum(r.server_cpu.ms_per_request));
      assert.ok(r.server_peak_rss_mb > 1, what);
      assert.ok(isNum(r.client_cpu_pct) && r.client_cpu_pct >= 0);
      assert.equal(r.client_bound, r.client_cpu_pct >= 90);
      assert.equal(r.samples_file, `samples/${r.server}__${r.scenario}__t1.csv.gz`);
      assert.equal(r.trial, 1);
    }
    // open loop keeps its rate: 50 connections at 100/s take about half a second
    for (const r of doc.runs.filter((x) => x.scenario === 'concurrent_2000_100')) {
      assert.ok(r.duration_s >= 0.49 && r.duration_s < 5, `${r.server}: ${r.duration_s} s`);
      assert.ok(r.schedule_lag_ms.max < 1000);
    }
  });

  it('samples: one row per request, matching the run', () => {
    for (const r of doc.runs) {
      const text = zlib.gunzipSync(fs.readFileSync(path.join(out, r.samples_file))).toString();
      assert.equal(text.split('\n')[0], CSV_HEADER);
      const rows = parseSamplesCsv(text);
      assert.equal(rows.length, r.requests);
      assert.equal(rows.filter((x) => x.status >= 200 && x.status < 300).length, r.status['2xx']);
      assert.ok(rows.every((x) => x.role === 'main' && x.t_ms >= 0 && x.latency_ms >= 0));
      const maxLatency = Math.max(...rows.filter((x) => x.status > 0).map((x) => x.latency_ms));
      assert.ok(Math.abs(maxLatency - r.latency_ms.max) < 0.002);
      assert.equal(mergeLatencyHistograms([r.latency_histogram]).totalCount, r.replies, 'the stored histogram holds every reply');
      if (r.scenario === 'concurrent_2000_100') {
        assert.deepEqual(rows.map((x) => x.t_ms), Array.from({ length: 50 }, (_, i) => i * 10));
      } else {
        assert.equal(new Set(rows.map((x) => x.conn)).size, 400);
      }
    }
  });

  it('summary.md and summary.csv: a row per scenario, a column group per server', () => {
    const md = fs.readFileSync(path.join(out, 'summary.md'), 'utf8').split('\n');
    assert.equal(md[0], '| scenario | node mean ms | node p99 ms | node req/s | node CPU ms/req | em mean ms | em p99 ms | em req/s | em CPU ms/req |');
    for (const [i, scenario] of SCENARIOS.entries()) {
      const cells = md[2 + i].split('|').map((c) => c.trim()).filter(Boolean);
      assert.equal(cells[0], scenario);
      assert.equal(cells.length, 9);
      // p99 of a quick run's few requests is not a p99: said instead of a number (rule/compare.js percentileResolved).
      assert.ok(cells.slice(1).every((c, j) => /^[\d.,]+$/.test(c) || ([1, 5].includes(j) && c === 'n too small')), md[2 + i]);
    }
    const csv = fs.readFileSync(path.join(out, 'summary.csv'), 'utf8').trim().split('\n');
    assert.equal(csv.length, 1 + SCENARIOS.length);
    assert.match(csv[0], /^scenario,node_ok,node_mean_ms,node_p99_ms,node_rps,node_cpu_ms_per_request,node_errors,em_ok,/);
    const row = Object.fromEntries(csv[0].split(',').map((k, i) => [k, csv[1].split(',')[i]]));
    const run = doc.runs.find((r) => r.server === 'em' && r.scenario === SCENARIOS[0]);
    assert.equal(Number(row.em_mean_ms), run.latency_ms.mean);
    // Empty where too few requests lie above the p99 (rule/compare.js percentileResolved).
    if (percentileResolved(run.replies, 0.99)) assert.equal(Number(row.em_p99_ms), run.latency_ms.p99);
    else assert.equal(row.em_p99_ms, '');
  });
});
