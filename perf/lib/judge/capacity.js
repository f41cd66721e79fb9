'use strict';
// Sustainable throughput (issue 21): the highest offered rate at which a server holds a latency
// objective (p99 ≤ 10 ms by default) with no errors and its schedule kept, found by a search
// that tolerates noisy steps, as mutilate's --search and the IETF's MLRsearch do.
//
// A step offers one rate, open loop, long enough to measure its p99: measure(rate) resolves
// { offered_rps, achieved_rps, p99_ms, errors, limited, stop, server_cpu_ms_per_request }. It
// passes when it had no error, kept the schedule (achieved at least 1 − SCHEDULE_SLACK of
// offered) and held the objective. A step whose load generator was the bottleneck (limited:
// why) says nothing about the server: the rates below it are searched, and where none failed
// the server sustains at least the highest that passed, its capacity only estimated
// (utilizationEstimate); a rate that failed above one the client could not offer is not the
// server's failure either. A failing step with `client_suspect` (why: the client ran late) may
// be the client's: a rate whose every failing step was suspect is one the client could not
// offer, and one failing step the client is not suspected of makes it the server's. A step with `fatal` (the server exited) fails its rate at once. A
// step with `stop` (why: Ctrl-C, the load generator failed) ends the search where it is, and
// the search is incomplete, as is one that used its maxSteps: neither is a sustainable rate.
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

/**
 * Whether a step's achieved rate was within SCHEDULE_SLACK of the rate it was offered: its
 * arrival_rps where the load generator measured the rate its requests started at (Tsung's random
 * arrivals, which perf/lib/run/ramp.js reads as the client's shortfall when under the schedule), else
 * its offered rate.
 */
function scheduleKept(step) {
  return step.achieved_rps >= (1 - SCHEDULE_SLACK) * (step.arrival_rps ?? step.offered_rps);
}

// Random (Poisson) arrivals: n of them measure their rate to within about 1 ÷ √n (its relative
// standard deviation); three of those are noise, not a load generator falling short.
const ARRIVAL_NOISE_SDS = 3;

/**
 * Whether a load generator with random arrivals (Tsung) offered the rate: the rate its n
 * requests started at within SCHEDULE_SLACK of the offered one, beyond what chance alone moves
 * it by.
 */
function arrivalsKept(offeredRps, arrivalRps, n) {
  const noise = n > 0 ? ARRIVAL_NOISE_SDS / Math.sqrt(n) : 1;
  return arrivalRps >= (1 - SCHEDULE_SLACK - noise) * offeredRps;
}

/** Why a step fails its objective, or null when it passes. */
function stepFailure(step, objective = DEFAULT_OBJECTIVE) {
  if (step.fatal) return step.fatal;
  if (step.errors > 0) return `${step.errors} errors`;
  if (!scheduleKept(step)) return `schedule not kept (${Math.round(step.achieved_rps)} of ${Math.round(step.offered_rps)}/s)`;
  const p = step[`${objective.percentile}_ms`];
  if (typeof p !== 'number') return `${objective.percentile} not measured`;
  if (p > objective.ms) return `${objective.percentile} ${p} ms over ${objective.ms} ms`;
  return null;
}

/**
 * Searches a server's sustainable rate. measure(rate) resolves a step (see above); options:
 * from, to (rates, /s), objective ({ percentile, ms }), precision (the bracket's relative
 * width to stop at), maxSteps (a bound on the steps whatever happens), confirmations (the
 * failing steps in a row that fail a rate: FAIL_CONFIRMATIONS; 1 where a search too short to
 * confirm says what each step found). Resolves { sustainable_rps
 * (the highest rate that passed, or null when none did), failing_rps (the lowest rate the
 * server failed, or null: never saturated), saturated, bracket ([highest passed, lowest failed
 * or not offered], or null), limited (where the server never failed: why the load generator
 * could not offer a higher rate; else null), served_rps (servedRate), estimate_rps
 * (utilizationEstimate), incomplete (why the search ended before its answer: stopped, or out of
 * steps; else null), steps: [{ rate, ...step, failure }] }.
 */
async function searchCapacity(measure, { from, to, objective = DEFAULT_OBJECTIVE, precision = DEFAULT_PRECISION, maxSteps = 40, confirmations = FAIL_CONFIRMATIONS } = {}) {
  if (!(from > 0 && to >= from)) throw new Error(`searchCapacity: from and to must be rates with 0 < from ≤ to, not ${from} and ${to}`);
  const steps = [];
  let limited = null; // why the load generator could not offer the lowest rate it could not
  let incomplete = null;
  // 'pass', 'fail', 'limited' (the client could not offer it), or null: out of steps, or stopped.
  const tryRate = async (rate) => {
    let serverFailed = false; // a failing step of this rate the client was not suspected of
    let suspect = null;
    for (let i = 0; i < confirmations; i++) {
      if (incomplete) return null;
      if (steps.length >= maxSteps) {
        incomplete = `out of steps (${maxSteps}) before the bracket narrowed to ${Math.round(precision * 100)} %`;
        return null;
      }
      const step = await measure(rate);
      if (step.stop || step.limited) {
        steps.push({ rate, ...step, failure: null });
        if (step.stop) {
          incomplete = step.stop;
          return null;
        }
        limited = step.limited;
        return 'limited';
      }
      const failure = stepFailure(step, objective);
      steps.push({ rate, ...step, failure });
      if (!failure) return 'pass';
      if (step.fatal) return 'fail';
      if (step.client_suspect) suspect = step.client_suspect;
      else serverFailed = true;
    }
    if (serverFailed) return 'fail';
    limited = suspect;
    return 'limited';
  };
  let passed = null;
  let failed = null;
  let ceiling = null; // the lowest rate the client could not offer
  const record = (rate, outcome) => {
    if (outcome === 'pass') passed = rate;
    if (outcome === 'fail') failed = rate;
    if (outcome === 'limited') ceiling = rate;
  };
  for (let rate = from; ; rate = Math.min(to, rate * RAMP_FACTOR)) {
    const outcome = await tryRate(rate);
    record(rate, outcome);
    if (outcome !== 'pass' || rate >= to) break;
  }
  // Bisection below the lowest rate that failed, or that the client could not offer: a client
  // limit ends nothing while rates under it are left to measure.
  const upper = () => Math.min(failed ?? Infinity, ceiling ?? Infinity);
  while (passed !== null && upper() < Infinity && upper() / passed > 1 + precision) {
    const mid = Math.sqrt(passed * upper());
    const outcome = await tryRate(mid);
    if (outcome === null) break;
    record(mid, outcome);
  }
  // A rate failed above the lowest the client could not offer may be the client's failure.
  const saturated = failed !== null && !(ceiling !== null && ceiling <= failed);
  return {
    sustainable_rps: passed,
    failing_rps: saturated ? failed : null,
    saturated,
    bracket: passed !== null && upper() < Infinity ? [passed, upper()] : null,
    limited: saturated ? null : limited,
    served_rps: servedRate(steps),
    estimate_rps: utilizationEstimate(steps),
    incomplete,
    steps,
  };
}

/** The highest rate of replies a step measured (not one the client limited): where the server saturated, about what it can serve at all. */
function servedRate(steps) {
  const measured = steps.filter((st) => !st.limited && st.achieved_rps > 0);
  return measured.length ? Math.max(...measured.map((st) => st.achieved_rps)) : null;
}

/**
 * The utilization law's capacity, for where the search could not reach saturation (and beside
 * the rate served where it could, to show how far the law is off): 1 ÷ the server's
 * CPU seconds per request at the highest rate a step measured it (a single-threaded event loop
 * saturates its core at that rate). Read at the highest rate because an event loop's CPU per
 * request falls as load rises (node 0.30 ms at 1,000/s, 0.10 at 4,000/s): from a low rate the
 * estimate would be 2-3× too low. An estimate, an upper bound on what the server sustains at a
 * latency objective; null when no step measured the server's CPU.
 */
function utilizationEstimate(steps) {
  const measured = steps.filter((st) => st.server_cpu_ms_per_request > 0);
  if (!measured.length) return null;
  const top = measured.reduce((a, b) => (b.rate > a.rate ? b : a));
  return 1000 / top.server_cpu_ms_per_request;
}

module.exports = { searchCapacity, stepFailure, scheduleKept, arrivalsKept, SCHEDULE_SLACK, utilizationEstimate, DEFAULT_OBJECTIVE, FAIL_CONFIRMATIONS, RAMP_FACTOR };
