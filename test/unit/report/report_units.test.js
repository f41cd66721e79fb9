'use strict';
// Unit tests of the report's parts: sample reading, aggregation, verdicts, colours, loading.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');

const { Samples, readSamples, findSamplesFile, ROLE } = require('../../../perf/lib/measure/samples');
const agg = require('../../../perf/lib/report/aggregate');
const { loadResults, decodeResults, ResultsError } = require('../../../perf/lib/store/results_doc');
const { comparisons, flags, headline } = require('../../../perf/lib/report/headline');
const trials = require('../../../perf/lib/judge/verdicts');
const { verdictWords } = require('../../../perf/lib/judge/metrics');
const { serverStyle, orderServers } = require('../../../perf/lib/report/style');
const { measure } = require('../../../perf/lib/report/text_metrics');
const { compactNumbers, namespaceIds, hoistSharedAttributes } = require('../../../perf/lib/report/render');

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
    assert.deepEqual(Array.from(s.role), [ROLE.probe, ROLE.slow, ROLE.main, ROLE.main]);
  });

  it('what Samples writes, readSamples reads back; a truncated last line is skipped, not fatal', async () => {
    const samples = new Samples();
    samples.start(0);
    samples.add({ startAt: 1, endAt: 3, connectMs: 0.2, status: 200, role: 'probe', conn: 1 });
    samples.add({ startAt: 2, endAt: 9, status: 0, error: 'timeout', role: 'slow', conn: 2 });
    const file = path.join(dir, 'b.csv');
    fs.writeFileSync(file, `${samples.toCsv()}4.000,1.`);
    const s = await readSamples(file);
    assert.deepEqual([s.n, s.skipped, Array.from(s.t), Array.from(s.ms), Array.from(s.status)], [2, 1, [1, 2], [2, 7], [200, 0]]);
    assert.deepEqual(Array.from(s.role), [ROLE.probe, ROLE.slow]);
  });

  it('refuses a file that is not a samples file, saying what its header is', async () => {
    const file = path.join(dir, 'c.csv');
    fs.writeFileSync(file, 't,ms,status\n1,2,200\n');
    await assert.rejects(readSamples(file), /^Error: not a samples file: its header is 't,ms,status', not 't_ms,latency_ms,connect_ms,status,error,role,conn'$/);
  });

  it('finds a run\'s file by its recorded path, or the name the runner gives it', () => {
    fs.mkdirSync(path.join(dir, 'samples'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'samples', 'node__x__t2.csv.gz'), '');
    fs.writeFileSync(path.join(dir, 'elsewhere.csv'), '');
    assert.equal(findSamplesFile(dir, { server: 'node', scenario: 'x', trial: 2 }), path.join(dir, 'samples', 'node__x__t2.csv.gz'));
    assert.equal(findSamplesFile(dir, { server: 'em', scenario: 'x', trial: 2 }), null);
    assert.equal(findSamplesFile(dir, { server: 'em', scenario: 'x', samples_file: 'elsewhere.csv' }), path.join(dir, 'elsewhere.csv'));
    assert.equal(findSamplesFile(dir, { server: 'node', scenario: 'x', trial: 2, samples: null }), null, 'an engine that keeps none');
  });

  it("takes slow clients' periods from the run record", () => {
    assert.deepEqual(agg.recordedPeriods({ slow_clients: { active_periods: [{ start_ms: 1, end_ms: 2, client: 1 }] } }), [{ start_ms: 1, end_ms: 2 }]);
    assert.equal(agg.recordedPeriods({}), null);
  });
});

describe('report: aggregation', () => {
  const sorted = Float64Array.from({ length: 1000 }, (_, i) => i + 1);

  it('percentile curve: nearest rank, 50 % marker, ends where 100 requests lie above', () => {
    const curve = agg.percentileCurve(sorted);
    const at = (x) => curve.find((p) => p.x === x);
    assert.equal(at(1).ms, 1);
    assert.equal(at(2).ms, 500);
    assert.equal(at(2).marker, true);
    assert.equal(at(10).ms, 900);
    assert.equal(at(100), undefined);
    assert.equal(curve[curve.length - 1].end, true);
    assert.ok(curve.length < 100, 'bounded size');
    for (let i = 1; i < curve.length; i++) assert.ok(curve[i].x > curve[i - 1].x);
  });

  it('percentile curve stops at 99.99 % for large runs', () => {
    const big = Float64Array.from({ length: 2000000 }, (_, i) => i);
    const curve = agg.percentileCurve(big);
    assert.equal(curve[curve.length - 1].x, 10000);
    assert.equal(curve[curve.length - 1].end, false);
  });

  it('interval bands: per-interval p50/p99/max and errors', () => {
    const s = { n: 4, t: Float64Array.from([0, 10, 20, 150]), ms: Float64Array.from([1, 3, 2, 5]), status: Uint16Array.from([200, 200, 0, 200]), role: new Uint8Array(4) };
    const bands = agg.intervalBands(s, 100);
    assert.equal(bands.length, 2);
    // Two replies resolve no p99 (test below): null, not their slowest.
    assert.deepEqual(bands[0], { t0_s: 0, t1_s: 0.1, n: 3, errors: 1, p50: 1, p99: null, max: 3 });
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

/** The decoded results of runs, with the comparisons given as stored ones (else judged). */
function results(runs, { comparisons: stored = null, environment = {} } = {}) {
  return decodeResults({ environment, runs, ...(stored ? { comparisons: stored, aggregates: trials.analyzeRuns(runs).aggregates } : {}) });
}
function run(server, scenario, p50, rps, more = {}) {
  return { server, scenario, ok: true, client_bound: false, errors: {}, requests: 100, trial: null, failure: null,
    latency_ms: { p50, p99: p50 * 3, mean: p50 }, throughput_rps: rps, server_cpu: { ms_per_request: 0.1 }, server_peak_rss_mb: 30, ...more };
}

describe('report: verdicts', () => {
  // Three trials a side, a few per cent apart: the runner's own comparisons (analyzeRuns).
  const threeTrials = (server, scenario, p50, rps) => [1, 1.02, 0.98].map((k, i) => run(server, scenario, p50 * k, rps * k, { trial: i + 1 }));
  const judged = (runs) => results(runs, trials.analyzeRuns(runs));

  it('names the faster server and the factor, both directions', () => {
    const r = judged([...threeTrials('node', 's1', 1, 2000), ...threeTrials('em', 's1', 2.5, 1000), ...threeTrials('node', 's2', 4, 100), ...threeTrials('em', 's2', 2, 100)]);
    const comps = comparisons(r);
    const get = (s, m) => comps.find((c) => c.scenario === s && c.metric === m);
    assert.equal(get('s1', 'p50_ms').winner, 'node');
    assert.ok(Math.abs(get('s1', 'p50_ms').factor - 2.5) < 1e-9);
    assert.equal(get('s1', 'throughput_rps').winner, 'node');
    assert.equal(get('s2', 'p50_ms').winner, 'em');
    assert.deepEqual([get('s2', 'throughput_rps').winner, get('s2', 'throughput_rps').significant], [null, false], 'the same throughput: no significant difference');
    assert.match(headline(r, comps), /node in 1 \(s1 2\.5×\), em in 1 \(s2 2\.0×\) of 2 scenarios\.$/);
  });

  it('names no winner from a single trial, however large the difference looks, and says so', () => {
    const r = results([run('node', 's1', 1, 2000), run('em', 's1', 2.5, 1000), run('node', 's2', 4, 100), run('em', 's2', 2, 100)]);
    const comps = comparisons(r);
    const p50 = comps.find((c) => c.scenario === 's1' && c.metric === 'p50_ms');
    assert.deepEqual([p50.winner, p50.lead, p50.factor, p50.significant], [null, 'node', 2.5, null]);
    assert.match(headline(r, comps), /node in 0, em in 0 of 2 scenarios; no winner named from a single judged trial in 2 \(no interval: run with --repeat 3\)\.$/);
    // With trials, one judged trial on a side means the others were left out.
    const withTrials = { ...r, environment: { options: { repeat: 3 } } };
    assert.match(headline(withTrials, comps), /no winner named from a single judged trial in 2 \(no interval: the other trials were not judged\)\.$/);
  });

  it('says why a scenario names no winner, scenario by scenario (a median the verdict engine does not measure)', () => {
    const r = results([run('node', 's1', 1, 2000), run('em', 's1', 2.5, 1000), run('node', 'seq', null, 4000), run('em', 'seq', null, 8000)]);
    assert.match(headline(r, comparisons(r)), /; not comparable in 1 \(seq: not measured\)\.$/);
    // Not judged: the runner's reason, in words.
    const disturbed = { judged: false, not_judged_because: ['disturbed: steal 40% of a core (over 10%)'] };
    const d = results([run('node', 's1', 1, 2000, { trial: 1 }), run('em', 's1', 2.5, 1000, { trial: 1, ...disturbed })]);
    assert.match(headline(d, comparisons(d)), /not comparable in 1 \(s1: em not judged \(disturbed\)\)\.$/);
  });

  it('does not compare failed or missing runs, and flags them', () => {
    const r = results([run('node', 's1', 1, 10), run('em', 's1', 1, 10, { ok: false, failure: 'crashed' }), run('node', 's2', 1, 10, { client_bound: true, client_cpu_pct: 99 })]);
    const comps = comparisons(r);
    assert.equal(comps.find((c) => c.scenario === 's1').note, 'em failed');
    assert.equal(comps.find((c) => c.scenario === 's2').note, 'no em run');
    const kinds = flags(r).map((f) => `${f.scenario}:${f.server}:${f.kind}`);
    assert.deepEqual(kinds.sort(), ['s1:em:failed', 's2:em:missing', 's2:node:client-bound']);
  });

  it('uses comparisons given in results.json (with a confidence interval)', () => {
    const r = results([run('node', 's1', 1, 10), run('em', 's1', 2, 10)], {
      comparisons: [
        { scenario: 's1', metric: 'p50_ms', a: 'node', b: 'em', ratio: 0.6, ci95: [0.5, 0.7], significant: true, winner: 'node' },
        { scenario: 's1', metric: 'mean_ms', a: 'node', b: 'em', ratio: 0.9, ci95: [0.7, 1.1], significant: false, winner: null },
      ],
    });
    const c = comparisons(r).find((x) => x.metric === 'p50_ms');
    assert.equal(c.ratio, 0.6);
    assert.deepEqual(c.ci95, [0.5, 0.7]);
    assert.deepEqual([c.winner, c.lead], ['node', 'node']);
    // The stored verdict is rendered, not decided again: no winner where trials.js named none.
    const mean = comparisons(r).find((x) => x.metric === 'mean_ms');
    assert.deepEqual([mean.winner, mean.lead], [null, 'node']);
  });

  it('compares node with em, whatever else was measured', () => {
    const pair = (servers, defs = {}) => trials.primaryPair(servers, defs);
    assert.deepEqual(pair(orderServers(['nginx', 'em', 'em_bare', 'node'])), ['node', 'em']);
    assert.deepEqual(pair(['a', 'b', 'c']), ['a', 'b']);
    assert.equal(pair(['a']), null);
    // One server and its references: the overhead table says it all, as in summary.md.
    assert.equal(pair(['node', 'node_bare'], { node_bare: { reference_for: ['node'] } }), null);
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
    const expectError = (d, re) => assert.throws(() => loadResults(d), (e) => e instanceof ResultsError && re.test(e.message) && !e.message.includes('\n'));
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

// Issue 11: verdicts that hold.
const { toText, toMarkdown, toCsv } = require('../../../perf/lib/text/summary');
const { verdictEngines } = trials;
const { describeRun } = require('../../../perf/lib/report/describe');
const { seedRows, STUDY } = require('../../../perf/lib/report/seed');
const { loadScenarios } = require('../../../perf/lib/plan/scenarios');

/** Three trials per server of an open-loop scenario: both servers keep the schedule's 20 req/s. */
function openLoopTrials({ replies = 2000 } = {}) {
  const params = { name: 'concurrent_2000_20', kind: 'open', connections: 2000, rate: 20, requests_per_connection: 1 };
  return [1, 2, 3].flatMap((t) => ['node', 'em'].map((server) => run(server, 'concurrent_2000_20', server === 'node' ? 1 + t / 100 : 2 + t / 100, 20.01 - t / 1000, {
    trial: t, replies, params, client_cpu_pct: 5,
  })));
}

describe('report: metrics the schedule sets are not judged', () => {
  it('perf/lib/judge/verdicts.js decides it once and stores it: "set by the rate", no winner, no ratio', () => {
    const { comparisons: comps } = trials.analyzeRuns(openLoopTrials());
    const rps = comps.find((c) => c.metric === 'throughput_rps');
    assert.equal(rps.no_verdict, 'set by the rate');
    assert.deepEqual([rps.winner, rps.ratio, rps.ci95, rps.significant, rps.factor], [null, null, null, null, null]);
    assert.ok(rps.value_a > 19 && rps.value_b > 19, 'the values are still there to read');
    assert.equal(verdictWords(rps), 'set by the rate');
    // Latency is what an open loop measures: still judged.
    assert.equal(comps.find((c) => c.metric === 'p50_ms').winner, 'node');
    // The probe of a slow-client scenario is scheduled too; a closed loop's throughput is not.
    assert.equal(trials.scheduledRate({ kind: 'slow_clients', probe: { rate: 50 } }), 50);
    assert.equal(trials.scheduledRate({ kind: 'closed', concurrency: 32 }), null);
  });

  it('older results.json comparisons get the same verdict', () => {
    const runs = openLoopTrials();
    // As the runner wrote them before: no `no_verdict`, and a "significant" 1.0001× for throughput.
    const old = trials.analyzeRuns(runs).comparisons.map((c) => {
      const written = { ...c };
      delete written.no_verdict;
      return c.metric === 'throughput_rps' ? { ...written, ratio: 1.0001, ci95: [0.9999, 1.0003], significant: true, winner: 'node', factor: 1.0001 } : written;
    });
    const fixed = trials.withLimits(old, runs).find((c) => c.metric === 'throughput_rps');
    assert.equal(fixed.no_verdict, 'set by the rate');
    assert.equal(fixed.winner, null);
  });

  it('the report, the terminal and summary.md say "set by the rate", never "≈ same (1.0×)" or a bold 1.0×', () => {
    const runs = openLoopTrials();
    const r = results(runs, trials.analyzeRuns(runs));
    const rps = comparisons(r).find((c) => c.metric === 'throughput_rps');
    assert.equal(rps.winner, null);
    assert.equal(rps.factor, null);
    for (const text of [toText(results(runs)), toMarkdown(results(runs))]) {
      const line = text.split('\n').find((l) => /req\/s/.test(l) && /set by the rate/.test(l));
      assert.ok(line, text);
      assert.doesNotMatch(line, /1\.0\d?×|≈ same|node|em /);
    }
  });
});

describe('report: percentiles only where n resolves them (n × (1 − p) ≥ 100)', () => {
  const curve = (n) => agg.percentileCurve(Float64Array.from({ length: n }, (_, i) => i + 1));

  it('the curve stops at the last resolved percentile, marks it, and never plots the maximum as 99 %', () => {
    for (const n of [100, 300, 1000, 6000, 10000, 1000000]) {
      const c = curve(n);
      assert.ok(c.length > 0, `n = ${n}`);
      for (const p of c) assert.ok(trials.percentileResolved(n, 1 - 1 / p.x), `n = ${n}: ${p.percentile} %`);
      assert.ok(c.every((p) => p.ms < n), `n = ${n}: the slowest request is not on the curve`);
    }
    const c300 = curve(300);
    assert.deepEqual(c300[c300.length - 1], { percentile: 66.6667, x: 3, ms: 200, marker: false, end: true });
    assert.equal(curve(100).length, 1, 'n = 100: the minimum only');
    assert.deepEqual(curve(99), [], 'fewer than 100: no curve');
    assert.equal(curve(6000).some((p) => p.x === 100), false, 'no 99 % marker at n = 6000');
    assert.equal(curve(1000000).pop().end, false, '99.99 % is as far as any curve goes; not cut by n');
  });

  it('a run\'s summary percentiles obey the same rule', () => {
    const lat = { min: 0.1, p50: 1, p90: 2, p99: 9.13, p999: 12 };
    assert.deepEqual(agg.percentileCurveFromSummary(lat, 100).map((p) => p.percentile), [0]);
    assert.deepEqual(agg.percentileCurveFromSummary(lat, 10000).map((p) => p.percentile), [0, 50, 90, 99]);
  });

  it('a p99 with fewer than 100 requests above it is "n too small", in verdicts and the terminal', () => {
    const few = trials.analyzeRuns(openLoopTrials({ replies: 2000 })).comparisons.find((c) => c.metric === 'p99_ms');
    assert.equal(few.no_verdict, 'n too small');
    assert.equal(few.winner, null);
    assert.match(few.note, /2,000 requests; p99 needs 10,000/, 'each trial\'s own requests, not the three summed');
    const enough = trials.analyzeRuns(openLoopTrials({ replies: 10000 })).comparisons.find((c) => c.metric === 'p99_ms');
    assert.equal(enough.no_verdict, null);
    assert.equal(enough.winner, 'node');
    const text = toText(results(openLoopTrials({ replies: 2000 })));
    assert.match(text.split('\n')[2], /^concurrent_2000_20\s+[\d.]+\s+n too small\s/);
    assert.match(text, /^\s+p99 ms\s+n too small\s+n too small\s+–\s+n too small$/m);
  });
});

describe('report: warnings reach the terminal and summary.md', () => {
  const runs = [
    run('node', 's', 1, 10, { client_bound: true, client_cpu_pct: 97, replies: 100 }),
    run('em', 's', 1, 10, { client_cpu_pct: 85, schedule_lag_ms: { mean: 3, max: 41.6 }, errors: { reset: 2 }, replies: 98 }),
    run('node', 't', 1, 10, { ok: false, failure: 'server exited with code 1' }),
    run('em', 't', 1, 10, { not_judged_because: ['not server-bound: the server used 80% of its core'] }),
  ];

  it('one line per warning, each readable to its end', () => {
    for (const out of [toText(results(runs)), toMarkdown(results(runs))]) {
      assert.match(out, /node s: client-bound \(load generator at 97 % of its core\), not used for a verdict: the load generator set the pace; re-run with a lighter engine, e\.g\. --engine wrk$/m);
      assert.match(out, /em s: the load generator used 85 % of its core, close to client-bound: the server may be faster than measured$/m);
      assert.match(out, /em s: connections opened up to 42 ms behind schedule; that delay counts in the latency$/m);
      assert.match(out, /em s: 2 of 100 requests failed \(reset 2\)$/m);
      assert.match(out, /node t: FAILED: server exited with code 1$/m);
      assert.match(out, /em t: not used for a verdict: not server-bound: the server used 80% of its core$/m);
      assert.doesNotMatch(out, /may not be\)/);
    }
  });

  it('no "close to client-bound" for an engine whose CPU says nothing of its load (httperf busy-polls: client_bound null)', () => {
    const httperf = [run('node', 'seq', 1, 10, { engine: 'httperf', client_bound: null, client_cpu_pct: 98 })];
    assert.doesNotMatch(toText(results(httperf)), /close to client-bound/);
    assert.match(toText(results([run('node', 'seq', 1, 10, { client_cpu_pct: 98 })])), /node seq: the load generator used 98 % of its core, close to client-bound/);
  });

  it('the report flags the same, with the garbled sentence gone', () => {
    const f = flags(results(runs));
    assert.deepEqual(f.map((x) => `${x.scenario}:${x.server}:${x.kind}`).sort(), ['s:em:errors', 's:em:near-client-bound', 's:em:schedule-lag', 's:node:client-bound', 't:em:not-judged', 't:node:failed']);
    assert.match(f.find((x) => x.kind === 'client-bound').text, /^node: client-bound .*re-run with a lighter engine, e\.g\. --engine wrk$/);
  });

  it('folds a warning of several trials into one line, its figures as ranges, in every output alike', () => {
    const near = (trial, cpu) => run('em', 's', 1, 10, { trial, client_cpu_pct: cpu });
    const three = [near(1, 84), near(2, 88), near(3, 86), run('em', 's', 1, 10, { trial: 4, client_cpu_pct: 20 }), { ...near(5, 81), ok: false, failure: 'server exited with code 1' }];
    const line = 'em s (trials 1–3): the load generator used 84–88 % of its core, close to client-bound: the server may be faster than measured';
    for (const out of [toText(results(three)), toMarkdown(results(three))]) {
      assert.equal(out.split('\n').filter((l) => l.includes(line)).length, 1, out);
      assert.match(out, /em s \(trial 5\): FAILED: server exited with code 1$/m);
    }
    const f = flags(results(three));
    assert.deepEqual(f.map((x) => [x.kind, x.trials]), [['near-client-bound', [1, 2, 3]], ['failed', [5]]]);
    assert.equal(f[0].text, line.replace(' s (trials', ' (trials'));
    // Texts that differ in more than their figures stay apart; trials not in a row are listed.
    const two = [run('em', 's', 1, 10, { trial: 1, not_judged_because: ['disturbed: steal 20%'] }), run('em', 's', 1, 10, { trial: 3, not_judged_because: ['not server-bound: 80%'] })];
    assert.match(toText(results(two)), /^\* em s \(trials 1, 3\): not used for a verdict: disturbed: steal 20%; not used for a verdict: not server-bound: 80%$/m);
  });
});

describe('report: scenarios described at the size they ran', () => {
  it('a --quick run is described with its own counts, not the full ones', () => {
    const quick = Object.fromEntries(loadScenarios({ quick: true }).map((s) => [s.name, describeRun(s)]));
    assert.match(quick.sequential_6000, /^2,000 connections one after another/);
    assert.match(quick.concurrent_2000_20, /^50 connections opened at 20 per second/);
    assert.match(quick.keepalive_400x100, /25 requests each \(10,000 in all\)/);
    assert.match(quick.slow_read, /^10 slow readers .* during 3 s/);
    const full = Object.fromEntries(loadScenarios().map((s) => [s.name, describeRun(s)]));
    assert.match(full.sequential_6000, /^6,000 connections/);
    assert.equal(describeRun({ description: 'from another runner' }), null);
  });
});

describe('report: the 2011 study beside this run', () => {
  const agg1 = (server, scenario, centre, ci95) => ({ server, scenario, basis: 'trials', metrics: { mean_ms: { n: 3, centre, ci95 } } });
  // As the decoded results carry them: ratio = node / em, ci95 of the ratio, with answer and words.
  const cmp = (scenario, metric, ratio, ci95, significant) => ({ scenario, metric, a: 'node', b: 'em', ratio, ci95, significant, excluded: null, no_verdict: null, note: null });

  it('keeps the 2011 figures as data, with their source, in perf/seeds.json', () => {
    assert.match(STUDY.tests.source, /shared\/seeds\/002_/);
    assert.deepEqual(STUDY.tests.list.map((t) => [t.here.scenario, t.em_ms, t.node_ms]), [
      ['sequential_6000', 20.9, 4.3], ['concurrent_2000_20', 2.4, 2.4], ['concurrent_2000_100', 2.5, 2.5], ['concurrent_3000_200', 3.8, 4.1],
    ]);
    // Test 1 is judged on the metric of seed 002's headline row, so the two tables agree.
    assert.equal(STUDY.tests.list[0].here.metric, STUDY.here.metric);
  });

  it('says per test whether the conclusion holds, in the stored comparison\'s words', () => {
    const aggregates = [agg1('node', 'sequential_6000', 0.2, [0.19, 0.21]), agg1('em', 'sequential_6000', 0.18, [0.17, 0.19]), agg1('node', 'concurrent_2000_20', 1.4, [1.3, 1.5]), agg1('em', 'concurrent_2000_20', 1.4, [1.3, 1.5]), agg1('node', 'concurrent_2000_100', 1, [0.9, 1.1]), agg1('em', 'concurrent_2000_100', 1.5, [1.4, 1.6])];
    const stored = [cmp('sequential_6000', 'throughput_rps', 1 / 1.14, [1 / 1.3, 1 / 1.01], true), cmp('concurrent_2000_20', 'mean_ms', 1.02, [0.9, 1.1], false), cmp('concurrent_2000_100', 'mean_ms', 1 / 1.5, [0.6, 0.7], true)];
    const { comparisons: decorated } = decodeResults({ environment: {}, runs: [], comparisons: stored, aggregates });
    const rows = seedRows({ aggregates, comparisons: decorated });
    assert.deepEqual(rows.map((r) => r.holds), [false, true, false, null]);
    assert.equal(rows[0].line, 'Test 1 (sequential_6000): 2011 Node 4.86× faster; this run em 1.14× more req/s [1.01–1.30]: does not hold.');
    assert.match(rows[1].line, /2011 really close; this run no significant difference \(em 1\.02× faster \[0\.90–1\.10\]\): holds\.$/);
    assert.match(rows[2].line, /this run node 1\.5× faster \[1\.43–1\.67\]: does not hold\.$/);
    assert.match(rows[3].line, /this run not run: cannot tell\.$/);
    assert.deepEqual(rows[0].now.node, { ms: 0.2, ci95: [0.19, 0.21], basis: 'trials' });
  });
});

// The single rule of perf/lib/judge/verdicts.js (percentileResolved) in summary.md and summary.csv too.
const FIXTURE_RUNS = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'results_small', 'results.json'), 'utf8')).runs;

/** summary.csv as objects, one per scenario. */
function csvRows(text) {
  const [head, ...lines] = text.trim().split('\n');
  // Split on the commas outside quotes (the notes and verdicts hold some).
  const split = (line) => {
    const fields = [];
    const field = /("(?:[^"]|"")*"|[^,"]*)(,|$)/y;
    for (;;) {
      const m = field.exec(line);
      fields.push(m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]);
      if (m[2] === '') return fields;
    }
  };
  const names = split(head);
  return Object.fromEntries(lines.map((line) => {
    const fields = split(line);
    return [fields[0], Object.fromEntries(names.map((n, i) => [n, fields[i]]))];
  }));
}

describe('summary.md and summary.csv: no p99 where too few requests lie above it', () => {
  it('summary.md says "n too small" instead of the number', () => {
    const md = toMarkdown(results(FIXTURE_RUNS));
    // sequential_6000: 6,000 requests per server, 60 above the p99.
    const row = md.split('\n').find((l) => l.startsWith('| sequential_6000 |')).split('|').map((c) => c.trim());
    assert.deepEqual([row[3], row[7]], ['n too small', 'n too small'], md);
    assert.match(md, /^- p99 needs 10,000 requests \(100 above it\).*: node concurrent_2000_20, em concurrent_2000_20, node sequential_6000, em sequential_6000, node bigfile_100k, node slow_read, em slow_read, node short_conn_256, em short_conn_256\.$/m);
  });

  it('summary.csv leaves the value empty and says why in <server>_p99_note', () => {
    const rows = csvRows(toCsv(results(FIXTURE_RUNS)));
    const seq = rows.sequential_6000;
    assert.deepEqual([seq.node_p99_ms, seq.em_p99_ms], ['', '']);
    assert.equal(seq.node_p99_note, 'n too small (6,000 requests; p99 needs 10,000)');
    assert.ok(Number(seq.node_mean_ms) > 0, 'the other columns keep their numbers');
    // A failed server has no p99 and no note.
    assert.deepEqual([rows.bigfile_100k.em_ok, rows.bigfile_100k.em_p99_ms, rows.bigfile_100k.em_p99_note], ['false', '', '']);
    // Enough requests (10,000 in each trial): the number, and no note.
    const resolved = csvRows(toCsv(results(openLoopTrials({ replies: 10000 })))).concurrent_2000_20;
    assert.ok(Number(resolved.node_p99_ms) > 0);
    assert.equal(resolved.node_p99_note, '');
    assert.match(toMarkdown(results(openLoopTrials({ replies: 10000 }))), /^\| concurrent_2000_20 \| [\d.]+ \| [\d.]+ \|/m);
  });
});

describe('the engine that gave a verdict, in the terminal, summary.md and summary.csv', () => {
  it('names wrk where it ran a scenario again, and lists the runs it superseded for information only', () => {
    for (const [out, bullet] of [[toText(results(FIXTURE_RUNS)), '*'], [toMarkdown(results(FIXTURE_RUNS)), '-']]) {
      const lines = out.split('\n');
      assert.ok(lines.some((l) => /^\|? ?short_conn_256 \(verdict from wrk\)\s+\|?\s*[\d.]+/.test(l)), `the table row names wrk:\n${out}`);
      assert.ok(lines.some((l) => /^\|? ?short_conn_256 \(verdict from wrk\)\s+\|?\s*mean ms/.test(l)), `the verdicts name wrk:\n${out}`);
      assert.equal(lines.filter((l) => /short_conn_256/.test(l) && /client-bound \(load generator|close to client-bound|^. \w+ short_conn_256: not used for a verdict/.test(l)).length, 0, 'no warning against the verdict');
      const superseded = `superseded: wrk ran short_conn_256 again (the built-in load generator was the bottleneck); the verdict uses wrk's runs; kept for information`;
      assert.ok(lines.includes(`${bullet} node short_conn_256 (trials 1–3): ${superseded} (client-bound: the load generator used 97% of its core (90% or more); not server-bound: the server used 71.2% of its core (under 90%), so something else set the pace)`), out);
      assert.ok(lines.includes(`${bullet} em short_conn_256 (trials 1–3): ${superseded} (not server-bound: the server used 62.5% of its core (under 90%), so something else set the pace)`), out);
      assert.ok(!lines.some((l) => /^\|? ?sequential_6000 \(verdict/.test(l)), 'the built-in engine is not named');
    }
    const csv = csvRows(toCsv(results(FIXTURE_RUNS)));
    assert.deepEqual([csv.short_conn_256.verdict_engine, csv.sequential_6000.verdict_engine], ['wrk', '']);
  });

  it('names any other engine alike (httperf), also for a whole run with --engine', () => {
    const params = { name: 'sequential_6000', kind: 'closed', concurrency: 1, keep_alive: false, requests: 6000, engine: 'httperf' };
    const runs = ['node', 'em'].map((server, i) => run(server, 'sequential_6000', 1 + i, 100, { engine: 'httperf', params, replies: 6000 }));
    assert.match(toText(results(runs)), /^sequential_6000 \(verdict from httperf\)\s+[\d.]+/m);
    assert.match(toMarkdown(results(runs)), /^\| sequential_6000 \(verdict from httperf\) \| p50 ms \|/m);
    assert.deepEqual(verdictEngines(runs), { sequential_6000: 'httperf' });
  });
});

describe('report: per-interval p99 only where the interval resolves one', () => {
  const samples = (counts) => {
    const n = counts.reduce((a, b) => a + b, 0);
    const s = { n, t: new Float64Array(n), ms: new Float64Array(n), status: new Uint16Array(n).fill(200), role: new Uint8Array(n) };
    let i = 0;
    counts.forEach((count, bin) => { for (let k = 0; k < count; k++, i++) { s.t[i] = bin * 1000 + k / count * 999; s.ms[i] = 1 + (k % 100); } });
    return s;
  };

  it('intervalBands: a p99 from 10,000 replies, null from fewer (the median is kept)', () => {
    const bands = agg.intervalBands(samples([10000, 9999, 10000]), 1000);
    assert.deepEqual(bands.map((b) => [b.n, b.p99 === null]), [[10000, false], [9999, true], [10000, false]]);
    assert.equal(bands[0].p99, 99, 'replies of 1 to 100 ms, a hundred each');
    assert.ok(bands.every((b) => b.p50 !== null));
    // Failed requests are no replies: 9,999 replies and an error still resolve none.
    const withError = samples([10000]);
    withError.status[0] = 0;
    assert.equal(agg.intervalBands(withError, 1000)[0].p99, null);
  });

  it('the timeline breaks its p99 line and shading there, and its legend says so', async function () {
    this.timeout(20000);
    const { timelineSpec } = require('../../../perf/lib/report/chart_specs');
    const { renderSvg } = require('../../../perf/lib/report/render');
    const values = agg.intervalBands(samples([10000, 10000, 50, 10000, 10000]), 1000).map((b) => ({ server: 'node', kind: 'request', t_s: (b.t0_s + b.t1_s) / 2, ...b }));
    const { svg, warnings } = await renderSvg(timelineSpec({ scenario: 'x', servers: ['node'], mode: 'bands', binMs: 1000, values, tail: { unresolved: 1, intervals: 5, minTail: 100 } }), { id: 't' });
    assert.deepEqual(warnings, []);
    const dashed = [...svg.matchAll(/<path d="([^"]+)"[^>]*stroke-dasharray="3,2"/g)].map((m) => m[1]);
    assert.equal(dashed.length, 1, 'one p99 line');
    assert.equal((dashed[0].match(/M/g) || []).length, 2, `the p99 line is cut in two at the unresolved interval: ${dashed[0]}`);
    assert.ok(svg.includes('No p99 in 1 of 5 intervals (n too small: fewer than 100'), 'the legend says where and why');
  });
});
