'use strict';
// Sustainable throughput (issue 21): the highest offered rate at which a server holds a latency
// objective (p99 ≤ 10 ms by default) with no errors and its schedule kept, found by a search
// that tolerates noisy steps, as mutilate's --search and the IETF's MLRsearch do.
//
// A step offers one rate, open loop, long enough to measure its p99: measure(rate) resolves
// { offered_rps, achieved_rps, p99_ms, errors }. It passes when it had no error, kept the
// schedule (achieved at least 1 − SCHEDULE_SLACK of offered) and held the objective.
//
// The search: (1) a ramp, rates rising geometrically (× RAMP_FACTOR) from `from` until a rate
// fails or `to` passed (then the server never saturated within the search, and says so);
// (2) bisection on the log scale between the highest rate that passed and the lowest that
// failed, until they are within `precision` of each other. On a shared machine noise makes
// steps fail (a stall, the hypervisor's steal), hardly ever pass, so a rate fails only when
// FAIL_CONFIRMATIONS steps of it failed in a row, and passes on its first passing step. Above
// the edge an event loop may fall off a cliff (node at 12,000 connections a second: 1,945
// errors in 24,000), so each failing step is followed by the runner's settling, and bisection
// spends few steps there.

const RAMP_FACTOR = 2;
const SCHEDULE_SLACK = 0.05;
const FAIL_CONFIRMATIONS = 3;
const DEFAULT_OBJECTIVE = { percentile: 'p99', ms: 10 };
const DEFAULT_PRECISION = 0.05;

/** Why a step fails its objective, or null when it passes. */
function stepFailure(step, objective = DEFAULT_OBJECTIVE) {
  if (step.errors > 0) return `${step.errors} errors`;
  if (step.achieved_rps < (1 - SCHEDULE_SLACK) * step.offered_rps) return `schedule not kept (${Math.round(step.achieved_rps)} of ${Math.round(step.offered_rps)}/s)`;
  const p = step[`${objective.percentile}_ms`];
  if (typeof p !== 'number') return `${objective.percentile} not measured`;
  if (p > objective.ms) return `${objective.percentile} ${p} ms over ${objective.ms} ms`;
  return null;
}

/**
 * Searches a server's sustainable rate. measure(rate) resolves a step (see above); options:
 * from, to (rates, /s), objective ({ percentile, ms }), precision (the bracket's relative
 * width to stop at), maxSteps (a bound on the steps whatever happens). Resolves { sustainable_rps
 * (the highest rate that passed, or null when none did), failing_rps (the lowest that failed,
 * or null: never saturated), saturated, bracket: [lo, hi] or null, steps: [{ rate, ...step,
 * failure }] }.
 */
async function searchCapacity(measure, { from, to, objective = DEFAULT_OBJECTIVE, precision = DEFAULT_PRECISION, maxSteps = 40 } = {}) {
  if (!(from > 0 && to >= from)) throw new Error(`searchCapacity: from and to must be rates with 0 < from ≤ to, not ${from} and ${to}`);
  const steps = [];
  // 'pass', 'fail', or null when the steps ran out before the rate was decided.
  const tryRate = async (rate) => {
    for (let i = 0; i < FAIL_CONFIRMATIONS; i++) {
      if (steps.length >= maxSteps) return null;
      const step = await measure(rate);
      const failure = stepFailure(step, objective);
      steps.push({ rate, ...step, failure });
      if (!failure) return 'pass';
    }
    return 'fail';
  };
  let passed = null;
  let failed = null;
  for (let rate = from; ; rate = Math.min(to, rate * RAMP_FACTOR)) {
    const outcome = await tryRate(rate);
    if (outcome === 'pass') passed = rate;
    if (outcome === 'fail') failed = rate;
    if (outcome !== 'pass' || rate >= to) break;
  }
  while (passed !== null && failed !== null && failed / passed > 1 + precision) {
    const mid = Math.sqrt(passed * failed);
    const outcome = await tryRate(mid);
    if (outcome === null) break;
    if (outcome === 'pass') passed = mid;
    else failed = mid;
  }
  return {
    sustainable_rps: passed,
    failing_rps: failed,
    saturated: failed !== null,
    bracket: passed !== null && failed !== null ? [passed, failed] : null,
    steps,
  };
}

module.exports = { searchCapacity, stepFailure, DEFAULT_OBJECTIVE, DEFAULT_PRECISION, FAIL_CONFIRMATIONS };
