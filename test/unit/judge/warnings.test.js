'use strict';
// What a reader is warned of (perf/lib/judge/warnings.js runWarnings): one entry per server,
// scenario and problem, each with its kind, severity and the facts of each run it folds (codes
// and figures: the words are perf/lib/text/warnings.js's, test/unit/text/warnings.test.js).

const assert = require('node:assert/strict');
const { runWarnings } = require('../../../perf/lib/judge/warnings');
const { errorCount } = require('../../../perf/lib/measure/samples');
const { NEAR_CLIENT_BOUND_PCT } = require('../../../perf/lib/method');
const { madeUpRun: run } = require('../../support/made_up_results');

/** A warning without its scenario and server: [kind, severity, trials, facts]. */
const found = (w) => [w.kind, w.severity, w.trials, w.facts];

describe('warnings: one per run and problem', () => {
  it('a failed run is said to have failed, and nothing else is said of it', () => {
    const failed = run('node', 's', 1, 10, { ok: false, failure: 'server exited with code 1', client_bound: true, errors: { reset: 5 }, not_judged_because: ['disturbed: steal 40%'] });
    assert.deepEqual(runWarnings([failed]).map(found), [['failed', 'bad', [], [{ failure: 'server exited with code 1' }]]]);
  });

  it('a server with no run of a scenario it was not skipped from is missing (the run was interrupted)', () => {
    const runs = [run('node', 's', 1, 10), run('em', 's', 1, 10), run('node', 't', 1, 10)];
    assert.deepEqual(runWarnings(runs).map((w) => [w.server, w.scenario, ...found(w)]), [['em', 't', 'missing', 'bad', [], [{}]]]);
    assert.deepEqual(runWarnings(runs, { skipped: [{ server: 'em', scenario: 't', reason: 'does not serve it' }] }), []);
    assert.deepEqual(runWarnings(runs, { skipped: [{ server: 'em', scenario: null, reason: 'not installed' }] }), [], 'a server skipped from every scenario');
    assert.deepEqual(runWarnings(runs, { skipped: [{ server: 'em', scenario: 's', reason: 'does not serve it' }] }).map((w) => w.kind), ['missing'], 'skipped from another scenario');
    assert.deepEqual(runWarnings(runs, { skipped: [{ server: 'nginx', scenario: 't', reason: 'does not serve it' }] }).map((w) => w.kind), ['missing'], 'another server skipped from it');
  });

  it('failed requests: how many of how many, by kind, leaving out the kinds with none', () => {
    const r = run('em', 's', 1, 10, { requests: 200, errors: { refused: 0, reset: 2, timeout: 1, other: 0 } });
    assert.deepEqual(runWarnings([r]).map(found), [['errors', 'warn', [], [{ failed: 3, requests: 200, kinds: [['reset', 2], ['timeout', 1]] }]]]);
    assert.equal(errorCount(r), 3);
    assert.equal(errorCount({ errors: { reset: '4', other: null } }), 4, 'counts as stored; none where there is no number');
    assert.equal(errorCount({}), 0);
  });

  it('client-bound: the load generator\'s share of its core where known, whole; once, whatever the runner recorded', () => {
    assert.deepEqual(runWarnings([run('node', 's', 1, 10, { client_bound: true, client_cpu_pct: 96.6 })]).map(found), [['client-bound', 'warn', [], [{ client_cpu_pct: 97 }]]]);
    assert.deepEqual(runWarnings([run('node', 's', 1, 10, { client_bound: true })]).map((w) => w.facts), [[{ client_cpu_pct: null }]]);
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
    assert.deepEqual(runWarnings([run('em', 's', 1, 10, { not_judged_because: reasons, schedule_lag_ms: { mean: 5, max: 41.6 } })]).map(found), [
      ['not-judged', 'warn', [], reasons.map((reason) => ({ reason }))],
      ['schedule-lag', 'warn', [], [{ lag_ms: 42 }]],
    ]);
    assert.deepEqual(runWarnings([run('em', 's', 1, 10, { schedule_lag_ms: { mean: 5, max: 20 } })]), []);
  });

  it('a superseded run is information, not a warning: the runner\'s reason, the engine that ran it again, its own problems apart', () => {
    const why = 'superseded: wrk ran s again (the built-in load generator was the bottleneck); the verdict uses wrk\'s runs';
    const bound = 'client-bound: the load generator used 97% of its core (90% or more)';
    const replaced = run('node', 's', 1, 10, { trial: 2, client_bound: true, client_cpu_pct: 97, errors: { reset: 1 }, superseded_by: 'wrk', not_judged_because: [why, bound] });
    assert.deepEqual(runWarnings([replaced]).map(found), [['superseded', 'info', [2], [{ reason: why, by: 'wrk', details: [bound] }]]]);
    assert.deepEqual(runWarnings([run('node', 's', 1, 10, { superseded_by: 'wrk' })]).map((w) => w.facts), [[{ reason: null, by: 'wrk', details: [] }]], 'marked by superseded_by alone');
  });
});

describe('warnings: trials folded together', () => {
  const near = (trial, cpu) => run('em', 's', 1, 10, { trial, client_cpu_pct: cpu });

  it('one entry per server, scenario and kind, with the trials it happened in and each run\'s facts', () => {
    const w = runWarnings([near(1, 84), near(2, 85), run('em', 's', 1, 10, { trial: 3 }), near(4, 84), run('em', 't', 1, 10, { trial: 1, client_cpu_pct: 90 })]);
    assert.deepEqual(w.map((x) => [x.scenario, x.kind, x.trials, x.facts.map((f) => f.client_cpu_pct)]), [['s', 'near-client-bound', [1, 2, 4], [84, 85, 84]], ['t', 'near-client-bound', [1], [90]]]);
    assert.deepEqual(runWarnings([near('first', 84)])[0].trials, [], 'a run without a trial number adds none');
  });

  it('names each trial once, in order, however many runs of it warned', () => {
    const w = runWarnings([3, 1, 2, 1, 2, 3].map((trial) => near(trial, 84)));
    assert.deepEqual(w.map((x) => x.trials), [[1, 2, 3]]);
  });
});
