'use strict';
// Building the report (perf/lib/report/index.js buildReport) from a made-up results folder
// with no samples: the charts it draws from what results.json holds alone, their files, every
// comparison as CSV, the seed study's chart where node and em ran its tests; the previous
// report's charts replaced. (Folders with samples, and the page in a browser: test/e2e/report_*.)

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { buildReport } = require('../../../perf/lib/report/index');
const { trialRun } = require('../../support/made_up_results');
const { makeTmpDir } = require('../../support/runner_helpers');

/** Three trials of a server in sequential_6000 (a test of the 2011 study), 10,000 replies each, with summary percentiles. */
const trials = (server, p50, rps, more = {}) => [1, 2, 3].map((t) => trialRun(server, 'sequential_6000', t, p50 * (1 + t / 100), rps, {
  replies: 10000, latency_ms: { min: p50 / 2, mean: p50 * 1.2, p50: p50 * (1 + t / 100), p90: p50 * 2, p99: p50 * 4, p999: p50 * 8, max: p50 * 9 }, ...more,
}));

describe('report: built from results.json alone', function () {
  this.timeout(30000);
  const dir = makeTmpDir('report-index-');
  const charts = path.join(dir, 'charts');
  let built;

  before(async () => {
    // em's runs record no p99 and p99.9; nginx's no percentiles (an engine that gives only a mean).
    const noTail = (r) => ({ ...r, latency_ms: { ...r.latency_ms, p99: undefined, p999: undefined } });
    const runs = [...trials('node', 1, 1000), ...trials('em', 2, 500).map(noTail), ...trials('nginx', 0.5, 2000, { latency_ms: { mean: 0.6 } })];
    fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ environment: { options: { repeat: 3 } }, runs }));
    fs.mkdirSync(charts);
    fs.writeFileSync(path.join(charts, 'stale_timeline.svg'), '<svg/>');
    fs.writeFileSync(path.join(charts, 'notes.txt'), 'mine');
    built = await buildReport(dir, { png: false });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('draws what the runs hold: the seed study, the pair\'s ratios, a bar chart per metric, a percentile curve where there are percentiles; no timeline without samples', () => {
    assert.deepEqual(built.charts.map((c) => c.name), ['seed_002', 'overview_ratio', 'overview_mean_ms', 'overview_p99_ms', 'overview_throughput_rps', 'overview_cpu_ms_per_request', 'overview_peak_rss_mb', 'sequential_6000_percentiles']);
    const curve = built.charts.find((c) => c.kind === 'percentiles');
    assert.deepEqual([curve.servers, curve.missing], [['node', 'em'], ['nginx']]);
    assert.deepEqual(built.warnings, []);
    assert.equal(built.reportPath, path.join(dir, 'report.html'));
  });

  it('writes each chart as SVG, its data as CSV and its Vega-Lite spec, and no PNG when asked for none; the previous charts go, other files stay', () => {
    const files = fs.readdirSync(charts).sort();
    for (const c of built.charts) {
      assert.deepEqual([c.files.svg, c.files.csv, c.files.spec, c.files.png], [`charts/${c.name}.svg`, `charts/${c.name}.csv`, `charts/${c.name}.vl.json`, null]);
      for (const f of [c.files.svg, c.files.csv, c.files.spec]) assert.ok(files.includes(path.basename(f)), f);
    }
    assert.equal(files.filter((f) => f.endsWith('.png')).length, 0);
    assert.ok(!files.includes('stale_timeline.svg'), 'a chart of the previous report');
    assert.ok(files.includes('notes.txt'));
    assert.match(fs.readFileSync(path.join(dir, 'report.html'), 'utf8'), /^<!doctype html>/);
  });

  it('the percentile curve from the runs\' summary percentiles, each resolved by their replies, and says so', () => {
    const rows = fs.readFileSync(path.join(charts, 'sequential_6000_percentiles.csv'), 'utf8').trim().split('\n');
    assert.equal(rows[0], 'server,percentile,x,ms,marker,end');
    assert.deepEqual(rows.slice(1).map((r) => r.split(',').slice(0, 2).join(' ')), ['node 0', 'node 50', 'node 90', 'node 99', 'em 0', 'em 50', 'em 90'], '10,000 replies resolve a p99, not a p99.9');
    const spec = JSON.parse(fs.readFileSync(path.join(charts, 'sequential_6000_percentiles.vl.json'), 'utf8'));
    for (const server of ['node', 'em']) assert.ok(JSON.stringify(spec.title).includes(`${server}: from the run's summary percentiles (no samples).`), JSON.stringify(spec.title));
  });

  it('every comparison of the pair as CSV: values, ratio and interval, the answer', () => {
    const [head, ...rows] = fs.readFileSync(path.join(charts, 'comparisons.csv'), 'utf8').trim().split('\n');
    assert.equal(head, 'scenario,metric,a,b,value_a,value_b,ratio_a_over_b,ci95_lo,ci95_hi,significant,n_a,n_b,winner,factor,excluded,no_verdict,note,decision,margin,more_measuring,answer');
    assert.deepEqual(rows.map((r) => r.split(',').slice(0, 4).join(' ')), ['mean_ms', 'p50_ms', 'p99_ms', 'throughput_rps', 'cpu_ms_per_request', 'peak_rss_mb'].map((m) => `sequential_6000 ${m} node em`));
    const rps = rows.find((r) => r.includes(',throughput_rps,')).split(',');
    assert.deepEqual([rps[9], rps[10], rps[11], rps[12]], ['true', '3', '3', 'node']);
    assert.ok(Math.abs(Number(rps[13]) - 2) < 1e-9, rps[13]);
    assert.deepEqual([rps[17], rps[18]], ['winner', '0.1']);
    assert.match(rps.slice(20).join(','), /^node 2\.0× more req\/s \[[\d.]+–[\d.]+\]$/);
  });

  it('the ratio chart: how many times better the winner is, in each headline metric both sides measured, whichever way the metric points', () => {
    const rows = fs.readFileSync(path.join(charts, 'overview_ratio.csv'), 'utf8').trim().split('\n');
    const head = rows[0].split(',');
    const byMetric = Object.fromEntries(rows.slice(1).map((r) => { const cells = r.split(','); return [cells[head.indexOf('metric')], cells]; }));
    assert.deepEqual(Object.keys(byMetric).sort(), ['p50', 'req/s'], 'em\'s runs give no p99');
    for (const metric of ['p50', 'req/s']) {
      assert.equal(byMetric[metric][head.indexOf('winner')], 'node', metric);
      assert.ok(Math.abs(Number(byMetric[metric][head.indexOf('times')]) - 2) < 1e-9, `${metric}: node 2× better`);
    }
  });
});
