'use strict';
// What a reader is warned of (perf/lib/judge/warnings.js runWarnings): one entry per server,
// scenario and problem, each with its kind, severity and text, the trials it happened in
// folded into one entry whose figures become ranges; and that the same warnings reach the
// terminal, summary.md and the report's flags.

const assert = require('node:assert/strict');
const { runWarnings, errorCount } = require('../../../perf/lib/judge/warnings');
const { NEAR_CLIENT_BOUND_PCT } = require('../../../perf/lib/judge/bottleneck');
const { toText, toMarkdown } = require('../../../perf/lib/text/summary');
const { flags } = require('../../../perf/lib/report/headline');
const { madeUpRun: run, decoded: results } = require('../../support/made_up_results');

/** A warning in one line: "<server> <scenario> <kind> <severity> [trials]: text". */
const said = (w) => `${w.server} ${w.scenario} ${w.kind} ${w.severity} [${w.trials.join(',')}]: ${w.text}`;

describe('warnings: one per run and problem', () => {
  it('a failed run is said to have failed, and nothing else is said of it', () => {
    const failed = run('node', 's', 1, 10, { ok: false, failure: 'server exited with code 1', client_bound: true, errors: { reset: 5 }, not_judged_because: ['disturbed: steal 40%'] });
    assert.deepEqual(runWarnings([failed]).map(said), ['node s failed bad []: FAILED: server exited with code 1']);
  });

  it('a server with no run of a scenario it was not skipped from is missing (the run was interrupted)', () => {
    const runs = [run('node', 's', 1, 10), run('em', 's', 1, 10), run('node', 't', 1, 10)];
    assert.deepEqual(runWarnings(runs).map(said), ['em t missing bad []: no run (interrupted?)']);
    assert.deepEqual(runWarnings(runs, { skipped: [{ server: 'em', scenario: 't', reason: 'does not serve it' }] }), []);
    assert.deepEqual(runWarnings(runs, { skipped: [{ server: 'em', scenario: null, reason: 'not installed' }] }), [], 'a server skipped from every scenario');
    assert.deepEqual(runWarnings(runs, { skipped: [{ server: 'em', scenario: 's', reason: 'does not serve it' }] }).map((w) => w.kind), ['missing'], 'skipped from another scenario');
    assert.deepEqual(runWarnings(runs, { skipped: [{ server: 'nginx', scenario: 't', reason: 'does not serve it' }] }).map((w) => w.kind), ['missing'], 'another server skipped from it');
  });

  it('failed requests: how many of how many, by kind, leaving out the kinds with none', () => {
    const r = run('em', 's', 1, 10, { requests: 200, errors: { refused: 0, reset: 2, timeout: 1, other: 0 } });
    assert.deepEqual(runWarnings([r]).map(said), ['em s errors warn []: 3 of 200 requests failed (reset 2, timeout 1)']);
    assert.equal(errorCount(r), 3);
    assert.equal(errorCount({ errors: { reset: '4', other: null } }), 4, 'counts as stored; none where there is no number');
    assert.equal(errorCount({}), 0);
  });

  it('client-bound: the load generator\'s share of its core where known, and the advice; once, whatever the runner recorded', () => {
    const advice = 'not used for a verdict: the load generator set the pace; re-run with a lighter engine, e.g. --engine wrk';
    assert.deepEqual(runWarnings([run('node', 's', 1, 10, { client_bound: true, client_cpu_pct: 96.6 })]).map((w) => w.text), [`client-bound (load generator at 97 % of its core), ${advice}`]);
    assert.deepEqual(runWarnings([run('node', 's', 1, 10, { client_bound: true })]).map((w) => w.text), [`client-bound, ${advice}`]);
    const recorded = run('node', 's', 1, 10, { client_bound: true, client_cpu_pct: 97, not_judged_because: ['client-bound: the load generator used 97% of its core (90% or more)'] });
    assert.deepEqual(runWarnings([recorded]).map((w) => w.kind), ['client-bound']);
  });

  it(`close to client-bound from ${NEAR_CLIENT_BOUND_PCT} % of the load generator's core, where its CPU tells (client_bound false)`, () => {
    const kinds = (pct, more = {}) => runWarnings([run('node', 's', 1, 10, { client_cpu_pct: pct, ...more })]).map((w) => w.kind);
    assert.deepEqual(kinds(NEAR_CLIENT_BOUND_PCT), ['near-client-bound']);
    assert.deepEqual(kinds(NEAR_CLIENT_BOUND_PCT - 0.4), ['near-client-bound'], 'rounded to a whole per cent');
    assert.deepEqual(kinds(NEAR_CLIENT_BOUND_PCT - 0.6), []);
    assert.deepEqual(kinds(99, { client_bound: null }), [], 'client_bound null: the engine busy-polls, its CPU says nothing');
    assert.deepEqual(kinds(undefined), []);
  });

  it('the runner\'s other reasons to leave a run out, one entry of their kind; connections opened over 20 ms behind schedule', () => {
    const reasons = ['disturbed: steal 40% of a core (over 10%)', 'load: the load hosts fell behind their schedule'];
    assert.deepEqual(runWarnings([run('em', 's', 1, 10, { not_judged_because: reasons, schedule_lag_ms: { mean: 5, max: 41.6 } })]).map(said), [
      'em s not-judged warn []: not used for a verdict: disturbed: steal 40% of a core (over 10%); not used for a verdict: load: the load hosts fell behind their schedule',
      'em s schedule-lag warn []: connections opened up to 42 ms behind schedule; that delay counts in the latency',
    ]);
    assert.deepEqual(runWarnings([run('em', 's', 1, 10, { schedule_lag_ms: { mean: 5, max: 20 } })]), []);
  });

  it('a superseded run is information, not a warning: why it was replaced, its own problems in brackets', () => {
    const why = 'superseded: wrk ran s again (the built-in load generator was the bottleneck); the verdict uses wrk\'s runs';
    const replaced = run('node', 's', 1, 10, { trial: 2, client_bound: true, client_cpu_pct: 97, errors: { reset: 1 }, not_judged_because: [why, 'client-bound: the load generator used 97% of its core (90% or more)'] });
    assert.deepEqual(runWarnings([replaced]).map(said), [`node s superseded info [2]: ${why}; kept for information (client-bound: the load generator used 97% of its core (90% or more))`]);
    // Marked by superseded_by alone (no reason recorded): the reason in the one wording.
    assert.deepEqual(runWarnings([run('node', 's', 1, 10, { superseded_by: 'wrk' })]).map((w) => w.text), ['superseded: wrk ran it again; kept for information']);
  });
});

describe('warnings: trials folded together', () => {
  const near = (trial, cpu) => run('em', 's', 1, 10, { trial, client_cpu_pct: cpu });

  it('one entry per server, scenario and kind, with the trials it happened in', () => {
    const w = runWarnings([near(1, 84), near(2, 85), run('em', 's', 1, 10, { trial: 3 }), near(4, 84), run('em', 't', 1, 10, { trial: 1, client_cpu_pct: 90 })]);
    assert.deepEqual(w.map((x) => [x.scenario, x.kind, x.trials]), [['s', 'near-client-bound', [1, 2, 4]], ['t', 'near-client-bound', [1]]]);
    assert.deepEqual(runWarnings([near('first', 84)])[0].trials, [], 'a run without a trial number adds none');
  });

  it('names each trial once, in order, however many runs of it warned', () => {
    const w = runWarnings([3, 1, 2, 1, 2, 3].map((trial) => near(trial, 84)));
    assert.deepEqual(w.map((x) => x.trials), [[1, 2, 3]]);
  });

  it('figures that differ become their range, low to high; figures alike stay one', () => {
    const [w] = runWarnings([near(1, 88), near(2, 81), near(3, 86)]);
    assert.equal(w.text, 'the load generator used 81–88 % of its core, close to client-bound: the server may be faster than measured');
    const errors = [1, 2].map((trial) => run('em', 's', 1, 10, { trial, requests: 100, errors: { reset: trial === 1 ? 12 : 3 } }));
    assert.equal(runWarnings(errors)[0].text, '3–12 of 100 requests failed (reset 3–12)', 'ranges ordered as numbers, not as text');
    const same = runWarnings([near(1, 84), near(2, 84)])[0];
    assert.equal(same.text, 'the load generator used 84 % of its core, close to client-bound: the server may be faster than measured');
  });

  it('texts that differ in more than their figures stay apart, in the order first seen', () => {
    const w = runWarnings([run('em', 's', 1, 10, { trial: 1, not_judged_because: ['not server-bound: 80%'] }), run('em', 's', 1, 10, { trial: 2, not_judged_because: ['disturbed: steal 20%'] }), run('em', 's', 1, 10, { trial: 3, not_judged_because: ['not server-bound: 70%'] })]);
    assert.deepEqual(w.map(said), ['em s not-judged warn [1,2,3]: not used for a verdict: not server-bound: 70–80%; not used for a verdict: disturbed: steal 20%']);
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
