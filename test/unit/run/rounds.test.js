'use strict';
// What the paired rounds plan (perf/lib/run/rounds.js): where the budget goes (nextVisits), the
// order of a round (shuffled), when a scenario is settled, how long a first look takes. The
// rounds themselves run against real servers in test/e2e/rounds.test.js.

const assert = require('node:assert/strict');
const { nextVisits, shuffled, settled, estimateRoundS, estimateFirstLookS } = require('../../../perf/lib/run/rounds');
const { mulberry32 } = require('../../support/seeded_random');

const LOOKS = [5, 10, 20, 40];

describe('rounds: where the budget goes', () => {
  it('a scenario\'s first look is always measured, whatever the budget', () => {
    const { visits, priced } = nextVisits([{ name: 'a', rounds: 0, open: true, roundS: 10 }, { name: 'b', rounds: 0, open: true, roundS: 10 }], LOOKS, 30);
    assert.deepEqual(visits, [{ name: 'a', to: 5, costS: 50 }, { name: 'b', to: 5, costS: 50 }]);
    assert.deepEqual(priced, []);
  });

  it('later looks only for open scenarios, in order, while what is left of the budget covers them', () => {
    const states = [
      { name: 'decided', rounds: 5, open: false, roundS: 1 },
      { name: 'cheap', rounds: 5, open: true, roundS: 2 }, // 5 more rounds: 10 s
      { name: 'dear', rounds: 5, open: true, roundS: 10 }, // 50 s: does not fit after cheap
      { name: 'last', rounds: 40, open: true, roundS: 1 }, // past the last look
      { name: 'fits', rounds: 10, open: true, roundS: 0.5 }, // 10 more rounds: 5 s
    ];
    const { visits, priced } = nextVisits(states, LOOKS, 40);
    assert.deepEqual(visits, [{ name: 'cheap', to: 10, costS: 10 }, { name: 'fits', to: 20, costS: 5 }]);
    assert.deepEqual(priced, [{ name: 'dear', to: 10, costS: 50 }]);
  });

  it('a round\'s order: every server once, in a random order', () => {
    const random = mulberry32(3);
    const seen = new Set();
    for (let i = 0; i < 40; i++) {
      const order = shuffled(['node', 'em', 'nginx'], random);
      assert.deepEqual([...order].sort(), ['em', 'nginx', 'node']);
      seen.add(order.join());
    }
    assert.equal(seen.size, 6, 'all six orders of three servers come up in 40 rounds');
  });

  it('a scenario is settled when no comparison is undecided (not judged ones never keep it open)', () => {
    assert.equal(settled([{ decision: 'winner' }, { decision: 'same' }, { decision: null }]), true);
    assert.equal(settled([{ decision: 'winner' }, { decision: 'undecided' }]), false);
  });

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
});
