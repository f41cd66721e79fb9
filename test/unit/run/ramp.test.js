'use strict';
// The ramps' stage (perf/lib/run/ramp.js) without servers: a run read as a search's step, and
// the steps taken in turn. The stage against real servers: test/e2e/ramp.test.js; the
// sustainable rates judged: test/unit/judge/ramps.test.js.

const assert = require('node:assert/strict');
const { stepOf, harnessSuspect, turnstile, withinDescriptors } = require('../../../perf/lib/run/ramp');
const { stepScenario, normalizeRamp } = require('../../../perf/lib/plan/ramps');
const { FD_RESERVE } = require('../../../perf/lib/hosts/fd_limits');
const { scheduleKept, stepFailure } = require('../../../perf/lib/run/capacity');
const { Samples } = require('../../../perf/lib/measure/samples');
const { summarizeSamples } = require('../../../perf/lib/measure/stats');

const run = (over = {}) => ({ ok: true, failure: null, throughput_rps: 990, latency_ms: { p50: 1, p90: 3, p99: 4, p999: 6 }, errors: { refused: 1, reset: 0, timeout: 2, other: 0 }, server_cpu_pct: 40, server_cpu: { ms_per_request: 0.1 }, client_cpu_pct: 30, client_bound: false, client_loop_delay_ms: { p99: 0.4, max: 2 }, schedule_lag_ms: { mean: 0.2, max: 3 }, ...over });
const P99_10MS = { percentile: 'p99', ms: 10 };

describe('ramps: the stage', () => {
  it('reads a run as a step: errors summed, percentiles, CPU; a client-bound run limits the search, a failed one fails', () => {
    const step = stepOf(run(), 1000, 2);
    assert.deepEqual(step, { offered_rps: 1000, achieved_rps: 990, load_s: 2, p50_ms: 1, p90_ms: 3, p99_ms: 4, p999_ms: 6, replies_rps: 990, late_replies: null, grace_ms: null, errors: 3, server_cpu_pct: 40, server_cpu_ms_per_request: 0.1, client_cpu_pct: 30, client_loop_delay_p99_ms: 0.4, schedule_lag_mean_ms: 0.2, warmed: null, warmed_up: null, lead: null, link_pct: null, link_demand_pct: null, disturbed: null, steal_pct: null, foreign_cpu_pct: null, runtime: null, listen_overflows: null, limited: null });
  });

  it('a step the hypervisor stole from past the disturbed threshold is disturbed; other processes\' CPU is recorded, not counted', () => {
    const saved = process.env.PERF_DISTURBED_PCT;
    process.env.PERF_DISTURBED_PCT = '10';
    try {
      const stolen = stepOf(run({ machine_cpu: { steal_pct: 23.5, foreign_cpu_pct: 1.2, resolution_pct: 2 } }), 1000, 2);
      assert.deepEqual([stolen.disturbed, stolen.steal_pct, stolen.foreign_cpu_pct], [true, 23.5, 1.2]);
      assert.equal(stepOf(run({ machine_cpu: { steal_pct: 11, foreign_cpu_pct: 0, resolution_pct: 2 } }), 1000, 2).disturbed, false, 'within what the counters can tell');
      assert.equal(stepOf(run({ disturbed: true, machine_cpu: { steal_pct: 0.5, foreign_cpu_pct: 80, resolution_pct: 2 } }), 1000, 2).disturbed, false, 'other processes: recorded, not repeated for');
      assert.equal(stepOf(run(), 1000, 2).disturbed, null, 'the machine\'s CPU not read');
    } finally {
      if (saved === undefined) delete process.env.PERF_DISTURBED_PCT;
      else process.env.PERF_DISTURBED_PCT = saved;
    }
    assert.equal(stepOf(run({ runtime: { gc: {} } }), 1000).runtime.gc !== undefined, true, 'the step keeps its run\'s runtime events');
    assert.deepEqual(stepOf(run({ warmup: { seconds: 1.002, requests: 1000, engine: 'rate_client', steady: null } }), 1000).warmed_up, { seconds: 1.002, requests: 1000 }, 'the server warmed up before the step');
    assert.equal(stepOf(run({ warmup: { seconds: 0, requests: 0 } }), 1000).warmed_up, null, 'no warm-up');
    // A step's own lead-in (its scenario's warm-up at its rate) is its lead, not a warm-up; a warm-up load the step names stays one.
    const samples = new Samples();
    samples.start(0);
    samples.add({ startAt: 0, endAt: 1, status: 200 });
    const schedule = (scenario) => ({ samples, scenario: { kind: 'rate', connections: 10, requests: 1, timeout_s: 10, ...scenario }, graceMs: 10, objective: P99_10MS, periodMs: null });
    const warmup = { seconds: 2.004, requests: 2000, engine: 'rate_client', steady: null };
    const led = stepOf(run({ warmup }), 1000, 1, schedule({ warmup_s: 2 }));
    assert.deepEqual([led.lead, led.warmed_up], [{ seconds: 2.004, requests: 2000 }, null]);
    const first = stepOf(run({ warmup }), 1000, 1, schedule({ warmup_s: 2, warmup_load: { kind: 'closed' } }));
    assert.deepEqual([first.lead, first.warmed_up], [null, { seconds: 2.004, requests: 2000 }], 'the first step after a start: warmed up by the ramp\'s load, not led in');
    assert.match(stepOf(run({ client_bound: true, client_cpu_pct: 97 }), 1000).limited, /load generator was the bottleneck \(97 %/);
    assert.match(stepOf(run({ load_problems: ['Tsung started 900 of 1000 users'] }), 1000).limited, /^the load hosts' load or its record was not as planned: Tsung started 900 of 1000 users$/);
    const failed = stepOf(run({ ok: false, failure: 'no replies', errors: { refused: 0, reset: 0, timeout: 0, other: 0 } }), 1000);
    assert.deepEqual([failed.errors, failed.limited, failed.stop], [1, null, undefined], 'a failed run fails its rate: the server\'s failure');
  });

  it('an engine of a schedule: the step\'s rate is the replies to the requests due in its window by its end and the grace, over the window; late ones are latency', () => {
    // 2,000 requests at 2,000/s (1 s); one of them, due at 0.5 s, answered 1 s later.
    const samples = new Samples();
    samples.start(0);
    for (let i = 0; i < 2000; i++) samples.add({ startAt: i / 2, endAt: i / 2 + (i === 1000 ? 1000 : 0.4), status: 200 });
    const scenario = { kind: 'rate', rate: 2000, connections: 100, requests: 2000 };
    const late = run({ engine: 'rate_client', throughput_rps: 1333.3, errors: { refused: 0, reset: 0, timeout: 0, other: 0 } });
    const step = stepOf(late, 2000, 1, { samples, scenario, graceMs: 10 });
    assert.deepEqual([step.achieved_rps, step.late_replies, step.grace_ms, step.replies_rps], [1999, 1, 10, 1333.3]);
    assert.equal(stepFailure(step, P99_10MS), null);
    assert.deepEqual([stepOf(run({ engine: 'constant_rate' }), 2000, 1, { samples, scenario, graceMs: 10 }).achieved_rps, stepOf(run({ engine: 'open_loop' }), 2000, 1, { samples, scenario: { kind: 'open', rate: 2000, connections: 2000, requests_per_connection: 1 }, graceMs: 10 }).achieved_rps], [1999, 1999]);
    // Engines whose samples do not start on the schedule (wrk, httperf: none; Tsung: random arrivals): replies over the time to the last.
    assert.deepEqual([stepOf(run({ engine: 'tsung' }), 2000, 1, { samples, scenario, graceMs: 10 }).achieved_rps, stepOf(run({ engine: 'wrk' }), 2000, 1, { samples: new Samples(), scenario, graceMs: 10 }).late_replies], [990, null]);
  });

  it('behind --link, a step that filled the link one way limits the search: the link saturated first, whatever else the step shows', () => {
    const usage = { rate_bits: 54e6, to_server_mbit_s: 20.1, to_client_mbit_s: 52.4, busiest_pct: 97, busiest: 'to_client', bytes_per_reply: { to_server: 300, to_client: 780 }, carries_rps: 8654 };
    const step = stepOf(run({ link_usage: usage, link_bound: true, client_bound: true, client_cpu_pct: 95 }), 8300, 1);
    assert.equal(step.link_pct, 97);
    assert.equal(step.limited, 'the link saturates first: it carried 97 % of its 54 Mbit/s toward the client (the replies), about 8,654 of these replies a second');
    const under = stepOf(run({ link_usage: { ...usage, busiest_pct: 60 }, link_bound: false }), 5000, 1);
    assert.deepEqual([under.link_pct, under.link_demand_pct, under.limited], [60, 57.8, null], 'a link with room: the step is the server\'s');
    // 32,000/s offered, 23,553 answered at 79 % of the link: the rate asks 111 % of it.
    const asked = stepOf(run({ throughput_rps: 7000, link_usage: { ...usage, busiest_pct: 78.7 }, link_bound: false }), 9600, 1);
    assert.equal(asked.link_demand_pct, 110.9);
    assert.equal(asked.limited, 'the link saturates first: the rate offered asks 110.9 % of its 54 Mbit/s toward the client (the replies), of which it carried 78.7 %, about 8,654 of these replies a second');
  });

  it('a request past the step\'s timeout is latency of at least the timeout, not an error: a few pass the percentile, more than its share fail it', () => {
    // 1,000 requests at 2,000/s (0.5 s), 1 ms each; `lost` of them timed out (250 ms), one refused.
    const stepWith = (lost) => {
      const samples = new Samples();
      samples.start(0);
      for (let i = 0; i < 1000; i++) {
        const at = i / 2;
        if (i < lost) samples.add({ startAt: at, endAt: at + 250, error: 'timeout' });
        else if (i === 999) samples.add({ startAt: at, endAt: at + 1, error: 'refused' });
        else samples.add({ startAt: at, endAt: at + 1, status: 200 });
      }
      const scenario = { kind: 'rate', rate: 2000, connections: 100, requests: 1000, timeout_s: 0.25 };
      return stepOf(run({ engine: 'rate_client', errors: { refused: 1, reset: 0, timeout: lost, other: 0 } }), 2000, 0.5, { samples, scenario, graceMs: 10 });
    };
    const few = stepWith(5);
    assert.deepEqual([few.errors, few.timed_out, few.p99_ms, few.p999_ms], [1, 5, 1, 250], 'the refused one is an error; 5 of 999 past the timeout: p99 a reply\'s, p99.9 past the timeout');
    const none = stepWith(0);
    assert.deepEqual([none.timed_out, none.p99_ms], [undefined, 4], 'without a timeout: the run\'s own percentiles');
    const many = stepWith(20);
    assert.deepEqual([many.timed_out, many.p99_ms], [20, 250]);
    assert.deepEqual(stepFailure({ ...many, errors: 0 }, P99_10MS), { code: 'over', percentile: 'p99', ms: 250, limit_ms: 10 });
    assert.equal(stepFailure({ ...few, errors: 0 }, P99_10MS), null);
  });

  it('Tsung\'s random arrivals: a step whose hosts started fewer requests than the schedule is theirs; otherwise the replies are judged against the rate they started', () => {
    // 1,280 arrivals measure their rate to ±2.8 %: short of 95 % by 3 of those, the hosts'.
    const short = stepOf(run({ throughput_rps: 1050, arrival_rps: 1070, requests: 1280 }), 1280, 1);
    assert.equal(short.limited, 'the load hosts started 1070 requests a second of the 1280 offered (their arrivals are random, and they start apart)');
    assert.equal(stepOf(run({ throughput_rps: 1150, arrival_rps: 1125, requests: 1280 }), 1280, 1).limited, null, '88 % of 1,280 arrivals: chance, not the hosts');
    assert.equal(stepOf(run({ throughput_rps: 18, arrival_rps: 16, requests: 200 }), 20, 10).limited, null, '16 of 20 a second over 200 arrivals: chance (±7 %)');
    const kept = stepOf(run({ throughput_rps: 1200, arrival_rps: 1240 }), 1280, 1);
    assert.deepEqual([kept.limited, kept.arrival_rps, scheduleKept(kept)], [null, 1240, true], '1,200 of the 1,240 started, 97 %: kept, though 94 % of 1,280');
    assert.equal(scheduleKept(stepOf(run({ throughput_rps: 1100, arrival_rps: 1240 }), 1280, 1)), false, '1,100 of 1,240: the server\'s');
    assert.equal(stepOf(run(), 1000, 1).arrival_rps, undefined, 'the built-in engines keep their schedule and measure its lag instead');
  });

  it('a run whose load generator failed stops the search (its rate neither passed nor failed)', () => {
    const step = stepOf(run({ ok: false, failure: 'the load generator failed: spawn wrk ENOENT' }), 1000);
    assert.deepEqual([step.stop, step.errors], ['the load generator failed: spawn wrk ENOENT', 3]);
  });

  it('out of descriptors, the requests it sent are judged: late or refused there, the server failed the rate; on time, the load generator could not offer it', () => {
    // 1,000 new connections at 2,000/s (0.5 s); the last `unsent` could not be opened (errors of
    // kind other), `late` of those sent answered at 300 ms, the rest at 1 ms.
    const stepWith = ({ unsent, late = 0, refused = 0 }) => {
      const samples = new Samples();
      samples.start(0);
      for (let i = 0; i < 1000; i++) {
        const at = i / 2;
        if (i >= 1000 - unsent) samples.add({ startAt: at, endAt: at, error: 'other' });
        else if (i < refused) samples.add({ startAt: at, endAt: at + 1, error: 'refused' });
        else samples.add({ startAt: at, endAt: at + (i % 100 < late ? 300 : 1), status: 200 });
      }
      const scenario = { kind: 'open', rate: 2000, connections: 1000, requests_per_connection: 1, timeout_s: 1 };
      const failure = `the load generator failed: it ran out of file descriptors (EMFILE) on ${unsent} connections, at its fd limit of 20,000: raise \`ulimit -n\``;
      const { latency_ms: latency, errors } = summarizeSamples(samples);
      return stepOf(run({ engine: 'rate_client', ok: false, failure, client_fd_failures: unsent, latency_ms: latency, errors }), 2000, 0.5, { samples, scenario, graceMs: 10, objective: P99_10MS });
    };
    const onTime = stepWith({ unsent: 300 });
    assert.deepEqual([onTime.stop, onTime.unsent, onTime.errors, onTime.limited], [undefined, 300, 0, 'the load generator ran out of file descriptors on 300 connections at this rate'], 'the 700 sent held p99 ≤ 10 ms: a rate it could not offer');
    const late = stepWith({ unsent: 300, late: 5 });
    assert.deepEqual([late.unsent, late.errors, late.limited], [300, 0, null]);
    assert.equal(stepFailure(late, P99_10MS).code, 'schedule', 'p99 300 ms over those sent: the server\'s failure (its rate short by the unsent and the late)');
    assert.equal(late.p99_ms, 300);
    const refused = stepWith({ unsent: 300, refused: 2 });
    assert.deepEqual([refused.errors, refused.limited, stepFailure(refused, P99_10MS).code], [2, null, 'errors'], 'refused by the server: its failure');
    const blind = stepOf(run({ ok: false, failure: 'the load generator failed: it ran out of file descriptors (EMFILE) on 77280 connections, at its fd limit of 20,000: raise `ulimit -n`', client_fd_failures: 77280 }), 20480);
    assert.deepEqual([blind.stop, blind.limited], [undefined, 'the load generator ran out of file descriptors on 77,280 connections at this rate'], 'no samples to judge: what it could not offer');
  });

  it('a failed step is the harness\'s when the link was asked 80 % of its rate, when the client used 80 % of its core, when its own lateness explains the percentile, or when it opened late and missed the schedule', () => {
    const failing = { ...stepOf(run(), 1000, 1), p99_ms: 14 };
    assert.equal(harnessSuspect(failing, P99_10MS), null, 'a quiet client: the server\'s failure');
    assert.match(harnessSuspect({ ...failing, client_cpu_pct: 85 }, P99_10MS), /used 85 % of its core/);
    assert.match(harnessSuspect({ ...failing, client_loop_delay_p99_ms: 4 }, P99_10MS), /ran 4.2 ms late while the step's p99 was 14 ms/);
    assert.equal(harnessSuspect({ ...failing, p99_ms: 11, client_loop_delay_p99_ms: 1.5 }, P99_10MS), null, 'the 1-2 ms every step shows is no excuse');
    const cEngine = { ...failing, client_loop_delay_p99_ms: null, schedule_lag_mean_ms: 0.3 };
    assert.match(harnessSuspect({ ...cEngine, schedule_lag_p99_ms: 4 }, P99_10MS), /ran 4 ms late while the step's p99 was 14 ms/, 'rate_client: its lag\'s p99 is its lateness');
    assert.equal(harnessSuspect({ ...cEngine, schedule_lag_p99_ms: 0.5 }, P99_10MS), null);
    assert.equal(harnessSuspect({ ...failing, p99_ms: 40, client_loop_delay_p99_ms: 4 }, P99_10MS), null, 'a p99 of 40 ms is not 4 ms of client delay: the server\'s');
    assert.match(harnessSuspect({ ...failing, p99_ms: 4, achieved_rps: 800, schedule_lag_mean_ms: 60 }, P99_10MS), /60 ms behind schedule on average, 5 % of the step's 1 s or more: it did not offer the rate/);
    assert.match(harnessSuspect({ ...failing, link_demand_pct: 86.7 }, P99_10MS), /^the link was asked 86.7 % of its rate while the step failed: its queue may have delayed the replies$/);
    assert.equal(harnessSuspect({ ...failing, link_demand_pct: 79.6 }, P99_10MS), null, 'a link with room: the server\'s');
    assert.equal(harnessSuspect({ ...failing, p99_ms: 4, achieved_rps: 800, schedule_lag_mean_ms: 4.5 }, P99_10MS), null, 'a little late, the schedule missed: the server\'s (node at 10,000 new connections a second)');
  });

  it('takes the steps of two searches in turn, one at a time', async () => {
    const turn = turnstile();
    const order = [];
    let running = 0;
    const step = (who) => turn(async () => {
      running += 1;
      assert.equal(running, 1, 'one step at a time');
      order.push(who);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
    });
    const search = async (who) => {
      for (let i = 0; i < 3; i++) await step(who);
    };
    await Promise.all([search('a'), search('b')]);
    assert.deepEqual(order, ['a', 'b', 'a', 'b', 'a', 'b']);
  });
});

describe('ramps: a step of new connections within the load generator\'s descriptors', () => {
  const perConnection = normalizeRamp({ description: 'x', from_rps: 20, to_rps: 40960, timeout_s: 10 }, 'x', undefined);
  const keepAlive = normalizeRamp({ description: 'x', connection: 'keep-alive', from_rps: 500, to_rps: 64000 }, 'x', undefined);

  it('shortens a step\'s timeout to what 80 % of the descriptors hold at its rate, never below ten times the objective; leaves the rest as they are', () => {
    const limits = { soft: 20000, hard: 20000 };
    // 11,000 new connections a second, each waiting up to 10 s: 110,000 open at once past the edge.
    const busy = withinDescriptors(stepScenario(perConnection, 11000, 15), 11000, P99_10MS, limits);
    assert.equal(busy.timeout_s, Math.round(((0.8 * (20000 - FD_RESERVE)) / 11000) * 1000) / 1000);
    assert.ok(busy.timeout_s * 11000 <= 0.8 * 20000, 'the step holds at most 80 % of the limit');
    assert.equal(withinDescriptors(stepScenario(perConnection, 1000, 15), 1000, P99_10MS, limits).timeout_s, 10, '1,000 a second for 10 s fits');
    assert.equal(withinDescriptors(stepScenario(perConnection, 1e6, 2), 1e6, P99_10MS, limits).timeout_s, 0.1, 'ten times the objective at least');
    assert.equal(withinDescriptors(stepScenario(keepAlive, 30000, 15), 30000, P99_10MS, limits).timeout_s, stepScenario(keepAlive, 30000, 15).timeout_s, 'a keep-alive step holds its pool');
    assert.equal(withinDescriptors(stepScenario(perConnection, 11000, 15), 11000, P99_10MS, null).timeout_s, 10, 'no limit known: as it is');
  });
});
