'use strict';
// Paired rounds as planned (perf/lib/plan/rounds.js): what a round and a first look should cost
// before anything is measured, where servers run at the same time or one after the other. An
// open loop's slice of a round: test/unit/plan/run_plan.test.js (the plan's scenarios as run).

const assert = require('node:assert/strict');
const { estimateRoundS, estimateFirstLookS, roundsEstimate } = require('../../../perf/lib/plan/rounds');

const LOOKS = [5, 10, 20, 40];

describe('rounds as planned', () => {
  it('the first look\'s time: each server\'s load and settling per round, a warm-up per server, a round more to choose an engine', () => {
    const s = { kind: 'closed', concurrency: 10, duration_s: 1, warmup_s: 1 }; // 1 s of load
    assert.ok(Math.abs(estimateRoundS(s, 2) - 2.2) < 1e-9);
    // A warm-up per server: three slices of 0.5 s (scenarios.js expectedWarmupS).
    assert.ok(Math.abs(estimateFirstLookS([{ scenario: s, servers: 2, probe: false }], LOOKS) - (5 * 2.2 + 2 * 1.5)) < 1e-9);
    assert.ok(Math.abs(estimateFirstLookS([{ scenario: s, servers: 2, probe: true }], LOOKS) - (6 * 2.2 + 2 * 1.5)) < 1e-9);
  });

  it('a light open loop\'s servers run together: a round and a warm-up cost one run\'s time', () => {
    const s = { kind: 'open', rate: 100, connections: 100, warmup_s: 1 }; // 1 s of load
    assert.ok(Math.abs(estimateRoundS(s, 2) - 1.1) < 1e-9);
    assert.ok(Math.abs(estimateRoundS(s, 1) - 1.1) < 1e-9);
    assert.ok(Math.abs(estimateFirstLookS([{ scenario: s, servers: 2, probe: false }], LOOKS) - (5 * 1.1 + 1)) < 1e-9);
    // Not where an external engine runs it.
    assert.ok(Math.abs(estimateRoundS({ ...s, engine: 'httperf' }, 2) - 2.2) < 1e-9);
  });

  it('one scenario\'s rounds as the runner starts from them: together or in turn, a round, a visit\'s warm-ups, the first look', () => {
    const open = { kind: 'open', rate: 100, connections: 100, warmup_s: 1 };
    assert.deepEqual(roundsEstimate(open, 2, { looks: LOOKS }), { together: true, round_s: estimateRoundS(open, 2), fixed_s: 1, first_look_s: estimateFirstLookS([{ scenario: open, servers: 2, probe: false }], LOOKS) });
    assert.equal(roundsEstimate(open, 1, { looks: LOOKS }).together, false, 'one server: nothing to run beside it');
    const closed = { kind: 'closed', concurrency: 10, duration_s: 1, warmup_s: 1 };
    const inTurn = roundsEstimate(closed, 3, { looks: LOOKS, probe: true });
    assert.deepEqual([inTurn.together, inTurn.fixed_s], [false, 3 * 1.5]);
    assert.ok(Math.abs(inTurn.first_look_s - (6 * 3.3 + 3 * 1.5)) < 1e-9, String(inTurn.first_look_s));
  });
});
