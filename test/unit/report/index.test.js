'use strict';
// Building the report (perf/lib/report/index.js buildReport) from a made-up results folder
// with no samples: the charts it draws from what results.json holds alone, their files, every
// comparison as CSV, the seed study's chart where node and em ran its tests; the previous
// report's charts replaced. Then one with the servers' runtime events and samples: the charts of
// the ramps' failed steps and of --timeline with the pauses, and the runtime table. (The fixture
// with samples, and the page in a browser: test/e2e/report_*.)

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { buildReport, UnknownScenario } = require('../../../perf/lib/report/index');
const { Samples } = require('../../../perf/lib/measure/samples');
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

  it('draws what the runs hold: the pair\'s forest plot, the seed study, the pair\'s ratios, a bar chart per metric, a percentile curve where there are percentiles; no timeline without samples', () => {
    assert.deepEqual(built.charts.map((c) => c.name), ['forest_node_vs_em', 'forest_node_vs_nginx', 'forest_em_vs_nginx', 'seed_002', 'overview_ratio', 'overview_mean_ms', 'overview_p99_ms', 'overview_throughput_rps', 'overview_cpu_ms_per_request', 'overview_peak_rss_mb', 'sequential_6000_percentiles']);
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

  it('opens the page with the forest plot of node vs em, what it shows in a line under it; the headline sentence leads the answers', () => {
    const html = fs.readFileSync(path.join(dir, 'report.html'), 'utf8');
    const header = /<header>([^]*?)<\/header>/.exec(html)[1];
    assert.match(header, /<div class="figs forest" id="at-a-glance"><figure class="chart" id="fig-forest_node_vs_em"[^>]* data-kind="forest"[^]*?<svg /);
    assert.match(header, /<p class="headline">node better in 4, em better in 0, the same within ±10 % in 1 of the 5 comparisons with an interval\. <a href="#answers">/);
    assert.doesNotMatch(header, /Lower median response time/);
    assert.match(/<section id="answers">([^]*?)<\/section>/.exec(html)[1], /<p class="headline">Lower median response time: node in 1/);
    const rows = fs.readFileSync(path.join(charts, 'forest_node_vs_em.csv'), 'utf8').trim().split('\n');
    assert.equal(rows[0], 'group,label,kind,run,favours_b,ci_lo,ci_hi,decision,winner,note');
    assert.deepEqual(rows.slice(1).map((r) => r.split(',').slice(0, 2).join(' ')), ['mean', 'p50', 'req/s', 'CPU/req', 'RSS'].map((m) => `sequential_6000 ${m}`));
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

/** A run's runtime events with pauses (in ms from its start) and what its p99 tail coincided with. */
function runtimeWith(pauses, { unit = 'bytes' } = {}) {
  const side = (pct) => ({ in_flight_pct: 90, all_in_flight_pct: 10, without_ms: 30 - pct / 4, explained_pct: pct });
  return {
    runtime: unit === 'bytes' ? 'node' : 'ruby', complete: true, heartbeat_ms: 10, gc_position: unit === 'bytes' ? 'exact' : 'heartbeat',
    gc: { collections: 12, minor: 10, major: 2, time_ms: 30, longest_ms: 11, share_pct: 1.5 },
    loop: { stall_ms: 5, stalls: 1, stalled_ms: 7, longest_stall_ms: 7, late_p99_ms: 1 },
    allocations: { unit, total: 3e7, per_request: unit === 'bytes' ? 1500 : 52 },
    tail: { p99: { at_ms: 12.4, median_ms: 1, slow: 120, gc: side(93), stalls: side(4), coincided: 'gc' } },
    pauses,
  };
}

const PAUSES = [
  { kind: 'gc', gc: 'major', from_ms: 200, to_ms: 211 },
  { kind: 'gc', gc: 'minor', from_ms: 600, to_ms: 601.5 },
  { kind: 'stall', from_ms: 1200, to_ms: 1207 },
];

/** n requests over 2 s, 0.5–2.5 ms, slowed by the pauses they wait through; every 500th reset. */
function samplesFile(dir, rel, n) {
  const s = new Samples();
  s.start(0);
  for (let i = 0; i < n; i++) {
    const t = (i / n) * 2000;
    let ms = 0.5 + (i % 200) / 100;
    for (const p of PAUSES) if (t < p.to_ms && t + ms > p.from_ms) ms += p.to_ms - Math.max(t, p.from_ms);
    if (i % 500 === 7) s.add({ startAt: t, endAt: t + 2, error: 'reset' });
    else s.add({ startAt: t, endAt: t + ms, status: 200, conn: i % 100 });
  }
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), zlib.gzipSync(s.toCsv()));
  return rel;
}

describe('report: the servers\' pauses (ramp steps failed, --timeline, the runtime table)', function () {
  this.timeout(60000);
  const dir = makeTmpDir('report-pauses-');
  let built;
  let html;

  before(async () => {
    const step = (server, rate, failure, file = null) => ({ rate, offered_rps: rate, achieved_rps: rate, p50_ms: 1, p99_ms: failure ? 12.4 : 4, p999_ms: 20, errors: 0, server_cpu_pct: 50, client_cpu_pct: 20, runtime: runtimeWith(PAUSES, { unit: server === 'em' ? 'objects' : 'bytes' }), limited: null, failure, samples_file: file });
    const fail = 'p99 12.4 ms over 10 ms';
    const ramps = {
      objective: { percentile: 'p99', ms: 10 },
      repeat: 1,
      interrupted: false,
      ramps: [{
        name: 'hello_keepalive',
        description: 'GET /hello at a constant rate',
        connection: 'keep-alive',
        connections: 100,
        servers: {
          node: { searches: [{ sustainable_rps: 8000, failing_rps: 16000, saturated: true, steps: [
            step('node', 8000, null),
            // A failure confirmed: two failed steps at one rate, the last one decided the search.
            step('node', 16000, fail, 'samples/ramp__hello_keepalive__node__s1__f1__16000.csv.gz'),
            step('node', 16000, fail, samplesFile(dir, 'samples/ramp__hello_keepalive__node__s1__f2__16000.csv.gz', 32000)),
          ] }], sustainable_rps: { n: 1, centre: 8000, ci95: null } },
          em: { searches: [{ sustainable_rps: 2000, failing_rps: 4000, saturated: true, steps: [
            step('em', 2000, null),
            step('em', 4000, fail, samplesFile(dir, 'samples/ramp__hello_keepalive__em__s1__f1__4000.csv.gz', 8000)),
            step('em', 3000, null),
          ] }, { sustainable_rps: 2000, failing_rps: 3000, saturated: true, steps: [
            step('em', 2000, null),
            step('em', 3000, fail, 'samples/ramp__hello_keepalive__em__s2__f1__3000.csv.gz'),
          ] }], sustainable_rps: { n: 2, centre: 2000, ci95: null } },
        },
        comparisons: [],
      }],
    };
    const runs = ['node', 'em'].flatMap((server) => [1, 2].map((t) => trialRun(server, 'hello', t, 1, 1000, {
      replies: 20000, samples_file: samplesFile(dir, `samples/${server}__hello__t${t}.csv.gz`, 4000), runtime: runtimeWith(PAUSES, { unit: server === 'em' ? 'objects' : 'bytes' }),
    })));
    fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ environment: { options: { repeat: 2 } }, runs, ramps }));
    built = await buildReport(dir, { png: false, timeline: 'hello' });
    html = fs.readFileSync(built.reportPath, 'utf8');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('draws the step that decided each search, where it kept its samples, and each server\'s last trial with --timeline', () => {
    const pauses = built.charts.filter((c) => c.kind === 'pauses').map((c) => c.name);
    assert.deepEqual(pauses, ['ramp_hello_keepalive__node__s1_step3', 'ramp_hello_keepalive__em__s1_step2', 'hello_pauses_node', 'hello_pauses_em']);
    assert.deepEqual(built.warnings, []);
    assert.match(html, /em at 3,000\/s \(search 2 of 2, step 2\): its samples file is missing\./);
  });

  it('each chart: the pauses as bands, the objective as a rule, the cause under the title, the slowest 20,000 of 32,000 requests', () => {
    const spec = JSON.parse(fs.readFileSync(path.join(dir, 'charts', 'ramp_hello_keepalive__node__s1_step3.vl.json'), 'utf8'));
    assert.deepEqual(spec.title.text, ['node, hello_keepalive at 16,000/s (search 1, step 3)']);
    const subtitle = spec.title.subtitle.join(' ');
    assert.match(subtitle, /^Failed: p99 12\.4 ms over 10 ms\. p99: coincided with GC pauses: without the GC's time p99 would have been [\d.]+ ms, not 12\.4 ms \(93 % of its excess over the median, 1\.00 ms\); in flight during one: 90 % of the 120 requests above it/);
    assert.match(subtitle, /Only the 20,000 slowest of 32,000 requests are drawn/);
    assert.deepEqual(spec.layer[0].data.values.map((b) => b.band).sort(), ['loop stall', 'major GC', 'minor or other GC']);
    assert.deepEqual(spec.layer[3].data.values.map((r) => [r.kind, r.ms]), [['objective', 10], ['measured', 12.4]]);
    const svg = fs.readFileSync(path.join(dir, 'charts', 'ramp_hello_keepalive__node__s1_step3.svg'), 'utf8');
    assert.match(svg, /class="mark-rect role-mark[^"]*"/);
    assert.match(svg, /<g class="mark-symbol role-mark[^"]*"[^>]*fill="#0072B2"[^>]*><path d="M[^"]+"\/><\/g>/, 'the dots merged into one path in node\'s colour');
    const csv = fs.readFileSync(path.join(dir, 'charts', 'ramp_hello_keepalive__node__s1_step3.csv'), 'utf8').split('\n');
    assert.equal(csv[0], 'what,band,from_ms,to_ms,t_s,ms,ok');
    assert.match(html, /the 20,000 slowest of its 32,000 requests \(every one of [\d.]+ ms or more; the faster ones are left out/);
  });

  it('puts them on the page: the failed steps under their ramp per server, the runs in their scenario\'s section, the runtime table', () => {
    const ramps = html.slice(html.indexOf('<section id="ramps">'), html.indexOf('</section>', html.indexOf('<section id="ramps">')));
    assert.equal((ramps.match(/<details class="steps" open>/g) || []).length, 2, 'a fold per server');
    assert.match(ramps, /node<\/span> 1 failed step with the server's GC pauses and loop stalls<\/summary>/);
    for (const name of ['ramp_hello_keepalive__node__s1_step3', 'ramp_hello_keepalive__em__s1_step2']) assert.ok(ramps.includes(`id="fig-${name}"`), name);
    const section = html.slice(html.indexOf('<section id="s-hello">'), html.indexOf('</section>', html.indexOf('<section id="s-hello">')));
    assert.match(section, /<h3>Response time with the server's pauses<\/h3>/);
    for (const server of ['node', 'em']) assert.ok(section.includes(`id="fig-hello_pauses_${server}"`), server);
    const table = section.slice(section.indexOf('<table class="runtime">'), section.indexOf('</table>', section.indexOf('<table class="runtime">')));
    const cells = (server) => [...new RegExp(`${server}</span></td>(.*?)</tr>`).exec(table)[1].matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1]);
    assert.deepEqual(cells('node'), ['2', '10 / 2', '1.50', '11.0', '1', '7.00', '1,500 bytes', 'GC pauses: 93 % (2 of 2 runs)']);
    assert.deepEqual(cells('em').slice(6), ['52.0 objects', 'GC pauses: 93 % (2 of 2 runs)']);
    assert.match(section, /Medians over each server's runs a verdict may use \(the column “runs” counts them\)/);
  });

  it('names the scenarios when --timeline names none of them', async () => {
    await assert.rejects(buildReport(dir, { png: false, timeline: 'nope' }), (e) => e instanceof UnknownScenario && e.message === `--timeline: no scenario 'nope' in ${dir} (its scenarios: hello)`);
  });
});
