'use strict';
// Unit tests of the report's parts: sample reading, aggregation, verdicts, colours, loading.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');

const { readSamples, findSamplesFile, recordedPeriods, ROLE } = require('../perf/report/samples');
const agg = require('../perf/report/aggregate');
const { loadResults, ReportError } = require('../perf/report/load_results');
const { comparisons, flags, headline, primaryPair } = require('../perf/report/summary');
const { serverStyle, orderServers } = require('../perf/report/style');
const { measure } = require('../perf/report/text_metrics');
const { compactNumbers, namespaceIds, hoistSharedAttributes } = require('../perf/report/render');

function tmpDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'report-unit-'));
}

describe('report: samples reader', () => {
  let dir;
  before(() => { dir = tmpDir(); });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reads the runner's CSV (gzipped) with roles and errors", async () => {
    const csv = 't_ms,latency_ms,connect_ms,status,error,role,conn\n'
      + '0.000,1.500,0.100,200,,probe,1\n'
      + '5.000,4000.000,0.200,0,cut,slow,2\n'
      + '10.000,2.500,,200,,main,3\n'
      + '12.000,0.900,,0,reset,main,4\n';
    const file = path.join(dir, 'a.csv.gz');
    fs.writeFileSync(file, zlib.gzipSync(csv));
    const s = await readSamples(file);
    assert.equal(s.n, 4);
    assert.deepEqual(Array.from(s.t), [0, 5, 10, 12]);
    assert.deepEqual(Array.from(s.ms), [1.5, 4000, 2.5, 0.9]);
    assert.deepEqual(Array.from(s.status), [200, 0, 200, 0]);
    assert.deepEqual(Array.from(s.role), [ROLE.probe, ROLE.slow, ROLE.request, ROLE.request]);
  });

  it('reads NDJSON objects and arrays, keeps period lines, skips a truncated last line', async () => {
    const file = path.join(dir, 'b.ndjson');
    fs.writeFileSync(file, [
      JSON.stringify({ t: 1, ms: 2, status: 200 }),
      JSON.stringify([3, 4, 200, 'probe']),
      JSON.stringify({ type: 'slow_active', start_ms: 100, end_ms: 200 }),
      '{"t": 7, "ms"',
    ].join('\n'));
    const s = await readSamples(file);
    assert.equal(s.n, 2);
    assert.equal(s.skipped, 1);
    assert.deepEqual(s.periods, [{ start_ms: 100, end_ms: 200 }]);
    assert.equal(s.role[1], ROLE.probe);
  });

  it('finds a run\'s file by the naming convention or the recorded path', () => {
    fs.mkdirSync(path.join(dir, 'samples'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'samples', 'node__x.csv.gz'), '');
    fs.writeFileSync(path.join(dir, 'elsewhere.csv'), '');
    assert.equal(findSamplesFile(dir, { server: 'node', scenario: 'x' }), path.join(dir, 'samples', 'node__x.csv.gz'));
    assert.equal(findSamplesFile(dir, { server: 'em', scenario: 'x' }), null);
    assert.equal(findSamplesFile(dir, { server: 'em', scenario: 'x', samples_file: 'elsewhere.csv' }), path.join(dir, 'elsewhere.csv'));
  });

  it("takes slow clients' periods from the run record", () => {
    assert.deepEqual(recordedPeriods({ slow_clients: { active_periods: [{ start_ms: 1, end_ms: 2, client: 1 }] } }), [{ start_ms: 1, end_ms: 2 }]);
    assert.equal(recordedPeriods({}), null);
  });
});

describe('report: aggregation', () => {
  const sorted = Float64Array.from({ length: 1000 }, (_, i) => i + 1);

  it('percentile curve: nearest rank, 50 % marker, ends at the slowest request', () => {
    const curve = agg.percentileCurve(sorted);
    const at = (x) => curve.find((p) => p.x === x);
    assert.equal(at(1).ms, 1);
    assert.equal(at(2).ms, 500);
    assert.equal(at(2).marker, true);
    assert.equal(at(100).ms, 990);
    assert.equal(curve[curve.length - 1].ms, 1000);
    assert.ok(curve.length < 100, 'bounded size');
    for (let i = 1; i < curve.length; i++) assert.ok(curve[i].x > curve[i - 1].x);
  });

  it('percentile curve stops at 99.99 % for large runs', () => {
    const big = Float64Array.from({ length: 200000 }, (_, i) => i);
    const curve = agg.percentileCurve(big);
    assert.equal(curve[curve.length - 1].x, 10000);
  });

  it('interval bands: per-interval p50/p99/max and errors', () => {
    const s = { n: 4, t: Float64Array.from([0, 10, 20, 150]), ms: Float64Array.from([1, 3, 2, 5]), status: Uint16Array.from([200, 200, 0, 200]), role: new Uint8Array(4) };
    const bands = agg.intervalBands(s, 100);
    assert.equal(bands.length, 2);
    assert.deepEqual(bands[0], { t0_s: 0, t1_s: 0.1, n: 3, errors: 1, p50: 1, p99: 3, max: 3 });
    assert.equal(bands[1].p50, 5);
  });

  it('bin widths are round numbers giving about the target count', () => {
    assert.equal(agg.pickBinWidth(3000, 150), 20);
    assert.equal(agg.pickBinWidth(60000, 150), 500);
  });

  it('merges overlapping periods', () => {
    assert.deepEqual(agg.mergePeriods([{ start_ms: 5, end_ms: 9 }, { start_ms: 0, end_ms: 6 }, { start_ms: 20, end_ms: 30 }]),
      [{ start_ms: 0, end_ms: 9 }, { start_ms: 20, end_ms: 30 }]);
  });
});

function results(runs, extra = {}) {
  return { scenarios: [...new Set(runs.map((r) => r.scenario))], servers: orderServers(runs.map((r) => r.server)), runs, comparisons: null, ...extra };
}
function run(server, scenario, p50, rps, more = {}) {
  return { server, scenario, ok: true, client_bound: false, errors: {}, requests: 100, trial: null, failure: null,
    latency_ms: { p50, p99: p50 * 3, mean: p50 }, throughput_rps: rps, server_cpu: { ms_per_request: 0.1 }, server_peak_rss_mb: 30, ...more };
}

describe('report: verdicts', () => {
  it('names the faster server and the factor, both directions', () => {
    const r = results([run('node', 's1', 1, 2000), run('em', 's1', 2.5, 1000), run('node', 's2', 4, 100), run('em', 's2', 2, 100)]);
    const comps = comparisons(r);
    const get = (s, m) => comps.find((c) => c.scenario === s && c.metric === m);
    assert.equal(get('s1', 'p50_ms').winner, 'node');
    assert.equal(get('s1', 'p50_ms').factor, 2.5);
    assert.equal(get('s1', 'throughput_rps').winner, 'node');
    assert.equal(get('s2', 'p50_ms').winner, 'em');
    assert.equal(get('s2', 'throughput_rps').winner, null, 'within 5 % is the same');
    assert.match(headline(r, comps), /node in 1 \(2\.5× faster\), em in 1 \(2\.0× faster\) of 2 scenarios/);
  });

  it('does not compare failed or missing runs, and flags them', () => {
    const r = results([run('node', 's1', 1, 10), run('em', 's1', 1, 10, { ok: false, failure: 'crashed' }), run('node', 's2', 1, 10, { client_bound: true, client_cpu_pct: 99 })]);
    const comps = comparisons(r);
    assert.equal(comps.find((c) => c.scenario === 's1').note, 'em failed');
    assert.equal(comps.find((c) => c.scenario === 's2').note, 'no em run');
    const kinds = flags(r).map((f) => `${f.scenario}:${f.server}:${f.kind}`);
    assert.deepEqual(kinds.sort(), ['s1:em:failed', 's2:em:missing', 's2:node:client_bound']);
  });

  it('uses comparisons given in results.json (with a confidence interval)', () => {
    const r = results([run('node', 's1', 1, 10), run('em', 's1', 2, 10)], {
      comparisons: [{ scenario: 's1', metric: 'p50_ms', a: 'node', b: 'em', ratio: 0.6, ci95: [0.5, 0.7], significant: true }],
    });
    const c = comparisons(r).find((x) => x.metric === 'p50_ms');
    assert.equal(c.ratio, 0.6);
    assert.deepEqual(c.ci95, [0.5, 0.7]);
    assert.equal(c.winner, 'node');
  });

  it('compares node with em, whatever else was measured', () => {
    assert.deepEqual(primaryPair(orderServers(['nginx', 'em', 'em_bare', 'node'])), ['node', 'em']);
    assert.deepEqual(primaryPair(['a', 'b', 'c']), ['a', 'b']);
    assert.equal(primaryPair(['a']), null);
  });
});

describe('report: server colours', () => {
  it('are fixed per server, distinct, and differ in lightness for node and em', () => {
    assert.equal(serverStyle('node').colour, '#0072B2');
    assert.equal(serverStyle('em').colour, '#E69F00');
    const grey = (hex) => { const n = parseInt(hex.slice(1), 16); return 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255); };
    assert.ok(Math.abs(grey(serverStyle('node').colour) - grey(serverStyle('em').colour)) > 50, 'greyscale-distinct');
    assert.notDeepEqual(serverStyle('node').dash, serverStyle('em').dash);
    assert.deepEqual(serverStyle('puma'), serverStyle('puma'), 'stable for unknown names');
    assert.deepEqual(orderServers(['zz', 'em', 'nginx', 'node', 'aa']), ['node', 'em', 'nginx', 'aa', 'zz']);
  });
});

describe('report: loading results', () => {
  let dir;
  before(() => { dir = tmpDir(); });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('rejects unusable folders with one-line messages', () => {
    const expectError = (d, re) => assert.throws(() => loadResults(d), (e) => e instanceof ReportError && re.test(e.message) && !e.message.includes('\n'));
    expectError(path.join(dir, 'nope'), /results folder not found/);
    expectError(dir, /no results\.json/);
    fs.writeFileSync(path.join(dir, 'results.json'), '{"runs": [');
    expectError(dir, /not valid JSON/);
    fs.writeFileSync(path.join(dir, 'results.json'), '{"runs": []}');
    expectError(dir, /lists no runs/);
    fs.writeFileSync(path.join(dir, 'results.json'), '{"runs": [{"scenario": "x"}]}');
    expectError(dir, /has no "server"/);
  });

  it('fills what a failed run leaves out', () => {
    fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ runs: [{ server: 'em', scenario: 'x', ok: false, latency_ms: null }] }));
    const r = loadResults(dir);
    assert.equal(r.runs[0].ok, false);
    assert.equal(r.runs[0].latency_ms.p50, null);
    assert.match(r.runs[0].failure, /no reason/);
  });
});

describe('report: SVG helpers', () => {
  it('measures text like Arial (not vega\'s 0.8 em guess)', () => {
    const w = measure('Hello world', 12);
    assert.ok(w > 50 && w < 70, `width ${w}`);
  });

  it('rounds coordinates and namespaces ids', () => {
    assert.equal(compactNumbers('<path d="M1.23456,2.5L3.14159,0"/>'), '<path d="M1.23,2.5L3.14,0"/>');
    assert.equal(namespaceIds('<clipPath id="c1"/><g clip-path="url(#c1)"/>', 'x'), '<clipPath id="x-c1"/><g clip-path="url(#x-c1)"/>');
  });

  it('moves what all points of a mark share to their group', () => {
    const g = (points) => `<g class="mark-symbol role-mark m">${points}</g>`;
    const same = g('<path d="A" fill="#111" opacity="0.5"/><path d="B" fill="#111" opacity="0.5"/>');
    assert.equal(hoistSharedAttributes(same), '<g class="mark-symbol role-mark m" fill="#111" fill-opacity="0.5"><path d="A"/><path d="B"/></g>');
    const mixed = g('<path d="A" fill="#111"/><path d="B" fill="#222"/>');
    assert.equal(hoistSharedAttributes(mixed), mixed);
  });
});
