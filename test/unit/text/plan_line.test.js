'use strict';
// The plan in words (perf/lib/text/plan_line.js): the plan's own estimate and what the run
// foresees beyond it, said before anything runs; nothing estimated there.

const assert = require('node:assert/strict');
const { planLine } = require('../../../perf/lib/text/plan_line');
const { calibrationPlan } = require('../../../perf/lib/text/calibration');

// What planLine reads of a plan (perf/lib/plan/run_plan.js resolvePlan): node runs two
// scenarios, em one.
const PLAN = {
  recorded: { headline: null },
  runnable: ['node', 'em'],
  served: { node: [{ name: 'a' }, { name: 'b' }], em: [{ name: 'a' }] },
  scenarios: [{ name: 'a' }, { name: 'b' }],
  ramps: [],
  rampServers: ['node', 'em'],
  rampOptions: { repeat: 3 },
  held: null,
  rounds: null,
  trials: 1,
  estimate: { trials_s: 100, ramps_s: 0, ramps_most_s: 0, held_s: null },
};
const ROUNDS = { looks: [5, 10, 20, 40], budgetS: 600 };
const CALIBRATION = { server: 'libevent', scenario: { rate: 5000 }, seconds: 6 };

describe('the plan line', () => {
  it('paired rounds: the first look\'s foreseen seconds against the budget, and what the rest goes to', () => {
    assert.equal(planLine({ ...PLAN, rounds: ROUNDS }, { firstLookS: 100 }), 'plan: paired rounds of node, em (all up, in a random order each round), 2 scenarios, a budget of 10 min: the first look (5 rounds each) should take about 1 min 40 s; the other 8 min 20 s go to the comparisons still undecided, up to 40 rounds (looks at 5, 10, 20, 40 rounds)');
    assert.match(planLine({ ...PLAN, rounds: { ...ROUNDS, budgetS: 60 } }, { firstLookS: 100 }), /a budget of 1 min: the first look \(5 rounds each\) should take about 1 min 40 s; more than the budget: every scenario gets its first look, and no more/);
  });

  it('trials: the runs counted per server, the plan\'s seconds and the runs again with a lighter engine; the calibration first', () => {
    const line = planLine({ ...PLAN, trials: 3 }, { againS: 20, calibration: CALIBRATION });
    assert.equal(line, 'calibration first: the libevent reference at 5,000 requests/s, about 6 s (perf/calibration.json)\nplan: 3 trials × 2 servers (node, em), 9 runs; expected to take about 2 min');
    assert.equal(calibrationPlan(CALIBRATION), line.split('\n')[0]);
  });

  it('ramps: their servers where others than the scenarios\', the bound where every search to its last step would take longer; the held-count search', () => {
    const ramps = { ...PLAN, ramps: [{ name: 'k' }, { name: 'p' }], rampServers: ['node', 'em', 'em_tuned'], estimate: { ...PLAN.estimate, ramps_s: 1800, ramps_most_s: 2700 } };
    assert.match(planLine(ramps), /; then 2 ramps \(k, p\) on node, em, em_tuned, 3 searches per server: about 30 min, at most 45 min \(every search to its last step, each as long as a loop that pauses seldom asks\)$/);
    const held = { ...PLAN, ramps: [{ name: 'k' }], held: { from: 1000, to: 16000 }, estimate: { ...PLAN.estimate, ramps_s: 600, ramps_most_s: 650, held_s: 70 } };
    assert.match(planLine(held), /; then 1 ramp \(k\), 3 searches per server: about 10 min; then the held-count search \(waiting requests held at p99 ≤ wait \+ 10 ms, 1,000–16,000 connections\): about 1 min 10 s$/);
  });
});
