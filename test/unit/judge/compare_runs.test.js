'use strict';
// scripts/compare.sh on two small results directories made deterministically: one with a
// planted regression (node's mean in sequential_6000 30% worse in every trial), one unchanged.
// (Their p99s rest on 6,000 requests, too few for one: never judged, however much they move.)

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const cr = require('../../../perf/lib/judge/compare_runs');
const { resolveResultsFile, loadResultsFile } = require('../../../perf/lib/store/results_doc');
const { makeTrialRun } = require('../../support/make_trial_runs');
const { makeTmpDir } = require('../../support/runner_helpers');
const { compare, compareAsync } = require('../../support/compare_sh');

/** The table's line for a server, scenario and metric label (each pair names itself on its first line only). */
function rowOf(stdout, server, scenario, label) {
  let pair = null;
  for (const line of stdout.split('\n')) {
    const named = /^(\S+)\s+(\S+)\s/.exec(line);
    if (named) pair = `${named[1]} ${named[2]}`;
    if (pair === `${server} ${scenario}` && new RegExp(`^(\\S+\\s+\\S+)?\\s+${label}\\s`).test(line)) return line;
  }
  return null;
}

describe('compare.sh: two runs side by side', function () {
  this.timeout(30000);
  const root = makeTmpDir('compare-');
  const A = makeTrialRun(path.join(root, 'A'), { seed: 1 });
  const B = makeTrialRun(path.join(root, 'B'), { seed: 2, scale: { 'node|sequential_6000|mean_ms': 1.3 } });
  const C = makeTrialRun(path.join(root, 'C'), { seed: 3 });

  it('a planted regression: exit 1, the row flagged, the summary names it', () => {
    const res = compare([A, B]);
    assert.equal(res.status, 1, res.stdout + res.stderr);
    const row = rowOf(res.stdout, 'node', 'sequential_6000', 'mean ms');
    assert.ok(row, res.stdout);
    assert.match(row, /\+3\d%\s+\[\+\d\d%, \+\d\d%\]\s+REGRESSION \(worse by more than 10%\)$/);
    assert.match(res.stdout, /^1 significant regression beyond 10%:\n {2}node sequential_6000 mean ms: \+3\d%/m);
    // Everything else is unchanged: no other row is flagged.
    assert.equal((res.stdout.match(/REGRESSION/g) || []).length, 1);
    assert.equal(res.stderr, '');
  });

  it('an unchanged pair: exit 0, no significant regression', () => {
    const res = compare([A, C]);
    assert.equal(res.status, 0, res.stdout + res.stderr);
    assert.doesNotMatch(res.stdout, /REGRESSION/);
    // The four p99s (6,000 requests each side) have no verdict: not judged.
    assert.match(res.stdout, /^no significant regression beyond 10% \(4 of 16 rows could not be judged: see the verdict column\)$/m);
    assert.match(res.stdout, /no significant change/);
  });

  it('--threshold and --metric: 30% is no regression beyond 40%; other metrics do not see it', () => {
    assert.equal(compare([A, B, '--threshold', '40']).status, 0);
    const res = compare([path.join(A, 'results.json'), B, '--metric', 'p50,rps']);
    assert.equal(res.status, 0, res.stdout);
    assert.doesNotMatch(res.stdout, /mean ms/);
  });

  it('an improvement is not a regression (B → A)', () => {
    const res = compare([B, A]);
    assert.equal(res.status, 0, res.stdout);
    assert.match(rowOf(res.stdout, 'node', 'sequential_6000', 'mean ms'), /-2\d%.*better$/);
  });

  it('client-bound trials are left out; a pair with no other trial is not compared', () => {
    const D = makeTrialRun(path.join(root, 'D'), { seed: 4, scale: { 'em|keepalive_400x100|throughput_rps': 0.5 }, clientBound: { 'em|keepalive_400x100': true } });
    const res = compare([A, D]);
    assert.equal(res.status, 0, res.stdout);
    assert.match(res.stdout, /^em\s+keepalive_400x100\s+\(all\).*not compared: every B trial client-bound$/m);
  });

  it('one trial each: shown, not judged, exit 0', () => {
    const E = makeTrialRun(path.join(root, 'E'), { seed: 5, trials: 1 });
    const F = makeTrialRun(path.join(root, 'F'), { seed: 6, trials: 1, scale: { 'node|sequential_6000|mean_ms': 2 } });
    const res = compare([E, F]);
    assert.equal(res.status, 0, res.stdout);
    assert.match(rowOf(res.stdout, 'node', 'sequential_6000', 'mean ms'), /\+\d+%\s+1 trial each: no interval, not judged$/);
  });

  it('a p99 with too few requests above it: "no verdict (n too small)", never a regression however far it moved', () => {
    const H = makeTrialRun(path.join(root, 'H'), { seed: 8, scale: { 'node|sequential_6000|p99_ms': 2 } });
    const res = compare([A, H]);
    assert.equal(res.status, 0, res.stdout);
    // 3 trials × 2,000 requests: 60 above the p99, not the 100 a p99 needs (perf/lib/rule/compare.js).
    assert.match(rowOf(res.stdout, 'node', 'sequential_6000', 'p99 ms'), /^node\s+sequential_6000\s+p99 ms\s+[\d.]+\s+[\d.]+\s+–\s+no verdict \(n too small\)$/);
    assert.doesNotMatch(res.stdout, /REGRESSION/);
    assert.match(res.stdout, /^note: no verdict \(n too small\): fewer than 100 requests above the percentile in A's or B's trials/m);
    const result = cr.compareRuns(loadResultsFile(path.join(A, 'results.json')), loadResultsFile(path.join(H, 'results.json')));
    const p99 = result.rows.filter((r) => r.metric === 'p99_ms');
    assert.equal(p99.length, 4);
    for (const r of p99) assert.deepEqual([r.verdict, r.no_verdict, r.ratio, r.ci95, r.regression], ['no-verdict', 'n too small', null, null, false]);
    assert.deepEqual(result.noVerdicts.map((n) => n.kind), ['n too small'], 'each kind once, for the note under the table');
  });

  it('each row\'s verdict as a code: the planted regression, the rest unchanged or better', () => {
    const result = cr.compareRuns(loadResultsFile(path.join(A, 'results.json')), loadResultsFile(path.join(B, 'results.json')));
    const planted = result.rows.find((r) => r.server === 'node' && r.scenario === 'sequential_6000' && r.metric === 'mean_ms');
    assert.deepEqual([planted.verdict, planted.regression], ['regression', true]);
    assert.deepEqual(result.regressions, [planted]);
    const codes = new Set(['no-change', 'better', 'worse-within', 'no-verdict']);
    assert.ok(result.rows.filter((r) => r !== planted).every((r) => codes.has(r.verdict)), JSON.stringify(result.rows.map((r) => r.verdict)));
    assert.deepEqual(result.only, []);
  });

  it('throughput the schedule sets: "no verdict (set by the rate)", never a regression', () => {
    // The same runs, as an open loop: the schedule, not the server, sets req/s.
    const openLoop = (dir) => {
      const file = path.join(dir, 'results.json');
      const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
      for (const r of doc.runs) if (r.scenario === 'keepalive_400x100') r.params = { name: r.scenario, kind: 'open', connections: 2000, rate: 20, requests_per_connection: 1 };
      fs.writeFileSync(file, JSON.stringify(doc));
      return dir;
    };
    const I = openLoop(makeTrialRun(path.join(root, 'I'), { seed: 9 }));
    const J = openLoop(makeTrialRun(path.join(root, 'J'), { seed: 10, scale: { 'em|keepalive_400x100|throughput_rps': 0.5 } }));
    const res = compare([I, J]);
    assert.equal(res.status, 0, res.stdout);
    assert.match(rowOf(res.stdout, 'em', 'keepalive_400x100', 'req/s'), /\s–\s+no verdict \(set by the rate\)$/);
    assert.match(res.stdout, /^note: no verdict \(set by the rate\): the schedule fixes the throughput/m);
    // A closed loop's throughput is still judged.
    assert.match(rowOf(res.stdout, 'em', 'sequential_6000', 'req/s'), /no significant change$/);
  });

  it('runs another engine superseded are left out: the runs that gave the verdict are compared', () => {
    // wrk ran node's sequential_6000 again in both runs; B's superseded built-in runs are twice as slow.
    const rerun = (dir, slower) => {
      const file = path.join(dir, 'results.json');
      const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
      const again = doc.runs.filter((r) => r.server === 'node' && r.scenario === 'sequential_6000');
      for (const r of again) {
        doc.runs.push({ ...r, engine: 'sequential', latency_ms: { ...r.latency_ms, mean: r.latency_ms.mean * slower }, judged: false, not_judged_because: ['superseded: wrk ran sequential_6000 again, where the built-in load generator was the bottleneck; the verdict uses wrk\'s runs'] });
        Object.assign(r, { engine: 'wrk', params: { ...r.params, engine: 'wrk' }, judged: true, not_judged_because: [] });
      }
      fs.writeFileSync(file, JSON.stringify(doc));
      return dir;
    };
    // The same runs of wrk in both (one seed): only the superseded ones differ.
    const K = rerun(makeTrialRun(path.join(root, 'K'), { seed: 11 }), 1);
    const L = rerun(makeTrialRun(path.join(root, 'L'), { seed: 11 }), 2);
    const res = compare([K, L]);
    assert.equal(res.status, 0, res.stdout);
    assert.match(rowOf(res.stdout, 'node', 'sequential_6000', 'mean ms'), /\s\+0\.0%\s+\[[^\]]+\]\s+no significant change$/);
    assert.match(res.stdout, /Failed, client-bound, not judged and superseded trials are left out\./);
    const result = cr.compareRuns(loadResultsFile(path.join(K, 'results.json')), loadResultsFile(path.join(L, 'results.json')));
    const mean = result.rows.find((r) => r.server === 'node' && r.scenario === 'sequential_6000' && r.metric === 'mean_ms');
    assert.deepEqual([mean.n_a, mean.n_b, mean.a === mean.b], [3, 3, true]);
  });

  it('runs of different loads (--quick in one) are not compared', () => {
    const G = makeTrialRun(path.join(root, 'G'), { seed: 7, quick: false });
    const doc = JSON.parse(fs.readFileSync(path.join(G, 'results.json'), 'utf8'));
    for (const r of doc.runs) if (r.params.requests) r.params.requests = 6000;
    fs.writeFileSync(path.join(G, 'results.json'), JSON.stringify(doc));
    const res = compare([A, G]);
    assert.equal(res.status, 0);
    assert.match(res.stdout, /note: A and B differ: --quick: yes in A, no in B/);
    assert.match(res.stdout, /^node\s+sequential_6000\s+\(all\).*not compared: the load differs/m);
  });

  // The usage errors' command lines, started at once (a Node start each), each judged in its test.
  const USAGE_ERRORS = [
    ['no arguments', [], /^compare\.sh: missing required argument 'RUN_A'$/, true],
    ['one argument', ['x'], /^compare\.sh: missing required argument 'RUN_B'$/, true],
    ['a bad threshold', [A, B, '--threshold', 'ten'], /^compare\.sh: option '--threshold <pct>' argument 'ten' is invalid/, true],
    ['an unknown metric', [A, B, '--metric', 'p42'], /^compare\.sh: unknown metric 'p42'/, true],
    ['an unknown option', [A, B, '--fast'], /^compare\.sh: unknown option '--fast'$/, true],
    ['a missing results directory', [A, path.join(root, 'nope')], /^compare\.sh: no such results directory or file: .*nope$/, false],
    ['a directory without results.json', [A, root], /^compare\.sh: no results\.json in .* \(is it a results directory\?\)$/, false],
  ];
  const refused = {};
  before(async () => {
    const results = await Promise.all(USAGE_ERRORS.map(([, args]) => compareAsync(args)));
    USAGE_ERRORS.forEach(([what], i) => (refused[what] = results[i]));
  });
  for (const [what, , re, usage] of USAGE_ERRORS) {
    it(`${what}: exit 2, one line${usage ? ' and the usage' : ''}`, () => {
      const res = refused[what];
      assert.equal(res.status, 2, res.stdout + res.stderr);
      assert.equal(res.stdout, '');
      const lines = res.stderr.trim().split('\n');
      assert.match(lines[0], re);
      assert.equal(lines.length, usage ? 2 : 1, res.stderr);
      if (usage) assert.match(lines[1], /^usage: compare\.sh RUN_A RUN_B/);
    });
  }

  it('a results.json that is not JSON: exit 2, one line', () => {
    const bad = path.join(root, 'bad');
    fs.mkdirSync(bad);
    fs.writeFileSync(path.join(bad, 'results.json'), '{"runs": [');
    const res = compare([A, bad]);
    assert.equal(res.status, 2);
    assert.match(res.stderr, /^compare\.sh: .*results\.json is not valid JSON: /);
    assert.equal(res.stderr.trim().split('\n').length, 1);
  });

  it('`latest` and run names are looked up in the results root; paths relative to the caller', () => {
    fs.symlinkSync('B', path.join(root, 'latest'));
    assert.equal(resolveResultsFile('latest', { root }), path.join(root, 'latest', 'results.json'));
    assert.equal(resolveResultsFile('A', { root }), path.join(root, 'A', 'results.json'));
    const res = compare(['A', 'C'], root);
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /^A: A \(/m);
  });
});

describe('compare_runs: what differs between two environments, as data', () => {
  it('a recorded field whose values differ (compared whatever their keys\' order), --quick and pinning where both runs recorded them', () => {
    const env = (over) => ({ environment: { cpu_model: 'X', node: { v8: '1', uv: '2' }, ...over } });
    const A = env({ kernel: '6.1', options: { quick: true }, pinning: { enabled: true } });
    const B = env({ kernel: '6.8', node: { uv: '2', v8: '1' }, options: { quick: false }, pinning: { enabled: false } });
    assert.deepEqual(cr.environmentDifferences(A, B), [{ key: 'kernel', a: '6.1', b: '6.8' }, { key: 'quick', a: true, b: false }, { key: 'pinning', a: true, b: false }]);
    assert.deepEqual(cr.environmentDifferences(env({ hostname: 'h' }), env({ options: { quick: true } })), [], 'a field or option only one run recorded is no difference');
  });
});
