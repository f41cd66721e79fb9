'use strict';
// One run's measurement (perf/lib/run/run_one.js): a scenario against a running stand-in
// server (test/support/standin_server.js, on real sockets; run under the shared lock), its
// warm-up not counted, the run record with the server's CPU at /proc's clock tick, the server's
// runtime events and what its tail coincided with. How a run ends otherwise (a server that
// exits, hangs or is elsewhere, an interrupted run, the records without measurements):
// ./run_one_ends.test.js.

const assert = require('node:assert/strict');
const { runOne, settle } = require('../../../perf/lib/run/run_one');
const { scenarioParams } = require('../../../perf/lib/store/scenario_doc');
const { countFds } = require('../../../perf/lib/measure/proc_stats');
const { standinEachTest, watchServer: watch, namedScenario: scenario, TINY_SCENARIO: TINY } = require('../../support/runner_helpers');
const { normalizeRamp, stepScenario, warmupLoad } = require('../../../perf/lib/plan/ramps');

describe('run_one: a run against a stand-in server', function () {
  this.timeout(60000);
  const start = standinEachTest();

  it('warms a closed loop up past warmup_s until its rate stops rising: a server slow for its first 1.2 s', async () => {
    // 6 ms of CPU a request more at its first /hello, down to none 1.2 s later
    // (STANDIN_COLD_FOR_MS), and 1 ms each throughout (STANDIN_BUSY_MS). The cold phase ends at a
    // known time, however busy the machine, well before the cap (4 s): its rate about doubles
    // from one slice of 0.5 s to the next, far beyond a shared machine's noise. Warm, the 1 ms
    // keeps the rate under 1,000/s, where how far the JIT of this process and the stand-in has got
    // changes it little. (Cold for its first 500 requests instead, the cold phase lasted 1.8-2.6 s
    // as the machine was busy, its rate rising 25-35 % a slice, within the noise: 7 of 10 runs on
    // a busy machine called it steady while still cold. On a quiet one the warm rate went on
    // rising from the JIT, 1,100 to 13,000/s over 1.5 s more, and 2 of 6 runs reached the cap
    // still rising.)
    const coldS = 1.2;
    const coldMs = 6;
    const busyMs = 1;
    const handle = await start({ STANDIN_COLD_FOR_MS: String(coldS * 1000), STANDIN_COLD_MS: String(coldMs), STANDIN_BUSY_MS: String(busyMs) });
    // 200 requests measured (some 0.3 s of the stand-in's CPU) in each of the two runs compared:
    // at 40 (60 ms) one hiccup of a shared host moved a run's CPU per request by 0.86 ms, past the
    // eighth of coldMs allowed (2.32 ms measured against 1.46 ms warm).
    const measuredLoad = scenario('measured', { kind: 'closed', concurrency: 4, requests: 200 });
    const { run } = await runOne({ server: 'standin', handle, scenario: { ...measuredLoad, warmup_s: 1 }, outerSignal: null, serverState: watch(handle) });
    assert.equal(run.ok, true, run.failure);
    assert.equal(run.warmup.steady, true, JSON.stringify(run.warmup));
    // Its last slice (0.5 s) began after the cold phase, and was no faster than the one before.
    assert.ok(run.warmup.seconds >= coldS + 0.5, `a slice past the cold phase, one more as fast: ${JSON.stringify(run.warmup)}`);
    // The requests measured were warm: each cost what the same server's cost again right after
    // (no warm-up, long past its cold phase), within an eighth of a cold request's coldMs more.
    // Measured against that run, not a fixed figure: the stand-in's own work per request
    // (0.5-0.8 ms beside the 1 ms) is the host's, and a slow moment of a shared host took it past
    // 1 ms (2.22 ms a request, warm); back to back, the two runs differed by 0.86-1.17x.
    const { run: warm } = await runOne({ server: 'standin', handle, scenario: { ...measuredLoad, warmup_s: 0 }, outerSignal: null, serverState: watch(handle) });
    const [measured, reference] = [run.server_cpu.ms_per_request, warm.server_cpu.ms_per_request];
    assert.ok(measured - reference < coldMs / 8, `measured ${measured} ms of CPU per request, the same server warm ${reference} ms`);
  });

  it('a ramp\'s first step: warmed by its count of requests, each on a new connection, once and before the window; the step measures its own requests only', async () => {
    const handle = await start();
    const ramp = normalizeRamp({ description: 'up', from_rps: 100, to_rps: 400, warmup_requests: 600 }, 'ramp', undefined);
    const step = { ...stepScenario(ramp, 200), warmup_load: warmupLoad(ramp) };
    const { run, samples } = await runOne({ server: 'standin', handle, scenario: step, outerSignal: null, serverState: watch(handle) });
    assert.equal(run.ok, true, run.failure);
    assert.deepEqual([run.warmup.requests, run.warmup.steady], [600, null], 'one closed loop to its count, not slices');
    assert.deepEqual([run.requests, samples.length, run.status['2xx']], [step.connections, step.connections, step.connections]);
    assert.ok(samples.length < 600, 'none of the warm-up\'s requests among the step\'s');
    // Any later step: led in by lead_s of its own rate, then its window, which holds its own requests only.
    const later = stepScenario({ ...ramp, lead_s: 0.5 }, 200);
    const { run: led, samples: ledSamples } = await runOne({ server: 'standin', handle, scenario: later, outerSignal: null, serverState: watch(handle) });
    assert.equal(led.ok, true, led.failure);
    assert.deepEqual([led.warmup.requests, led.requests, ledSamples.length], [100, later.connections, later.connections], 'a lead-in of 0.5 s at 200/s: 100 connections, then the step\'s own');
  });

  it('warms up, then measures only the scenario\'s requests; the server\'s CPU to the nanosecond (schedstat)', async () => {
    const handle = await start();
    const result = await runOne({ server: 'standin', trial: 2, handle, scenario: TINY, outerSignal: null, serverState: watch(handle) });
    const { run, samples } = result;
    assert.equal(run.ok, true, run.failure);
    assert.deepEqual([run.server, run.scenario, run.trial, run.engine], ['standin', 'tiny', 2, 'autocannon']);
    assert.deepEqual([run.requests, run.replies, samples.length], [40, 40, 40]);
    assert.equal(run.status['2xx'], 40);
    assert.ok(run.warmup.requests > 0 && run.warmup.seconds >= 0.3 && typeof run.warmup.steady === 'boolean', JSON.stringify(run.warmup));
    assert.equal(run.server_measured, true);
    assert.equal(run.server_cpu.resolution_ms, (1e-9 * 1000) / 40);
    assert.equal(run.listen_overflows, 0, 'four connections at a time fill no accept queue');
    assert.ok(run.server_cpu.total_s > 0 && run.server_cpu.ms_per_request === Math.round((run.server_cpu.total_s * 1000 / 40) * 1e6) / 1e6, JSON.stringify(run.server_cpu));
    assert.ok(run.server_peak_rss_mb > 0);
    assert.ok(run.throughput_rps > 0 && run.duration_s > 0);
    assert.ok(typeof run.client_bound === 'boolean' && typeof run.judged === 'boolean');
    assert.deepEqual(Object.keys(run.client_loop_delay_ms), ['p99', 'max']);
    assert.deepEqual(run.params, scenarioParams(TINY));
    assert.equal(run.superseded_by, null);
    // Back to near its descriptors before the run: settle returns at once.
    const started = performance.now();
    await settle(handle.pid, countFds(handle.pid));
    assert.ok(performance.now() - started < 500);
  });

  // 500 requests a second for 2 s over 20 keep-alive connections: the stand-in answers in well under 5 ms.
  const PACED = scenario('paced', { kind: 'rate', connections: 20, rate: 500, requests: 1000, warmup_s: 0 });

  // A stall of 30 ms every 50 requests, for 4 s at PACED's rate: 15 requests come due during each
  // of the 40 stalls and wait for its end, about 8 of them half a stall or more, some 320 of the
  // run's 2,000 (16 %). The p99 (the 20th slowest) then lies inside what the stalls did by design,
  // about 29 ms, well above what a busy machine adds to 1 % of requests. (At 20 ms every 100
  // requests the stalls put about 10 requests past 15 ms: the p99 was the slowest of those against
  // the machine's own slowest requests, and a busy machine's won: "neither", the stalls explaining
  // 38 %, the p99 13.9 ms without them.) Why 4 s and not 2: twice in some sixty runs of 2 s (a fresh
  // clone's npm test, and CI) the p99 was 46.8 and 47.9 ms, 20.0 and 22.0 ms without the stalls,
  // the machine otherwise idle: something none of the figures recorded delayed some 10 requests
  // (1 % of 1,000) by about 20 ms more. Stopping the load generator, or the server, for 20 ms at
  // a random moment did not reproduce it (without the stalls 1-8 ms; the server's stop is a
  // stall it records); at 2,000 requests one such event is under 1 % of the run.
  const STALLED = scenario('stalled', { kind: 'rate', connections: 20, rate: 500, requests: 2000, warmup_s: 0 });
  const STALL_MS = 30;
  // A planted stall is seen by a heartbeat (due every 10 ms) at least this late.
  const STALL_SEEN_MS = 20;
  it('the server\'s runtime events over the run: a loop stalled 30 ms every 50 requests is found, and the tail put down to it', async () => {
    const handle = await start({ STANDIN_STALL_EVERY: '50', STANDIN_STALL_MS: String(STALL_MS) });
    const { run } = await runOne({ server: 'standin', handle, scenario: STALLED, outerSignal: null, serverState: watch(handle) });
    assert.equal(run.ok, true, run.failure);
    assert.equal(run.runtime.runtime, 'node');
    assert.equal(run.runtime.complete, true);
    // 40 stalls of 30 ms, each seen STALL_SEEN_MS late or more.
    assert.ok(run.runtime.loop.stalls >= 32, JSON.stringify(run.runtime.loop));
    assert.ok(run.runtime.loop.longest_stall_ms >= STALL_SEEN_MS && run.runtime.loop.longest_stall_ms < 60, JSON.stringify(run.runtime.loop));
    const { p99 } = run.runtime.tail;
    assert.equal(p99.coincided, 'stalls', JSON.stringify(p99));
    // With them the p99 is past half a stall, without them under it (as it was at 20 ms and 10 ms).
    // On failure, the loop's figures and what else took the machine's CPU meanwhile (steal, other
    // processes) and how late the load generator sent (its schedule lag) say whether the stalls,
    // the machine or the load generator made it.
    assert.ok(p99.at_ms > STALL_MS / 2 && p99.stalls.without_ms < STALL_MS / 2, `the stalls make the p99: ${JSON.stringify({ p99, loop: run.runtime.loop, machine: run.machine_cpu, engine: run.engine, schedule_lag_ms: run.schedule_lag_ms, client_cpu_pct: run.client_cpu_pct })}`);
    assert.ok(run.runtime.allocations.per_request > 0 && run.runtime.allocations.unit === 'bytes', JSON.stringify(run.runtime.allocations));
  });

  // The negative control: a tail of waiting, not of pauses. Every 40th reply is held 30 ms by a
  // timer, the loop free meanwhile: 25 of the 1,000 requests wait, so the p99 (the 10th slowest)
  // is one of them and no pause made it. A busy host's own hiccups do not change that: they
  // deschedule the stand-in for 5-10 ms now and then, real stalls the monitor rightly records
  // (and rightly blames for a p99 of 3 ms when nothing else makes the tail), but taking one out of
  // the few held requests it overlapped leaves the 10th slowest where the holds put it.
  const HOLD_EVERY = 40;
  it('a tail of waiting (every 40th reply held 30 ms, the loop free): no stall as long as the planted ones, and the tail is put down to neither', async () => {
    const handle = await start({ STANDIN_HOLD_EVERY: String(HOLD_EVERY), STANDIN_HOLD_MS: String(STALL_MS) });
    const { run } = await runOne({ server: 'standin', handle, scenario: PACED, outerSignal: null, serverState: watch(handle) });
    assert.equal(run.ok, true, run.failure);
    assert.ok(run.runtime.loop.longest_stall_ms < STALL_SEEN_MS, `a held reply is no stall: ${JSON.stringify(run.runtime.loop)}`);
    const { p99 } = run.runtime.tail;
    assert.ok(p99.at_ms > STALL_MS / 2, `the held replies make the p99: ${JSON.stringify(p99)}`);
    assert.equal(p99.coincided, 'neither', JSON.stringify(p99));
  });
});
