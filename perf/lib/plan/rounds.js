'use strict';
// Paired rounds as planned, before anything is measured: how an open loop is sliced into rounds,
// which scenarios' servers may run at the same time, and what a round and a first look should
// cost. The quick run's choice of what its budget buys (./run_plan.js quickPlan), the plan line
// and the rounds themselves (perf/lib/run/rounds.js, which replace these estimates with what
// they measure) all read them here.

const { engineFor } = require('../engines');
const { waitMs } = require('../store/scenario_doc');
const { expectedWarmupS } = require('./scenarios');
const { estimateScenarioS, SETTLE_S } = require('./trial_plan');

// In paired rounds an open loop runs this many seconds of its schedule per round, not its whole
// count: its connections are independent of one another, so the seed's 2000 at 20/s (100 s) are
// measured as rounds of 100, and a first look costs 25 s instead of 8 min. A round's cost is its
// length, while an interval narrows with the requests over all rounds and the number of rounds.
const ROUND_SLICE_S = 5;

/** An open loop as one paired round runs it: at most ROUND_SLICE_S of its schedule. */
function roundSlice(s) {
  if (s.kind !== 'open' || s.connections <= s.rate * ROUND_SLICE_S) return s;
  return { ...s, connections: Math.round(s.rate * ROUND_SLICE_S), full_connections: s.connections };
}

/**
 * Whether a scenario's rounds may run its servers at the same time: an open loop of the built-in
 * engines, which a light load leaves mostly idle; not one whose requests wait (GET /delay),
 * whose thousands of held connections would be twice as many on the one load generator, and
 * twice its descriptors.
 */
function mayRunTogether(scenario) {
  return !scenario.engine && waitMs(scenario) === null && ['open_loop', 'slow_clients'].includes(engineFor(scenario));
}

/** How many runs of a round go one after the other: one where the servers run together (mayRunTogether). */
function runsInTurn(scenario, servers) {
  return servers > 1 && mayRunTogether(scenario) ? 1 : servers;
}

/** Seconds one round of a scenario should take before any was measured: each run's load and warm-up, and settling. */
function estimateRoundS(scenario, servers) {
  return runsInTurn(scenario, servers) * (estimateScenarioS(scenario) + SETTLE_S);
}

/**
 * Seconds the first look should take: every scenario's first looks[0] rounds, each run's
 * warm-up once per scenario, and a round to choose a lighter engine where one may be wanted.
 * scenarios: [{ scenario (as a round runs it: roundSlice), servers (how many run it), probe
 * (whether its first round is doubled to choose an engine) }].
 */
function estimateFirstLookS(scenarios, looks) {
  return scenarios.reduce((t, { scenario, servers, probe }) => t + (looks[0] + (probe ? 1 : 0)) * estimateRoundS(scenario, servers) + runsInTurn(scenario, servers) * expectedWarmupS(scenario), 0);
}

/**
 * What one scenario's rounds should cost before any was measured, on `servers` servers:
 * { together (whether its servers run at the same time), round_s, fixed_s (a visit's warm-ups:
 * what going on at once saves), first_look_s (with a round more where probe: its first round
 * runs two engines to choose one) }.
 */
function roundsEstimate(scenario, servers, { looks, probe = false }) {
  return {
    together: servers > 1 && mayRunTogether(scenario),
    round_s: estimateRoundS(scenario, servers),
    fixed_s: runsInTurn(scenario, servers) * expectedWarmupS(scenario),
    first_look_s: estimateFirstLookS([{ scenario, servers, probe }], looks),
  };
}

module.exports = { roundSlice, estimateRoundS, estimateFirstLookS, roundsEstimate };
