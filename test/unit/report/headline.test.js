'use strict';
// The numbers a reader wants first (perf/lib/report/headline.js): the pair's comparisons as the
// page shows them, the flags, and the one-sentence headline.

const assert = require('node:assert/strict');
const { representative, comparisons, flags, headline } = require('../../../perf/lib/report/headline');
const { decodeResults } = require('../../../perf/lib/store/results_doc');
const { judgeResults } = require('../../../perf/lib/judge/judged');

/** A document as every output reads it: decoded, then judged. */
const read = (doc) => judgeResults(decodeResults(doc));
const trials = require('../../../perf/lib/judge/verdicts');
const { madeUpRun: run, decoded: results } = require('../../support/made_up_results');

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

  it('finds the pair\'s comparisons whichever way they were stored (--servers em,node stores em vs node)', () => {
    const r = judged([...threeTrials('em', 's1', 2.5, 1000), ...threeTrials('node', 's1', 1, 2000)]);
    assert.deepEqual([r.pair, r.comparisons[0].a, r.comparisons[0].b], [['node', 'em'], 'em', 'node']);
    const p50 = comparisons(r).find((c) => c.metric === 'p50_ms');
    assert.deepEqual([p50.a, p50.b, p50.winner, p50.lead, p50.answer.kind], ['node', 'em', 'node', 'node', 'winner']);
    assert.ok(Math.abs(p50.ratio - 0.4) < 1e-9, String(p50.ratio));
    assert.match(headline(r, comparisons(r)), /^Lower median response time: node in 1 \(s1 2\.5×\), em in 0 of 1 scenarios\.$/);
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
    // The stored verdict is rendered, not decided again: no winner where verdicts.js named none.
    const mean = comparisons(r).find((x) => x.metric === 'mean_ms');
    assert.deepEqual([mean.winner, mean.lead], [null, 'node']);
  });
});

describe('headline: the run that stands for a server, and what is said where nothing is compared', () => {

  it('representative: the first trial a verdict may use, else the first finished one not superseded, else the first finished, else the first', () => {
    const trial = (t, more) => run('node', 's', 1, 10, { trial: t, ...more });
    const pick = (runs) => { const r = representative(results(runs), 's', 'node'); return r && r.trial; };
    const failed = { ok: false, failure: 'crashed' };
    const boundAndSuperseded = { client_bound: true, not_judged_because: ['superseded: wrk ran s again'] };
    assert.equal(pick([trial(1, failed), trial(2, { client_bound: true, not_judged_because: ['client-bound: 97%'] }), trial(3)]), 3);
    assert.equal(pick([trial(1, failed), trial(2, boundAndSuperseded), trial(3, { client_bound: true, not_judged_because: ['client-bound: 97%'] })]), 3);
    assert.equal(pick([trial(1, failed), trial(2, boundAndSuperseded)]), 2);
    assert.equal(pick([trial(1, failed), trial(2, failed)]), 1);
    assert.equal(representative(results([trial(1)]), 's', 'em'), null);
  });

  it('one server: nothing to compare, no comparisons', () => {
    const r = results([run('node', 's', 1, 10)]);
    assert.deepEqual(comparisons(r), []);
    assert.equal(headline(r, comparisons(r)), 'Only node was measured; nothing to compare.');
  });

  it('a scenario a server does not serve is said once, for information; one --seeds did not ask of it is no news', () => {
    const runs = [run('node', 's', 1, 10), run('em', 's', 1, 10), run('node', 'upload', 1, 10), run('nginx', 's', 1, 10)];
    const skipped = [{ server: 'em', scenario: 'upload', reason: 'does not serve uploads; see servers.json' }, { server: 'nginx', scenario: 'upload', reason: 'not a seed of it', unplanned: true }];
    const r = read({ environment: {}, runs, skipped });
    assert.deepEqual(flags(r).map((f) => [f.scenario, f.server, f.kind, f.severity, f.text]), [['upload', 'em', 'skipped', 'info', 'em does not serve this scenario (does not serve uploads): not run']]);
  });

  it('a comparison the runs give no verdict of still shows their values, and why', () => {
    const r = results([run('node', 's', 1, 10, { client_bound: true, client_cpu_pct: 97 }), run('em', 's', 2, 5)]);
    const p50 = comparisons(r).find((c) => c.metric === 'p50_ms');
    assert.deepEqual([p50.value_a, p50.value_b, p50.excluded, p50.factor, p50.lead, p50.caveat], [1, 2, 'client-bound', null, null, ['node client-bound']]);
    const missing = comparisons(results([run('node', 's', 1, 10), run('em', 't', 1, 10)])).find((c) => c.scenario === 's' && c.metric === 'p50_ms');
    assert.deepEqual([missing.value_a, missing.value_b, missing.note, missing.answer.kind], [1, null, 'no em run', 'not_measured']);
  });
});
