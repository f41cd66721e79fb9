'use strict';
// buildReport and `npm run report` on real files: the fixed small fixture, a folder left by an
// interrupted run, a run with hundreds of thousands of requests, and folders that are no
// results at all.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { spawnSync } = require('node:child_process');

const { buildReport } = require('../../perf/lib/report');
const { encodeLatencies, mergeLatencyHistograms } = require('../../perf/lib/measure/stats');
const { parseSamplesCsv } = require('../../perf/lib/measure/samples');
const { makeTmpDir } = require('../support/runner_helpers');

const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURE = path.join(__dirname, '..', 'fixtures', 'results_small');
const CLI = path.join(ROOT, 'perf', 'cli', 'report.js');

function copyFixture() {
  const dir = makeTmpDir('report-build-');
  fs.cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

/** assert.match without printing a whole page when it fails. */
function has(text, re) {
  assert.ok(re.test(text), `expected the page to match ${re}`);
}

function cli(...args) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60000 });
}

describe('report: built from the small fixture', () => {
  let dir;
  let out;
  let html;
  before(async () => {
    dir = copyFixture();
    out = await buildReport(dir);
    html = fs.readFileSync(out.reportPath, 'utf8');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  /** A scenario's row of the summary table. */
  const summaryRow = (scenario) => {
    const from = html.indexOf(`>${scenario}</a>`, html.indexOf('<table class="summary">'));
    return html.slice(from, html.indexOf('</tr>', from));
  };

  it('writes report.html and every chart as SVG, PNG, CSV and Vega-Lite spec', () => {
    assert.equal(out.reportPath, path.join(dir, 'report.html'));
    const names = out.charts.map((c) => c.name).sort();
    assert.deepEqual(names, [
      'bigfile_100k_percentiles', 'bigfile_100k_timeline',
      'concurrent_2000_20_percentiles', 'concurrent_2000_20_timeline',
      'forest_node_vs_em',
      'overview_cpu_ms_per_request', 'overview_mean_ms', 'overview_peak_rss_mb', 'overview_ratio', 'overview_throughput_rps',
      'seed_002',
      'sequential_6000_percentiles', 'sequential_6000_timeline',
      'short_conn_256_percentiles',
      'slow_read_percentiles', 'slow_read_probe',
    ]);
    for (const c of out.charts) {
      const svg = fs.readFileSync(path.join(dir, c.files.svg), 'utf8');
      assert.match(svg, /^<\?xml[^>]*>\n<svg [^>]*width="\d/, c.name);
      const png = fs.readFileSync(path.join(dir, c.files.png));
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${c.name}.png is a PNG`);
      assert.ok(png.readUInt32BE(16) > 400, `${c.name}.png is drawn at 2x`);
      const csv = fs.readFileSync(path.join(dir, c.files.csv), 'utf8').trim().split('\n');
      assert.ok(csv.length > 1, `${c.name}.csv has rows`);
      const spec = JSON.parse(fs.readFileSync(path.join(dir, c.files.spec), 'utf8'));
      assert.match(spec.$schema, /vega-lite/);
    }
    assert.ok(fs.existsSync(path.join(dir, 'charts', 'comparisons.csv')));
    assert.deepEqual(out.warnings, [], 'vega and vega-lite had nothing to complain about');
  });

  it('is self-contained: charts inline, no scripts, nothing fetched from elsewhere', () => {
    assert.equal((html.match(/<svg /g) || []).length, out.charts.length);
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//i);
    assert.doesNotMatch(html, /@import|url\(\s*["']?https?:/i);
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    assert.equal(new Set(ids).size, ids.length, 'ids are unique across the inline SVGs');
    for (const [, href] of html.matchAll(/href="([^"#][^"]*)"/g)) {
      if (href.startsWith('data:')) continue;
      assert.ok(fs.existsSync(path.join(dir, href)), `link target exists: ${href}`);
    }
  });

  it('puts the verdicts, the flags and the environment at the top', () => {
    const top = html.slice(0, html.indexOf('id="overview"'));
    // concurrent_2000_20 is not judged: node's run there was client-bound.
    has(top, /node in 1 \(slow_read 47\.8×\), em in 2 \(short_conn_256 1\.75×, sequential_6000 1\.27×\) of 5 scenarios; not comparable in 2 \(concurrent_2000_20: client-bound; bigfile_100k: failed runs\)/);
    has(top, /– not judged <span class="caveat">⚠/);
    has(html, /not judged: node client-bound, the load generator set the pace \(try --engine wrk\)/);
    has(top, /<b>em<\/b> 1\.27×<\/span> faster <span class="ci">95% CI <span class="nowrap">1\.\d\d–1\.\d\d×<\/span>/);
    has(top, /CLIENT-BOUND<\/span> <a[^>]*>concurrent_2000_20<\/a> — node \(trials 1–3\): client-bound/);
    has(top, /FAILED<\/span> <a[^>]*>bigfile_100k<\/a> — em \(trials 1–3\): FAILED: server exited with code 1/);
    has(top, /<table class="summary">/);
    has(top, /Example CPU @ 2\.40GHz/);
    assert.ok(top.indexOf('class="summary"') < top.indexOf('id="environment"'), 'summary above the environment');
  });

  it('judges no throughput the schedule set: "set by the rate", never "≈ same" or a bold 1.0×', () => {
    const row = summaryRow('slow_read');
    has(row, /<td class="">50<\/td><td class="">50<\/td><td class="verdict"><span class="muted"[^>]*>set by the rate<\/span><\/td>/);
    assert.doesNotMatch(html, /≈ same/);
    assert.doesNotMatch(html, /<b>(node|em)<\/b> 1\.0\d?×/);
    const csv = fs.readFileSync(path.join(dir, 'charts', 'comparisons.csv'), 'utf8');
    assert.match(csv, /^slow_read,throughput_rps,node,em,[\d.]+,[\d.]+,,,,,3,3,,,,set by the rate,/m);
  });

  it('names the engine that gave a verdict, and shows the runs it replaced as superseded, not as warnings against it', () => {
    // short_conn_256: the built-in load generator was the bottleneck (node client-bound, em not
    // server-bound), so wrk ran it again; results.json's verdict_engines says the same.
    const row = summaryRow('short_conn_256');
    has(row, /^>short_conn_256<\/a><br><span class="engine">verdict from wrk<\/span><\/td>/);
    assert.doesNotMatch(row, /CLIENT-BOUND|NOT JUDGED|SUPERSEDED|not judged/, 'nothing in the row speaks against the verdict');
    has(row, /<b>em<\/b> 1\.75×<\/span> faster/);
    has(html, /“Verdict from wrk” \(or another engine\): the values and the verdict come from that engine's runs; where another engine ran the scenario too, its runs are kept for information, marked superseded\./);
    const care = html.slice(html.indexOf('<details class="care"'), html.indexOf('</details>'));
    assert.doesNotMatch(care, /short_conn_256/, 'the superseded runs are no warnings');
    const section = html.slice(html.indexOf('<section id="s-short_conn_256">'), html.indexOf('</section>', html.indexOf('<section id="s-short_conn_256">')));
    has(section, /<p class="engine"><b>Verdict from wrk<\/b>: the verdicts, the numbers they rest on and the charts use wrk's runs\. The sequential runs it was chosen over are kept for information \(superseded\), not used for a verdict\.<\/p>/);
    // Each server's superseded runs once, trials folded, for information, with why they were replaced; no client-bound warning.
    const items = section.match(/<li class="[a-z]+">.*?<\/li>/g) || [];
    assert.deepEqual(items.map((li) => /<li class="([a-z]+)"><span class="tag [a-z]+">([A-Z -]+)<\/span> (\w+) \(trials 1–3\):/.exec(li).slice(1)), [['info', 'SUPERSEDED', 'node'], ['info', 'SUPERSEDED', 'em']]);
    has(items[0], /node \(trials 1–3\): superseded: wrk ran short_conn_256 again \(the built-in load generator was the bottleneck\); the verdict uses wrk&#39;s runs; kept for information \(client-bound: the load generator used 97% of its core \(90% or more\); not server-bound: /);
    // The numbers: each run with its engine; the built-in ones marked superseded.
    const runs = section.slice(section.indexOf('<table class="runs">'));
    const statuses = [...runs.matchAll(/<td class="l">(sequential|wrk)<\/td><td class="l">(.*?)<\/td>/g)].map((m) => `${m[1]}: ${m[2].replace(/<[^>]+>/g, '')}`);
    assert.deepEqual(statuses.sort(), [...Array(6).fill('sequential: SUPERSEDED'), ...Array(6).fill('wrk: ok')], 'three trials of each server, with each engine');
    // The charts show the runs of the verdict (wrk's summaries; it keeps no samples), for both servers alike.
    assert.deepEqual(out.charts.find((c) => c.name === 'short_conn_256_percentiles').servers, ['node', 'em']);
    const curve = fs.readFileSync(path.join(dir, 'charts', 'short_conn_256_percentiles.svg'), 'utf8');
    assert.match(curve, /node: from the run.{1,6}s summary percentiles \(no samples\)/);
    assert.match(curve, /em: from the run.{1,6}s summary percentiles \(no samples\)/);
  });

  it('draws no per-interval p99 the interval\'s requests do not resolve, and says so', () => {
    // sequential_6000: 12,000 requests in per-interval bands, about 40 an interval: none has a p99.
    const rows = fs.readFileSync(path.join(dir, 'charts', 'sequential_6000_timeline.csv'), 'utf8').trim().split('\n');
    const head = rows[0].split(',');
    const bands = rows.slice(1).map((line) => Object.fromEntries(head.map((h, i) => [h, line.split(',')[i]])));
    assert.ok(bands.length > 100 && bands.every((b) => b.p50 !== '' && b.p99 === '' && Number(b.n) < 10000), 'a median but no p99 in every interval');
    const svg = fs.readFileSync(path.join(dir, 'charts', 'sequential_6000_timeline.svg'), 'utf8');
    assert.ok(svg.includes(`No p99 in ${bands.length} of ${bands.length} intervals (n too small: fewer than 100`), 'the legend says so');
    assert.doesNotMatch(svg, /<path d="[^"]+"[^>]*stroke-dasharray="3,2"/, 'no p99 line drawn');
    has(html, /The dashed p99 line is drawn only for intervals with at least 100 requests above their p99, and breaks elsewhere \(n too small in \d+ of \d+ intervals\)\./);
  });

  it('warns about everything above the summary table, one line each, folded when long', () => {
    const care = html.slice(html.indexOf('<details class="care"'), html.indexOf('</details>') + 10);
    assert.ok(html.indexOf('<details class="care"') < html.indexOf('<table class="summary">'), 'above the summary table');
    has(care, /^<details class="care" id="care"><summary><b>Read with care:<\/b> 5 warnings \(1 client-bound, 1 errors, 1 behind schedule, 1 near client-bound, 1 failed\)<\/summary>/);
    const items = care.match(/<li>/g) || [];
    assert.equal(items.length, 5);
    has(care, /BEHIND SCHEDULE<\/span> <a href="#s-concurrent_2000_20">concurrent_2000_20<\/a> — em \(trials 1–3\): connections opened up to 35 ms behind schedule/);
    has(care, /NEAR CLIENT-BOUND<\/span> <a href="#s-sequential_6000">sequential_6000<\/a> — node \(trials 1–3\): the load generator used 84 % of its core/);
    has(care, /ERRORS<\/span> <a href="#s-concurrent_2000_20">concurrent_2000_20<\/a> — em \(trials 1–3\): 5 of 2000 requests failed \(reset 5\)/);
    has(care, /node \(trials 1–3\): client-bound \(load generator at 99 % of its core\), not used for a verdict: the load generator set the pace; re-run with a lighter engine, e\.g\. --engine wrk<\/li>/);
    assert.doesNotMatch(html, /may not be\)/);
  });

  it('puts a unit on every column of every table', () => {
    for (const [, head] of html.matchAll(/<thead>([\s\S]*?)<\/thead>/g)) {
      for (const [, th] of head.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)) {
        const text = th.replace(/<[^>]+>/g, '').trim();
        // Names, counts and words need none; every number column names its unit.
        if (/^(scenario|server|trial|engine|status|test|seed|comparison|published|conclusion|reference|better|requests|replies|errors|said|finds|before|during|after|2011|this run|(median|p99) response time \(ms\)|throughput \(req\/s\))$/.test(text)) continue;
        assert.match(text, / (ms|req\/s|MB|ms\/req|%|×|s)$/, `column "${text}" has a unit`);
      }
    }
  });

  it('describes each scenario at the size it ran (--quick), beside the full size', () => {
    has(html, /<p class="about">As run: 800 requests over 20 concurrent connections \(keep-alive\), GET \/lipsum100k\.txt\. <span class="muted">\(--quick: a shorter load than the full scenario, “GET \/lipsum100k\.txt \(102400 bytes\), 32 concurrent keep-alive connections, 10000 requests”\)/);
    has(html, /As run: 10 slow readers take GET \/data\/random-1m\.bin at 64 KiB\/s each from 1 s for 4 s, while a probe opens 50 connections\/s/);
  });

  it('draws no percentile the requests do not resolve, and says n', () => {
    for (const scenario of ['concurrent_2000_20', 'sequential_6000', 'slow_read']) {
      const rows = fs.readFileSync(path.join(dir, 'charts', `${scenario}_percentiles.csv`), 'utf8').trim().split('\n');
      const head = rows[0].split(',');
      const svg = fs.readFileSync(path.join(dir, 'charts', `${scenario}_percentiles.svg`), 'utf8');
      const n = {};
      for (const [, count, server] of svg.matchAll(/([\d,]+) \((node|em)\)/g)) n[server] = Number(count.replace(/,/g, ''));
      assert.deepEqual(Object.keys(n).sort(), ['em', 'node'], `${scenario}: n for both servers in the chart`);
      for (const line of rows.slice(1)) {
        const r = Object.fromEntries(head.map((h, i) => [h, line.split(',')[i]]));
        assert.ok(Number(r.x) <= n[r.server] / 100 + 1e-6, `${scenario} ${r.server}: ${r.percentile} % from ${n[r.server]} requests`);
      }
      assert.match(svg, /\| ends at/, `${scenario}: the end of the curve is marked`);
    }
    assert.ok(!out.charts.some((c) => c.name === 'overview_p99_ms'), 'no p99 bars: no run has the 10,000 requests a p99 needs');
    // slow_read's probe: 300 requests, so the curve ends at 66.7 %, far from "99 %".
    assert.match(fs.readFileSync(path.join(dir, 'charts', 'slow_read_percentiles.svg'), 'utf8'), /\| ends at 66\.7 % \(n = 300\)/);
    // p99 and p99.9 cells of the tables, where the runs are too small to have them.
    const seq = html.slice(html.indexOf('id="s-sequential_6000"'), html.indexOf('id="s-bigfile_100k"'));
    const runsTable = seq.slice(seq.indexOf('<table class="runs">'));
    assert.equal((runsTable.match(/>n too small</g) || []).length, 12, 'p99 and p99.9 of both servers\' three trials');
    has(html.slice(html.indexOf('id="s-slow_read"')), /<li>p99 response time: <span class="muted"[^>]*>n too small<\/span><\/li>/);
    // Not judged for another reason (client-bound, a failed em run), the p99 is still not shown.
    assert.equal((summaryRow('concurrent_2000_20').match(/>n too small</g) || []).length, 2);
    has(summaryRow('bigfile_100k'), /<td class=""><span class="muted">n too small<\/span><\/td><td class="">–<\/td>/);
    has(summaryRow('sequential_6000'), /n too small<\/span><\/td><td class=""><span class="muted">n too small<\/span><\/td><td class="verdict"><span class="muted"[^>]*>n too small<\/span>/);
  });

  it('reproduces the 2011 study\'s four tests beside this run, each claim judged against its own number', () => {
    const seed = html.slice(html.indexOf('<section id="seed">'), html.indexOf('</section>', html.indexOf('<section id="seed">')));
    assert.ok(html.indexOf('<section id="seed">') < html.indexOf('id="environment"'), 'near the top');
    has(seed, /<figure class="chart" id="fig-seed_002"/);
    const rows = seed.match(/<tr><td class="l">\d<\/td>/g) || [];
    assert.equal(rows.length, 4);
    has(seed, /<td class="l">1<\/td><td class="l"><a href="#s-sequential_6000">sequential_6000<\/a><\/td><td>20\.9<\/td><td>4\.30<\/td>/);
    has(seed, /<td class="l">4<\/td><td class="l">concurrent_3000_200<\/td><td>3\.80<\/td><td>4\.10<\/td>/);
    has(seed, /<li>Test 1 \(sequential_6000\): 2011 Node 4\.86× faster; this run node [\d.]+× more req\/s \[[\d.]+–[\d.]+\]: Node still wins, by less\.<\/li>/);
    has(seed, /<li>Test 2 \(concurrent_2000_20\): 2011 really close; this run not compared: node client-bound in all 3 trials: [^<]*: not judged\.<\/li>/);
    const chart = fs.readFileSync(path.join(dir, 'charts', 'seed_002.csv'), 'utf8');
    assert.match(chart, /^Test 1: sequential_6000,2011 \(study\),em,20\.9,,$/m);
    assert.match(chart, /^Test 1: sequential_6000,this run,node,0\.\d+,0\.\d+,0\.\d+$/m);
  });

  it('draws per-request dots for small runs and per-interval bands for large ones', () => {
    const rows = (name) => fs.readFileSync(path.join(dir, 'charts', `${name}.csv`), 'utf8').trim().split('\n');
    const dots = rows('concurrent_2000_20_timeline');
    assert.match(dots[0], /^server,kind,t_s,ms,ok$/);
    assert.equal(dots.length - 1, 4000);
    const bands = rows('sequential_6000_timeline');
    assert.match(bands[0], /p50,p99,max/);
    assert.ok(bands.length - 1 < 400, `${bands.length - 1} intervals for 12000 requests`);
  });

  it("marks the slow clients' activity in the probe chart (recorded for node, derived for em)", () => {
    const rows = fs.readFileSync(path.join(dir, 'charts', 'slow_read_probe.csv'), 'utf8').trim().split('\n');
    const periods = rows.filter((r) => r.includes(',period,'));
    assert.equal(periods.length, 2, 'one merged period per server');
    for (const p of periods) assert.match(p, /^(node|em),period,.*1\.0\d*,5,?/);
  });

  it('leaves out a failed run without samples, and says so', () => {
    const bigfile = out.charts.find((c) => c.name === 'bigfile_100k_timeline');
    assert.deepEqual(bigfile.servers, ['node']);
    assert.deepEqual(bigfile.missing, ['em']);
    has(html, /em: no data \(run failed\)/);
  });

  it('rebuilds from the saved files alone, replacing the previous report', async () => {
    fs.writeFileSync(path.join(dir, 'charts', 'stale_chart.svg'), '<svg/>');
    const again = cli(dir);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /^report: wrote .*report\.html \(16 charts, [\d.]+ s\)\n$/);
    assert.ok(!fs.existsSync(path.join(dir, 'charts', 'stale_chart.svg')));
  });
});

describe('report: percentiles of all trials pooled, from their stored histograms', () => {
  let dir;
  let doc;
  before(async () => {
    dir = copyFixture();
    // Every trial of sequential_6000 gets a histogram: trial 1's replies, 3 % slower and faster.
    const file = path.join(dir, 'results.json');
    doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const server of ['node', 'em']) {
      const [first, ...later] = doc.runs.filter((r) => r.scenario === 'sequential_6000' && r.server === server);
      const rows = parseSamplesCsv(zlib.gunzipSync(fs.readFileSync(path.join(dir, first.samples_file))).toString()).filter((x) => x.status > 0);
      later.forEach((r, i) => { r.latency_histogram = encodeLatencies(rows.map((x) => x.latency_ms * [1.03, 0.97][i])); });
    }
    fs.writeFileSync(file, JSON.stringify(doc));
    await buildReport(dir, { png: false });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('draws the merged histogram of the three trials: n is their replies together, each point its percentile', () => {
    const rows = fs.readFileSync(path.join(dir, 'charts', 'sequential_6000_percentiles.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    for (const server of ['node', 'em']) {
      const runs = doc.runs.filter((r) => r.scenario === 'sequential_6000' && r.server === server);
      const merged = mergeLatencyHistograms(runs.map((r) => r.latency_histogram));
      assert.equal(merged.totalCount, 3 * runs[0].replies);
      const points = rows.filter((r) => r[0] === server);
      // 18,000 replies resolve the p99 that one trial's 6,000 do not.
      const p99 = points.find((r) => r[1] === '99');
      assert.ok(p99, `${server}: a 99 % point`);
      assert.equal(Number(p99[3]), Math.max(0.001, merged.getValueAtPercentile(99) / 1000));
      assert.equal(Number(points.find((r) => r[1] === '50')[3]), merged.getValueAtPercentile(50) / 1000);
    }
    assert.match(fs.readFileSync(path.join(dir, 'charts', 'sequential_6000_percentiles.svg'), 'utf8'), /18,000 \(node\)/);
  });
});

describe('report: a folder left by an interrupted run', () => {
  let dir;
  before(() => {
    dir = copyFixture();
    const file = path.join(dir, 'results.json');
    const results = JSON.parse(fs.readFileSync(file, 'utf8'));
    // The run stopped during slow_read on em: that run is missing, node's sample file was cut mid-line.
    results.runs = results.runs.filter((r) => !(r.scenario === 'slow_read' && r.server === 'em'));
    // A file of the fixture's age holds its comparisons; today's runner writes none, and the
    // report judges the runs, as here.
    delete results.comparisons;
    delete results.aggregates;
    fs.writeFileSync(file, JSON.stringify(results));
    fs.rmSync(path.join(dir, 'samples', 'em__slow_read__t1.csv.gz'));
    const cut = zlib.gunzipSync(fs.readFileSync(path.join(dir, 'samples', 'node__slow_read__t1.csv.gz'))).toString().slice(0, -40);
    fs.writeFileSync(path.join(dir, 'samples', 'node__slow_read__t1.csv.gz'), zlib.gzipSync(cut));
    fs.rmSync(path.join(dir, 'samples', 'node__sequential_6000__t1.csv.gz'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('still produces a report, with the gaps flagged', async () => {
    const out = await buildReport(dir);
    const html = fs.readFileSync(out.reportPath, 'utf8');
    has(html, /MISSING<\/span> <a[^>]*>slow_read<\/a> — em: no run \(interrupted\?\)/);
    const seq = out.charts.find((c) => c.name === 'sequential_6000_percentiles');
    assert.deepEqual(seq.servers, ['node', 'em'], "node's curve comes from its summary percentiles");
    has(html, /node: from the run.{1,6}s summary percentiles \(no samples\)/);
    assert.deepEqual(out.charts.find((c) => c.name === 'slow_read_probe').servers, ['node']);
  });
});

describe('report: a long run (600 000 requests)', function () {
  this.timeout(60000);
  let dir;
  before(() => {
    dir = makeTmpDir('report-big-');
    fs.mkdirSync(path.join(dir, 'samples'));
    const runs = [];
    for (const [server, base] of [['node', 0.4], ['em', 0.6]]) {
      const n = 300000;
      const lines = ['t_ms,latency_ms,connect_ms,status,error,role,conn'];
      let x = 1;
      for (let i = 0; i < n; i++) {
        x = (x * 48271) % 2147483647;
        const ms = base + (x % 1000) / 2000 + (i % 50000 === 0 ? 40 : 0);
        lines.push(`${(i * 0.2).toFixed(3)},${ms.toFixed(3)},,200,,main,${1 + (i % 100)}`);
      }
      fs.writeFileSync(path.join(dir, 'samples', `${server}__keepalive_400x100.csv.gz`), zlib.gzipSync(`${lines.join('\n')}\n`, { level: 1 }));
      runs.push({ server, scenario: 'keepalive_400x100', ok: true, requests: n, replies: n, throughput_rps: 5000, latency_ms: { p50: base + 0.25, p99: base + 0.5, mean: base + 0.25 } });
    }
    fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ environment: {}, runs }));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('aggregates: a small page, built in seconds', async () => {
    const t0 = Date.now();
    const out = await buildReport(dir, { png: false });
    const ms = Date.now() - t0;
    const size = fs.statSync(out.reportPath).size;
    assert.ok(size < 1024 * 1024, `report.html is ${size} bytes`);
    assert.ok(ms < 30000, `took ${ms} ms`);
    const timeline = fs.readFileSync(path.join(dir, 'charts', 'keepalive_400x100_timeline.csv'), 'utf8').trim().split('\n');
    assert.ok(timeline.length < 400, `${timeline.length} rows for 600 000 requests`);
    assert.match(timeline[0], /p50,p99,max/);
  });
});

describe('report: npm run report on what is not a results folder', () => {
  let dir;
  before(() => { dir = makeTmpDir('report-bad-'); });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const oneLineError = (res, re) => {
    assert.notEqual(res.status, 0);
    assert.equal(res.stdout, '');
    const lines = res.stderr.trim().split('\n');
    assert.equal(lines.length, 1, res.stderr);
    assert.match(lines[0], re);
  };

  it('a folder that does not exist', () => oneLineError(cli(path.join(dir, 'nope')), /^report: error: results folder not found: /));
  it('a folder without results.json', () => oneLineError(cli(dir), /^report: error: no results\.json in .* \(is this a results folder\?\)$/));
  it('a results.json that is not JSON', () => {
    fs.writeFileSync(path.join(dir, 'results.json'), '{"runs": [');
    oneLineError(cli(dir), /^report: error: .*results\.json is not valid JSON/);
  });
  it('no folder given', () => {
    const res = cli();
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /missing required argument 'results-dir'/);
  });
});

describe('report: npm run report --timeline on the fixture (no runtime events recorded)', () => {
  let dir;
  before(() => { dir = copyFixture(); });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('draws each server\'s last trial with samples over time, says no pauses are shaded, and adds nothing elsewhere', () => {
    const res = cli(dir, '--timeline', 'sequential_6000', '--no-png');
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /^report: wrote .*report\.html \(18 charts, [\d.]+ s\)\n$/);
    const html = fs.readFileSync(path.join(dir, 'report.html'), 'utf8');
    const section = html.slice(html.indexOf('<section id="s-sequential_6000">'), html.indexOf('</section>', html.indexOf('<section id="s-sequential_6000">')));
    for (const server of ['node', 'em']) {
      assert.ok(section.includes(`id="fig-sequential_6000_pauses_${server}"`), server);
      const spec = JSON.parse(fs.readFileSync(path.join(dir, 'charts', `sequential_6000_pauses_${server}.vl.json`), 'utf8'));
      assert.deepEqual(spec.title.text, [`${server}, sequential_6000, trial 1`], 'the only trial with samples');
      assert.match(spec.title.subtitle.join(' '), /No runtime events: the server records none, so no pauses are shaded\./);
    }
    assert.doesNotMatch(html, /<table class="runtime">/, 'no runtime table without runtime events');
    assert.equal((html.match(/data-kind="pauses"/g) || []).length, 2);
  });
});
