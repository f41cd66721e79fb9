'use strict';
// Ramps: each server's sustainable throughput. After the paired rounds, on servers
// started afresh for it, each ramp (perf/ramps/*.json, perf/lib/plan/ramps.js) searches every
// server's highest rate holding the objective (perf/lib/run/capacity.js searchCapacity), in
// open-loop steps (a request per new connection, or requests over keep-alive connections at a
// constant rate), measured like any run (./run_one.js). The
// servers' searches run side by side, one step at a time in turn, so that what the shared
// machine does in a minute hits each search alike; each search is made `repeat` times (the
// judge compares the sustainable rates search by search: perf/lib/judge/ramps.js). A step whose load generator was the
// bottleneck is a rate the client could not offer (limited), as is one whose every failure came
// with the client near its limit or late, or the link nearly full (client_suspect): the search goes on below it, and where no rate failed the server's capacity is only estimated
// from its CPU per request (the utilization law), marked so. A server that exits fails its
// rate and is started again for the next step; a load generator that fails ends the search,
// incomplete, as Ctrl-C does: incomplete searches are kept in results.json, never counted.
// A step's rate is judged over its schedule (stepOf: a late reply is latency, not a lower
// rate), a keep-alive step starts on connections opened and warmed before its time zero
// (plan/ramps.js stepScenario), a search's answer is a rate held twice (capacity.js
// confirmPass), and a failing step the machine disturbed is measured again (capacity.js).

const { runOne, settle, loadGeneratorFailed } = require('./run_one');
const { stepScenario, stepSeconds, warmupLoad } = require('../plan/ramps');
const { searchCapacity, stepFailure, scheduleKept, arrivalsKept, scheduledRate, rateGraceMs, SCHEDULE_SLACK } = require('./capacity');
const { ENGINES } = require('../engines');
const { fewPauses, NEAR_CLIENT_BOUND_PCT, NEAR_LINK_BOUND_PCT } = require('../method');
const { isLinkBound, linkDemandPct, clientLateness, overDisturbed } = require('./bottleneck');
const { linkBoundText } = require('../text/reasons');
const { searchWords } = require('../text/capacity');
const { PERCENTILES } = require('../measure/stats');
const { shuffled } = require('./rounds');
const { rampStepSamplesFileName, ERROR_CODES, errorCount } = require('../measure/samples');
const { searchLine } = require('../text/ramps');
const { longPauses, pauseWindow, pauseEnds, PausePeriod, stepLength, lengthened } = require('./pause_window');
const { readLimits, FD_RESERVE } = require('../hosts/fd_limits');

const TIMEOUT = ERROR_CODES.indexOf('timeout');

// The share of the load generator's descriptors a step of new connections may hold open at once.
const DESCRIPTOR_SHARE = 0.8;

/**
 * A step of new connections with its timeout shortened to what the load generator's descriptors
 * hold (limits: the runner's, which the engines inherit): past a server's edge each connection
 * waits up to the timeout for its reply, so a step of `rate` a second holds up to rate × timeout
 * open (em failing 11,007 new connections a second with a p99 of 4.1 s ran the load generator out
 * of its 20,000 descriptors, 2026-12-01, on a machine that lets no one raise the limit). Never
 * below ten times the objective: a request that late has failed the objective either way, and the
 * step's percentiles count it at the timeout (censoredPercentiles). Other steps as they are.
 */
function withinDescriptors(scenario, rate, objective, limits = readLimits()) {
  if (scenario.kind !== 'open' || !limits || !Number.isFinite(limits.soft)) return scenario;
  const timeoutS = Math.max((DESCRIPTOR_SHARE * (limits.soft - FD_RESERVE)) / rate, (10 * objective.ms) / 1000);
  return timeoutS < scenario.timeout_s ? { ...scenario, timeout_s: round3(timeoutS) } : scenario;
}

/** The step's requests that timed out (perf/lib/measure/samples.js: error 'timeout'). */
function timeoutsOnSchedule(samples) {
  let n = 0;
  for (let i = 0; i < samples.length; i++) if (samples.error[i] === TIMEOUT && samples.roleName(i) === 'main') n += 1;
  return n;
}

/**
 * A step's percentiles (ms) over its replies and its timed-out requests, each of those a latency
 * of at least timeoutMs: the exact order statistic of the replies where it falls among them,
 * else timeoutMs (a lower bound: the percentile is past the timeout). Other errors are left out,
 * as they are of the percentiles of every run. weight(i): each request's weight, 0 to leave it
 * out (a step judged over whole pause periods, or its pauses' shadows weighed: ./pause_window.js).
 */
function censoredPercentiles(samples, timeoutMs, weight = () => 1) {
  const latencies = []; // [latency, weight]
  let total = 0;
  for (let i = 0; i < samples.length; i++) {
    const w = samples.roleName(i) === 'main' ? weight(i) : 0;
    if (w <= 0 || (samples.error[i] !== 0 && samples.error[i] !== TIMEOUT)) continue;
    latencies.push([samples.error[i] === 0 ? samples.latency[i] : Infinity, w]);
    total += w;
  }
  latencies.sort((a, b) => a[0] - b[0]);
  const out = {};
  for (const [p, pct] of Object.entries(PERCENTILES)) {
    // The first latency with pct % of the weight at or below it: with weights of 1, the order statistic ⌈pct·n⌉.
    let k = 0;
    let below = latencies.length ? latencies[0][1] : 0;
    while (k < latencies.length - 1 && below < (pct / 100) * total) {
      k += 1;
      below += latencies[k][1];
    }
    const x = latencies.length ? latencies[k][0] : undefined;
    out[p] = x === Infinity ? timeoutMs : round3(x);
  }
  return out;
}

/** A weight by sample index: 1 for the requests due within { from_ms, to_ms }, else 0. */
const dueWithin = (samples, within) => (i) => (samples.t[i] >= within.from_ms && samples.t[i] < within.to_ms ? 1 : 0);

/**
 * Whether a step the load generator could not send whole failed on the requests it did send:
 * errors of the server's, or its percentile (over those, the timed-out ones included) past the
 * objective. Its rate is not asked: the replies fell short of it by the requests never sent.
 */
function serverFailedWhatWasSent(step, objective) {
  const failure = stepFailure({ ...step, achieved_rps: step.offered_rps }, objective);
  return failure !== null && (failure.code === 'errors' || failure.code === 'over');
}

/**
 * A measured step as the search reads it, from the run of one step of loadS seconds (results.json's
 * run fields). schedule: { samples, scenario (the step's), graceMs, objective, periodMs }, where the engine's samples
 * start when each request was due (its samplesOnSchedule(scenario)):
 * its achieved rate is then judged over its schedule (capacity.js scheduledRate: the replies to
 * the requests due in its window that came by the window's end and graceMs, over the window; the
 * later ones, late_replies, are latency), else it is the run's replies over the time to its last
 * reply (replies_rps, kept beside it either way). With the objective, a step whose server paused
 * its loop that long twice or more, periodically (periodMs apart where it is known), is judged,
 * rate and percentiles, from its first such pause to its last (./pause_window.js): its `window`
 * (none for a server that records no runtime events).
 */
function stepOf(run, rate, loadS, schedule = null) {
  const timedOut = schedule ? timeoutsOnSchedule(schedule.samples) : 0;
  // A request unanswered past the step's timeout is late beyond any objective, not an error: in
  // the percentiles as a latency of at least the timeout (censoredPercentiles), so that one
  // reply a quick ramp stops waiting for fails nothing its percentile does not.
  const errors = errorCount(run) - timedOut;
  const engine = schedule && ENGINES[run.engine];
  const onSchedule = engine && engine.samplesOnSchedule && engine.samplesOnSchedule(schedule.scenario) && schedule.samples.length > 0;
  // The requests due in the step's window: kind open's are its connections, one request each.
  const requests = onSchedule ? (schedule.scenario.kind === 'open' ? schedule.scenario.connections : schedule.scenario.requests) : 0;
  const loadMs = (requests * 1000) / rate;
  const objective = schedule && schedule.objective;
  const pauses = onSchedule && objective ? longPauses(run.runtime, schedule.samples, objective.ms, loadMs) : null;
  const within = pauses && pauseWindow(pauses, loadMs, schedule.periodMs ?? null);
  const kept = onSchedule ? scheduledRate(schedule.samples, { rate, requests, graceMs: schedule.graceMs, within }) : null;
  const step = { offered_rps: rate, achieved_rps: kept ? round3(kept.achieved_rps) : run.throughput_rps ?? 0, load_s: loadS };
  // What came before the step's window: the ramp's warm-up load, or the step's own lead-in (its scenario's warm-up at its rate).
  const warmed = Boolean(run.warmup && run.warmup.seconds > 0);
  const ledIn = warmed && Boolean(schedule && schedule.scenario && !schedule.scenario.warmup_load && schedule.scenario.warmup_s > 0);
  const timeoutMs = onSchedule ? schedule.scenario.timeout_s * 1000 : null;
  const censored = timedOut > 0 || within ? censoredPercentiles(schedule.samples, timeoutMs, within ? dueWithin(schedule.samples, within) : undefined) : null;
  for (const p of Object.keys(PERCENTILES)) step[`${p}_ms`] = censored ? censored[p] : run.latency_ms ? run.latency_ms[p] ?? null : null;
  // The long pauses the step held, and the part of it judged: whole periods between them, or all of it (from_ms null).
  if (pauses) step.window = { long_pauses: pauses.length, pauses, from_ms: within ? round3(within.from_ms) : null, to_ms: within ? round3(within.to_ms) : null, periods: within ? within.periods : 0 };
  if (timedOut > 0) step.timed_out = timedOut;
  Object.assign(step, {
    replies_rps: run.throughput_rps ?? null,
    late_replies: kept ? kept.late_replies : null,
    grace_ms: kept ? schedule.graceMs : null,
    errors,
    server_cpu_pct: run.server_cpu_pct ?? null,
    server_cpu_ms_per_request: run.server_cpu ? run.server_cpu.ms_per_request ?? null : null,
    client_cpu_pct: run.client_cpu_pct ?? null,
    client_loop_delay_p99_ms: run.client_loop_delay_ms ? run.client_loop_delay_ms.p99 ?? null : null,
    schedule_lag_mean_ms: run.schedule_lag_ms ? run.schedule_lag_ms.mean ?? null : null,
    ...(run.schedule_lag_ms && typeof run.schedule_lag_ms.p99 === 'number' ? { schedule_lag_p99_ms: run.schedule_lag_ms.p99 } : {}),
    // Engines with random arrivals (Tsung) measure the rate they offered: the step is judged on it.
    ...(typeof run.arrival_rps === 'number' ? { arrival_rps: run.arrival_rps } : {}),
    // A keep-alive step's connections opened and answered once before its time zero ({ connections, ms }), or null.
    warmed: run.warmed ?? null,
    // The server warmed up before the step (the ramp's warm-up load, on a server's first step after a start): { seconds, requests }, or null.
    warmed_up: warmed && !ledIn ? { seconds: run.warmup.seconds, requests: run.warmup.requests } : null,
    // The step's lead-in: its rate offered before its window, not judged (plan/ramps.js LEAD_S): { seconds, requests }, or null.
    lead: ledIn ? { seconds: run.warmup.seconds, requests: run.warmup.requests } : null,
    link_pct: run.link_usage ? run.link_usage.busiest_pct : null,
    link_demand_pct: linkDemandPct(run.link_usage, rate),
    // The hypervisor's steal over the step past the disturbed threshold, as a run's
    // (perf/lib/run/bottleneck.js overDisturbed): a failing step it disturbed is measured
    // again. Other processes' CPU is recorded beside it, not repeated for: on a shared machine
    // busy with others' work it is over the threshold at almost every step, and a repeat of each
    // failing step would double the search's failures.
    disturbed: run.machine_cpu && typeof run.machine_cpu.steal_pct === 'number' ? overDisturbed(run.machine_cpu.steal_pct, run.machine_cpu.resolution_pct) : null,
    steal_pct: run.machine_cpu ? run.machine_cpu.steal_pct ?? null : null,
    foreign_cpu_pct: run.machine_cpu ? run.machine_cpu.foreign_cpu_pct ?? null : null,
    // The server's GC and loop stalls in the step, and what its slow requests coincided with.
    runtime: run.runtime ?? null,
    // Connection attempts the kernel dropped at the server's full accept queue in the step.
    listen_overflows: run.listen_overflows ?? null,
    limited: null,
  });
  // A load generator out of descriptors could not open some of the step's connections: those
  // requests were never sent (each an error of kind 'other' among its samples). The server is
  // judged on the ones it got: late past the objective or refusing them, it failed the rate (a
  // server that falls behind holds the connections open, or leaves them waiting at its full
  // accept queue: em at 20,480 new connections a second, 79,753 dropped there); on time, the
  // rate was one the load generator could not offer, as at its core's limit, below which the
  // search goes on. Any other failure of the load generator stops the search.
  if (loadGeneratorFailed(run) && run.client_fd_failures > 0) {
    step.unsent = run.client_fd_failures;
    step.errors = Math.max(0, errors - run.client_fd_failures);
    if (!(objective && serverFailedWhatWasSent(step, objective))) step.limited = `the load generator ran out of file descriptors on ${run.client_fd_failures.toLocaleString('en-US')} connections at this rate`;
  } else if (loadGeneratorFailed(run)) step.stop = run.failure;
  // A run that failed otherwise (no reply, the server gone) failed its rate: the server's failure.
  else if (!run.ok) step.errors = Math.max(errors, 1);
  // What kept the rate from reaching the server says nothing of the server: the link full one
  // way, or the rate offered asking that of it (--link), the load generator at its core's
  // limit, the load hosts off their schedule.
  else if (isLinkBound(run.link_usage, rate)) step.limited = linkBoundText(run.link_usage, linkDemandPct(run.link_usage, rate));
  else if (run.client_bound) step.limited = `the load generator was the bottleneck (${Math.round(run.client_cpu_pct)} % of its core)`;
  else if (run.load_problems && run.load_problems.length) step.limited = `the load hosts' load or its record was not as planned: ${run.load_problems[0]}`;
  // An engine whose arrivals are random (Tsung's) measures the rate its requests started at: one
  // that fell short of the schedule did not offer the rate, whatever the server did with it.
  else if (typeof run.arrival_rps === 'number' && !arrivalsKept(rate, run.arrival_rps, run.requests)) step.limited = `the load hosts started ${Math.round(run.arrival_rps)} requests a second of the ${Math.round(rate)} offered (their arrivals are random, and they start apart)`;
  // Judged whole after a few pauses: whether they could decide its verdict (pause_window.js
  // pauseEnds), which says whether it is measured again longer. More pauses in no period are not
  // (a longer step would not make them periodic), so what they could decide is not asked.
  if (step.window && fewPauses(step.window)) {
    const ends = pauseEnds(schedule.samples, pauses, objective.ms, loadMs);
    const failsAt = ({ weight, creditMs }) => {
      const pct = censoredPercentiles(schedule.samples, timeoutMs, weight)[objective.percentile];
      const achieved = Math.max(0, step.achieved_rps + (rate * creditMs) / loadMs);
      return stepFailure({ ...step, achieved_rps: achieved, [`${objective.percentile}_ms`]: pct }, objective) !== null;
    };
    step.window.pauses_decide = ends !== null && failsAt(ends.none) !== failsAt(ends.most);
  }
  return step;
}

// The client's lateness counts from this share of the objective: below it, it is the ~1 ms
// every step shows (its event loop's sampling, a connection opened a little late).
const CLIENT_LATE_SHARE = 0.25;

/**
 * Why a failed step may have failed for the harness, the load generator or --link's link, or
 * null: the link was asked NEAR_LINK_BOUND_PCT of its rate or more one way (its queue's delays
 * grow steeply near its rate: em failed p99 ≤ 10 ms at 87 % of a 10 Mbit/s link with its core
 * at 22 %); or the load generator used
 * NEAR_CLIENT_BOUND_PCT of its core or more; or its own lateness (clientLateness: what of it
 * the latencies it times include) is
 * CLIENT_LATE_SHARE of the objective or more and enough to put the percentile over it; or it did not keep the schedule while opening
 * connections later than the gap between two. Such a step's failure is suspect (capacity.js:
 * a rate only such steps failed is one the client could not offer), so that a client near its
 * limit never passes for the server saturating, and a server's failure is not taken from it for
 * a client a little late once.
 */
function harnessSuspect(step, objective) {
  if ((step.link_demand_pct ?? 0) >= NEAR_LINK_BOUND_PCT) return `the link was asked ${step.link_demand_pct} % of its rate while the step failed: its queue may have delayed the replies`;
  if (step.client_cpu_pct !== null && step.client_cpu_pct >= NEAR_CLIENT_BOUND_PCT) return `the load generator used ${Math.round(step.client_cpu_pct)} % of its core while the step failed: it may not have offered the rate, or delayed the replies`;
  const late = clientLateness({ loopP99: step.client_loop_delay_p99_ms ?? null, lagMean: step.schedule_lag_mean_ms ?? null, lagP99: step.schedule_lag_p99_ms ?? null }) ?? 0;
  const p = step[`${objective.percentile}_ms`];
  if (late >= CLIENT_LATE_SHARE * objective.ms && typeof p === 'number' && p > objective.ms && p - late <= objective.ms) return `the load generator ran ${round1(late)} ms late while the step's ${objective.percentile} was ${round1(p)} ms: without its own delay the objective may have held`;
  const slackMs = SCHEDULE_SLACK * step.load_s * 1000;
  if (!scheduleKept(step) && step.schedule_lag_mean_ms !== null && step.schedule_lag_mean_ms >= slackMs) return `the load generator opened connections ${round1(step.schedule_lag_mean_ms)} ms behind schedule on average, ${Math.round(SCHEDULE_SLACK * 100)} % of the step's ${step.load_s} s or more: it did not offer the rate`;
  return null;
}

const round1 = (x) => Math.round(x * 10) / 10;
const round3 = (x) => Math.round(x * 1000) / 1000;

/**
 * Runs the plan's ramps: for each, every server started afresh (restart(server, scenario) puts
 * it in up, a Map server → { handle, state, baselineFds }). session: { plan, io, restart,
 * record }; record(section) is called with the results.json section after every search, so that
 * an interrupted run keeps what it measured; keepSamples(rel, samples) → rel | null, where given,
 * writes a failed step's samples (its step.samples_file). Resolves that section { objective, repeat, ramps:
 * [{ name, description, request, connection, connections, servers: { server: { searches: [search] } } }],
 * interrupted }: what was measured; the sustainable rates and their comparisons are the judge's
 * (perf/lib/judge/ramps.js).
 */
async function measureRamps(up, { plan, io, restart, loadHosts = null, link = null, record = () => {}, keepSamples = null }) {
  const { objective, repeat } = plan.rampOptions;
  const out = { objective, repeat, ramps: [], interrupted: false };
  for (const ramp of plan.ramps) {
    for (const server of plan.rampServers) await restart(server, stepScenario(ramp, ramp.from_rps));
    const servers = plan.rampServers.filter((s) => up.has(s) && !up.get(s).state.notStarted);
    const searches = Object.fromEntries(servers.map((s) => [s, []]));
    // Each server's pause period on this ramp, learned over its searches (./pause_window.js).
    const periods = Object.fromEntries(servers.map((s) => [s, new PausePeriod()]));
    const width = Math.max(5, ...servers.map((s) => s.length));
    const entry = { name: ramp.name, description: ramp.description, request: ramp.request, connection: ramp.connection, connections: ramp.connections, servers: {} };
    out.ramps.push(entry);
    for (let i = 0; i < repeat && !out.interrupted; i++) {
      const turn = turnstile();
      const failed = Object.fromEntries(servers.map((s) => [s, 0]));
      const keep = keepSamples && ((server, rate, samples) => keepSamples(rampStepSamplesFileName(ramp.name, server, i + 1, (failed[server] += 1), rate), samples));
      const measure = (server) => measureStep(ramp, server, up, { io, turn, out, restart, objective, loadHosts, link, keepSamples: keep }, periods[server]);
      const results = await Promise.all(shuffled(servers).map((server) => searchCapacity(measure(server), { from: ramp.from_rps, to: ramp.to_rps, objective, precision: ramp.precision, maxSteps: ramp.max_steps, confirmations: ramp.fail_confirmations, confirmPass: true, repeatDisturbed: true, approximation: ramp.approximation_steps }).then((r) => [server, searchWords(r)])));
      for (const [server, r] of results) {
        searches[server].push(r);
        io.log(searchLine(ramp.name, server, r, objective, { i: i + 1, repeat, width }));
      }
      entry.servers = Object.fromEntries(servers.map((s) => [s, { searches: searches[s] }]));
      record(out);
    }
    if (out.interrupted) break;
  }
  return out;
}

/** Steps one at a time: each search's next step waits for the one before it, whoever's it was. */
function turnstile() {
  let chain = Promise.resolve();
  return (fn) => {
    const next = chain.then(fn);
    chain = next.catch(() => {});
    return next;
  };
}

/**
 * measure(rate) for one server's search: a step measured in its turn, the server settled after
 * it. A server that exited or hung fails the step's rate (fatal) and is started again before
 * its next step; one that does not start again ends the search. Each step is as long as the
 * server's pause period asks (./pause_window.js: period, the server's PausePeriod on this ramp),
 * and measured again, longer, where it met one or two long pauses and no whole period between
 * them (the shorter steps kept in its `lengthened_from`). A step of the search's climb
 * (measure(rate, { climbing: true })) is the ramp's base length however long the period, marked
 * `partial` where a whole step would be longer.
 */
function measureStep(ramp, server, up, context, period) {
  let planned = null;
  const measure = stepMeasurer(server, up, context, {
    scenarioAt: (rate) => withinDescriptors(stepScenario(ramp, rate, planned.seconds), rate, context.objective),
    current: (rate) => `${ramp.name} at ${Math.round(rate)}/s`,
    status: (rate, { warming = false } = {}) => `${ramp.name}  ${server}  ${Math.round(rate)}/s (~${Math.ceil(planned.seconds)} s${ramp.lead_s > 0 && !warming ? ` after ${ramp.lead_s} s at the rate` : ''}${planned.partial ? `, climbing: a pause period is ~${planned.period_s} s` : planned.period_s ? `, two pause periods of ~${planned.period_s} s` : ''})`,
    fresh: false,
    warmup: warmupLoad(ramp),
    read: (run, rate, scenario, samples) => stepOf(run, rate, round3(planned.seconds), { samples, scenario, graceMs: rateGraceMs(context.objective), objective: context.objective, periodMs: planned.period_s === null ? null : planned.period_s * 1000 }),
  });
  return async (rate, { climbing = false } = {}) => {
    const shorter = [];
    const base = stepSeconds(ramp, rate);
    const whole = stepLength(base, ramp.max_step_s, period, rate);
    // The climb's steps are the base length: their passes only say where the search goes on,
    // and the search measures that rate again whole (capacity.js, partial passes).
    planned = climbing && base < whole.seconds ? { ...whole, seconds: base, partial: true } : whole;
    for (let lengthenings = 0; ; lengthenings++) {
      const step = await measure(rate);
      if (planned.partial) step.partial = true;
      if (!step.window) return step;
      Object.assign(step.window, { period_s: planned.period_s, short: planned.short });
      const judged = step.window.periods > 0 ? step.window : null;
      period.observe({ pauses: step.window.pauses, window: judged }, rate, step.load_s * 1000, planned.period_s === null ? null : planned.seconds * 1000);
      delete step.window.pauses;
      if (shorter.length) step.lengthened_from = shorter;
      const again = lengthened(step, planned, stepLength(base, ramp.max_step_s, period, rate), ramp.max_step_s, lengthenings);
      if (!again) return step;
      shorter.push({ load_s: step.load_s, long_pauses: step.window.long_pauses, [`${context.objective.percentile}_ms`]: step[`${context.objective.percentile}_ms`], achieved_rps: step.achieved_rps, ...(step.samples_file ? { samples_file: step.samples_file } : {}) });
      planned = again;
    }
  };
}

/**
 * measure(level) for one server's search, the ramps' and the held-count search's
 * (perf/lib/run/held.js): each step measured in its turn (turn: turnstile()), Ctrl-C ending the
 * search (out.interrupted), a server that exited or hung failing its level (fatal), a failing
 * step the harness may explain marked suspect (harnessSuspect). how: { scenarioAt(level),
 * current(level) (what the server was doing, for its exit line), status(level, { warming }), fresh (the
 * server started afresh for every step; else only after it exited or hung, and settled after
 * each step), warmup (the load that warms a server up before its first step after each start,
 * perf/lib/plan/ramps.js warmupLoad; none where null or absent), read(run, level, scenario, samples) (the step) }.
 */
function stepMeasurer(server, up, { io, turn, out, restart, objective, loadHosts = null, link = null, keepSamples = null }, how) {
  const stopped = (level, why) => ({ offered_rps: level, achieved_rps: 0, errors: 0, stop: why });
  return (level) =>
    turn(async () => {
      if (out.interrupted) return stopped(level, 'interrupted');
      let scenario = how.scenarioAt(level);
      // A fresh server each step: none may be up before the first.
      if (how.fresh || up.get(server).state.exit || up.get(server).state.hung) await restart(server, scenario);
      const u = up.get(server);
      if (u.state.notStarted) return stopped(level, `the server did not start again: ${u.state.notStarted}`);
      // The warm-up can take far longer than the step (20,000 requests behind --link's 1 Mbit/s:
      // 80 s): the progress line says it comes first.
      let warming = '';
      if (how.warmup && !u.state.warmed) {
        scenario = { ...scenario, warmup_load: how.warmup };
        u.state.warmed = true;
        warming = `, after a warm-up of ${how.warmup.requests.toLocaleString('en-US')} requests`;
      }
      u.state.current = how.current(level);
      io.status(`${how.status(level, { warming: Boolean(warming) })}${warming}`);
      const result = await runOne({ server, handle: u.handle, scenario, outerSignal: io.signal, serverState: u.state, paired: true, loadHosts, link });
      io.status(null);
      if (result.interrupted) {
        out.interrupted = true;
        return stopped(level, 'interrupted');
      }
      const step = how.read(result.run, level, scenario, result.samples);
      if (u.state.exit || u.state.hung) step.fatal = result.run.failure;
      else if (!how.fresh) await settle(u.handle.pid, u.baselineFds);
      if (!step.limited && !step.stop && !step.fatal && stepFailure(step, objective)) {
        step.client_suspect = harnessSuspect(step, objective);
        // A step the server failed is drawn in the report, its latencies over time with its pauses.
        if (keepSamples && result.samples.length) step.samples_file = keepSamples(server, level, result.samples);
      }
      return step;
    });
}

module.exports = { measureRamps, stepOf, stepMeasurer, harnessSuspect, turnstile, withinDescriptors };
