'use strict';
// buildReport and `npm run report` on real files: the fixed small fixture, a folder left by an
// interrupted run, a run with hundreds of thousands of requests, and folders that are no
// results at all.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { spawnSync } = require('node:child_process');

const { buildReport } = require('../perf/report');

const ROOT = path.resolve(__dirname, '..');
const FIXTURE = path.join(__dirname, 'fixtures', 'results_small');
const CLI = path.join(ROOT, 'scripts', 'report.js');

function copyFixture() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-build-'));
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

  it('writes report.html and every chart as SVG, PNG, CSV and Vega-Lite spec', () => {
    assert.equal(out.reportPath, path.join(dir, 'report.html'));
    const names = out.charts.map((c) => c.name).sort();
    assert.deepEqual(names, [
      'bigfile_100k_percentiles', 'bigfile_100k_timeline',
      'concurrent_2000_20_percentiles', 'concurrent_2000_20_timeline',
      'overview_cpu_ms_per_request', 'overview_mean_ms', 'overview_p99_ms', 'overview_peak_rss_mb', 'overview_ratio', 'overview_throughput_rps',
      'sequential_6000_percentiles', 'sequential_6000_timeline',
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
    has(top, /node in 1 \(47\.8× faster\), em in 1 \(1\.27× faster\) of 4 scenarios; not comparable in 2 \(failed, missing or client-bound runs\)/);
    has(top, /– not judged <span class="caveat">⚠/);
    has(html, /not judged: node client-bound, the load generator set the pace \(try --engine wrk\)/);
    has(top, /1 trial: no interval/);
    has(top, /CLIENT-BOUND<\/span> <a[^>]*>concurrent_2000_20<\/a> — node client-bound/);
    has(top, /FAILED<\/span> <a[^>]*>bigfile_100k<\/a> — em failed: server exited with code 1/);
    has(top, /<table class="summary">/);
    has(top, /Example CPU @ 2\.40GHz/);
    assert.ok(top.indexOf('class="summary"') < top.indexOf('id="environment"'), 'summary above the environment');
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
    assert.match(again.stdout, /^report: wrote .*report\.html \(14 charts, [\d.]+ s\)\n$/);
    assert.ok(!fs.existsSync(path.join(dir, 'charts', 'stale_chart.svg')));
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
    // A runner killed outright writes no comparisons (they are computed at the end).
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
    has(html, /MISSING<\/span> <a[^>]*>slow_read<\/a> — no em run/);
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
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-big-'));
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
  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-bad-')); });
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
