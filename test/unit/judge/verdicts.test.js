'use strict';
// Verdicts over trials on known data (perf/lib/judge/verdicts.js): aggregates, comparisons and
// their limits (client-bound, failed, one trial, below the resolution, set by the rate, n too
// small), older files brought up to date, the pair the verdicts are about.

const assert = require('node:assert/strict');
// The notes are the judge's codes; their words (perf/lib/text/verdict_notes.js) are what the reader sees.
const { noteWords } = require('../../../perf/lib/text/verdict_notes');
const trials = require('../../../perf/lib/judge/verdicts');
const { withAnswer } = require('../../../perf/lib/rule/metrics');
const { verdictWords } = require('../../../perf/lib/text/verdict_words');

/** A comparison's verdict in words, its answer given as judged.js gives it. */
const words = (c) => verdictWords(withAnswer(c));
const { orderServers } = require('../../../perf/lib/report/style');
const { toText } = require('../../../perf/lib/text/summary');
const { trialRun: run, decoded: results, openLoopTrials } = require('../../support/made_up_results');

const { analyzeRuns, findComparison, overheads } = trials;

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
    assert.match(words(p50), /^node 2\.0× faster \[1\.\d\d–2\.\d\d\]$/);
    assert.match(words(rps), /^node 2\.0× more req\/s \[1\.\d\d–2\.\d\d\]$/);
    // RSS is the same in every trial: an interval of width 0 at 1, within the margin: the same.
    const rss = comparisons.find((c) => c.metric === 'peak_rss_mb');
    assert.equal(rss.significant, false);
    assert.equal(rss.winner, null);
    assert.deepEqual([rss.decision, rss.margin, rss.more_measuring], ['same', 0.1, null]);
    assert.match(words(rss), /^same within ±10 % \[1\.00–1\.00\]$/);
    assert.equal(p50.decision, 'winner');
  });

  it('overlapping trials, wider than the margin: undecided, with what would decide it; never "the same"', () => {
    const r = analyzeRuns([run('a', 's', 1, 1, 10), run('b', 's', 1, 1.05, 10), run('a', 's', 2, 1.2, 10), run('b', 's', 2, 0.95, 10), run('a', 's', 3, 0.9, 10), run('b', 's', 3, 1.1, 10)]);
    const c = r.comparisons.find((x) => x.metric === 'p50_ms');
    assert.equal(c.significant, false);
    assert.ok(c.ci95[0] < 1 && c.ci95[1] > 1);
    assert.equal(c.decision, 'undecided');
    assert.ok(c.more_measuring > 1);
    assert.match(words(c), /^undecided: (a|b) 1\.\d\d× faster \[[\d.]+–[\d.]+\]; about [\d.]+× the measuring would decide$/);
  });

  it('the margin is the caller\'s: an interval within ±30 % is the same there, undecided at ±10 %', () => {
    const runs = [run('a', 's', 1, 1, 10), run('b', 's', 1, 1.05, 10), run('a', 's', 2, 1.1, 10), run('b', 's', 2, 1, 10), run('a', 's', 3, 0.95, 10), run('b', 's', 3, 1.02, 10)];
    const at = (margin) => analyzeRuns(runs, { margin }).comparisons.find((x) => x.metric === 'p50_ms');
    assert.equal(at(0.1).decision, 'undecided');
    assert.deepEqual([at(0.3).decision, at(0.3).margin], ['same', 0.3]);
  });

  it('one trial: the ratio without an interval, and it says so', () => {
    const r = analyzeRuns([run('node', 's', 1, 1, 100), run('em', 's', 1, 3, 100)]);
    const c = r.comparisons.find((x) => x.metric === 'p50_ms');
    assert.equal(c.ratio, 1 / 3);
    assert.equal(c.ci95, null);
    assert.equal(c.significant, null);
    assert.equal(c.winner, null);
    assert.equal(noteWords(c.note), '1 trial: no interval');
    assert.equal(words(c), 'no verdict (node 3.0× faster; 1 trial: no interval)');
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
    assert.match(noteWords(c2.note), /^node client-bound in all 3 trials: the load generator set the pace; re-run with a lighter engine, e\.g\. --engine wrk$/);
    assert.match(words(c2), /^not compared: node client-bound/);
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
    assert.equal(noteWords(c.note), 'em: 1 trial: no interval');
    assert.equal(r.comparisons.filter((x) => x.scenario === 't').length, 0);
    const allFailed = analyzeRuns([run('node', 's', 1, 1, 1), run('em', 's', 1, 1, 1, { ok: false, failure: 'boom' })]);
    assert.equal(allFailed.comparisons[0].excluded, 'failed');
  });

  it('peak RSS of a quick run that held fewer slow clients than the full scenario is not judged', () => {
    const params = { kind: 'slow_clients', probe: { rate: 50 }, slow: { clients: 10 }, full_size: { slow_clients: 50 } };
    const quick = analyzeRuns([1, 2, 3].flatMap((t) => [run('node', 's', t, 1, 50, { params, server_peak_rss_mb: 70 + t }), run('em', 's', t, 1, 50, { params, server_peak_rss_mb: 30 + t })]));
    const rss = quick.comparisons.find((c) => c.metric === 'peak_rss_mb');
    assert.deepEqual([rss.no_verdict, rss.winner], ['smaller quick load', null]);
    assert.equal(noteWords(rss.note), "smaller quick load: memory grows with the slow clients held at once, 10 here against the full run's 50");
    const full = { ...params, full_size: undefined };
    assert.equal(analyzeRuns([1, 2, 3].flatMap((t) => [run('node', 's', t, 1, 50, { params: full, server_peak_rss_mb: 70 + t }), run('em', 's', t, 1, 50, { params: full, server_peak_rss_mb: 30 + t })])).comparisons.find((c) => c.metric === 'peak_rss_mb').winner, 'em');
  });

  it('a metric measured in steps coarser than 5 % of its centre is not judged: "below the resolution"', () => {
    // httperf prints latencies in 0.1 ms steps: means of 0.13 vs 0.24 ms are not judged, req/s is.
    const httperf = { engine: 'httperf', engine_latency: { resolution_ms: 0.1 } };
    const coarse = analyzeRuns([1, 2, 3].flatMap((t) => [run('node', 's', t, 0.2, 4000 + t, httperf), run('em', 's', t, 0.11, 7000 + t, httperf)]));
    const mean = coarse.comparisons.find((c) => c.metric === 'mean_ms');
    assert.deepEqual([mean.no_verdict, mean.winner, mean.ratio], ['below the resolution', null, null]);
    assert.match(noteWords(mean.note), /^below the resolution: httperf gives 0\.1 ms steps, too coarse for 0\.13 ms \(judged from 2 ms\)$/);
    assert.equal(coarse.comparisons.find((c) => c.metric === 'throughput_rps').winner, 'em');
    // CPU per request in whole clock ticks: 10 ms over 100 replies is a 0.1 ms step, too coarse
    // for 1.3 ms; over 10,000 replies (0.001 ms) the same centres are judged.
    const cpu = (ms, replies) => ({ replies, server_cpu: { ms_per_request: ms, resolution_ms: 10 / replies } });
    const few = analyzeRuns([1, 2, 3].flatMap((t) => [run('node', 's', t, 1, 100, cpu(1.3, 100)), run('em', 's', t, 1, 100, cpu(1.4 + t / 1000, 100))]));
    const fewCpu = few.comparisons.find((c) => c.metric === 'cpu_ms_per_request');
    assert.deepEqual([fewCpu.no_verdict, fewCpu.winner], ['below the resolution', null]);
    assert.match(noteWords(fewCpu.note), /the CPU clock gives 0\.1 ms steps, too coarse for 1\.3 ms/);
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
});

describe('report: verdicts', () => {
  it('compares node with em, whatever else was measured', () => {
    const pair = (servers, defs = {}) => trials.primaryPair(servers, defs);
    assert.deepEqual(pair(orderServers(['nginx', 'em', 'em_bare', 'node'])), ['node', 'em']);
    assert.deepEqual(pair(['a', 'b', 'c']), ['a', 'b']);
    assert.equal(pair(['a']), null);
    // One server and its references: the overhead table says it all, as in summary.md.
    assert.equal(pair(['node', 'node_bare'], { node_bare: { reference_for: ['node'] } }), null);
  });

  it('every pair of runtimes: the primary pair first, then the others in the order they ran, no references or tuned configurations', () => {
    const defs = { node_bare: { reference_for: ['node'] }, em_tuned: { tuned_of: 'em' } };
    assert.deepEqual(trials.runtimePairs(['node', 'em', 'async', 'node_bare', 'em_tuned'], defs), [['node', 'em'], ['node', 'async'], ['em', 'async']]);
    // Asked in another order: node vs em still first, the others as they ran.
    assert.deepEqual(trials.runtimePairs(['async', 'em', 'node'], defs), [['node', 'em'], ['async', 'em'], ['async', 'node']]);
    assert.deepEqual(trials.runtimePairs(['node', 'em'], defs), [['node', 'em']]);
    assert.deepEqual(trials.runtimePairs(['node', 'node_bare'], defs), []);
  });

  it('a reference is one beside a server it is the reference of; alone it is a contender (the hand-written async without async_http)', () => {
    const defs = { async: { reference_for: ['async_http'] } };
    assert.deepEqual(trials.runtimePairs(['node', 'em', 'async_http', 'async'], defs), [['node', 'em'], ['node', 'async_http'], ['em', 'async_http']]);
    assert.deepEqual(trials.runtimePairs(['node', 'em', 'async'], defs), [['node', 'em'], ['node', 'async'], ['em', 'async']]);
    assert.deepEqual(trials.primaryPair(['async_http', 'async'], defs), null);
    assert.deepEqual(trials.primaryPair(['em', 'async'], defs), ['em', 'async']);
  });
});

describe('report: metrics the schedule sets are not judged', () => {
  it('perf/lib/judge/verdicts.js decides it once and stores it: "set by the rate", no winner, no ratio', () => {
    const { comparisons: comps } = trials.analyzeRuns(openLoopTrials());
    const rps = comps.find((c) => c.metric === 'throughput_rps');
    assert.equal(rps.no_verdict, 'set by the rate');
    assert.deepEqual([rps.winner, rps.ratio, rps.ci95, rps.significant, rps.factor], [null, null, null, null, null]);
    assert.ok(rps.value_a > 19 && rps.value_b > 19, 'the values are still there to read');
    assert.equal(words(rps), 'set by the rate');
    // Latency is what an open loop measures: still judged.
    assert.equal(comps.find((c) => c.metric === 'p50_ms').winner, 'node');
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
});

describe('report: percentiles only where n resolves them (n × (1 − p) ≥ 100)', () => {
  it('a p99 with fewer than 100 requests above it is "n too small", in verdicts and the terminal', () => {
    const few = trials.analyzeRuns(openLoopTrials({ replies: 2000 })).comparisons.find((c) => c.metric === 'p99_ms');
    assert.equal(few.no_verdict, 'n too small');
    assert.equal(few.winner, null);
    assert.match(noteWords(few.note), /2,000 requests; p99 needs 10,000/, 'each trial\'s own requests, not the three summed');
    const enough = trials.analyzeRuns(openLoopTrials({ replies: 10000 })).comparisons.find((c) => c.metric === 'p99_ms');
    assert.equal(enough.no_verdict, null);
    assert.equal(enough.winner, 'node');
    const text = toText(results(openLoopTrials({ replies: 2000 })));
    assert.match(text.split('\n')[2], /^concurrent_2000_20\s+[\d.]+\s+n too small\s/);
    assert.match(text, /^\s+p99 ms\s+n too small\s+n too small\s+–\s+n too small$/m);
  });
});

describe('aggregates of paired rounds a side was left out of', () => {
  it('memory from every round left out only for its pace, never from a failed run; time from none', () => {
    // em not server-bound in rounds 1-4 (the pace set elsewhere), failed in round 5.
    const em = (t) => (t === 5 ? { ok: false, failure: 'made up', not_judged_because: ['failed: made up'] } : { server_bound: false, not_judged_because: ['not server-bound: made up'] });
    const runs = [1, 2, 3, 4, 5].flatMap((t) => [run('node', 's', t, 1, 1000, { server_peak_rss_mb: 110 + t }), run('em', 's', t, 1.5, 700, { server_peak_rss_mb: 45 - t / 10, ...em(t) })]);
    const agg = analyzeRuns(runs, { looks: [5, 10] }).aggregates.find((a) => a.server === 'em');
    assert.deepEqual([agg.basis, agg.used_trials, agg.failed_trials, agg.metrics.peak_rss_mb.n, agg.metrics.p50_ms.n], ['not-judged', [], [5], 4, 4]);
  });
});
