'use strict';
// Verdicts over trials on known data (perf/lib/judge/verdicts.js), the plan the runner makes
// (perf/lib/plan/trial_plan.js) and how the summary table words them (perf/lib/text/summary.js).

const assert = require('node:assert/strict');
const { analyzeRuns, findComparison, overheads } = require('../../../perf/lib/judge/verdicts');
const { verdictWords, METRICS } = require('../../../perf/lib/judge/metrics');
const plan = require('../../../perf/lib/plan/trial_plan');
const { toText, toMarkdown, toCsv } = require('../../../perf/lib/text/summary');
const { loadScenarios } = require('../../../perf/lib/plan/scenarios');
const { decodeResults } = require('../../../perf/lib/store/results_doc');

/** Runs as every output reads them. */
const decoded = (runs) => decodeResults({ environment: {}, runs });

function run(server, scenario, trial, p50, rps, more = {}) {
  return {
    server, scenario, trial, ok: true, failure: null, client_bound: false, client_cpu_pct: 50, requests: 100, replies: 100,
    errors: { refused: 0, reset: 0, timeout: 0, other: 0 },
    latency_ms: { mean: p50 * 1.2, p50, p99: p50 * 4 }, throughput_rps: rps,
    server_cpu: { ms_per_request: p50 / 10 }, server_peak_rss_mb: 50,
    ...more,
  };
}

const close = (x, y, eps = 1e-9) => Math.abs(x - y) < eps * Math.max(1, Math.abs(y));

describe('trials: aggregates and comparisons on known data', () => {
  // node: p50 1, 1.1, 0.9 ms; em: 2, 2.2, 1.8 ms (exactly twice): ratio node/em = 0.5.
  const runs = [
    run('node', 's', 1, 1, 1000), run('em', 's', 1, 2, 500),
    run('node', 's', 2, 1.1, 1100), run('em', 's', 2, 2.2, 550),
    run('node', 's', 3, 0.9, 900), run('em', 's', 3, 1.8, 450),
  ];
  const { aggregates, comparisons } = analyzeRuns(runs);

  it('aggregates: geometric mean and a t-interval per server, scenario and metric', () => {
    const node = aggregates.find((a) => a.server === 'node');
    assert.deepEqual([node.trials, node.used_trials, node.basis], [3, [1, 2, 3], 'trials']);
    const gm = Math.cbrt(1 * 1.1 * 0.9);
    assert.ok(close(node.metrics.p50_ms.centre, gm));
    assert.equal(node.metrics.p50_ms.n, 3);
    const [lo, hi] = node.metrics.p50_ms.ci95;
    assert.ok(lo < gm && gm < hi && lo > 0.6 && hi < 1.5, `${lo} ${hi}`);
    assert.deepEqual(Object.keys(node.metrics), ['mean_ms', 'p50_ms', 'p99_ms', 'throughput_rps', 'cpu_ms_per_request', 'peak_rss_mb']);
  });

  it('comparisons: ratio = a/b with `better`, the winner, and the factor "a is r× faster"', () => {
    const p50 = comparisons.find((c) => c.metric === 'p50_ms');
    assert.equal(p50.a, 'node');
    assert.equal(p50.b, 'em');
    assert.equal(p50.better, 'lower');
    assert.ok(close(p50.ratio, 0.5));
    // em is twice node in every trial; Welch's interval (unpaired) is narrow around 0.5.
    assert.ok(p50.ci95[0] < 0.5 && p50.ci95[1] > 0.5 && p50.ci95[0] > 0.35 && p50.ci95[1] < 0.7, `${p50.ci95}`);
    assert.equal(p50.significant, true);
    assert.equal(p50.winner, 'node');
    assert.ok(close(p50.factor, 2));
    assert.deepEqual([p50.n_a, p50.n_b, p50.excluded], [3, 3, null]);
    const rps = comparisons.find((c) => c.metric === 'throughput_rps');
    assert.equal(rps.better, 'higher');
    assert.ok(close(rps.ratio, 2));
    assert.equal(rps.winner, 'node');
    assert.match(verdictWords(p50), /^node 2\.0× faster \[1\.\d\d–2\.\d\d\]$/);
    assert.match(verdictWords(rps), /^node 2\.0× more req\/s \[1\.\d\d–2\.\d\d\]$/);
    // RSS is the same in every trial: no significant difference.
    const rss = comparisons.find((c) => c.metric === 'peak_rss_mb');
    assert.equal(rss.significant, false);
    assert.equal(rss.winner, null);
    assert.match(verdictWords(rss), /^no significant difference/);
  });

  it('overlapping trials: no significant difference, said plainly', () => {
    const r = analyzeRuns([run('a', 's', 1, 1, 10), run('b', 's', 1, 1.05, 10), run('a', 's', 2, 1.2, 10), run('b', 's', 2, 0.95, 10), run('a', 's', 3, 0.9, 10), run('b', 's', 3, 1.1, 10)]);
    const c = r.comparisons.find((x) => x.metric === 'p50_ms');
    assert.equal(c.significant, false);
    assert.ok(c.ci95[0] < 1 && c.ci95[1] > 1);
    assert.match(verdictWords(c), /^no significant difference \((a|b) 1\.\d\d× faster \[[\d.]+–[\d.]+\]\)$/);
  });

  it('one trial: the ratio without an interval, and it says so', () => {
    const r = analyzeRuns([run('node', 's', 1, 1, 100), run('em', 's', 1, 3, 100)]);
    const c = r.comparisons.find((x) => x.metric === 'p50_ms');
    assert.equal(c.ratio, 1 / 3);
    assert.equal(c.ci95, null);
    assert.equal(c.significant, null);
    assert.equal(c.winner, null);
    assert.equal(c.note, '1 trial: no interval');
    assert.equal(verdictWords(c), 'no verdict (node 3.0× faster; 1 trial: no interval)');
  });

  it('client-bound trials are left out; when every trial is, the comparison is excluded and says why', () => {
    const some = analyzeRuns([
      run('node', 's', 1, 1, 100, { client_bound: true }), run('em', 's', 1, 2, 100),
      run('node', 's', 2, 1, 100), run('em', 's', 2, 2, 100),
      run('node', 's', 3, 1.1, 100), run('em', 's', 3, 2, 100),
    ]);
    const c1 = some.comparisons.find((x) => x.metric === 'p50_ms');
    assert.deepEqual([c1.n_a, c1.n_b, c1.excluded], [2, 3, null]);
    assert.deepEqual(some.aggregates.find((a) => a.server === 'node').client_bound_trials, [1]);

    const all = analyzeRuns([1, 2, 3].flatMap((t) => [run('node', 's', t, 1, 100, { client_bound: true }), run('em', 's', t, 2, 100)]));
    const c2 = all.comparisons.find((x) => x.metric === 'p50_ms');
    assert.equal(c2.excluded, 'client-bound');
    assert.equal(c2.ratio, null);
    assert.equal(c2.winner, null);
    assert.match(c2.note, /^node client-bound in all 3 trials: the load generator set the pace; re-run with a lighter engine, e\.g\. --engine wrk$/);
    assert.match(verdictWords(c2), /^not compared: node client-bound/);
    assert.equal(all.aggregates.find((a) => a.server === 'node').basis, 'client-bound');
  });

  it('failed runs never count; a server with no run of a scenario gives no comparison', () => {
    const r = analyzeRuns([
      run('node', 's', 1, 1, 100), run('em', 's', 1, 2, 100, { ok: false, failure: 'x', latency_ms: null }),
      run('node', 's', 2, 1, 100), run('em', 's', 2, 2.1, 100),
      run('node', 't', 1, 1, 100),
    ]);
    const c = r.comparisons.find((x) => x.scenario === 's' && x.metric === 'p50_ms');
    assert.deepEqual([c.n_a, c.n_b], [2, 1]);
    assert.equal(c.note, 'em: 1 trial: no interval');
    assert.equal(r.comparisons.filter((x) => x.scenario === 't').length, 0);
    const allFailed = analyzeRuns([run('node', 's', 1, 1, 1), run('em', 's', 1, 1, 1, { ok: false, failure: 'boom' })]);
    assert.equal(allFailed.comparisons[0].excluded, 'failed');
  });

  it('peak RSS of a quick run that held fewer slow clients than the full scenario is not judged', () => {
    const params = { kind: 'slow_clients', probe: { rate: 50 }, slow: { clients: 10 }, full_size: { slow_clients: 50 } };
    const quick = analyzeRuns([1, 2, 3].flatMap((t) => [run('node', 's', t, 1, 50, { params, server_peak_rss_mb: 70 + t }), run('em', 's', t, 1, 50, { params, server_peak_rss_mb: 30 + t })]));
    const rss = quick.comparisons.find((c) => c.metric === 'peak_rss_mb');
    assert.deepEqual([rss.no_verdict, rss.winner], ['smaller quick load', null]);
    assert.equal(rss.note, "smaller quick load: memory grows with the slow clients held at once, 10 here against the full run's 50");
    const full = { ...params, full_size: undefined };
    assert.equal(analyzeRuns([1, 2, 3].flatMap((t) => [run('node', 's', t, 1, 50, { params: full, server_peak_rss_mb: 70 + t }), run('em', 's', t, 1, 50, { params: full, server_peak_rss_mb: 30 + t })])).comparisons.find((c) => c.metric === 'peak_rss_mb').winner, 'em');
  });

  it('a metric measured in steps coarser than 5 % of its centre is not judged: "below the resolution"', () => {
    // httperf prints latencies in 0.1 ms steps: means of 0.13 vs 0.24 ms are not judged, req/s is.
    const httperf = { engine: 'httperf', engine_latency: { resolution_ms: 0.1 } };
    const coarse = analyzeRuns([1, 2, 3].flatMap((t) => [run('node', 's', t, 0.2, 4000 + t, httperf), run('em', 's', t, 0.11, 7000 + t, httperf)]));
    const mean = coarse.comparisons.find((c) => c.metric === 'mean_ms');
    assert.deepEqual([mean.no_verdict, mean.winner, mean.ratio], ['below the resolution', null, null]);
    assert.match(mean.note, /^below the resolution: httperf gives 0\.1 ms steps, too coarse for 0\.13 ms \(judged from 2 ms\)$/);
    assert.equal(coarse.comparisons.find((c) => c.metric === 'throughput_rps').winner, 'em');
    // CPU per request in whole clock ticks: 10 ms over 100 replies is a 0.1 ms step, too coarse
    // for 1.3 ms; over 10,000 replies (0.001 ms) the same centres are judged.
    const cpu = (ms, replies) => ({ replies, server_cpu: { ms_per_request: ms, resolution_ms: 10 / replies } });
    const few = analyzeRuns([1, 2, 3].flatMap((t) => [run('node', 's', t, 1, 100, cpu(1.3, 100)), run('em', 's', t, 1, 100, cpu(1.4 + t / 1000, 100))]));
    const fewCpu = few.comparisons.find((c) => c.metric === 'cpu_ms_per_request');
    assert.deepEqual([fewCpu.no_verdict, fewCpu.winner], ['below the resolution', null]);
    assert.match(fewCpu.note, /the CPU clock gives 0\.1 ms steps, too coarse for 1\.3 ms/);
    const many = analyzeRuns([1, 2, 3].flatMap((t) => [run('node', 's', t, 1, 100, cpu(1.3, 10000)), run('em', 's', t, 1, 100, cpu(1.4 + t / 1000, 10000))]));
    const manyCpu = many.comparisons.find((c) => c.metric === 'cpu_ms_per_request');
    assert.deepEqual([manyCpu.no_verdict, manyCpu.winner], [null, 'node']);
  });

  it('findComparison flips a stored pair; overheads orient throughput so that > 1 is a cost', () => {
    const r = analyzeRuns([1, 2, 3].flatMap((t) => [run('node', 's', t, 1.5 + t / 100, 800), run('node_bare', 's', t, 1 + t / 100, 1000)]));
    const flipped = findComparison(r.comparisons, 's', 'p50_ms', 'node_bare', 'node');
    const direct = findComparison(r.comparisons, 's', 'p50_ms', 'node', 'node_bare');
    assert.ok(close(flipped.ratio, 1 / direct.ratio));
    assert.ok(close(flipped.ci95[0], 1 / direct.ci95[1]));
    const defs = { node: {}, node_bare: { reference_for: ['node'], reference_role: 'bare runtime' } };
    const [row] = overheads(r.comparisons, defs, ['node', 'node_bare'], ['s']);
    assert.deepEqual([row.server, row.reference, row.role], ['node', 'node_bare', 'bare runtime']);
    assert.ok(row.metrics.p50_ms.overhead > 1.4 && row.metrics.p50_ms.overhead < 1.6);
    assert.ok(close(row.metrics.throughput_rps.overhead, 1.25));
    assert.equal(row.metrics.throughput_rps.significant, true);
  });

  it('the metric table names each direction', () => {
    assert.deepEqual(Object.entries(METRICS).map(([k, m]) => `${k}:${m.better}`), ['mean_ms:lower', 'p50_ms:lower', 'p99_ms:lower', 'throughput_rps:higher', 'cpu_ms_per_request:lower', 'peak_rss_mb:lower']);
  });
});

describe('trials: the summary table shows ratios with their intervals', () => {
  const runs = [1, 2, 3].flatMap((t) => [run('node', 'sequential', t, 1 + t / 50, 1000 - t), run('em', 'sequential', t, 2 + t / 50, 500 + t)]);

  it('terminal: centres, then the verdicts with intervals', () => {
    const text = toText(decoded(runs));
    assert.match(text, /^Each cell is the centre \(geometric mean\) of up to 3 trials/m);
    assert.match(text, /^Verdicts, node vs em: ratio = node ÷ em, 95% confidence interval/m);
    assert.match(text, /^sequential\s+mean ms\s+[\d.]+\s+[\d.]+\s+0\.\d+\s+\[0\.\d+–0\.\d+\]\s+node 1\.\d\d× faster \[[\d.]+–[\d.]+\]$/m);
    assert.match(text, /^\s+RSS MB\s+50\.0\s+50\.0\s+1\.000\s+\[1\.00–1\.00\]\s+no significant difference \(1\.0× \[1\.00–1\.00\]\)$/m);
  });

  it('markdown and CSV carry the same', () => {
    const md = toMarkdown(decoded(runs));
    assert.match(md, /^\| scenario \| metric \| node \| em \| node\/em \| 95% CI \| verdict \|$/m);
    const csv = toCsv(decoded(runs)).trim().split('\n');
    const head = csv[0].split(',');
    assert.ok(head.includes('node_over_em_p99_ms') && head.includes('node_over_em_p99_ms_lo') && head.includes('node_trials'));
    // Cells may be quoted ("n too small (300 requests; p99 needs 10,000)").
    const cells = (line) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].filter((m) => m.index < line.length || m[1] !== '').map((m) => m[1].replace(/^"|"$/g, ''));
    const row = Object.fromEntries(head.map((h, i) => [h, cells(csv[1])[i]]));
    assert.equal(cells(csv[1]).length, head.length);
    assert.equal(row.node_trials, '3');
    assert.ok(Number(row.node_over_em_p50_ms_lo) < Number(row.node_over_em_p50_ms) && Number(row.node_over_em_p50_ms) < Number(row.node_over_em_p50_ms_hi));
  });

  it('one trial: "1 trial: no interval"', () => {
    const text = toText(decoded([run('node', 's', 1, 1, 100), run('em', 's', 1, 2, 100)]));
    assert.match(text, /^One trial per server and scenario/m);
    assert.match(text, /no verdict \(node 2\.0× faster; 1 trial: no interval\)/);
    assert.match(text, /no verdict \(1\.0×; 1 trial: no interval\)/, 'the same throughput: no side named');
  });
});

describe('trials: what the runner plans', () => {
  const scenarios = loadScenarios({ quick: true });
  const byName = Object.fromEntries(scenarios.map((s) => [s.name, s]));

  it('trials outermost: servers alternate A B A B', () => {
    assert.deepEqual(plan.trialPlan(['a', 'b'], 2).map((p) => `${p.trial}${p.server}`), ['1a', '1b', '2a', '2b']);
  });

  it('what each scenario needs, and what a server that serves less skips', () => {
    assert.deepEqual(plan.scenarioNeeds(byName.sequential_6000), ['hello']);
    assert.deepEqual(plan.scenarioNeeds(byName.bigfile_100k), ['files']);
    assert.deepEqual(plan.scenarioNeeds(byName.slow_read), ['hello', 'files']);
    assert.deepEqual(plan.scenarioNeeds(byName.slow_upload), ['hello', 'upload']);
    const nginx = { serves: ['hello', 'files'] };
    assert.equal(plan.missingCapabilities(nginx, byName.slow_read), null);
    assert.deepEqual(plan.missingCapabilities(nginx, byName.big_upload), ['upload']);
    assert.equal(plan.missingCapabilities({}, byName.big_upload), null, 'no `serves`: serves everything');
  });

  it('a server whose command is missing is named with the hint', () => {
    assert.equal(plan.missingRequirement({ requires: ['node'] }), null);
    assert.equal(plan.missingRequirement({ requires: ['no-such-program-xyz'], install_hint: 'apt-get install xyz' }), 'no-such-program-xyz is not installed (apt-get install xyz)');
  });

  it('estimates the length: load × trials + start-up, "about"', () => {
    const served = { node: [byName.sequential_6000, byName.slow_read], em: [byName.sequential_6000, byName.slow_read] };
    const one = plan.estimatePlanS(plan.trialPlan(['node', 'em'], 1), served);
    const three = plan.estimatePlanS(plan.trialPlan(['node', 'em'], 3), served);
    assert.ok(one > 2 * 6 && one < 30, `${one}`);
    assert.ok(three > 3 * 2 * 6 && three < 3 * one, `${three}`);
    assert.equal(plan.fmtDuration(75), '1 min 15 s');
    assert.equal(plan.fmtDuration(3720), '1 h 2 min');
  });
});
