'use strict';
// A ramp step as long as the pause (perf/lib/run/pause_window.js): which stalls count, the window
// of whole periods, the period learned as a time or a count of requests, the step's length and
// when a step is measured again; and, on a simulated server that pauses 20 ms every 3 s, that a
// step judged over its window gives one answer wherever the pause falls, where a 2 s step does not.
// The same rule against a real server that pauses: test/e2e/pause_window.test.js.

const assert = require('node:assert/strict');
const { longPauses, pauseWindow, PausePeriod, stepLength, lengthened, MAX_LENGTHENINGS } = require('../../../perf/lib/run/pause_window');
const { stepOf } = require('../../../perf/lib/run/ramp');
const { stepFailure } = require('../../../perf/lib/run/capacity');
const { Samples } = require('../../../perf/lib/measure/samples');

const stall = (from, lateMs, hb = 10) => ({ kind: 'stall', from_ms: from, to_ms: from + lateMs + hb });
const P99_10MS = { percentile: 'p99', ms: 10 };
/** What a step over loadMs that held these long pauses gives PausePeriod.observe: them and the window it was judged over. */
const held = (pauses, loadMs, periodMs = null) => ({ pauses, window: pauseWindow(pauses, loadMs, periodMs) });

/**
 * A server of one core serving each request in serviceMs, first come first served, its loop stopped
 * pauseMs every periodMs from phaseMs: the requests due at `rate` for loadMs as Samples on their
 * schedule, and its stalls as a heartbeat of 10 ms records them (runtime.pauses).
 */
function pausingServer({ rate, loadMs, serviceMs = 0.1, pauseMs = 20, periodMs = 3000, phaseMs }) {
  const samples = new Samples();
  samples.start(0);
  const pauses = [];
  for (let p = phaseMs; p < loadMs; p += periodMs) pauses.push(p);
  let free = 0;
  for (let i = 0; i < Math.round((rate * loadMs) / 1000); i++) {
    const due = (i * 1000) / rate;
    let begin = Math.max(due, free);
    for (const p of pauses) if (begin + serviceMs > p && begin < p + pauseMs) begin = p + pauseMs;
    free = begin + serviceMs;
    samples.add({ startAt: due, endAt: free, status: 200 });
  }
  // Its heartbeat last ran 5 ms before the pause, and next as the loop resumed.
  return { samples, pauses: pauses.map((p) => stall(p - 5, pauseMs - 5)) };
}

/** A request due every millisecond for loadMs, each answered in 0.5 ms, or when the pause it fell in ended. */
function servedAround(pauses, loadMs) {
  const samples = new Samples();
  samples.start(0);
  for (let due = 0; due < loadMs; due += 1) {
    const held = pauses.find((p) => due >= p.from_ms && due < p.to_ms);
    samples.add({ startAt: due, endAt: held ? held.to_ms : due + 0.5, status: 200 });
  }
  return samples;
}

/** The step stepOf reads from pausingServer's figures at `rate` over loadMs, planned for a period of plannedForMs (default 3 s; null: none known yet). */
function simulatedStep(options) {
  const { samples, pauses } = pausingServer(options);
  const requests = Math.round((options.rate * options.loadMs) / 1000);
  const scenario = { kind: 'rate', rate: options.rate, connections: 10, requests, timeout_s: 10 };
  const latencies = [...samples.latency.slice(0, samples.length)].sort((a, b) => a - b);
  const at = (pct) => latencies[Math.ceil((pct / 100) * latencies.length) - 1];
  const run = { ok: true, failure: null, engine: 'rate_client', throughput_rps: options.rate, latency_ms: { p50: at(50), p90: at(90), p99: at(99), p999: at(99.9) }, errors: { refused: 0, reset: 0, timeout: 0, other: 0 }, runtime: { heartbeat_ms: 10, pauses } };
  return stepOf(run, options.rate, options.loadMs / 1000, { samples, scenario, graceMs: 10, objective: P99_10MS, periodMs: options.plannedForMs === undefined ? 3000 : options.plannedForMs });
}

describe('ramps: a step as long as the pause', () => {
  it('counts the loop\'s stalls and the collections that could hold a request past the objective, inside the step\'s load, close ones as one; not a stall the server answered through', () => {
    const paused = [stall(-30, 20), stall(100, 9.9), stall(500, 10), { kind: 'gc', gc: 'minor', from_ms: 900, to_ms: 909 }, { kind: 'gc', gc: 'major', from_ms: 1400, to_ms: 1440 }, stall(1405, 35), stall(1600, 12), stall(2500, 30)];
    const runtime = { heartbeat_ms: 10, pauses: paused };
    const samples = servedAround(paused, 2000);
    assert.deepEqual(longPauses(runtime, samples, 10, 2000), [{ from_ms: 500, to_ms: 520 }, { from_ms: 1400, to_ms: 1622 }], 'late 10 ms or more, a collection of 10 ms or more, from 0 to the load\'s end; the stalls a collection made, and one 160 ms after it, one episode');
    assert.deepEqual([longPauses(null, samples, 10, 2000), longPauses({ heartbeat_ms: 10 }, samples, 10, 2000), longPauses({ ...runtime, complete: false }, samples, 10, 2000)], [null, null, null], 'no runtime events, or not all of the step\'s');
    assert.deepEqual(longPauses({ heartbeat_ms: 10, pauses: [] }, samples, 10, 2000), [], 'runtime events, no long pause');
    // A loop 300 ms late at 1,000 ms that answered all along (the replies above go on through it): busy with the load, not paused.
    assert.deepEqual(longPauses({ heartbeat_ms: 10, pauses: [stall(1000, 300)] }, samples, 10, 2000), [], 'a stall the server answered through');
    assert.deepEqual(longPauses({ heartbeat_ms: 10, pauses: [stall(1000, 300)] }, servedAround([stall(1000, 300)], 2000), 10, 2000), [{ from_ms: 1000, to_ms: 1310 }], 'the same stall, nothing answered through it: a pause');
  });

  it('judges whole periods: from the first long pause to the last, when they are periodic and far enough apart', () => {
    assert.equal(pauseWindow([{ from_ms: 400 }], 2000), null, 'one pause: no whole period');
    assert.equal(pauseWindow([{ from_ms: 100 }, { from_ms: 416 }], 500), null, 'two pauses and no period known: one may be the machine\'s');
    assert.deepEqual(pauseWindow([{ from_ms: 400 }, { from_ms: 3400 }], 6900, 3000), { from_ms: 400, to_ms: 3400, periods: 1 }, 'two a planned period apart');
    assert.deepEqual(pauseWindow([{ from_ms: 400 }, { from_ms: 3400 }, { from_ms: 6400 }], 6900), { from_ms: 400, to_ms: 6400, periods: 2 });
    assert.equal(pauseWindow([{ from_ms: 400 }, { from_ms: 900 }], 6900), null, 'two pauses 0.5 s apart and none after: the step is judged whole');
    assert.equal(pauseWindow([{ from_ms: 400 }, { from_ms: 1400 }, { from_ms: 4400 }], 6900), null, 'gaps of 1 s and 3 s, no period known: none to judge by');
    const noisy = [{ from_ms: 400 }, { from_ms: 1700 }, { from_ms: 3450 }, { from_ms: 6380 }];
    assert.deepEqual(pauseWindow(noisy, 6900, 3000), { from_ms: 400, to_ms: 6380, periods: 2 }, 'the period known: the pauses 3 s apart (within a quarter), the one the machine added between them inside');
    assert.equal(pauseWindow(noisy, 6900), null, 'the same pauses with no period known');
    assert.equal(pauseWindow([{ from_ms: 400 }, { from_ms: 1400 }, { from_ms: 2400 }], 5000, 3000).periods, 2, 'a period other than planned: regular pauses still judged over theirs');
  });

  it('learns a timer\'s period as a time and a collector\'s as a count of requests; one pause says the period is longer than its longer side', () => {
    const timer = new PausePeriod();
    timer.observe(held([{ from_ms: 100 }, { from_ms: 3100 }], 4000), 1000, 4000);
    assert.equal(timer.ms(4000), null, 'two pauses, no period known: nothing learned');
    timer.observe(held([{ from_ms: 100 }, { from_ms: 3100 }, { from_ms: 6100 }], 8000), 1000, 8000);
    assert.equal(timer.ms(4000), 3000, 'one rate seen: the longer of a time (3 s) and a count (3,000 requests: 0.75 s at 4,000/s)');
    assert.equal(timer.ms(250), 12000, 'and at a lower rate, the count\'s');
    timer.observe(held([{ from_ms: 1000 }, { from_ms: 3900 }], 4000, 3000), 2000, 4000, 6900);
    assert.equal(timer.ms(4000), 2950, 'two rates, about the same gap: a time');
    timer.observe(held([{ from_ms: 100 }, { from_ms: 400 }], 4000, 3000), 4000, 4000, 6900);
    assert.equal(timer.ms(4000), 2950, 'two pauses too close for a window teach nothing');
    timer.observe(held([{ from_ms: 100 }, { from_ms: 1500 }, { from_ms: 3100 }], 4000, 3000), 4000, 4000, 4000);
    assert.equal(timer.ms(4000), 3000, 'a stall between two pauses a planned period apart: the period, not the stall\'s gaps');
    const collector = new PausePeriod();
    collector.observe(held([{ from_ms: 0 }, { from_ms: 4000 }, { from_ms: 8000 }], 9000), 1000, 9000);
    collector.observe(held([{ from_ms: 10 }, { from_ms: 2010 }, { from_ms: 4010 }], 5000), 2000, 5000);
    assert.equal(collector.ms(8000), 500, 'the gap halves as the rate doubles: 4,000 requests a period');
    const once = new PausePeriod();
    assert.equal(once.ms(1000), null, 'no long pause seen');
    once.observe(held([{ from_ms: 1200 }], 2000), 1000, 2000);
    assert.equal(once.ms(1000), 1200, 'one pause 1.2 s into a 2 s step: no other within 1.2 s either side');
    once.observe(held([], 2000), 1000, 2000, 2000);
    assert.equal(once.ms(1000), 2000, 'none in a step planned to hold two: longer than the step');
  });

  it('plans two periods and a margin, at most max_step_s (short when cut), and measures a step again only after one long pause', () => {
    const period = new PausePeriod();
    assert.deepEqual(stepLength(2, 15, period, 1000), { seconds: 2, period_s: null, short: false }, 'no pause seen: the ramp\'s step');
    period.observe(held([{ from_ms: 100 }, { from_ms: 3100 }, { from_ms: 6100 }], 7000), 1000, 7000);
    period.observe(held([{ from_ms: 100 }, { from_ms: 3100 }, { from_ms: 6100 }], 7000), 2000, 7000);
    assert.deepEqual(stepLength(2, 15, period, 1000), { seconds: 6.9, period_s: 3, short: false });
    assert.deepEqual(stepLength(2, 5, period, 1000), { seconds: 5, period_s: 3, short: true }, 'cut to max_step_s');
    assert.deepEqual(stepLength(0.5, 0.5, period, 1000), { seconds: 0.5, period_s: 3, short: true }, 'a quick ramp\'s step keeps its length, marked');
    const planned = { seconds: 2, period_s: null, short: false };
    const step = (longPauses, over = {}) => ({ window: { long_pauses: longPauses, periods: 0 }, ...over });
    assert.deepEqual(lengthened(step(1), planned, { seconds: 2.76, period_s: 1.2, short: false }, 15, 0), { seconds: 4, period_s: 1.2, short: false }, 'at least twice as long');
    assert.deepEqual(lengthened(step(1), planned, { seconds: 9, period_s: 3.9, short: false }, 15, 0).seconds, 9, 'or as the period now asks');
    assert.equal(lengthened(step(1), planned, { seconds: 30, period_s: 13, short: true }, 3, 0).seconds, 3, 'at most max_step_s');
    assert.equal(lengthened(step(0), planned, planned, 15, 0), null, 'no long pause: the step stands');
    assert.equal(lengthened({ window: { long_pauses: 2, periods: 1 } }, planned, planned, 15, 0), null, 'judged over a whole period');
    assert.equal(lengthened(step(2), planned, { seconds: 2, period_s: null, short: false }, 15, 0).seconds, 4, 'two pauses, no whole period between them: longer, to see a third');
    assert.equal(lengthened(step(4), planned, planned, 15, 0), null, 'four with no period in them: a longer step makes none');
    assert.equal(lengthened(step(1), planned, planned, 15, MAX_LENGTHENINGS), null, 'lengthened enough');
    assert.equal(lengthened(step(1), { seconds: 15 }, planned, 15, 0), null, 'already max_step_s long');
    assert.equal(lengthened(step(1, { limited: 'the link' }), planned, planned, 15, 0), null, 'a step the harness limited');
  });

  it('measures a step again only where its pauses could decide its verdict: not past the server\'s edge, not for a pause too short to move its percentile', () => {
    // One pause in a 2 s step, no period known yet: its shadow is ~2 % of the step, up to twice that over whole periods.
    const under = simulatedStep({ rate: 6000, loadMs: 2000, phaseMs: 900, plannedForMs: null });
    assert.deepEqual([under.window.long_pauses, under.window.periods, under.window.pauses_decide], [1, 0, true], 'at 60 % busy, the 20 ms pause alone fails the step: it decides');
    assert.ok(lengthened(under, { seconds: 2, period_s: null, short: false }, { seconds: 2, period_s: null, short: false }, 15, 0), 'so it is measured again, longer');
    // Past its edge (120 % busy) the backlog grows from the step's first request: it fails with or without the pause.
    const past = simulatedStep({ rate: 12000, loadMs: 2000, phaseMs: 900, plannedForMs: null });
    assert.ok(stepFailure(past, P99_10MS), 'past the edge the step fails');
    assert.deepEqual([past.window.long_pauses, past.window.pauses_decide], [1, false]);
    assert.equal(lengthened(past, { seconds: 2, period_s: null, short: false }, { seconds: 2, period_s: null, short: false }, 15, 0), null, 'its figures stand');
    // A 16 ms pause at 6 % busy: the requests it held past 10 ms are under 1 % even over the shortest period it allows.
    const slight = simulatedStep({ rate: 600, loadMs: 2000, phaseMs: 900, pauseMs: 16, plannedForMs: null });
    assert.equal(stepFailure(slight, P99_10MS), null, JSON.stringify(slight.window));
    assert.deepEqual([slight.window.long_pauses, slight.window.pauses_decide], [1, false]);
    // Three pauses at irregular gaps (100, 500 and 1,700 ms in): in no period, and not measured again whatever they decide, so not asked.
    const irregular = [stall(100, 30), stall(500, 30), stall(1700, 30)];
    const samples = servedAround(irregular, 2000);
    const scenario = { kind: 'rate', rate: 1000, connections: 10, requests: 2000, timeout_s: 10 };
    const run = { ok: true, failure: null, engine: 'rate_client', throughput_rps: 1000, latency_ms: { p50: 0.5, p90: 0.5, p99: 25, p999: 30 }, errors: { refused: 0, reset: 0, timeout: 0, other: 0 }, runtime: { heartbeat_ms: 10, pauses: irregular } };
    const many = stepOf(run, 1000, 2, { samples, scenario, graceMs: 10, objective: P99_10MS, periodMs: null });
    assert.deepEqual([many.window.long_pauses, many.window.periods, 'pauses_decide' in many.window], [3, 0, false], JSON.stringify(many.window));
  });

  it('a server pausing 20 ms every 3 s: a 2 s step passes or fails by the pause\'s phase, a step of two periods judged over its window does not', () => {
    // 6,000 requests a second at 0.1 ms each (60 % busy): a 20 ms pause leaves a backlog of 120,
    // drained in 30 ms, about 1 % of a 3 s period above 10 ms.
    const phases = [0, 250, 500, 1000, 1500, 1900, 2500, 2900];
    const short = phases.map((phaseMs) => simulatedStep({ rate: 6000, loadMs: 2000, phaseMs }));
    const verdicts = short.map((st) => stepFailure(st, P99_10MS) === null);
    assert.ok(verdicts.includes(true) && verdicts.includes(false), `2 s steps: ${short.map((st) => st.p99_ms).join(', ')} ms`);
    const whole = phases.map((phaseMs) => simulatedStep({ rate: 6000, loadMs: 6900, phaseMs }));
    for (const st of whole) assert.ok(st.window.periods >= 1 && st.window.long_pauses >= 2, JSON.stringify(st.window));
    const p99s = whole.map((st) => st.p99_ms);
    assert.ok(Math.max(...p99s) - Math.min(...p99s) < 1, `over whole periods: ${p99s.join(', ')} ms`);
    assert.ok(whole.every((st) => st.achieved_rps > 0.99 * 6000), 'the rate over whole periods is the rate offered');
  });
});
