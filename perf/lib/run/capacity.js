'use strict';
// Sustainable throughput: the highest offered rate at which a server holds a latency
// objective (p99 ≤ 10 ms by default) with no errors and its schedule kept, found by a search
// that tolerates noisy steps, as mutilate's --search and the IETF's MLRsearch do.
//
// A step offers one rate, open loop, long enough to measure its p99: measure(rate) resolves
// { offered_rps, achieved_rps, p99_ms, errors, limited, stop, disturbed,
// server_cpu_ms_per_request }. It passes when it had no error, kept the schedule (achieved at least 1 − SCHEDULE_SLACK of
// offered) and held the objective. The achieved rate is judged over the step's schedule
// (scheduledRate): the replies to the requests due in its window that came by the window's end
// and a grace, over the window; a reply later than that is latency, in the percentile, not a
// lower rate, so one reply a second late fails nothing, and a server that falls behind still
// fails, its backlog unanswered at the end (or its percentile over the objective). A step
// whose load generator was the bottleneck (limited: why) says nothing about the server: the rates below it are searched, and where none failed
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
// failed, until they are within `precision` of each other and that failure is confirmed. A climbing step may be shorter than
// a whole one (measure(rate, { climbing: true }) marks it `partial`: the ramps' steps before
// they are as long as the server's pause period asks); its pass only says where to bisect, so
// the climb's highest pass is measured whole before the bisection (where that fails, the one
// below it), and a partial pass never makes a rate held twice. On a shared machine noise makes
// steps fail (a stall, the hypervisor's steal), hardly ever pass, so the rate that bounds the
// answer fails only when FAIL_CONFIRMATIONS steps of it failed since its last pass, and a rate
// passes on its first passing step; a rate above it fails the bisection on one failing step (its
// failure moves no answer: where the bound passes, the search goes on above it). Passes
// are rarer than failures, not impossible: a rate just past the edge passes one step in a few,
// and a single lucky step would then be the answer. With `confirmPass` (the ramps) the answer
// is a rate held twice: the highest rate with two passing steps at it or above
// (sustainedRate), the search's highest pass measured once more at its end (one step more a
// search, not one a rate; unconfirmed only after CONFIRM_ATTEMPTS failing steps in a row, as a
// failing rate needs more than one); where it is unconfirmed, the bisection goes on below it
// (from the highest pass under it, within the steps left), and the highest pass it finds there
// is held twice with the unconfirmed one above it. A failing step the hypervisor stole from
// (`disturbed`: its steal over the disturbed threshold, perf/lib/run/bottleneck.js
// overDisturbed) is measured again once, the repeat standing for it; one disturbed again stays
// a failure, marked (its `disturbed`), for the search's line to say (`repeatDisturbed`, the
// ramps; the held-count search's few steps are kept for its levels). Above
// the edge an event loop may fall off a cliff (node at 12,000 connections a second: 1,945
// errors in 24,000), so each failing step is followed by the runner's settling, and bisection
// spends few steps there.
//
// (2') The ramps' search (`approximation`: a number of steps) replaces the bisection with
// Kesten's stochastic approximation (Robbins and Monro 1951, Kesten 1958),
// because on a shared machine the edge is not a rate but a slope: the same rate passes one
// step and fails the next (the machine's speed moves every server's CPU per request together
// by up to 1.6× for minutes: RESULTS.md, 2026-12-01), and a bisection to 5 % then never ends.
// Once the climb's failure is confirmed (as the bisection's bound is: `confirmations` failing
// steps since its last pass; where it passes, the climb goes on), from the middle of the climb's
// last bracket (on the log scale), each whole step moves the
// rate up after a pass and down after a failure by APPROXIMATION_STEP ÷ (1 + the reversals so
// far): a fixed number of steps, each search ending, its answer the rate a step holds half the
// time (the median of the edge), unbiased however wide the slope (test/unit/run/capacity.test.js
// checks it by simulation). A failure the client is suspected of moves nothing; the client at
// its limit by the edge, or suspected of half the failures, leaves the search incomplete, as does
// one whose steps never reversed (it walked past its edge): kept, not counted.

const { RAMP_FACTOR, FAIL_CONFIRMATIONS, CONFIRM_ATTEMPTS, DEFAULT_OBJECTIVE, DEFAULT_PRECISION, APPROXIMATION_STEP, MIN_REVERSALS } = require('../method');

const SCHEDULE_SLACK = 0.05;
// The least grace a step's replies get after its window (scheduledRate): a reply that
// met an objective of a few ms counts whenever in the window it was due.
const MIN_RATE_GRACE_MS = 10;

/**
 * How long after a step's window its requests' replies still count toward its rate (ms): the
 * objective's time, at least MIN_RATE_GRACE_MS. A request answered within the objective then
 * counts wherever in the window it was due, so a step whose percentile holds is never failed on
 * its rate by the requests due in its last milliseconds; a request not answered by then is
 * already late beyond the objective, in the tail the percentile judges. Longer would let a
 * server falling behind pass the rate on the backlog it drains after the window.
 */
function rateGraceMs(objective = DEFAULT_OBJECTIVE) {
  return Math.max(objective.ms, MIN_RATE_GRACE_MS);
}

/**
 * A step's rate judged over its schedule, from its samples (perf/lib/measure/samples.js Samples,
 * each request's start the moment it was due, time zero the schedule's): `requests` due at
 * `rate` make a window of T = requests ÷ rate seconds; achieved_rps is the replies (any status;
 * errors are judged apart) to the requests due in [0, T) that came by T + graceMs, over T.
 * late_replies: those replies that came later (their latency is in the step's percentiles).
 * within: { from_ms, to_ms }, a part of the window to judge instead (a step judged over whole
 * pause periods: perf/lib/run/pause_window.js).
 */
function scheduledRate(samples, { rate, requests, graceMs, within = null }) {
  const fromMs = within ? within.from_ms : 0;
  const toMs = within ? within.to_ms : (requests * 1000) / rate;
  let kept = 0;
  let late = 0;
  for (let i = 0; i < samples.length; i++) {
    if (samples.error[i] !== 0 || samples.roleName(i) !== 'main' || samples.t[i] < fromMs || samples.t[i] >= toMs) continue;
    if (samples.t[i] + samples.latency[i] <= toMs + graceMs) kept += 1;
    else late += 1;
  }
  const windowS = (toMs - fromMs) / 1000;
  return { achieved_rps: kept / windowS, late_replies: late, window_s: windowS };
}

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

/**
 * Why a step fails its objective, as a code with its numbers (perf/lib/text/capacity.js puts it
 * in words), or null when it passes: { code: 'fatal', failure } (the run's own failure),
 * 'errors', 'schedule' (the rate achieved short of the one offered), 'not_measured' (no
 * percentile), 'over' (the percentile over the objective).
 */
function stepFailure(step, objective = DEFAULT_OBJECTIVE) {
  if (step.fatal) return { code: 'fatal', failure: step.fatal };
  if (step.errors > 0) return { code: 'errors', errors: step.errors };
  if (!scheduleKept(step)) return { code: 'schedule', achieved_rps: Math.round(step.achieved_rps), offered_rps: Math.round(step.offered_rps) };
  const p = step[`${objective.percentile}_ms`];
  if (typeof p !== 'number') return { code: 'not_measured', percentile: objective.percentile };
  if (p > objective.ms) return { code: 'over', percentile: objective.percentile, ms: p, limit_ms: objective.ms };
  return null;
}

/**
 * Searches a server's sustainable rate. measure(rate) resolves a step (see above); options:
 * from, to (rates, /s), objective ({ percentile, ms }), precision (the bracket's relative
 * width to stop at), maxSteps (a bound on the steps whatever happens), confirmations (the
 * failing steps in a row that fail a rate: FAIL_CONFIRMATIONS; 1 where a search too short to
 * confirm says what each step found), confirmPass (the answer a rate held twice: above),
 * repeatDisturbed (a failing step the hypervisor stole from measured again once: above),
 * approximation (the ramps: after the climb and its failure confirmed, this many whole steps of
 * stochastic approximation instead of the bisection: above; 0 or null for the bisection).
 * Resolves { sustainable_rps (the highest rate that passed; with confirmPass the highest held
 * twice, sustainedRate; null when none did), confirmed (with confirmPass: whether the highest
 * rate that passed held on its confirming step too; else null), unconfirmed_rps (the rate that
 * passed once and failed its confirming step, below which the bisection went on; else null), failing_rps (the lowest rate the
 * server failed, or null: never saturated), saturated, bracket ([sustainable, lowest failed,
 * not offered or not confirmed], or null), limited (where the server never failed: why the load generator
 * could not offer a higher rate; else null), served_rps (servedRate), estimate_rps
 * (utilizationEstimate), incomplete (why the search ended before its answer: { code: 'stopped',
 * reason } (a step's stop), or { code: 'out_of_steps', max_steps, before: 'bracket' (with
 * precision_pct) or 'confirmed' }; else null), disturbed_steps (failing steps disturbed again on their repeat, or that
 * could not be repeated), steps: [{ rate, ...step, failure, repeated (a disturbed failing step
 * measured again: the next step stands for it), confirming (the confirming step) }],
 * approximation (with approximation: { start_rps, steps (taken), reversals }; else null) }. With
 * approximation, sustainable_rps is the approximation's estimate, bracket and confirmed null,
 * and incomplete may be { code: 'unsettled', reversals } (its steps never reversed) or
 * { code: 'client', reason } (the client could not offer a rate by the edge, or was suspected
 * of half its failures).
 */
async function searchCapacity(measure, { from, to, objective = DEFAULT_OBJECTIVE, precision = DEFAULT_PRECISION, maxSteps = 40, confirmations = FAIL_CONFIRMATIONS, confirmPass = false, repeatDisturbed = false, approximation = null } = {}) {
  if (!(from > 0 && to >= from)) throw new Error(`searchCapacity: from and to must be rates with 0 < from ≤ to, not ${from} and ${to}`);
  const steps = [];
  let limited = null; // why the load generator could not offer the lowest rate it could not
  let incomplete = null;
  // Bisecting again below a rate that failed its confirming step: the search has its answer
  // already, and running out of steps there only leaves its bracket wider.
  let resuming = false;
  const outOfSteps = (before = 'bracket') => {
    incomplete = { code: 'out_of_steps', max_steps: maxSteps, before, precision_pct: Math.round(precision * 100) };
  };
  // One step at `rate`, recorded: a failing one the machine disturbed measured again once,
  // where steps are left (the first kept, marked repeated).
  const take = async (rate, mark = {}, how = {}) => {
    const judge = (step) => (step.stop || step.limited ? null : stepFailure(step, objective));
    let step = await measure(rate, how);
    let failure = judge(step);
    if (repeatDisturbed && failure && step.disturbed === true && !step.fatal && steps.length + 1 < maxSteps) {
      steps.push({ rate, ...step, ...mark, failure, repeated: true });
      step = await measure(rate, how);
      failure = judge(step);
    }
    const entry = { rate, ...step, ...mark, failure };
    steps.push(entry);
    if (step.stop) incomplete = { code: 'stopped', reason: step.stop };
    return entry;
  };
  // Each rate's failing steps since its last pass: { fails, serverFailed (one of them the client
  // was not suspected of), suspect (why the client may have failed the others), final ('fail'
  // where the server exited, 'limited' where the client could not offer it: no step changes it) }.
  const tallies = new Map();
  const tallyOf = (rate) => {
    if (!tallies.has(rate)) tallies.set(rate, { fails: 0, serverFailed: false, suspect: null, final: null });
    return tallies.get(rate);
  };
  // A rate's outcome once it has `needed` failing steps since its last pass, or one passing step:
  // 'pass', 'fail', 'limited' (the client could not offer it), or null: out of steps, or stopped.
  const tryRate = async (rate, needed, how = {}) => {
    const tally = tallyOf(rate);
    for (;;) {
      if (tally.final) return tally.final;
      if (tally.fails >= needed) {
        if (tally.serverFailed) return 'fail';
        limited = tally.suspect;
        return 'limited';
      }
      if (incomplete) return null;
      if (steps.length >= maxSteps) {
        if (!resuming) outOfSteps();
        return null;
      }
      const step = await take(rate, {}, how);
      if (step.stop) return null;
      if (step.limited) {
        limited = step.limited;
        tally.final = 'limited';
        return 'limited';
      }
      if (!step.failure) {
        Object.assign(tally, { fails: 0, serverFailed: false, suspect: null });
        return 'pass';
      }
      if (step.fatal) {
        tally.final = 'fail';
        return 'fail';
      }
      tally.fails += 1;
      if (step.client_suspect) tally.suspect = step.client_suspect;
      else tally.serverFailed = true;
    }
  };
  // Whether a rate's failure is settled: the server exited, the client could not offer it, or
  // `confirmations` failing steps of it since its last pass.
  const settled = (rate) => {
    const tally = tallyOf(rate);
    return Boolean(tally.final) || tally.fails >= confirmations;
  };
  let passed = null;
  const failedRates = new Set();
  const ceilingRates = new Set(); // rates the client could not offer
  // A rate's latest outcome replaces the one it had (a provisional failure may be confirmed as
  // the client's, or pass).
  const record = (rate, outcome) => {
    if (outcome === null) return;
    failedRates.delete(rate);
    ceilingRates.delete(rate);
    if (outcome === 'pass') passed = rate;
    if (outcome === 'fail') failedRates.add(rate);
    if (outcome === 'limited') ceilingRates.add(rate);
  };
  const lowest = (rates) => (rates.size ? Math.min(...rates) : null);
  const climbed = []; // the climb's passes, each { rate, partial }
  // Rates rising × RAMP_FACTOR from `start` to the first that fails or `to`.
  const climb = async (start, how = {}) => {
    for (let rate = start; ; rate = Math.min(to, rate * RAMP_FACTOR)) {
      const outcome = await tryRate(rate, 1, how);
      record(rate, outcome);
      // A pass is its rate's last step: partial where measure made it shorter than a whole one.
      if (outcome === 'pass') climbed.push({ rate, partial: steps[steps.length - 1].partial === true });
      if (outcome !== 'pass' || rate >= to) return;
    }
  };
  // Kesten's approximation from the log middle of [pass, fail]: `n` whole steps (above).
  const approximate = async (pass, fail, n) => {
    let x = Math.log(Math.sqrt(pass * fail));
    const [lo, hi] = [Math.log(from), Math.log(to)];
    const start = Math.exp(x);
    let reversals = 0;
    let last = null;
    let suspect = 0;
    let taken = 0;
    for (; taken < n; taken++) {
      if (steps.length >= maxSteps) {
        outOfSteps('approximated');
        break;
      }
      const rate = Math.exp(x);
      const step = await take(rate);
      if (step.stop) break;
      // The client could not offer a rate by the server's edge: what the server holds there is not measured.
      if (step.limited) {
        incomplete = { code: 'client', reason: step.limited };
        break;
      }
      // A failure the client may have caused says nothing of the server; half the steps such, the client is what was measured.
      if (step.failure && !step.fatal && step.client_suspect) {
        suspect += 1;
        if (suspect * 2 >= n) {
          incomplete = { code: 'client', reason: step.client_suspect };
          break;
        }
        continue;
      }
      const held = !step.failure;
      if (!held) failedRates.add(rate);
      if (last !== null && held !== last) reversals += 1;
      last = held;
      x = Math.min(hi, Math.max(lo, x + ((held ? 1 : -1) * APPROXIMATION_STEP) / (1 + reversals)));
    }
    if (!incomplete && reversals < MIN_REVERSALS) incomplete = { code: 'unsettled', reversals };
    return { estimate: Math.exp(x), start_rps: start, steps: taken, reversals };
  };
  await climb(from, { climbing: true });
  // A partial pass of the climb says where to look, not what holds: the bisection starts from a
  // rate held on a whole step, the climb's highest pass measured whole, and where that fails,
  // the one below it (and it is the failing rate above).
  while (climbed.length && climbed[climbed.length - 1].partial && !incomplete) {
    const rate = climbed.pop().rate;
    const outcome = await tryRate(rate, 1);
    if (outcome === null || outcome === 'pass') break;
    record(rate, outcome);
    passed = climbed.length ? climbed[climbed.length - 1].rate : null;
  }
  // The ramps' stochastic approximation, where the climb bracketed an edge (a rate passed whole,
  // a higher one failed): its answer replaces the bisection's. The climb's failure is settled
  // first, as the bisection's bound is: `confirmations` failing steps since its last pass, and
  // where it passes one the climb goes on above it. A noisy failure low on the climb would
  // otherwise start the approximation far below the edge, where its small moves never reach it
  // (async_http failed 40 new connections a second once, 2026-12-01, and its 12 steps walked
  // from 28 to 226/s, unsettled); the climb's first rate too (node and em each failed 20 a
  // second once, their first step after a start).
  if (approximation > 0) {
    for (let bound = lowest(failedRates); bound !== null && !incomplete && !settled(bound); bound = lowest(failedRates)) {
      const outcome = await tryRate(bound, confirmations);
      if (outcome === null) break;
      record(bound, outcome);
      if (outcome === 'pass' && lowest(failedRates) === null && bound < to) await climb(Math.min(to, bound * RAMP_FACTOR));
    }
    if (passed !== null && lowest(failedRates) !== null && !incomplete) {
      const approximated = await approximate(passed, lowest(failedRates), approximation);
      return finish(approximated.estimate, null, null, approximated);
    }
  }
  // Bisection below the lowest rate that failed, that the client could not offer (a client
  // limit ends nothing while rates under it are left to measure), or that failed its confirming
  // step. A rate fails the bisection on its first failing step; only the rate that bounds the
  // answer when the bracket is narrow enough (or the lowest rate, where none passed) has its
  // failure confirmed, by `confirmations` failing steps since its last pass: a failure of the
  // rates above it does not move the answer, and confirming each cost whole steps far past the
  // edge (a full run of 2026-11-30: 9-20 of each first search's 20-28 steps). Where the bound
  // passes a confirming step, it is a pass, and the bisection goes on above it, below the
  // lowest rate that failed there.
  let unconfirmed = null;
  const upper = () => Math.min(lowest(failedRates) ?? Infinity, lowest(ceilingRates) ?? Infinity, unconfirmed ?? Infinity);
  const bisect = async () => {
    for (;;) {
      while (passed !== null && upper() < Infinity && upper() / passed > 1 + precision) {
        const mid = Math.sqrt(passed * upper());
        const outcome = await tryRate(mid, 1);
        if (outcome === null) return;
        record(mid, outcome);
      }
      const bound = upper();
      if (incomplete || bound === Infinity || bound === unconfirmed || settled(bound)) return;
      const outcome = await tryRate(bound, confirmations);
      if (outcome === null) return;
      record(bound, outcome);
      // The climb's failing rate passed: the climb goes on above it, in whole steps.
      if (outcome === 'pass' && upper() === Infinity && bound < to) await climb(Math.min(to, bound * RAMP_FACTOR));
    }
  };
  await bisect();
  // The answer held twice (confirmPass): the search's highest pass measured once more, within
  // maxSteps like any step (a search without it has no answer: incomplete). Where it fails, the
  // bisection goes on below it from the highest pass under it, within the steps left: the
  // passes it finds there are held twice with the unconfirmed one above them.
  let confirmed = null;
  if (confirmPass && passed !== null && !incomplete && steps.length >= maxSteps) outOfSteps('confirmed');
  if (confirmPass && passed !== null && !incomplete) {
    // A confirming step fails as any step fails, to noise more often than to the server: the
    // answer is unconfirmed only after CONFIRM_ATTEMPTS failing steps in a row (the light
    // stand-in of test/e2e/ramp.test.js lost its 1,600/s to one noisy confirming step).
    let held = null;
    for (let i = 0; i < CONFIRM_ATTEMPTS && held !== true; i++) {
      if (i > 0 && steps.length >= maxSteps) break;
      const step = await take(passed, { confirming: true });
      if (step.stop) {
        held = null;
        break;
      }
      held = !step.failure && !step.limited;
      if (step.limited || step.fatal) break;
    }
    if (held !== null) {
      confirmed = held;
      if (!confirmed) {
        unconfirmed = passed;
        const below = steps.filter((st) => !st.failure && !st.limited && !st.stop && st.rate < unconfirmed).map((st) => st.rate);
        passed = below.length ? Math.max(...below) : null;
        resuming = true;
        await bisect();
      }
    }
  }
  return finish(confirmPass && confirmed !== null ? sustainedRate(steps) : passed, confirmed, unconfirmed);

  // The search's result (above), its answer `sustainable` (a bisection's bracket from it up).
  function finish(sustainable, confirmed, unconfirmed, approximated = null) {
    // A rate failed above the lowest the client could not offer may be the client's failure.
    const failed = lowest(failedRates);
    const ceiling = lowest(ceilingRates);
    const saturated = failed !== null && !(ceiling !== null && ceiling <= failed);
    const top = approximated ? Infinity : upper();
    return {
      sustainable_rps: sustainable,
      confirmed,
      unconfirmed_rps: unconfirmed,
      failing_rps: saturated ? failed : null,
      saturated,
      bracket: !approximated && sustainable !== null && top < Infinity ? [sustainable, top] : null,
      limited: saturated ? null : limited,
      served_rps: servedRate(steps),
      estimate_rps: utilizationEstimate(steps),
      incomplete,
      disturbed_steps: steps.filter((st) => st.failure && st.disturbed === true && !st.repeated).length,
      steps,
      approximation: approximated && { start_rps: approximated.start_rps, steps: approximated.steps, reversals: approximated.reversals },
    };
  }
}

/**
 * The highest rate held twice: the highest rate with two passing steps at it or above (a step
 * that held a higher rate held this one too), or null. A single pass, however high, is not
 * yet an answer.
 */
function sustainedRate(steps) {
  const passes = steps.filter((st) => !st.failure && !st.limited && !st.stop && st.partial !== true).map((st) => st.rate).sort((a, b) => b - a);
  return passes.length >= 2 ? passes[1] : null;
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

module.exports = { searchCapacity, sustainedRate, scheduledRate, rateGraceMs, MIN_RATE_GRACE_MS, stepFailure, scheduleKept, arrivalsKept, SCHEDULE_SLACK, utilizationEstimate };
