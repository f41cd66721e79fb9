'use strict';
// Answers across runs (perf/lib/judge/meta.js): the random-effects pool on made-up runs
// (homogeneous, heterogeneous, one outlier, a flip between hosts), a run's standard error from
// its stored interval, which answers go stale, and the pooled interval's coverage by simulation
// with a between-run variance, against DerSimonian–Laird's own interval, which covers too little
// with few runs.

const assert = require('node:assert/strict');
const { jStat } = require('jstat');
const meta = require('../../../perf/lib/judge/meta');
const { pairedInterval, lookLevel, runSequential } = require('../../../perf/lib/rule/group_sequential');
const { seededNormals } = require('../../support/seeded_random');
const { record, around } = require('../../support/made_up_archive');
const { METHOD_VERSIONS } = require('../../../perf/lib/method');


describe('meta: answers across runs', () => {
  it('pools homogeneous runs to their common ratio, with no spread between runs (I² 0)', () => {
    const [p] = meta.poolArchive(around('EPYC', [1.5, 1.52, 1.48, 1.51, 1.49]));
    assert.equal(p.k, 5);
    assert.ok(Math.abs(p.ratio - 1.5) < 0.01, `pooled ${p.ratio}`);
    assert.equal(p.i2, 0);
    assert.equal(p.tau2, 0);
    assert.equal(p.decision, 'winner');
    assert.equal(p.winner, 'node');
    assert.equal(p.method, 'random-effects');
  });

  it('widens the interval by the spread between heterogeneous runs and says how much of it is between runs', () => {
    const tight = meta.poolArchive(around('EPYC', [1.5, 1.52, 1.48, 1.51, 1.49]))[0];
    const spread = meta.poolArchive(around('EPYC', [1.15, 1.9, 1.35, 2.3, 1.1]))[0];
    assert.ok(spread.tau2 > 0.02, `tau² ${spread.tau2}`);
    assert.ok(spread.i2 > 0.9, `I² ${spread.i2}`);
    const width = (p) => Math.log(p.ci95[1] / p.ci95[0]);
    assert.ok(width(spread) > 4 * width(tight), `${width(spread)} vs ${width(tight)}`);
    // Every run's own interval excludes 1 (node wins in each), and the pool still names node.
    assert.equal(spread.decision, 'winner');
    assert.equal(spread.winner, 'node');
  });

  it('does not let one outlying run decide, nor hide it: the interval widens to hold the other runs', () => {
    const agree = meta.poolArchive(around('EPYC', [1.5, 1.52, 1.48, 1.51]))[0];
    const outlier = meta.poolArchive(around('EPYC', [1.5, 1.52, 1.48, 1.51, 0.7]))[0];
    assert.ok(outlier.i2 > 0.9, `I² ${outlier.i2}`);
    assert.ok(outlier.ci95[0] < agree.ci95[0] && outlier.ci95[1] >= 1.4, `[${outlier.ci95}]`);
    assert.equal(outlier.decision, 'undecided');
  });

  it('says "depends on the machine" where the hosts name opposite winners, with each host\'s answer', () => {
    const records = [...around('AMD EPYC', [0.66, 0.68, 0.65]), ...around('Intel Xeon', [1.2, 1.22, 1.19])];
    const [p] = meta.poolArchive(records);
    assert.equal(p.decision, 'depends');
    assert.equal(p.winner, null);
    assert.deepEqual(
      p.hosts.map((h) => [h.host, h.k, h.decision, h.winner]),
      [
        ['AMD EPYC', 3, 'winner', 'em'],
        ['Intel Xeon', 3, 'winner', 'node'],
      ],
    );
    // One run of a host is not yet that host's answer: no "depends" on it, however far it lies.
    const single = meta.poolArchive([...around('AMD EPYC', [0.66, 0.68, 0.65]), ...around('Intel Xeon', [1.2])])[0];
    assert.notEqual(single.decision, 'depends');
  });

  it('tells hosts apart by CPU model, microcode, kernel, flags and mitigations', () => {
    assert.equal(meta.hostOf({ host: { cpu_model: 'AMD EPYC', cpu_microcode: '0x1000065' } }), 'AMD EPYC (microcode 0x1000065)');
    // And by kernel, flags and mitigations: one host's kernel changed under the same CPU.
    const host = { cpu_model: 'AMD EPYC', cpu_microcode: '0x1000065', kernel: 'Linux 6.18.44-fc-v782', cpu_flags: ['ibpb', 'sse2'], cpu_mitigations: { spectre_v2: 'Mitigation: Retpolines' } };
    assert.match(meta.hostOf({ host }), /^AMD EPYC \(microcode 0x1000065, kernel 6\.18\.44-fc-v782, flags [0-9a-f]{6}\)$/);
    assert.equal(meta.hostOf({ host: { ...host, cpu_flags: ['sse2', 'ibpb'] } }), meta.hostOf({ host }), 'the flags in any order');
    const others = [{ kernel: 'Linux 6.18.44-fc-v657' }, { cpu_flags: ['sse2'] }, { cpu_mitigations: { spectre_v2: 'Vulnerable' } }];
    for (const change of others) assert.notEqual(meta.hostOf({ host: { ...host, ...change } }), meta.hostOf({ host }), JSON.stringify(change));
    assert.equal(meta.hostOf({ host: { cpu_model: 'AMD EPYC' } }), 'AMD EPYC');
    assert.equal(meta.hostOf({ host: {} }), 'unknown CPU');
  });

  it('pools a run made with the servers the other way round with the others', () => {
    const flipped = around('EPYC', [1 / 0.56], 0.05, { a: 'em', b: 'node' });
    const [p, ...rest] = meta.poolArchive([...around('EPYC', [0.56, 0.57]), ...flipped], { order: ['node', 'em'] });
    assert.equal(rest.length, 0);
    assert.equal(p.k, 3);
    assert.ok(Math.abs(p.ratio - 0.5633) < 0.01, `${p.ratio}`);
    assert.equal(p.winner, 'em');
  });

  it('marks the answers of a method measured another way, and of a record without versions for a kind since changed', () => {
    const r = record('old', 'EPYC', 1.4, [1.2, 1.6], { subject: 'hello_keepalive', metric: 'sustainable_rps' });
    delete r.methods;
    assert.deepEqual(meta.staleAnswers(r, {}), { 'hello_keepalive sustainable_rps node:em': true }, 'the ramps changed their rule since the first version');
    assert.deepEqual(meta.staleAnswers({ ...r, methods: { ...METHOD_VERSIONS, ramp: 1 } }, {}), { 'hello_keepalive sustainable_rps node:em': true });
    assert.deepEqual(meta.staleAnswers({ ...r, methods: METHOD_VERSIONS }, {}), {});
    assert.deepEqual(meta.staleAnswers({ ...record('s', 'EPYC', 1.4, [1.2, 1.6]), methods: METHOD_VERSIONS }, {}), {});
    // A metric whose rule changed alone (memory): its answers of a record from before, not the kind's others.
    const before = { scenario: 1, ramp: 2 };
    const memory = record('m', 'EPYC', 2.4, [2.3, 2.5], { subject: 'keepalive_400x100', metric: 'peak_rss_mb' });
    assert.deepEqual(meta.staleAnswers({ ...memory, methods: before }, {}), { 'keepalive_400x100 peak_rss_mb node:em': true });
    assert.deepEqual(meta.staleAnswers({ ...memory, methods: METHOD_VERSIONS }, {}), {});
    assert.deepEqual(meta.staleAnswers({ ...record('t', 'EPYC', 1.4, [1.2, 1.6]), methods: before }, {}), {}, 'the kind\'s other metrics as they were');
  });

  it('pools hosts that agree as one answer, and hosts whose difference is within their noise', () => {
    const [agree] = meta.poolArchive([...around('AMD EPYC', [1.5, 1.55, 1.45]), ...around('Intel Xeon', [1.6, 1.5])]);
    assert.equal(agree.decision, 'winner');
    assert.equal(agree.hosts.length, 2);
    // One imprecise run on the second host, on the other side of 1 but well within its noise.
    const noisy = [...around('AMD EPYC', [1.5, 1.55, 1.45]), ...around('Intel Xeon', [0.9], 0.6)];
    assert.notEqual(meta.poolArchive(noisy)[0].decision, 'depends');
  });

  it('lists one run with its own interval as it stored it, whatever quantile made it, and pools nothing', () => {
    // Three searches: Student t on 2 degrees of freedom, far wider than the normal quantile's.
    const r = record('one', 'EPYC', 1.41, [1.14, 1.75]);
    r.answers[0].log_se = meta.logStandardError({ ci95: [1.14, 1.75], searches: 3 });
    const [p] = meta.poolArchive([r]);
    assert.equal(p.decision, 'few');
    assert.equal(p.ci95, null);
    assert.equal(p.method, 'few-runs');
    assert.equal(p.each.length, 1);
    assert.deepEqual(p.each[0].ci95.map((x) => Math.round(x * 1e6) / 1e6), [1.14, 1.75]);
    assert.equal(p.each[0].winner, 'node');
  });

  it('lists two runs that name one winner as two runs, not as an undecided pool of t on one degree of freedom', () => {
    // Each run's own interval excludes 1 (1.56× and 1.60×); pooled on t(1) they would span 1.
    const [p] = meta.poolArchive(around('EPYC', [1.56, 1.6], 0.08));
    assert.equal(meta.MIN_POOLED_RUNS, 3);
    assert.deepEqual([p.k, p.decision, p.ratio, p.ci95, p.winner], [2, 'few', null, null, null]);
    assert.deepEqual(p.each.map((x) => [x.decision, x.winner]), [['winner', 'node'], ['winner', 'node']]);
    assert.ok(p.each.every((x) => x.host === 'EPYC' && typeof x.started_at === 'string'));
    // The third run pools them.
    const [three] = meta.poolArchive(around('EPYC', [1.56, 1.6, 1.58], 0.08));
    assert.deepEqual([three.decision, three.winner, three.each], ['winner', 'node', null]);
  });

  it('pools no run without an interval, and says the comparison was not judged', () => {
    const r = record('x', 'EPYC', null, null);
    r.answers[0].not_judged = 'below the resolution';
    const [p] = meta.poolArchive([r]);
    assert.equal(p.k, 0);
    assert.equal(p.decision, null);
  });

  it('current first: pools the current runs alone where there are any, counting the earlier apart; history, said so, where there are none', () => {
    const records = around('EPYC', [1.5, 1.5, 1.5, 0.5]);
    records[3].sources = { node: 'old', em: 'same' };
    records[3].stale = meta.staleAnswers(records[3], { node: 'new', em: 'same' });
    assert.deepEqual(Object.keys(records[3].stale), ['short_conn_256 throughput_rps node:em']);
    assert.deepEqual(meta.staleAnswers(records[0], { node: 'new' }), {}, 'a record without digests is current');
    const [p] = meta.poolArchive(records);
    assert.deepEqual([p.k, p.earlier_runs, p.stale_runs, p.decision], [3, 1, 0, 'winner']);
    assert.ok(Math.abs(p.ratio - 1.5) < 1e-9, 'the earlier run is no part of the figure');
    // Every run before a change: history, pooled over them and counted so.
    for (const r of records) r.stale = { [r.answers[0].key]: true };
    const [h] = meta.poolArchive(records);
    assert.deepEqual([h.k, h.earlier_runs, h.stale_runs], [4, 0, 4]);
    // A stale run that judged nothing is no part of the answer, nor counted.
    records[3].answers[0] = { ...records[3].answers[0], ratio: null, ci95: null, log_se: null };
    assert.equal(meta.poolArchive(records)[0].stale_runs, 3);
    assert.equal(meta.poolArchive(records, { withoutStale: true }).length, 0, 'withoutStale: no history either');
  });

  it('keeps out of the pool a comparison judged short of its first look, and says why', () => {
    const c = (rounds) => ({ scenario: 'long_conn_256', metric: 'mean_ms', a: 'node', b: 'em', better: 'lower', ratio: 1.2, ci95: [0.5, 2.9], decision: 'undecided', winner: null, factor: null, margin: 0.1, method: 'paired', rounds, no_verdict: null, note: null });
    const [short, full] = meta.runAnswers({ looks: [5, 10, 20, 40], comparisons: [c(2), c(5)], ramps: null });
    assert.equal(short.log_se, null);
    assert.deepEqual(short.not_judged, { code: 'short_of_first_look', rounds: 2 });
    assert.ok(full.log_se > 0);
    assert.equal(full.not_judged, null);
    assert.equal(full.df, 4);
  });

  it('reads a run\'s standard error back from its interval and the quantile that built it', () => {
    const se = 0.1;
    const looks = [5, 10, 20, 40];
    const q = jStat.studentt.inv(1 - (1 - lookLevel(looks)) / 2, 9);
    const ci = [Math.exp(-q * se), Math.exp(q * se)];
    assert.ok(Math.abs(meta.logStandardError({ ci95: ci, method: 'paired', rounds: 10 }, { looks }) - se) < 1e-9);
    const t2 = jStat.studentt.inv(0.975, 2);
    assert.ok(Math.abs(meta.logStandardError({ ci95: [Math.exp(-t2 * se), Math.exp(t2 * se)], searches: 3 }) - se) < 1e-9);
    assert.equal(meta.logStandardError({ ci95: null }), null);
  });

  it('judges a seed\'s claim on the pooled interval, from the claimed winner\'s side', () => {
    const [p] = meta.poolArchive(around('EPYC', [0.8, 0.82, 0.79]));
    assert.equal(meta.pooledClaim(p, { winner: 'node', factor: 4.86 }), 'reversed');
    assert.equal(meta.pooledClaim(p, { winner: 'em', factor: 1.25 }), 'confirmed');
  });

  describe('the chance one more run decides (the predictive distribution), against simulated next runs', () => {
    // Three runs pooled, then a fourth: each run's log ratio the truth, its own offset (tau) and
    // its noise (s), judged on ±1.96 s by the project's rule (a winner, the same within 10 %).
    const { decide } = require('../../../perf/lib/rule/answer');
    function simulate(truth, tau, s, reps, seed) {
      const z = seededNormals(seed);
      const draw = () => truth + tau * z() + s * z();
      const interval = (y) => [Math.exp(y - Z95 * s), Math.exp(y + Z95 * s)];
      let predicted = 0;
      let decided = 0;
      for (let i = 0; i < reps; i++) {
        const records = [0, 1, 2].map((j) => {
          const y = draw();
          return record(`r${j}`, 'EPYC', Math.exp(y), interval(y));
        });
        predicted += meta.nextRunDecides(meta.poolArchive(records)[0]);
        if (decide(interval(draw())) !== 'undecided') decided++;
      }
      return { predicted: predicted / reps, decided: decided / reps };
    }
    const Z95 = 1.959964;

    for (const [ratio, tau, s] of [
      [1.0, 0.02, 0.03],
      [1.1, 0.05, 0.05],
      [1.3, 0.1, 0.1],
      [2.5, 0.2, 0.15],
      [1.05, 0.2, 0.05],
    ]) {
      it(`predicts on average how often a next run decides: true ratio ${ratio}, between-run sd ${tau}, a run's own sd ${s}`, () => {
        const { predicted, decided } = simulate(Math.log(ratio), tau, s, 1500, Math.round(ratio * 100 + tau * 1000 + s * 10));
        assert.ok(Math.abs(predicted - decided) <= 0.08, `predicted ${predicted.toFixed(3)}, decided ${decided.toFixed(3)}`);
      });
    }

    it('ranks a wide gap the runs agree on far above a ratio the runs leave near 1, and says nothing of an unmeasured comparison', () => {
      const wide = meta.poolArchive(around('EPYC', [2.6, 2.9, 2.4], 0.3))[0];
      const near = meta.poolArchive(around('EPYC', [1.02, 0.97, 1.05], 0.12))[0];
      assert.ok(meta.nextRunDecides(wide) > 0.9, `wide ${meta.nextRunDecides(wide)}`);
      assert.ok(meta.nextRunDecides(near) < 0.3, `near ${meta.nextRunDecides(near)}`);
      assert.equal(meta.nextRunDecides(meta.poolArchive([record('x', 'EPYC', null, null)])[0]), null);
    });
  });

  describe('coverage by simulation (runs that differ by more than their own noise)', () => {
    // Each run: n paired measurements of log differences (5 paired rounds of sd 0.15, as this
    // machine's one-second slices; or a ramp's 3 paired searches of sd 0.2, its coarse rate grid),
    // its own Student-t interval as the runner stores it, and an offset of its own (tau on the log
    // scale, 0.1 or 0.3: another day, another neighbour; or none). The truth is the mean ratio.
    const TRUE = Math.log(1.3);
    function simulate(k, tau, reps, seed, { n = 5, sd = 0.15 } = {}) {
      const z = seededNormals(seed);
      let hk = 0;
      let dl = 0;
      const widths = [];
      for (let i = 0; i < reps; i++) {
        const estimates = [];
        for (let j = 0; j < k; j++) {
          const offset = TRUE + tau * z();
          const { ratio, ci } = pairedInterval(Array.from({ length: n }, () => offset + sd * z()), 0.95);
          estimates.push({ y: Math.log(ratio), se: meta.logStandardError({ ci95: ci, searches: n }), df: n - 1, ci: ci.map(Math.log) });
        }
        // The pool as poolArchive makes it from three runs on (and as it would from two).
        const p = meta.randomEffects(estimates);
        if (p.ci[0] <= TRUE && TRUE <= p.ci[1]) hk++;
        widths.push(p.ci[1] - p.ci[0]);
        // DerSimonian–Laird's own interval: the same centre and tau², the normal quantile, tau² taken as known.
        const ws = estimates.map((e) => 1 / (e.se ** 2 + p.tau2));
        const half = 1.959964 * Math.sqrt(1 / ws.reduce((t, w) => t + w, 0));
        if (Math.abs(p.mu - TRUE) <= half) dl++;
      }
      widths.sort((a, b) => a - b);
      return { hk: hk / reps, dl: dl / reps, width: widths[Math.floor(reps / 2)] };
    }

    // As the runner builds them: paired rounds looked at after 5, 10, 20 and 40 rounds, stopped at
    // the first look that decides (group_sequential.js), each run's interval at the looks' level.
    function simulateSequential(k, tau, ratio, reps, seed) {
      const z = seededNormals(seed);
      const looks = [5, 10, 20, 40];
      const truth = Math.log(ratio);
      let covered = 0;
      for (let i = 0; i < reps; i++) {
        const records = [];
        for (let j = 0; j < k; j++) {
          const offset = truth + tau * z();
          // Each side's log value varying by 0.15 a round, the two sides of a round correlated 0.4.
          const side = (shared) => 0.15 * (Math.sqrt(0.4) * shared + Math.sqrt(0.6) * z());
          const s = runSequential(() => {
            const shared = z();
            return [Math.exp(offset + side(shared) + 10), Math.exp(side(shared) + 10)];
          }, { looks });
          const r = record(`r${j}`, 'EPYC', s.ratio, s.ci);
          r.answers[0].log_se = meta.logStandardError({ ci95: s.ci, method: 'paired', rounds: looks[s.look] }, { looks });
          records.push(r);
        }
        const [p] = meta.poolArchive(records);
        if (Math.log(p.ci95[0]) <= truth && truth <= Math.log(p.ci95[1])) covered++;
      }
      return covered / reps;
    }

    for (const [k, tau, ratio] of [
      [3, 0.1, 1.3],
      [5, 0.05, 1.0],
    ]) {
      it(`covers the true ratio at least 93 % of the time with ${k} runs of sequential paired rounds, between-run sd ${tau}, true ratio ${ratio}`, () => {
        const coverage = simulateSequential(k, tau, ratio, 800, 7 * k + 1);
        assert.ok(coverage >= 0.93, `covered ${coverage}`);
      });
    }

    const cases = [
      [3, 0.1],
      [5, 0.1],
      [10, 0.1],
      [3, 0.3],
      [10, 0.3],
      [5, 0],
    ];
    for (const [k, tau] of cases) {
      it(`covers the true ratio at least 93 % of the time with ${k} runs, between-run sd ${tau}`, () => {
        const { hk, dl } = simulate(k, tau, 1500, 17 + k + 100 * tau);
        assert.ok(hk >= 0.93, `Hartung–Knapp covered ${hk}`);
        assert.ok(hk <= 0.995, `Hartung–Knapp covered ${hk}: wider than it need be`);
        if (k <= 5) assert.ok(dl < hk, `DerSimonian–Laird's own interval covered ${dl}, Hartung–Knapp ${hk}`);
      });
    }

    // Ramps: three paired searches a run, Student's t on 2 degrees of freedom, their runs weighed
    // alike (dlPool). Weighed by their own guessed variances, 5 runs covered 92 %; alike, 3 runs
    // cover about 99.6 %, 5 runs 98 %, 10 runs 96 %: wide with few runs, never short.
    for (const k of [3, 5, 10]) {
      it(`covers the true ratio at least 93 % of the time with ${k} runs of ramps (3 searches each), between-run sd 0.1`, () => {
        const { hk } = simulate(k, 0.1, 1500, 300 + k, { n: 3, sd: 0.2 });
        assert.ok(hk >= 0.93 && hk <= 0.999, `Hartung–Knapp covered ${hk}`);
      });
    }

    it('weighs runs whose spread rests on fewer than 4 degrees of freedom alike: one lucky ramp does not take the weight', () => {
      const ramp = (y, se) => ({ y, se, df: 2 });
      // One run's three searches happened to agree (se 0.01); the others 0.1.
      const p = meta.randomEffects([ramp(0.2, 0.01), ramp(0.1, 0.1), ramp(0.12, 0.1), ramp(0.08, 0.1)]);
      assert.ok(Math.abs(p.mu - (0.2 + 0.1 + 0.12 + 0.08) / 4) < 1e-9, `centre ${p.mu}: the plain mean`);
      // Rounds (4 degrees of freedom and more) keep their own weights: the precise run leads.
      const rounds = meta.randomEffects([0.2, 0.1, 0.12, 0.08].map((y, i) => ({ y, se: i ? 0.1 : 0.01, df: 4 })));
      assert.ok(rounds.mu > 0.19, `centre ${rounds.mu}`);
    });

    it('with 2 runs (paired rounds or ramps) it covers, but t on one degree of freedom makes it too wide to answer: why two runs are listed, not pooled', () => {
      for (const shape of [{ n: 5, sd: 0.15 }, { n: 3, sd: 0.2 }]) {
        const two = simulate(2, 0.1, 1500, 402 + shape.n, shape);
        const three = simulate(3, 0.1, 1500, 403 + shape.n, shape);
        assert.ok(two.hk >= 0.93, `2 runs covered ${two.hk}`);
        // The median interval from 2 runs is several times wider than from 3 (t 12.7 against 4.3).
        assert.ok(two.width > 2.5 * three.width, `median widths ${two.width} and ${three.width}`);
      }
    });
  });
});

describe('meta: one run\'s answer across runs (the archive\'s between-run spread added)', () => {
  // A run: the truth moved by an offset of its own (sd tau on the log scale: another day, another
  // neighbour), measured in 5 paired rounds of sd 0.15, its own Student-t interval.
  const TRUE = Math.log(1.3);
  function aRun(z, tau) {
    const offset = TRUE + tau * z();
    const { ratio, ci } = pairedInterval(Array.from({ length: 5 }, () => offset + 0.15 * z()), 0.95);
    return { a: 'node', b: 'em', better: 'higher', ratio, ci95: ci };
  }
  const covers = (answer) => Math.log(answer.ci95[0]) <= TRUE && TRUE <= Math.log(answer.ci95[1]);

  it('with no spread between runs, the run\'s own interval and answer', () => {
    const own = { a: 'node', b: 'em', better: 'higher', ratio: 1.3, ci95: [1.2, 1.45] };
    const across = meta.acrossRuns(own, { tau2: 0, k: 5 });
    assert.ok(Math.abs(across.ci95[0] - 1.2) < 1e-12 && Math.abs(across.ci95[1] - 1.45) < 1e-12, `[${across.ci95}]`);
    assert.deepEqual([across.decision, across.winner], ['winner', 'node']);
    // A spread of 0.2 on the log scale from 5 runs: each side widened to sqrt(own² + (t₄ × 0.2)²).
    const wide = meta.acrossRuns(own, { tau2: 0.04, k: 5 });
    const side = (x) => Math.abs(Math.log(x / 1.3));
    assert.ok(Math.abs(side(wide.ci95[0]) - Math.hypot(side(1.2), 2.776445 * 0.2)) < 1e-6);
    assert.equal(wide.decision, 'undecided');
  });

  it('covers the answer across runs 95 % of the time where its own interval does not (simulated, between-run sd 0.2)', () => {
    const z = seededNormals(4242);
    let own = 0;
    let across = 0;
    const reps = 2000;
    for (let i = 0; i < reps; i++) {
      const run = aRun(z, 0.2);
      if (covers(run)) own++;
      if (covers({ ...run, ...meta.acrossRuns(run, { tau2: 0.04, k: 100000 }) })) across++;
    }
    assert.ok(own / reps < 0.7, `the run's own interval covered ${own / reps}`);
    assert.ok(across / reps >= 0.935 && across / reps <= 0.975, `across runs covered ${across / reps}`);
  });

  it('with τ² estimated from the archive\'s few runs (t on k − 1), still covers about 95 % (3 and 5 runs, between-run sd 0.2)', () => {
    for (const k of [3, 5]) {
      const z = seededNormals(900 + k);
      let covered = 0;
      const reps = 1500;
      for (let i = 0; i < reps; i++) {
        const archived = Array.from({ length: k }, () => aRun(z, 0.2)).map((r) => ({ y: Math.log(r.ratio), se: meta.logStandardError({ ci95: r.ci95, method: 'paired', rounds: 5 }), df: 4 }));
        const { tau2 } = meta.randomEffects(archived);
        const run = aRun(z, 0.2);
        if (covers({ ...run, ...meta.acrossRuns(run, { tau2, k }) })) covered++;
      }
      assert.ok(covered / reps >= 0.92 && covered / reps <= 0.99, `${k} runs: covered ${covered / reps}`);
    }
  });

  it('checked on an archive: each run against the others, about 5 % beyond with τ², many more without', () => {
    const z = seededNormals(77);
    const records = [];
    // 60 comparisons of 6 runs each, between-run sd 0.2: the shape of the archive.
    for (let c = 0; c < 60; c++) {
      for (let j = 0; j < 6; j++) {
        const run = aRun(z, 0.2);
        const r = record(`r${j}`, 'EPYC', run.ratio, run.ci95, { subject: `s${c}` });
        r.answers[0].log_se = meta.logStandardError({ ci95: run.ci95, method: 'paired', rounds: 5 });
        records.push(r);
      }
    }
    const { n, beyond, beyondOwn } = meta.nextRunCheck(meta.poolArchive(records));
    assert.equal(n, 360);
    assert.ok(beyond / n >= 0.02 && beyond / n <= 0.1, `${beyond} of ${n} beyond with τ²`);
    assert.ok(beyondOwn / n > 0.3, `${beyondOwn} of ${n} beyond on the runs' own noise`);
  });
});
