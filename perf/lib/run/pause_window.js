'use strict';
// A ramp step as long as the pause. A server whose loop pauses longer than the objective (a
// major collection, a long stall) less often than a step lasts passes or fails that step by
// where the pause falls, not by what it sustains: a C stand-in with no collector, pausing 20 ms
// every 3 s (perf/c/pausing_server.c), sustained 7,336-8,724/s over ten searches of 2 s steps, by
// the pause's phase, and 5,907-6,169/s over ten of 3 s steps, each then holding exactly one pause
// (2026-11-29, Intel Xeon; the check: perf/lib/studies/window_check.js). So each step is planned
// WHOLE_PERIODS of the server's pause period long (PausePeriod: learned from its runtime events in
// its earlier steps of the ramp, every search after the first planned from the first's, at most
// the ramp's max_step_s), and judged from its first long pause to its last (pauseWindow): whole
// periods, each holding one pause, wherever the pauses fell. A step that met one or two long
// pauses and no whole period between them (a period longer than it, or one not yet seen) is
// measured again at least twice as long (at most MAX_LENGTHENINGS times, up to max_step_s), where
// those pauses could decide its verdict (pauseEnds). One rule for every runtime: a long pause
// is a loop stall or a collection of the objective's time or more, which every project server
// records.

const { median } = require('../measure/stats');
const { variance } = require('../measure/stats');
const { fewPauses } = require('../method');

// Periods a step should hold: with two, a step holds at least two long pauses wherever they fall.
const WHOLE_PERIODS = 2;
// A period varies (a collection comes after a count of allocations, not of seconds): a step planned
// this much longer than WHOLE_PERIODS still holds two when the next period is a little longer.
const PERIOD_MARGIN = 1.15;
// Times one rate's step may be measured again, longer, for a period longer than planned: a step of
// 2 s doubled three times holds five pauses of a 3 s period, enough to learn it from.
const MAX_LENGTHENINGS = 3;
// Long pauses this close are one episode: a pause's backlog drained can stall the loop again (the C
// stand-in at 2,000/s: a 17 ms stall 82 ms after its 20 ms pause), and pauses more frequent than
// this make no step phase-dependent.
const EPISODE_GAP_MS = 250;
// Episodes are periodic when their gaps differ by no more than this factor; load-made stalls near
// saturation are not, and a step of them is judged whole.
const REGULAR_GAPS = 1.5;
// How far a gap may be from the planned period and still be one: a collection's period varies
// with what each request allocated, a timer's by a heartbeat.
const PERIOD_TOLERANCE = 0.25;
// A window from the first long pause to the last shorter than this share of the step is not whole
// periods of a periodic pause: the step is judged whole.
const MIN_WINDOW_SHARE = 1 / 3;
// A loop stall through which the server answered at this share of its step's rate of replies or
// more was the loop busy, not paused (servedThrough): a pause answers next to nothing.
const BUSY_SHARE = 0.5;
// A pause's shadow ends at the first request due after it answered within this share of the
// objective: its backlog drained.
const RECOVERED_SHARE = 0.5;

/**
 * The run's long pauses inside the step's load [0, loadMs), on the samples' clock (results.json
 * runtime.pauses): loop stalls whose heartbeat ran objectiveMs late or more, and collections that
 * took objectiveMs or more (Node's exact, Ruby's placed to a heartbeat); those within
 * EPISODE_GAP_MS of each other as one episode ({ from_ms, to_ms }), in time order. A stall the
 * server answered through (servedThrough) is its loop busy with the load, not paused: not one.
 * null for a server that recorded no runtime events over the step, or not all of them.
 */
function longPauses(runtime, samples, objectiveMs, loadMs) {
  if (!runtime || !Array.isArray(runtime.pauses) || runtime.complete === false) return null;
  const hb = runtime.heartbeat_ms || 0;
  const served = servedThrough(samples, loadMs, hb);
  const long = runtime.pauses
    .filter((p) => (p.kind === 'stall' ? p.to_ms - p.from_ms - hb : p.to_ms - p.from_ms) >= objectiveMs && p.from_ms >= 0 && p.from_ms < loadMs)
    .filter((p) => p.kind !== 'stall' || !served(p))
    .sort((a, b) => a.from_ms - b.from_ms);
  const episodes = [];
  for (const p of long) {
    const last = episodes[episodes.length - 1];
    if (last && p.from_ms - last.to_ms < EPISODE_GAP_MS) last.to_ms = Math.max(last.to_ms, p.to_ms);
    else episodes.push({ from_ms: p.from_ms, to_ms: p.to_ms });
  }
  return episodes;
}

/**
 * served(stall): whether the server went on answering through a loop stall, at BUSY_SHARE or more
 * of its rate of replies over the step, over the part of the stall its heartbeat was surely late
 * for ([from_ms + heartbeat, to_ms)): a loop serving a backlog past its edge runs its heartbeat
 * late as a pause does, and answers all along (a stand-in at twice its capacity over 100
 * keep-alive connections: stalls of 0.2-2 s); a paused loop answers nothing.
 */
function servedThrough(samples, loadMs, hb) {
  const ends = [];
  for (let i = 0; i < samples.length; i++) if (samples.error[i] === 0 && samples.roleName(i) === 'main') ends.push(samples.t[i] + samples.latency[i]);
  ends.sort((a, b) => a - b);
  const firstFrom = (ms) => {
    let [lo, hi] = [0, ends.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const stepRate = ends.length / Math.max(loadMs, ends.length ? ends[ends.length - 1] : 0);
  return (stall) => {
    const [from, to] = [stall.from_ms + hb, stall.to_ms];
    return to > from && (firstFrom(to) - firstFrom(from)) / (to - from) >= BUSY_SHARE * stepRate;
  };
}

/**
 * The part of a step to judge: from its first long pause to the start of its last ({ from_ms,
 * to_ms, periods }: whole periods, each holding one pause), or null to judge the whole step.
 * With the period the step was planned for (periodMs), the pauses that follow each other about
 * that far apart (within PERIOD_TOLERANCE), the longest such chain: a pause the machine adds
 * between them (a process descheduled) stays inside the window, as it would in any. Without one,
 * or where no two pauses chain so, all of them where they are three or more and their gaps
 * regular (within REGULAR_GAPS of each other). Either way spanning MIN_WINDOW_SHARE of the step.
 */
function pauseWindow(pauses, loadMs, periodMs = null) {
  const chain = (periodMs && periodChain(pauses, periodMs)) || regular(pauses);
  if (!chain || chain.length < 2) return null;
  const [first, last] = [chain[0], chain[chain.length - 1]];
  if (last.from_ms - first.from_ms < MIN_WINDOW_SHARE * loadMs) return null;
  return { from_ms: first.from_ms, to_ms: last.from_ms, periods: chain.length - 1 };
}

/**
 * All the pauses, where they are three or more and the gaps between them within REGULAR_GAPS of
 * each other; else null. Two pauses alone show no period: one of them may be the machine's (in a
 * test's first half-second step, a stall 316 ms after a pause of a stand-in pausing every 600 ms).
 */
function regular(pauses) {
  if (pauses.length < 3) return null;
  const gaps = pauses.slice(1).map((p, i) => p.from_ms - pauses[i].from_ms);
  return Math.max(...gaps) <= REGULAR_GAPS * Math.min(...gaps) ? pauses : null;
}

/** The longest run of pauses each about periodMs after the one before (the earliest of the longest), or null for none of two. */
function periodChain(pauses, periodMs) {
  let best = null;
  for (let i = 0; i < pauses.length; i++) {
    const chain = [pauses[i]];
    for (let j = i + 1; j < pauses.length; j++) {
      const gap = pauses[j].from_ms - chain[chain.length - 1].from_ms;
      if (Math.abs(gap - periodMs) <= PERIOD_TOLERANCE * periodMs) chain.push(pauses[j]);
    }
    if (chain.length >= 2 && (!best || chain.length > best.length)) best = chain;
  }
  return best;
}

/**
 * A step judged whole that held long pauses, at the two ends of what its pauses can be over whole
 * periods: { none, most }, each { weight(i) (each request's weight, by sample index, in the
 * percentiles), creditMs (the pauses' time to add to the step's service, or to take from it where
 * negative, in its rate) }; null where no request fell in a pause's shadow. A pause's shadow is
 * the requests (role main) due from objectiveMs before it began, whose replies could wait for it,
 * to the first due after it answered within RECOVERED_SHARE of the objective (its backlog
 * drained), or to the step's end. k long pauses and no window in a step of loadMs mean a period
 * longer than loadMs / (k + 1) (a shorter one puts k + 1 in it), so over whole periods the pauses
 * take between none and k + 1 times the longest one's time, and the shadows between none of the
 * requests and k + 1 times the largest one's share: `none` leaves the shadows out and gives the
 * pauses' time back; `most` weighs the shadows to that share and takes the longest pause's time
 * k + 1 times. The step's verdict lies between the two ends'.
 */
function pauseEnds(samples, pauses, objectiveMs, loadMs) {
  const due = [];
  for (let i = 0; i < samples.length; i++) if (samples.roleName(i) === 'main' && samples.t[i] >= 0 && samples.t[i] < loadMs) due.push(i);
  due.sort((a, b) => samples.t[a] - samples.t[b]);
  const shaded = new Set();
  let largest = 0;
  for (const p of pauses) {
    let n = 0;
    for (const i of due) {
      if (samples.t[i] < p.from_ms - objectiveMs) continue;
      if (samples.t[i] >= p.to_ms && samples.error[i] === 0 && samples.latency[i] < RECOVERED_SHARE * objectiveMs) break;
      shaded.add(i);
      n += 1;
    }
    largest = Math.max(largest, n);
  }
  if (!shaded.size) return null;
  const k = pauses.length;
  const most = Math.min(1, ((k + 1) * largest) / due.length);
  // The shadows' weight that makes them `most` of the requests: w·s / (w·s + rest) = most.
  const rest = due.length - shaded.size;
  const heavy = most >= 1 || rest === 0 ? null : (most * rest) / ((1 - most) * shaded.size);
  const pausedMs = pauses.reduce((sum, p) => sum + p.to_ms - p.from_ms, 0);
  const longestMs = Math.max(...pauses.map((p) => p.to_ms - p.from_ms));
  return {
    none: { weight: (i) => (shaded.has(i) ? 0 : 1), creditMs: pausedMs },
    most: { weight: (i) => (shaded.has(i) ? heavy ?? 1 : heavy === null ? 0 : 1), creditMs: -Math.max(0, (k + 1) * longestMs - pausedMs) },
  };
}

const logSd = (xs) => (xs.length < 2 ? Infinity : Math.sqrt(variance(xs.map(Math.log))));

/**
 * One server's pause period on one ramp, learned from its steps' long pauses: a step's window of
 * whole periods (its mean gap), a step's one long pause (a period longer than the longer side of
 * it), a step planned for two that held none (longer than the step). A period is a time (a
 * timer's, the stand-in's) or a count of requests (a collection after so much allocated):
 * predicted at a new rate by whichever of the two varied less over the rates seen, by the longer
 * of the two until two rates are seen.
 */
class PausePeriod {
  constructor() {
    this.gaps = []; // { rate, ms }
    this.floors = []; // { rate, ms }: the period is longer than ms at rate
  }

  /**
   * A step at `rate` over its load of loadMs: its long pauses (longPauses) and the window it was
   * judged over (pauseWindow, or null); plannedMs, the length it was planned as where it was
   * planned for a period (else null).
   */
  observe({ pauses, window }, rate, loadMs, plannedMs = null) {
    if (window) this.gaps.push({ rate, ms: (window.to_ms - window.from_ms) / window.periods });
    else if (pauses.length === 1) this.floors.push({ rate, ms: Math.max(pauses[0].from_ms, loadMs - pauses[0].from_ms) });
    else if (pauses.length === 0 && plannedMs !== null && loadMs >= plannedMs) this.floors.push({ rate, ms: loadMs });
    // Two or more without a window (no period in them, or close together): no period to learn.
  }

  /** The period (ms) expected at `rate`, or null where no long pause was seen. */
  ms(rate) {
    if (!this.gaps.length && !this.floors.length) return null;
    const asTime = (x) => x.ms;
    const asRequests = (x) => (x.ms * x.rate) / rate;
    let models = [asTime, asRequests];
    if (new Set(this.gaps.map((g) => g.rate)).size >= 2) models = [logSd(this.gaps.map(asTime)) <= logSd(this.gaps.map(asRequests)) ? asTime : asRequests];
    const predict = (model) => Math.max(this.gaps.length ? median(this.gaps.map(model)) : 0, ...this.floors.map(model));
    return Math.max(...models.map(predict));
  }
}

/**
 * How long a step at `rate` should be: { seconds, period_s (the period planned for, or null),
 * short (the ramp's max_step_s cut it below WHOLE_PERIODS of it) }. baseS, the step's length
 * without pauses (plan/ramps.js stepSeconds).
 */
function stepLength(baseS, maxS, period, rate) {
  const ms = period.ms(rate);
  if (ms === null) return { seconds: baseS, period_s: null, short: false };
  const wanted = (WHOLE_PERIODS * PERIOD_MARGIN * ms) / 1000;
  return { seconds: Math.round(Math.max(baseS, Math.min(maxS, wanted)) * 1000) / 1000, period_s: Math.round(ms) / 1000, short: wanted > Math.max(baseS, maxS) };
}

/**
 * The length to measure a step at `rate` again, or null to keep it: a step of `planned` seconds
 * that met one or two long pauses and no whole period between them, whose pauses could decide
 * its verdict (its window's pauses_decide: pauseEnds), is measured again at least twice as
 * long, up to maxS, while lengthenings are left. One that held none was not touched by a pause;
 * one whose verdict is the same at both ends of what its pauses can be over whole periods was
 * not decided by them (a server past its edge fails without
 * them); one of three or more with no period in them is not made periodic by a longer step:
 * their figures stand.
 */
function lengthened(step, planned, next, maxS, lengthenings) {
  if (step.stop || step.fatal || step.limited || lengthenings >= MAX_LENGTHENINGS || !fewPauses(step.window) || step.window.pauses_decide === false || planned.seconds >= maxS) return null;
  return { ...next, seconds: Math.min(maxS, Math.max(next.seconds, 2 * planned.seconds)) };
}

module.exports = { longPauses, pauseWindow, pauseEnds, PausePeriod, stepLength, lengthened, MAX_LENGTHENINGS };
