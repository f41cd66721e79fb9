'use strict';
// Which scenarios a lighter engine runs again, and with what (perf/lib/run/lighter_engines.js):
// decided from the plan's part ({ runnable, served, trials }) and the runs so far; which engine
// each verdict then uses. The engines' binaries are named through $HTTPERF_BIN and $WRK_BIN,
// so that "installed" and "not installed" do not depend on this machine.

const assert = require('node:assert/strict');
const { lighterEngines, asTimed, foreseenAgainS, runsAgain, chooseVerdictEngines, pickLighter } = require('../../../perf/lib/run/lighter_engines');
const { estimatePlanS } = require('../../../perf/lib/plan/trial_plan');
const { namedScenario: scenario } = require('../../support/runner_helpers');

const ONE_AT_A_TIME = scenario('one_at_a_time', { kind: 'closed', concurrency: 1, keep_alive: false, requests: 300 });
const TIMED = scenario('timed', { kind: 'closed', concurrency: 8, duration_s: 2 });
const COUNTED = scenario('counted', { kind: 'closed', concurrency: 8, requests: 400 });
const PER_CONNECTION = scenario('per_connection', { kind: 'closed', concurrency: 8, requests_per_connection: 50 });
const OPEN = scenario('open', { kind: 'open', connections: 100, rate: 50 });

/** The part of a plan the module reads: a and b run every scenario given, trials times. */
const planOf = (scenarios, trials = 2) => ({ runnable: ['a', 'b'], served: { a: scenarios, b: scenarios }, trials });

/** A finished run; by default the built-in engine's, judged, its own bottleneck not found. */
const run = (server, scenarioName, extra = {}) => ({ server, scenario: scenarioName, engine: 'autocannon', ok: true, client_bound: false, server_bound: true, duration_s: 1, throughput_rps: 1000, judged: true, not_judged_because: [], superseded_by: null, ...extra });

/** Runs fn with the engines' binaries found (an executable) or not (a path that is not there). */
function withBinaries({ httperf, wrk }, fn) {
  const saved = { HTTPERF_BIN: process.env.HTTPERF_BIN, WRK_BIN: process.env.WRK_BIN };
  process.env.HTTPERF_BIN = httperf ? process.execPath : '/nonexistent/httperf';
  process.env.WRK_BIN = wrk ? process.execPath : '/nonexistent/wrk';
  try {
    return fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('lighter engines: what is run again, and with what', () => {
  it('one client at a time: httperf, before any run', () => {
    assert.deepEqual(lighterEngines(planOf([ONE_AT_A_TIME]), []), { one_at_a_time: { engine: 'httperf', why: 'one client at a time: the load generator\'s own time per request is part of every figure', byCycle: true } });
  });

  it('a closed loop: wrk, only where the built-in engine was the bottleneck in a run that finished', () => {
    const wanted = { timed: { engine: 'wrk', why: 'the built-in load generator was the bottleneck' } };
    assert.deepEqual(lighterEngines(planOf([TIMED]), [run('a', 'timed'), run('b', 'timed')]), {}, 'the server set the pace');
    assert.deepEqual(lighterEngines(planOf([TIMED]), [run('a', 'timed'), run('b', 'timed', { client_bound: true })]), wanted);
    assert.deepEqual(lighterEngines(planOf([TIMED]), [run('a', 'timed', { server_bound: false })]), wanted);
    assert.deepEqual(lighterEngines(planOf([TIMED]), [run('a', 'timed', { client_bound: true, ok: false })]), {}, 'a failed run says nothing of the engine');
    assert.deepEqual(lighterEngines(planOf([TIMED]), [run('a', 'timed', { client_bound: true, engine: 'wrk' })]), {}, 'wrk is the lightest there is');
  });

  it('a closed loop bounded by a count of requests: wrk for the seconds the built-in runs took', () => {
    const runs = [run('a', 'counted', { client_bound: true, duration_s: 1.2 }), run('b', 'counted', { duration_s: 2.1 }), run('a', 'counted', { duration_s: 3.5 })];
    assert.deepEqual(lighterEngines(planOf([COUNTED]), runs), {
      counted: { engine: 'wrk', why: 'the built-in load generator was the bottleneck; wrk stops after a duration, so it runs for 3 s, the time the built-in runs took, instead of 400 requests', as: { requests: null, duration_s: 3 } },
    });
  });

  it('a count of requests per connection, which wrk cannot keep: httperf\'s sessions, only where the built-in engine was the bottleneck', () => {
    assert.deepEqual(lighterEngines(planOf([PER_CONNECTION]), [run('a', 'per_connection')]), {}, 'the server set the pace');
    assert.deepEqual(lighterEngines(planOf([PER_CONNECTION]), [run('a', 'per_connection', { server_bound: false })]), {
      per_connection: { engine: 'httperf', why: 'the built-in load generator was the bottleneck; wrk cannot run it (wrk stops after a duration (-d), not after a number of requests)' },
    });
    assert.deepEqual(lighterEngines(planOf([PER_CONNECTION]), [run('a', 'per_connection', { server_bound: false, engine: 'httperf' })]), {}, 'httperf\'s own runs are judged on whether the server was saturated, not run again');
  });

  it('no lighter engine where none runs the scenario faithfully: an open loop', () => {
    assert.deepEqual(lighterEngines(planOf([OPEN]), [run('a', 'open', { client_bound: true })]), {});
  });

  it('as a run bounded by time: the median of the built-in runs that finished, rounded up, at least 1 s', () => {
    assert.deepEqual(asTimed(COUNTED, [run('a', 'counted', { duration_s: 0.2 })]), { requests: null, duration_s: 1 });
    assert.deepEqual(asTimed(COUNTED, [run('a', 'counted', { duration_s: 2 }), run('b', 'counted', { duration_s: 4.5 }), run('b', 'counted', { duration_s: 99, ok: false }), run('b', 'counted', { duration_s: 99, engine: 'wrk' })]), { requests: null, duration_s: 4 });
    assert.equal(asTimed(COUNTED, [run('a', 'counted', { ok: false })]), null, 'no run finished');
    assert.equal(asTimed(PER_CONNECTION, [run('a', 'per_connection')]), null);
    assert.equal(asTimed(TIMED, [run('a', 'timed')]), null, 'already bounded by time');
  });
});

describe('lighter engines: the runs again', () => {
  it('every trial of every server, with the lighter engine, the count turned into seconds; said in the log', () => {
    const plan = planOf([ONE_AT_A_TIME, COUNTED, TIMED], 2);
    const runs = [run('a', 'counted', { client_bound: true, duration_s: 1.5 }), run('b', 'counted', { duration_s: 1.5 }), run('a', 'timed'), run('b', 'timed')];
    const lines = [];
    const again = withBinaries({ httperf: true, wrk: true }, () => runsAgain(plan, runs, (l) => lines.push(l)));
    assert.deepEqual(again.names, ['one_at_a_time', 'counted']);
    assert.deepEqual(again.order.map((o) => `${o.trial}${o.server}`), ['1a', '1b', '2a', '2b']);
    assert.deepEqual(again.served.a.map((s) => [s.name, s.engine, s.requests, s.duration_s]), [['one_at_a_time', 'httperf', 300, null], ['counted', 'wrk', null, 2]]);
    assert.equal(COUNTED.requests, 400, 'the plan\'s scenario is left as it is');
    assert.deepEqual(lines.slice(0, 2), [
      'httperf: runs one_at_a_time again: one client at a time: the load generator\'s own time per request is part of every figure',
      'wrk: runs counted again: the built-in load generator was the bottleneck; wrk stops after a duration, so it runs for 2 s, the time the built-in runs took, instead of 400 requests',
    ]);
    assert.match(lines[2], /^plan: 4 more server starts; expected to take about \d+ s more$/);
    assert.equal(lines.length, 3);
  });

  it('only the servers that run a scenario again are started again', () => {
    const plan = { runnable: ['a', 'b'], served: { a: [ONE_AT_A_TIME, TIMED], b: [TIMED] }, trials: 1 };
    const again = withBinaries({ httperf: true, wrk: true }, () => runsAgain(plan, [], () => {}));
    assert.deepEqual(again.order, [{ trial: 1, server: 'a' }]);
    assert.deepEqual(again.served.b, []);
  });

  it('an engine not installed: says so and runs nothing again', () => {
    const lines = [];
    const again = withBinaries({ httperf: false, wrk: true }, () => runsAgain(planOf([ONE_AT_A_TIME]), [], (l) => lines.push(l)));
    assert.equal(again, null);
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^httperf: does not run one_at_a_time again \(one client at a time: .*\): httperf not found at \/nonexistent\/httperf \(from \$HTTPERF_BIN\)/);
  });

  it('nothing to run again: nothing said', () => {
    const lines = [];
    assert.equal(withBinaries({ httperf: true, wrk: true }, () => runsAgain(planOf([TIMED, OPEN]), [run('a', 'timed')], (l) => lines.push(l))), null);
    assert.deepEqual(lines, []);
  });

  it('foreseen before any run: only httperf\'s, for an engine installed', () => {
    const plan = planOf([ONE_AT_A_TIME, TIMED], 3);
    const alone = { runnable: ['a', 'b'], served: { a: [{ ...ONE_AT_A_TIME, engine: 'httperf' }], b: [{ ...ONE_AT_A_TIME, engine: 'httperf' }] }, trials: 3 };
    const order = [1, 2, 3].flatMap((trial) => ['a', 'b'].map((server) => ({ trial, server })));
    assert.equal(withBinaries({ httperf: true, wrk: true }, () => foreseenAgainS(plan)), estimatePlanS(order, alone.served));
    assert.equal(withBinaries({ httperf: false, wrk: true }, () => foreseenAgainS(plan)), 0);
    assert.equal(withBinaries({ httperf: true, wrk: true }, () => foreseenAgainS(planOf([TIMED]))), 0, 'wrk\'s depend on what the runs find');
  });
});

describe('lighter engines: the verdict\'s engine', () => {
  it('wrk: its runs give the verdict; the built-in engine\'s finished runs are kept, superseded', () => {
    const runs = [run('a', 'timed', { client_bound: true }), run('a', 'timed', { ok: false, judged: false }), run('a', 'other'), run('a', 'timed', { engine: 'wrk' })];
    const lines = [];
    const why = 'the built-in load generator was the bottleneck';
    const extra = chooseVerdictEngines({ wanted: { timed: { engine: 'wrk', why } }, names: ['timed'] }, runs, (l) => lines.push(l));
    assert.deepEqual(extra, { verdict_engines: { timed: 'wrk' }, verdict_engine_reasons: { timed: why } });
    assert.deepEqual(lines, [`timed: the verdict uses wrk's runs (${why})`]);
    assert.deepEqual([runs[0].judged, runs[0].superseded_by, runs[0].not_judged_because], [false, 'wrk', [`superseded: wrk ran timed again (${why}); the verdict uses wrk's runs`]]);
    assert.equal(runs[1].superseded_by, null, 'a failed run is not superseded');
    assert.deepEqual([runs[2].judged, runs[2].superseded_by], [true, null], 'another scenario');
    assert.deepEqual([runs[3].judged, runs[3].superseded_by], [true, null], 'wrk\'s own');
  });

  it('httperf: the engine with the shorter cycle per request on every server; the other\'s runs superseded', () => {
    const wanted = { one_at_a_time: { engine: 'httperf', why: 'one client at a time', byCycle: true } };
    const runsWhere = (httperfRps) => ['a', 'b'].flatMap((server) => [run(server, 'one_at_a_time', { engine: 'sequential', throughput_rps: 2000 }), run(server, 'one_at_a_time', { engine: 'httperf', throughput_rps: httperfRps })]);
    const faster = runsWhere(4000);
    assert.deepEqual(chooseVerdictEngines({ wanted, names: ['one_at_a_time'] }, faster, () => {}).verdict_engines, { one_at_a_time: 'httperf' });
    assert.deepEqual(faster.map((r) => r.superseded_by), ['httperf', null, 'httperf', null]);
    const slower = runsWhere(1000);
    const extra = chooseVerdictEngines({ wanted, names: ['one_at_a_time'] }, slower, () => {});
    assert.deepEqual(extra.verdict_engines, { one_at_a_time: 'sequential' });
    assert.match(extra.verdict_engine_reasons.one_at_a_time, /^httperf's cycle per request is not shorter than sequential's on every server/);
    assert.deepEqual(slower.map((r) => r.superseded_by), [null, 'sequential', null, 'sequential']);
  });
});

describe('lighter engines: one client at a time is judged from the engine with the shorter cycle', () => {
  const run = (server, engine, rps) => ({ server, scenario: 's', engine, ok: true, throughput_rps: rps });

  it('picks the engine whose cycle per request (1 / req/s) is shorter on every server, and says so with the figures', () => {
    const runs = [run('a', 'sequential', 2000), run('a', 'sequential', 2500), run('a', 'sequential', 3000), run('a', 'httperf', 4000), run('b', 'sequential', 3000), run('b', 'httperf', 8000)];
    assert.deepEqual(pickLighter(runs, 's', 'httperf'), { engine: 'httperf', text: "httperf's cycle per request is shorter than sequential's on every server (a 0.250 vs 0.400, b 0.125 vs 0.333 ms)" });
    // Shorter on one server only: the built-in engine stays.
    runs.push(run('b', 'httperf', 1000), run('b', 'httperf', 1000));
    assert.equal(pickLighter(runs, 's', 'httperf').engine, 'sequential');
  });
});
