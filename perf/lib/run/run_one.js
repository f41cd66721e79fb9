'use strict';
// One run's measurement: one scenario against a running server, its warm-up (not counted),
// then the measured load through its engine, with the server's and the machine's CPU around
// it, and the run record results.json keeps (fields: perf/REFERENCE.md, "Output"). perf/lib/run/runner.js
// orchestrates the runs; this module measures one.

const { performance, monitorEventLoopDelay } = require('node:perf_hooks');
const { warmupScenario, WARMUP_STEADY, WARMUP_CAP } = require('../plan/scenarios');
const { expectedDurationS, scenarioParams, aboveWait } = require('../store/scenario_doc');
const { scenarioNeeds } = require('../store/scenario_doc');
const { backendsFor } = require('../hosts/backends');
const { outOfDescriptors } = require('../engines/http_exchange');
const { readLimits, fdLimitText, outOfDescriptorsText } = require('../hosts/fd_limits');
const { send } = require('../hosts/one_request');
const { Samples } = require('../measure/samples');
const { summarizeSamples, round3 } = require('../measure/stats');
const { summarizeRuntime, gcPausesOf, stallsOf, pauseMarks, MONO_OFFSET } = require('../measure/runtime_events');
const { attributeTail } = require('../measure/attribution');

// CPU per request in ms to the nanosecond of schedstat (0.000001 ms).
const round6 = (x) => Math.round(x * 1e6) / 1e6;
const round1 = (x) => Math.round(x * 10) / 10;
const { readCpu, cpuDelta, startRssSampler, startRanSampler, countFds, readMachineCpu, machineCpuDelta, readListenOverflows } = require('../measure/proc_stats');
const { checkClientBound, isLinkBound, cpuShares, checkRun, clientLateness, middleShare, saturating } = require('./bottleneck');
const { linkBytes, linkUsage } = require('../hosts/netns');
const { reasonText, reasonWords } = require('../text/reasons');
const { ENGINES, engineFor } = require('../engines');
const { EngineUnavailable } = require('../engines/external');

// After timeouts, how long a GET /hello may take to tell a hung server from a slow run.
const HUNG_PROBE_MS = 3000;

/** Whether the server still answers a GET /hello: after timeouts, tells a hung server from a slow run. */
async function stillAnswers(handle) {
  try {
    await send({ host: handle.host, port: handle.port }, { path: '/hello', timeoutMs: HUNG_PROBE_MS });
    return true;
  } catch {
    return false;
  }
}

/** How long a run (with its warm-up) may take before it is abandoned, in ms. */
function runDeadlineMs(s) {
  const warm = warmupScenario(s);
  const expected = expectedDurationS(s);
  // A count-bounded closed loop's speed depends on the server: 900 s.
  const measured = expected === null ? 900000 : Math.round((expected * 1.5 + s.timeout_s + 30) * 1000);
  // A closed loop's warm-up: slices for up to WARMUP_CAP × warmup_s, the last one begun before then.
  return measured + (warm ? runDeadlineMs(warm) + (warm.kind === 'closed' && !s.warmup_load ? WARMUP_CAP * s.warmup_s * 1000 : 0) : 0);
}

function describeExit({ code, signal, error }) {
  if (error) return error.message;
  return signal ? `signal ${signal}` : `exit code ${code}`;
}

// The start of a run's failure when the load generator, not the server, failed.
const LOAD_GENERATOR_FAILED = 'the load generator failed';

/** Whether a run failed because its load generator did (it crashed, or is missing). */
function loadGeneratorFailed(run) {
  return !run.ok && typeof run.failure === 'string' && run.failure.startsWith(LOAD_GENERATOR_FAILED);
}

function lastLine(text) {
  return (text || '').split('\n').filter(Boolean).slice(-1)[0] || '';
}

/** How many times the server said it closed new connections at its cap (0 for a server that cannot say). */
const capWarnings = (handle) => (handle.capWarnings ? handle.capWarnings() : 0);

/**
 * The server's runtime events over the run's window [from, to] (performance.now() ms): its GC
 * and loop stalls (results.json runs[].runtime), and what the tail above each percentile
 * coincided with (runtime.tail), where the engine kept samples, at the server's utilization (its
 * CPU share, 0–1, or null); null for a server that writes no events.
 */
async function runtimeOf(handle, { from, to, samples, replies, utilization }) {
  if (!handle.runtimeEvents) return null;
  const [start, end] = [from + MONO_OFFSET, to + MONO_OFFSET];
  const window = await handle.runtimeEvents.window(start, end);
  if (!window) return null;
  const runtime = summarizeRuntime(window, { start, end, replies });
  runtime.pauses = pauseMarks(window, samples.origin + MONO_OFFSET);
  // The work the queue drains at is the server's less its GC's.
  const work = utilization === null ? null : utilization - (runtime.gc.share_pct ?? 0) / 100;
  if (samples.length) runtime.tail = attributeTail(samples.answeredSpans(MONO_OFFSET), { gc: gcPausesOf(window), stalls: stallsOf(window) }, work);
  return runtime;
}

/** A run that did not produce measurements. */
function failedRun(server, scenario, failure, extra = {}) {
  return {
    server,
    scenario: scenario.name,
    trial: extra.trial ?? null,
    engine: engineFor(scenario),
    ok: false,
    failure,
    started_at: new Date().toISOString(),
    requests: 0,
    replies: 0,
    errors: null,
    status: null,
    throughput_rps: null,
    latency_ms: null,
    latency_histogram: null,
    connect_ms: null,
    duration_s: null,
    server_cpu: null,
    server_peak_rss_mb: null,
    listen_overflows: null,
    client_cpu_pct: null,
    client_fd_failures: null,
    client_bound: false,
    client_loop_delay_ms: null,
    warmup: null,
    server_cpu_pct: null,
    server_middle_cpu_pct: null,
    server_bound: null,
    machine_cpu: null,
    disturbed: null,
    judged: false,
    not_judged_because: [reasonText('failed', failure)],
    superseded_by: null,
    params: scenarioParams(scenario),
    ...extra,
  };
}

// How long the server's open descriptors must stay the same for settle to call them settled.
const SETTLED_FOR_MS = 200;

/**
 * Waits (polling, bounded) until the server's open descriptors are back near baseline, or have
 * stopped falling: a server keeps its backends' connections (the upstream pool, Redis) open
 * between runs, above the baseline taken at its start, and a wait for them to close would last
 * its whole maxMs after every run.
 */
async function settle(pid, baseline, maxMs = 3000) {
  if (baseline === null) return;
  const until = performance.now() + maxMs;
  let last = null;
  let sameSince = null;
  while (performance.now() < until) {
    const n = countFds(pid);
    if (n === null || n <= baseline + 2) return;
    const now = performance.now();
    if (n !== last) [last, sameSince] = [n, now];
    else if (now - sameSince >= SETTLED_FOR_MS) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The counters a run's window is measured between: the server's CPU, this process's (the load
 * generator), the machine's, and that of the servers measured beside it (besidePids).
 */
function cpuSnapshot(pid, besidePids = [], backendPids = []) {
  return { at: performance.now(), server: readCpu(pid), client: process.cpuUsage(), machine: readMachineCpu(), beside: besidePids.map(readCpu), backends: backendPids.map(readCpu), listenOverflows: pid === null ? null : readListenOverflows(pid) };
}

/**
 * Sends a warm-up load (warmupScenario) for `seconds` and forgets its replies. A closed loop's
 * is sent slice after slice, past `seconds` until the last slice's rate is no more than
 * WARMUP_STEADY above the one before, beginning no slice after WARMUP_CAP × `seconds`; with
 * `once` (a load the scenario names, to its count) it is sent once. Resolves { seconds, requests, engine, steady }: requests sent, errors included (the built-in
 * engines' samples, or the external engine's own count); steady, whether the rate stopped
 * rising (null for an open loop or a single slice).
 */
async function warmUp({ handle, scenario, seconds, once = false, signal }) {
  const engine = engineFor(scenario);
  const samples = new Samples();
  const started = samples.start();
  const elapsedS = () => (performance.now() - started) / 1000;
  // A warm-up load a scenario names (a ramp's, bounded by a count) runs once, to its count.
  const sliced = scenario.kind === 'closed' && !once;
  const rates = [];
  let counted = 0;
  let steady = null;
  for (;;) {
    const sliceStart = performance.now();
    const before = samples.length + counted;
    const extra = await ENGINES[engine].run({ host: handle.host, port: handle.port, scenario, samples, signal, onProgress: null });
    if (extra && extra.summary) counted += extra.summary.requests;
    if (!sliced || signal.aborted) break;
    rates.push((samples.length + counted - before) / Math.max(1e-3, (performance.now() - sliceStart) / 1000));
    const [a, b] = rates.slice(-2);
    // No longer rising (a fall is noise, not warming); unknown after a single slice.
    steady = rates.length < 2 ? null : b <= a * (1 + WARMUP_STEADY);
    if ((elapsedS() >= seconds && steady) || elapsedS() >= WARMUP_CAP * seconds) break;
  }
  return { seconds: round3(elapsedS()), requests: samples.length + counted, engine, steady };
}

/**
 * Runs one scenario against a running server: its warm-up (not counted), then the measured run.
 * paired: the run is one side of a paired round (./rounds.js), where a disturbance is recorded
 * but cancels against the other side rather than leaving the run out. beside: the servers
 * under their own load at the same time ([{ server, pid }]: a simultaneous round), whose CPU
 * is measured over this run's window (run.beside) and judged (SHARED_LOAD_PCT); this process's
 * CPU is then both loads' (one load generator).
 * Resolves { run, samples } or, when the outer signal interrupted it, { interrupted: true }.
 */
async function runOne({ server, trial = null, handle, scenario, outerSignal, serverState, progress, loadHosts = null, link = null, paired = false, beside = [] }) {
  const engine = engineFor(scenario);
  if (outerSignal && outerSignal.aborted) return { interrupted: true };
  const controller = new AbortController();
  // The run's own signal follows the outer one without a listener on it: the servers of a
  // simultaneous round run at once, each with its run, and a listener each on the run's one
  // signal passed Node's limit of 10 (MaxListenersExceededWarning).
  const signal = outerSignal ? AbortSignal.any([outerSignal, controller.signal]) : controller.signal;
  const abort = (reason) => {
    if (!signal.aborted) controller.abort(reason);
  };
  serverState.abortRun = () => abort({ kind: 'server-exit' });
  const deadlineMs = runDeadlineMs(scenario);
  const deadline = setTimeout(() => abort({ kind: 'deadline' }), deadlineMs);

  const pid = handle.pid;
  // The warm-up runs on the same server process, right before the measured window.
  const warm = warmupScenario(scenario);
  let warmup = { seconds: 0, requests: 0 };
  let engineError = null;
  if (warm) {
    try {
      warmup = await warmUp({ handle, scenario: warm, seconds: scenario.warmup_s, once: Boolean(scenario.warmup_load), signal });
    } catch (err) {
      // A missing engine is missing, whether the warm-up or the run first asks for it.
      engineError = err instanceof EngineUnavailable ? err : new Error(`during the warm-up: ${err.message}`, { cause: err });
    }
  }
  const samples = new Samples();
  const startedAt = new Date().toISOString();
  const rss = startRssSampler(pid);
  // Only a saturating closed loop is judged on its middle half: no other run pays for the readings.
  const ran = pid !== null && saturating(scenario) ? startRanSampler(pid) : null;
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const besidePids = beside.map((b) => b.pid);
  // The backends this scenario's requests call (perf/lib/hosts/backends.js), measured as the server is.
  const calls = backendsFor(scenarioNeeds(scenario));
  const backends = (handle.backends || []).filter((b) => calls.includes(b.name));
  const backendPids = backends.map((b) => b.pid);
  // A run at the fd limit: connections this process could not open, and the server's word that
  // it closed new ones at its cap, counted over the run.
  const fdBefore = { client: outOfDescriptors(), server: capWarnings(handle) };
  const before = cpuSnapshot(pid, besidePids, backendPids);
  const linkBefore = link ? linkBytes(link) : null;
  samples.start();
  let extra = {};
  try {
    // Not after a warm-up that failed or was cut short (the server exited, a deadline, Ctrl-C).
    if (!engineError && !signal.aborted) {
      extra = (await ENGINES[engine].run({ host: handle.host, port: handle.port, scenario, samples, signal, onProgress: progress, loadHosts })) || {};
    }
  } catch (err) {
    engineError = err;
  } finally {
    clearTimeout(deadline);
    serverState.abortRun = null;
  }
  const linkAfter = link ? linkBytes(link) : null;
  const after = cpuSnapshot(pid, besidePids, backendPids);
  const wallMs = after.at - before.at;
  loopDelay.disable();
  const cpu = cpuDelta(before.server, after.server);
  const besideCpu = beside.map((b, i) => ({ server: b.server, cpu: cpuDelta(before.beside[i], after.beside[i]) }));
  const backendCpu = backends.map((b, i) => ({ name: b.name, cpu: cpuDelta(before.backends[i], after.backends[i]) }));
  const peakKb = rss.stop();
  const ranReadings = ran ? ran.stop() : [];

  if (signal.aborted && outerSignal && signal.reason === outerSignal.reason) return { interrupted: true };
  const reason = signal.aborted ? signal.reason : null;

  const role = scenario.kind === 'slow_clients' ? 'probe' : null;
  // External engines (httperf, wrk) keep no samples: their own summary stands in.
  const { summary: engineSummary, fd_failures: engineFdFailures = 0, ...engineExtra } = extra;
  const stats = engineSummary || summarizeSamples(samples, { role });
  const allReplies = role ? summarizeSamples(samples).replies : stats.replies;
  const durationS = stats.last_end_ms !== null ? stats.last_end_ms / 1000 : wallMs / 1000;
  const clientS = (after.client.user - before.client.user + after.client.system - before.client.system) / 1e6;
  const clientPct = round3(((clientS * 1000) / wallMs) * 100);

  const timeouts = stats.errors ? stats.errors.timeout || 0 : 0;
  const suspectHung = !serverState.exit && ((reason && reason.kind === 'deadline') || timeouts > 0);
  if (suspectHung && !(await stillAnswers(handle))) serverState.hung = scenario.name;

  let failure = null;
  // Connections the load generator could not open for want of descriptors (null: none).
  let clientFdFailures = null;
  if (serverState.exit) {
    failure = `the server exited during the run (${describeExit(serverState.exit)})${lastLine(handle.output()) ? `: ${lastLine(handle.output())}` : ''}`;
  } else if (serverState.hung) {
    failure = `the server stopped answering (hung): ${timeouts} requests timed out, and a GET /hello after the run got no reply within ${HUNG_PROBE_MS / 1000} s`;
  } else if (reason && reason.kind === 'deadline') {
    failure = `the run did not finish within its deadline of ${Math.round(deadlineMs / 1000)} s`;
  } else if (engineError) {
    failure = `${LOAD_GENERATOR_FAILED}: ${engineError.message}`;
  } else if (engineFdFailures > 0 || outOfDescriptors() > fdBefore.client) {
    // This process's connections (the built-in engines) or those of an engine's own process.
    clientFdFailures = engineFdFailures + outOfDescriptors() - fdBefore.client;
    failure = `${LOAD_GENERATOR_FAILED}: ${outOfDescriptorsText(clientFdFailures)}`;
  } else if (capWarnings(handle) > fdBefore.server) {
    failure = `the server reached its connection cap and closed new connections (fd limit ${fdLimitText(pid === null ? null : readLimits(pid))}): raise \`ulimit -n\``;
  } else if (stats.replies === 0) {
    const kinds = Object.entries(stats.errors).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
    failure = `no replies${kinds ? ` (errors: ${kinds})` : ''}`;
  } else if (stats.status['2xx'] === 0) {
    const classes = Object.entries(stats.status).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
    failure = `no 2xx replies (${classes})`;
  }

  const counts = { requests: stats.requests, replies: stats.replies, errors: stats.errors, status: stats.status, latency_ms: stats.latency_ms, latency_histogram: stats.latency_histogram || null, connect_ms: stats.connect_ms };
  const run = {
    server,
    scenario: scenario.name,
    trial,
    engine,
    ok: failure === null,
    failure,
    started_at: startedAt,
    ...counts,
    throughput_rps: durationS > 0 ? round3(stats.replies / durationS) : null,
    duration_s: round3(durationS),
    server_cpu: cpu
      ? {
          user_s: cpu.user_s,
          system_s: cpu.system_s,
          total_s: cpu.total_s,
          ms_per_request: allReplies > 0 ? round6((cpu.total_s * 1000) / allReplies) : null,
          // The step of ms_per_request: schedstat's nanosecond, or where it could not be used one
          // clock tick (10 ms at USER_HZ 100) over the replies (perf/lib/rule/compare.js leaves
          // coarser ones unjudged).
          resolution_ms: allReplies > 0 ? (cpu.resolution_s * 1000) / allReplies : null,
        }
      : null,
    server_peak_rss_mb: peakKb ? Math.round((peakKb / 1024) * 10) / 10 : null,
    // Connection attempts the kernel dropped at a full accept queue over the run, in the server's
    // network namespace (proc_stats.js readListenOverflows): each a reply 1 s late or more.
    // Other listeners there (a paired round's idle servers, the backends) take no new connections.
    listen_overflows: before.listenOverflows !== null && after.listenOverflows !== null ? after.listenOverflows - before.listenOverflows : null,
    // false for --target: a server elsewhere has no /proc here, so its CPU and memory are not measured.
    server_measured: pid !== null,
    client_cpu_pct: clientPct,
    client_fd_failures: clientFdFailures,
    // How late the load generator's own event loop ran (beyond the 10 ms sampling interval):
    // a high value means its measurements include its own delays (a busy or shared CPU).
    client_loop_delay_ms: {
      p99: round3(Math.max(0, loopDelay.percentile(99) / 1e6 - 10)),
      max: round3(Math.max(0, loopDelay.max / 1e6 - 10)),
    },
    warmup,
    superseded_by: null, // set when another engine's runs of the scenario give its verdict
    params: scenarioParams(scenario),
    ...engineExtra,
  };
  // The engines measure their CPU; whether it made them the bottleneck is judged here, for all.
  Object.assign(run, checkClientBound(run));
  const waited = aboveWait(run.params, run.latency_ms);
  if (waited) run.above_wait_ms = waited;
  // An external engine is a process of its own: its CPU is the load generator's too.
  const engineCpu = engineExtra.client_cpu ? engineExtra.client_cpu.user_s + engineExtra.client_cpu.system_s : 0;
  const { server_cpu_pct: serverCpuPct, server_resolution_pct: serverResolutionPct, ...machineCpu } = cpuShares({
    wallS: wallMs / 1000,
    loadS: durationS,
    serverS: cpu ? cpu.total_s : null,
    serverStepS: cpu ? cpu.resolution_s : undefined,
    clientS: clientS + engineCpu,
    besideS: [...besideCpu, ...backendCpu].reduce((t, b) => t + (b.cpu ? b.cpu.total_s : 0), 0),
    machine: machineCpuDelta(before.machine, after.machine),
  });
  run.server_cpu_pct = serverCpuPct;
  const middle = middleShare(ranReadings, { from: before.at, to: after.at });
  run.server_middle_cpu_pct = middle ? middle.cpu_pct : null;
  // The server's utilization sets how long the queue a pause leaves behind takes to drain.
  const runtime = await runtimeOf(handle, { from: before.at, to: after.at, samples, replies: allReplies, utilization: serverCpuPct === null ? null : serverCpuPct / 100 });
  if (runtime) run.runtime = runtime;
  run.machine_cpu = machineCpu;
  if (link) {
    run.link_usage = linkUsage(linkBefore, linkAfter, { rateBits: link.rateBits, replies: stats.replies, loadS: durationS });
    run.link_bound = isLinkBound(run.link_usage);
  }
  if (beside.length) run.beside = besideCpu.map((b) => ({ server: b.server, cpu_pct: b.cpu ? round1((b.cpu.total_s * 100000) / wallMs) : null }));
  // A backend's share of a core over the load, and its CPU per reply: the server's own figures
  // leave it out, and a backend near a full core is the run's limit, not the server's.
  if (backends.length) {
    run.backends = backendCpu.map((b) => ({
      name: b.name,
      cpu_pct: b.cpu && durationS > 0 ? round1((b.cpu.total_s * 100) / durationS) : null,
      ms_per_request: b.cpu && allReplies > 0 ? round6((b.cpu.total_s * 1000) / allReplies) : null,
    }));
  }
  // The load generator's own lateness: its event loop's delay and how late it handed out what was due.
  // (An external engine's run has no event-loop delay of its own: null.)
  const clientLateMs = clientLateness({ loopP99: run.client_loop_delay_ms?.p99 ?? null, lagMean: run.schedule_lag_ms?.mean ?? null, lagP99: run.schedule_lag_ms?.p99 ?? null });
  const { reasons, ...verdict } = checkRun({ scenario, ok: run.ok, failure, clientCpuPct: run.client_cpu_pct, clientBound: run.client_bound, clientLateMs, linkUsage: run.link_usage || null, shares: { server_cpu_pct: serverCpuPct, server_middle: middle, server_resolution_pct: serverResolutionPct, ...machineCpu }, loadS: durationS, loadProblems: engineExtra.load_problems || [], paired, beside: run.beside, backends: run.backends });
  Object.assign(run, verdict, { not_judged_because: reasons.map(reasonWords) });
  return { run, samples };
}

module.exports = { runOne, failedRun, runDeadlineMs, settle, describeExit, loadGeneratorFailed };
