'use strict';
// The plan in words, before anything runs: what the run measures and how long it should take.
// The numbers are the plan's own estimate (perf/lib/plan/run_plan.js `estimate`) and what the run
// foresees beyond it (perf/lib/run/runner.js: a first look's rounds, the runs again with a
// lighter engine); nothing is estimated here.

const { fmtDuration } = require('./format');
const { searchesText } = require('./ramps');
const { ABOVE_WAIT_BOUND_MS } = require('../method');
const { calibrationPlan } = require('./calibration');

/**
 * The line that says what the plan runs and how long it should take (with a budget: what it
 * buys). foreseen: { firstLookS (paired rounds: the first look's seconds), againS (trials: the
 * runs again with a lighter engine), calibration (the plan's: { server, scenario, seconds }, or null) }.
 */
function planLine(plan, { firstLookS = null, againS = 0, calibration = null } = {}) {
  return `${calibration ? `${calibrationPlan(calibration)}\n` : ''}${headlinePlan(plan)}${scenariosPlan(plan, { firstLookS, againS })}${rampsPlan(plan)}`;
}

/** A quick run's choice of the headline questions: what its budget buys, and what it left, on a line of its own; "" for any other run. */
function headlinePlan(plan) {
  const choice = plan.recorded.headline;
  if (!choice) return '';
  const subject = (s) => `${s.name} (${s.questions.length} question${s.questions.length > 1 ? 's' : ''}, about ${fmtDuration(s.cost_s)})`;
  const budget = choice.budget_s === null ? 'no budget: every one' : `a budget of ${fmtDuration(choice.budget_s)} for the whole run buys, in the order that likely decides the most per second`;
  const left = choice.left.length ? `; not bought: ${choice.left.map(subject).join(', ')}` : '';
  return `quick: the headline questions (perf/questions.json) on each runtime's defaults; ${budget}: ${choice.chosen.map(subject).join(', ')}${left}\n`;
}

/** "; then 1 ramp (hello_per_connection), 3 searches per server: about 5 min"; "" without ramps; and the held-count search's part. */
function rampsPlan(plan) {
  const { estimate } = plan;
  const held = plan.held ? `; then the held-count search (waiting requests held at p99 ≤ wait + ${ABOVE_WAIT_BOUND_MS} ms, ${plan.held.from.toLocaleString('en-US')}–${plan.held.to.toLocaleString('en-US')} connections): about ${fmtDuration(estimate.held_s)}` : '';
  if (!plan.ramps.length) return held;
  const on = plan.rampServers.join(' ') === plan.runnable.join(' ') ? '' : ` on ${plan.rampServers.join(', ')}`;
  // Steps grow for a server that pauses less often than they last, and near a fuzzy edge a
  // search takes its every step: how long, the run finds out; the bound is what it can take.
  const upTo = estimate.ramps_most_s > 1.1 * estimate.ramps_s ? `, at most ${fmtDuration(estimate.ramps_most_s)} (every search to its last step, each as long as a loop that pauses seldom asks)` : '';
  return `; then ${plan.ramps.length} ramp${plan.ramps.length > 1 ? 's' : ''} (${plan.ramps.map((r) => r.name).join(', ')})${on}, ${searchesText(plan.rampOptions.repeat)}: about ${fmtDuration(estimate.ramps_s)}${upTo}${held}`;
}

/** The scenarios' part of the plan line. */
function scenariosPlan(plan, { firstLookS, againS }) {
  const { trials, runnable, served } = plan;
  if (plan.rounds) {
    const { looks, budgetS } = plan.rounds;
    const rest = firstLookS < budgetS
      ? `the other ${fmtDuration(budgetS - firstLookS)} go to the comparisons still undecided, up to ${looks[looks.length - 1]} rounds`
      : 'more than the budget: every scenario gets its first look, and no more';
    return `plan: paired rounds of ${runnable.join(', ')} (all up, in a random order each round), ${plan.scenarios.length} scenario${plan.scenarios.length > 1 ? 's' : ''}, a budget of ${fmtDuration(budgetS)}: the first look (${looks[0]} rounds each) should take about ${fmtDuration(firstLookS)}; ${rest} (looks at ${looks.join(', ')} rounds)`;
  }
  const runCount = runnable.reduce((n, s) => n + served[s].length, 0) * trials;
  return `plan: ${trials} trial${trials > 1 ? 's' : ''} × ${runnable.length} server${runnable.length > 1 ? 's' : ''} (${runnable.join(', ')}), ${runCount} runs; expected to take about ${fmtDuration(plan.estimate.trials_s + againS)}`;
}

module.exports = { planLine };
