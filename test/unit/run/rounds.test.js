'use strict';
// What the paired rounds decide as they go (perf/lib/run/rounds.js): where the budget goes
// (nextVisit), the order of a round (shuffled), when a scenario is settled, the rounds a look
// still lacks (usableRounds). What a first look
// should cost: test/unit/plan/rounds.test.js. The rounds themselves run against real servers in
// test/e2e/rounds.test.js.

const assert = require('node:assert/strict');
const { nextVisit, prospect, shuffled, settled, usableRounds } = require('../../../perf/lib/run/rounds');
const { mulberry32 } = require('../../support/seeded_random');

const LOOKS = [5, 10, 20, 40];

describe('rounds: where the budget goes', () => {
  // A state as measureInRounds keeps it; undecided(rounds, more) is an undecided comparison
  // at a look of `rounds` that would likely need `more` times its rounds.
  const undecided = (rounds, more) => ({ decision: 'undecided', rounds, more_measuring: more });
  const state = (name, more = {}) => ({ name, visited: true, open: true, rounds: 5, comparisons: [], roundS: 1, fixedS: 4, firstLookS: 10, ...more });

  it('every first look comes first, in the plan\'s order, whatever the budget', () => {
    const states = [state('a', { visited: false, rounds: 0 }), state('b', { visited: false, rounds: 0 })];
    assert.deepEqual(nextVisit(states, LOOKS, 5, null).visit, { name: 'a', to: 5, costS: 10, first: true });
    states[0].visited = true;
    states[0].rounds = 5;
    assert.equal(nextVisit(states, LOOKS, 0, 'a').visit.name, 'b');
  });

  it('a prospect: the first look at which a comparison would likely be decided, how many, at what cost', () => {
    const st = state('s', { comparisons: [undecided(5, 1.5), undecided(5, 3), undecided(5, 100), { decision: 'winner' }] });
    assert.deepEqual(prospect(st, LOOKS, false), { name: 's', to: 10, decides: 1, costS: 5 + 4 });
    assert.deepEqual(prospect(st, LOOKS, true), { name: 's', to: 10, decides: 1, costS: 5 }, 'going on with servers up: no fixed cost');
    // Nothing likely decided by the last look: the next look, deciding none.
    assert.deepEqual(prospect(state('t', { comparisons: [undecided(5, 100)] }), LOOKS, true), { name: 't', to: 10, decides: 0, costS: 5 });
    assert.equal(prospect(state('u', { rounds: 40 }), LOOKS, true), null, 'past the last look');
  });

  it('the scenario just measured goes on at once where it decides the most per second, warm', () => {
    const states = [state('a', { comparisons: [undecided(5, 3)] }), state('b', { comparisons: [undecided(5, 3)], fixedS: 20 }), state('c', { visited: false, rounds: 0 })];
    // b's servers are up: 15 rounds at 1 s, against a's 15 s and a fresh start.
    assert.deepEqual(nextVisit(states, LOOKS, 100, 'b').visit, { name: 'b', to: 20, decides: 1, costS: 15 });
    // Before every first look is done, only where going on costs no more than coming back
    // would add (b's fresh start and warm-up): at 4 s, c's first look comes first.
    states[1].fixedS = 4;
    assert.equal(nextVisit(states, LOOKS, 100, 'b').visit.name, 'c');
    states[1].fixedS = 20;
    // Not where another decides more per second: then c's first look first, a after it.
    states[0].comparisons = [undecided(5, 1.5), undecided(5, 1.8)];
    assert.equal(nextVisit(states, LOOKS, 100, 'b').visit.name, 'c');
    states[2] = state('c', { comparisons: [] , open: false });
    assert.deepEqual(nextVisit(states, LOOKS, 100, 'c').visit, { name: 'a', to: 10, decides: 2, costS: 9 });
  });

  it('the first looks still to come keep their share: what does not fit in the rest is left out', () => {
    const states = [state('a', { comparisons: [undecided(5, 3)], fixedS: 30 }), state('c', { visited: false, rounds: 0, firstLookS: 90 })];
    const { visit, leftOut } = nextVisit(states, LOOKS, 100, 'a');
    assert.equal(visit.name, 'c', '15 s for a does not fit beside c\'s 90');
    assert.deepEqual(leftOut, [{ name: 'a', to: 20, decides: 1, costS: 15 }]);
    // Going on before every first look is done: within an even share of what is spare (here
    // half: a and the one to come). 110 s left: 20 spare, 10 each; 130 s: 40 spare, 20 each.
    assert.equal(nextVisit(states, LOOKS, 110, 'a').visit.name, 'c');
    assert.equal(nextVisit(states, LOOKS, 130, 'a').visit.name, 'a');
    // Not where the first looks so far took twice their estimate: c is kept 180 s.
    states[0].firstLookTookS = 20; // estimated 10
    assert.equal(nextVisit(states, LOOKS, 130, 'a').visit.name, 'c');
  });

  it('once every first look is done, a scenario with no likely answer gets the budget left, cheapest first; none fits: the end', () => {
    const states = [state('far', { comparisons: [undecided(5, 100)], roundS: 2 }), state('near', { comparisons: [undecided(5, 100)] }), state('done', { open: false })];
    assert.deepEqual(nextVisit(states, LOOKS, 100, 'far').visit, { name: 'near', to: 10, decides: 0, costS: 9 });
    const end = nextVisit(states, LOOKS, 8, 'far');
    assert.equal(end.visit, null);
    assert.deepEqual(end.leftOut.map((p) => p.name), ['far', 'near']);
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

  it('usableRounds: the rounds the pair with the fewest could use, each pair counting its own', () => {
    const run = (server, trial, usable = true) => ({ scenario: 's', server, trial, ok: true, not_judged_because: usable ? [] : ['not server-bound: the server used 80% of its core (under 90%), so something else set the pace'] });
    // node lost round 1, em round 2, async_http round 3: two rounds all three could use, three for every pair.
    const runs = [1, 2, 3, 4, 5].flatMap((t) => [run('node', t, t !== 1), run('em', t, t !== 2), run('async_http', t, t !== 3)]);
    assert.equal(usableRounds({ name: 's', servers: ['node', 'em', 'async_http'] }, runs), 3);
    // async_http usable once: its pairs have one round each, whatever node and em have.
    const once = [1, 2, 3, 4, 5].flatMap((t) => [run('node', t), run('em', t), run('async_http', t, t === 3)]);
    assert.equal(usableRounds({ name: 's', servers: ['node', 'em', 'async_http'] }, once), 1);
    // A superseded run (another engine's runs give the verdict) and another scenario's are not counted; a lone server counts its own.
    const superseded = { ...run('em', 6), superseded_by: 'httperf' };
    assert.equal(usableRounds({ name: 's', servers: ['node', 'em'] }, [...once, run('node', 6), superseded, { ...run('em', 7), scenario: 't' }, run('node', 7)]), 5);
    assert.equal(usableRounds({ name: 's', servers: ['async_http'] }, once), 1);
  });

  it('a scenario is settled when no comparison is undecided (not judged ones never keep it open)', () => {
    assert.equal(settled([{ decision: 'winner' }, { decision: 'same' }, { decision: null }]), true);
    assert.equal(settled([{ decision: 'winner' }, { decision: 'undecided' }]), false);
  });
});
