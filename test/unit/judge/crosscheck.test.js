'use strict';
// The cross-check: its verdicts on made-up trials, and one quick real cross-check (the built-in
// sequential driver vs httperf on the Node server, two trials each) read back from its files.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { compareMetric, compareRuns, buildReport, CROSSCHECK_METRICS } = require('../../../perf/lib/judge/crosscheck');
const { commonScenarios } = require('../../../perf/lib/studies/crosscheck_run');
const { toText, toMarkdown } = require('../../../perf/lib/text/crosscheck_format');
const { loadScenarios } = require('../../../perf/lib/plan/scenarios');
const { makeTmpDir, runCommand, smallerScenarioDir } = require('../../support/runner_helpers');
const { PROJECT_ROOT } = require('../../../perf/lib/project_root');

const metric = (key) => CROSSCHECK_METRICS.find((m) => m.key === key);

/** A made-up ok run of an engine in a one-request-per-connection scenario. */
function run(engine, over = {}) {
  return {
    server: 'node',
    scenario: 'sequential_6000',
    ok: true,
    engine,
    params: { kind: 'closed', keep_alive: false },
    replies: 6000,
    throughput_rps: 1000,
    latency_ms: { mean: 0.3, p50: engine === 'httperf' ? null : 0.25 },
    connect_ms: { mean: 0.1 },
    server_cpu: { ms_per_request: 0.2 },
    errors: { refused: 0, reset: 0, timeout: 0, other: 0 },
    client_cpu_pct: 50,
    crosscheck: { engine: engine === 'httperf' ? 'httperf' : 'autocannon', trial: 1 },
    ...over,
  };
}

describe('crosscheck: verdicts', () => {
  it('agree within the margin when the whole interval lies inside it, differ when it excludes 1, else undecided', () => {
    const a = [1000, 1010, 990].map((x) => run('sequential', { throughput_rps: x }));
    const same = [1005, 995, 1000].map((x) => run('httperf', { throughput_rps: x }));
    const faster = [2000, 2020, 1980].map((x) => run('httperf', { throughput_rps: x }));
    const agree = compareMetric(metric('throughput_rps'), a, same);
    assert.equal(agree.verdict, 'agree');
    assert.ok(agree.ci95[0] < 1 && agree.ci95[1] > 1);
    // B / A within [0.75, 1.37]: holding 1, past ±10 %, inside ±40 %.
    const scattered = [900, 1150, 1000].map((x) => run('httperf', { throughput_rps: x }));
    assert.equal(compareMetric(metric('throughput_rps'), a, scattered).verdict, 'undecided', 'an interval holding 1 is no agreement');
    assert.equal(compareMetric(metric('throughput_rps'), a, scattered, 0.4).verdict, 'agree', 'within ±40 %');
    const differ = compareMetric(metric('throughput_rps'), a, faster);
    assert.equal(differ.verdict, 'differ');
    assert.ok(Math.abs(differ.ratio - 2) < 0.01);
    assert.equal(differ.a.n, 3);
  });

  it('httperf\'s 0.1 ms steps: a difference within them is no difference, and no agreement either: undecided at that resolution', () => {
    const a = [0.2, 0.21, 0.2].map((x) => run('sequential', { latency_ms: { mean: x } }));
    const b = [0.2, 0.2, 0.2].map((x) => run('httperf', { latency_ms: { mean: x } }));
    const row = compareMetric(metric('mean_ms'), a, b);
    assert.match(row.verdict, /^undecided( \(resolution\))?$/);
    assert.ok(row.ci95[0] < 1 && row.ci95[1] > 1, JSON.stringify(row.ci95));
    assert.ok(row.notes.some((n) => ['httperf_connection_time', 'httperf_reply_time'].includes(n)), 'a note on httperf\'s latency (in its 0.1 ms steps)');
    // Much larger than the step: a real difference.
    const c = [0.5, 0.52, 0.5].map((x) => run('sequential', { latency_ms: { mean: x } }));
    assert.equal(compareMetric(metric('mean_ms'), c, b).verdict, 'differ');
  });

  it('n/a when one engine does not measure it; zeros are compared by range', () => {
    const a = [run('sequential'), run('sequential')];
    const b = [run('httperf'), run('httperf')];
    const p50 = compareMetric(metric('p50_ms'), a, b);
    assert.equal(p50.verdict, 'n/a');
    assert.deepEqual(p50.notes, [{ code: 'not_measured_by', engine: 'httperf' }]);
    const errors = compareMetric(metric('errors'), a, b);
    assert.equal(errors.verdict, 'agree: identical');
    const someErrors = [3, 4].map((n) => run('httperf', { errors: { refused: n, reset: 0, timeout: 0, other: 0 } }));
    assert.equal(compareMetric(metric('errors'), a, someErrors).verdict, 'differ');
  });

  it('the open-loop mean without its schedule lag, for the open-loop driver only', () => {
    const ol = [1.5, 1.6].map((m) => run('open_loop', { params: { kind: 'open', requests_per_connection: 1 }, latency_ms: { mean: m }, schedule_lag_ms: { mean: 0.5, max: 1 } }));
    const hp = [1.0, 1.1].map((m) => run('httperf', { params: { kind: 'open', requests_per_connection: 1 }, latency_ms: { mean: m } }));
    const rows = compareRuns(ol, hp);
    const lagless = rows.find((r) => r.metric === 'mean_ms_from_actual_start');
    assert.deepEqual(lagless.a.values, [1, 1.1]);
    assert.equal(lagless.verdict, 'undecided', 'two trials a side, 10 % apart: too wide to call agreement');
    assert.ok(rows.find((r) => r.metric === 'mean_ms').notes.includes('open_loop_scheduled_start'));
    assert.equal(compareRuns([run('sequential'), run('sequential')], [run('httperf'), run('httperf')]).some((r) => r.metric === 'mean_ms_from_actual_start'), false);
  });

  it('keeps only the scenarios both engines can run faithfully, saying why', () => {
    const all = loadScenarios({ quick: true });
    const { scenarios, skipped } = commonScenarios(all, ['autocannon', 'httperf']);
    assert.deepEqual(scenarios.map((s) => s.name), ['sequential_6000', 'concurrent_2000_20', 'concurrent_2000_100', 'concurrent_3000_200', 'keepalive_400x100', 'bigfile_100k', 'index_500']);
    assert.deepEqual(skipped.map((k) => k.scenario), ['long_conn_256', 'short_conn_256', 'slow_read', 'slow_upload', 'big_upload', 'wait_keepalive_1000', 'backend_upstream', 'backend_upstream_timer', 'backend_db', 'backend_db_none']);
    assert.deepEqual(commonScenarios(all, ['autocannon', 'wrk']).scenarios.map((s) => s.name), ['long_conn_256', 'short_conn_256']);
    assert.deepEqual(commonScenarios(all, ['httperf', 'wrk']).scenarios, []);
  });

  it('the server verdicts table: each engine\'s ratio of the two servers', () => {
    const runs = [];
    for (const [engine, name] of [['autocannon', 'sequential'], ['httperf', 'httperf']]) {
      for (const t of [1, 2, 3]) {
        runs.push(run(name, { server: 'node', throughput_rps: 1000 + t, crosscheck: { engine, trial: t } }));
        runs.push(run(name, { server: 'em', throughput_rps: 2000 + t, crosscheck: { engine, trial: t } }));
      }
    }
    const report = buildReport({ engines: ['autocannon', 'httperf'], servers: ['node', 'em'], scenarios: ['sequential_6000'], repeat: 3, quick: true, runs });
    const v = report.server_verdicts.find((x) => x.metric === 'throughput_rps');
    assert.equal(v.agreement, 'same_winner');
    assert.equal(report.margin, 0.1, 'the margin the verdicts were decided at');
    assert.ok(Math.abs(v.engines.autocannon.ratio - 0.5) < 0.01);
    assert.equal(v.engines.httperf.significant, true);
    const text = toText(report);
    assert.match(text, /^Server verdicts by engine \(ratio node \/ em/m);
    assert.match(toMarkdown(report), /^## Server verdicts by engine$/m);
  });
});

describe('crosscheck end to end: perf/cli/crosscheck.js --quick --repeat 2 on the Node server', function () {
  this.timeout(120000);
  const out = makeTmpDir('crosscheck-');
  let result;
  let doc;

  before(async () => {
    // One client at a time at a tenth of its quick count: both engines, both trials, all the same.
    const scenariosDir = smallerScenarioDir({ sequential_6000: { requests: 200 } });
    result = await runCommand(process.execPath, [path.join(PROJECT_ROOT, 'perf', 'cli', 'crosscheck.js'), '--scenarios', 'sequential_6000', '--scenarios-dir', scenariosDir, '--engines', 'autocannon,httperf', '--servers', 'node', '--quick', '--repeat', '2', '--out', out], { timeoutMs: 100000 });
    doc = JSON.parse(fs.readFileSync(path.join(out, 'crosscheck.json'), 'utf8'));
  });

  it('exits 0 and prints the table', () => {
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^server\s+scenario\s+metric\s+autocannon\s+httperf\s+httperf\/autocannon\s+95% CI\s+verdict\s+notes$/m);
    assert.match(result.stdout, /^node\s+sequential_6000\s+req\/s\s+\S+\s+\S+\s+\d+\.\d{3}\s+\[\d+\.\d{3}, \d+\.\d{3}\]\s+(agree|differ|undecided)/m);
    assert.match(result.stdout, /^crosscheck: .*crosscheck\.md/m);
  });

  it('crosscheck.json: a row per metric, both engines with two trials each', () => {
    assert.deepEqual(doc.engines, ['autocannon', 'httperf']);
    assert.equal(doc.repeat, 2);
    assert.deepEqual(doc.failures, []);
    const rows = doc.rows.filter((r) => r.server === 'node' && r.scenario === 'sequential_6000');
    const byMetric = Object.fromEntries(rows.map((r) => [r.metric, r]));
    for (const key of ['throughput_rps', 'mean_ms', 'max_ms', 'connect_ms', 'cpu_ms_per_request', 'errors', 'client_cpu_pct']) {
      const r = byMetric[key];
      assert.ok(r, `row ${key}`);
      for (const field of ['label', 'a', 'b', 'ratio', 'verdict', 'notes']) assert.ok(field in r, `${key}.${field}`);
      assert.equal(r.a.n, 2, key);
      assert.equal(r.b.n, 2, key);
      assert.equal(r.a.engine_run, 'sequential');
      assert.equal(r.b.engine_run, 'httperf');
    }
    assert.equal(byMetric.p99_ms.verdict, 'n/a'); // httperf has no percentiles
    assert.match(byMetric.throughput_rps.verdict, /^(agree within ±10 %|differ|undecided)( \(resolution\))?$/);
    assert.equal(byMetric.throughput_rps.ci95.length, 2);
    const group = doc.groups.find((g) => g.server === 'node');
    assert.match(group.commands.httperf, /^httperf --server 127\.0\.0\.1 --port \d+ --uri \/hello --num-conns 200 --timeout 10$/);
    assert.match(group.latency_basis.httperf, /connection time/);
  });

  it('writes the Markdown table and keeps every trial\'s results', () => {
    const md = fs.readFileSync(path.join(out, 'crosscheck.md'), 'utf8');
    assert.match(md, /^\| server \| scenario \| metric \| autocannon \| httperf \| httperf\/autocannon \| 95% CI \| verdict \| notes \|$/m);
    assert.match(md, /^\| node \| sequential_6000 \| req\/s \|/m);
    for (const d of ['autocannon-t1', 'autocannon-t2', 'httperf-t1', 'httperf-t2']) assert.ok(fs.existsSync(path.join(out, 'runs', d, 'results.json')), d);
  });
});
