'use strict';
// A run's warnings in words (perf/lib/text/warnings.js warningText, of perf/lib/judge/warnings.js
// runWarnings): each kind's sentence, the trials folded into one text whose figures become
// ranges; and that the same words reach the terminal, summary.md and the report's flags.

const assert = require('node:assert/strict');
const { runWarnings } = require('../../../perf/lib/judge/warnings');
const { warningText } = require('../../../perf/lib/text/warnings');
const { toText, toMarkdown } = require('../../../perf/lib/text/summary');
const { flags } = require('../../../perf/lib/report/headline');
const { madeUpRun: run, decoded: results } = require('../../support/made_up_results');

/** The runs' warnings in words, one line each: "<server> <scenario> <kind>: text". */
const said = (runs) => runWarnings(runs).map((w) => `${w.server} ${w.scenario} ${w.kind}: ${warningText(w)}`);

describe('warnings in words: each kind', () => {
  it('failed, missing, failed requests by kind', () => {
    assert.deepEqual(said([run('node', 's', 1, 10, { ok: false, failure: 'server exited with code 1' })]), ['node s failed: FAILED: server exited with code 1']);
    assert.deepEqual(said([run('node', 's', 1, 10), run('em', 's', 1, 10), run('node', 't', 1, 10)]), ['em t missing: no run (interrupted?)']);
    assert.deepEqual(said([run('em', 's', 1, 10, { requests: 200, errors: { refused: 0, reset: 2, timeout: 1, other: 0 } })]), ['em s errors: 3 of 200 requests failed (reset 2, timeout 1)']);
  });

  it('client-bound with the load generator\'s share of its core where known, and the advice; close to it', () => {
    const advice = 'not used for a verdict: the load generator set the pace; re-run with a lighter engine, e.g. --engine wrk';
    assert.deepEqual(said([run('node', 's', 1, 10, { client_bound: true, client_cpu_pct: 96.6 })]), [`node s client-bound: client-bound (load generator at 97 % of its core), ${advice}`]);
    assert.deepEqual(said([run('node', 's', 1, 10, { client_bound: true })]), [`node s client-bound: client-bound, ${advice}`]);
    assert.deepEqual(said([run('node', 's', 1, 10, { client_cpu_pct: 85 })]), ['node s near-client-bound: the load generator used 85 % of its core, close to client-bound: the server may be faster than measured']);
  });

  it('the runner\'s other reasons, each after "not used for a verdict"; connections behind schedule', () => {
    const reasons = ['disturbed: steal 40% of a core (over 10%)', 'load: the load hosts fell behind their schedule'];
    assert.deepEqual(said([run('em', 's', 1, 10, { not_judged_because: reasons, schedule_lag_ms: { mean: 5, max: 41.6 } })]), [
      'em s not-judged: not used for a verdict: disturbed: steal 40% of a core (over 10%); not used for a verdict: load: the load hosts fell behind their schedule',
      'em s schedule-lag: connections opened up to 42 ms behind schedule; that delay counts in the latency',
    ]);
  });

  it('a superseded run: why it was replaced, kept for information, its own problems in brackets; the reason in the one wording where the runner recorded none', () => {
    const why = 'superseded: wrk ran s again (the built-in load generator was the bottleneck); the verdict uses wrk\'s runs';
    const replaced = run('node', 's', 1, 10, { trial: 2, client_bound: true, client_cpu_pct: 97, errors: { reset: 1 }, not_judged_because: [why, 'client-bound: the load generator used 97% of its core (90% or more)'] });
    assert.deepEqual(said([replaced]), [`node s superseded: ${why}; kept for information (client-bound: the load generator used 97% of its core (90% or more))`]);
    assert.deepEqual(said([run('node', 's', 1, 10, { superseded_by: 'wrk' })]), ['node s superseded: superseded: wrk ran it again; kept for information']);
  });
});

describe('warnings in words: trials folded together', () => {
  const near = (trial, cpu) => run('em', 's', 1, 10, { trial, client_cpu_pct: cpu });

  it('figures that differ become their range, low to high; figures alike stay one', () => {
    assert.deepEqual(said([near(1, 88), near(2, 81), near(3, 86)]), ['em s near-client-bound: the load generator used 81–88 % of its core, close to client-bound: the server may be faster than measured']);
    const errors = [1, 2].map((trial) => run('em', 's', 1, 10, { trial, requests: 100, errors: { reset: trial === 1 ? 12 : 3 } }));
    assert.deepEqual(said(errors), ['em s errors: 3–12 of 100 requests failed (reset 3–12)'], 'ranges ordered as numbers, not as text');
    assert.deepEqual(said([near(1, 84), near(2, 84)]), ['em s near-client-bound: the load generator used 84 % of its core, close to client-bound: the server may be faster than measured']);
  });

  it('texts that differ in more than their figures stay apart, in the order first seen', () => {
    const runs = [run('em', 's', 1, 10, { trial: 1, not_judged_because: ['not server-bound: 80%'] }), run('em', 's', 1, 10, { trial: 2, not_judged_because: ['disturbed: steal 20%'] }), run('em', 's', 1, 10, { trial: 3, not_judged_because: ['not server-bound: 70%'] })];
    assert.deepEqual(said(runs), ['em s not-judged: not used for a verdict: not server-bound: 70–80%; not used for a verdict: disturbed: steal 20%']);
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
