'use strict';
// runScenarios(options): the scenario runner's programmatic API (perf/cli.js is a thin shell
// over it). For each trial, for each server: start it (pinned to one CPU), check the contract,
// run every scenario it can serve against it (the load generator, this process, pinned to
// another CPU), stop it. At the end, aggregates and comparisons over the trials (./trials.js).
// Each run is appended to results.json as soon as it ends; the summary is written at the end,
// also when the run is interrupted (options.signal), stopped by an error (a full disk), or
// ended at once by finishLiveRuns() (a second Ctrl-C). Every wait has a deadline.

const { performance, monitorEventLoopDelay } = require('node:perf_hooks');
const { startServer, remoteServer, loadServerDefinitions } = require('./server_process');
const { createLink, removeLink, parseRate, linkUnavailableReason, LinkError } = require('./netns');
const { loadScenarios, expectedDurationS, scenarioParams, warmupScenario, MAX_WARMUP_S } = require('./scenarios');
const { checkContract, send } = require('./contract_check');
const { Samples } = require('./samples');
const { summarizeSamples, round3 } = require('./stats');
const { readCpu, cpuDelta, startRssSampler, countFds, readMachineCpu, machineCpuDelta, clkTck } = require('./proc_stats');
const { isClientBound, cpuShares, judgeRun } = require('./bottleneck');
const { collectEnvironment } = require('./environment');
const { ResultsStore, createResultsDir, RESULTS_ROOT } = require('./results_store');
const { toMarkdown, toCsv, toText } = require('./summary');
const { planPinning, pinProcess } = require('./pinning');
const { ENGINES, DEFAULT_ENGINE, engineFor, whyNotInstalled, selectEngine, skippedLine } = require('./engines');
const { analyzeRuns } = require('./trials');
const { trialPlan, missingCapabilities, missingRequirement, estimatePlanS, fmtDuration } = require('./trial_plan');

const HOST = '127.0.0.1'; // servers it starts listen here, unless --link puts them in a namespace
// Inside --link's namespace nothing else listens, so every server can have the same port.
const LINK_PORT = 8080;
const CONTRACT_DEADLINE_MS = 120000;
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

/** A mistake in what the caller asked for (unknown server…): the CLI prints it with usage, exit 2. */
class UsageError extends Error {}

// How to end each run in progress at once (see finishLiveRuns).
const liveRuns = new Set();

/**
 * Ends every run in progress at once, synchronously, for exit paths (a second Ctrl-C): records
 * it in results.json as interrupted, with the runs finished so far, and writes their summary.
 * Returns what runScenarios would have resolved for each. The process is to exit after it.
 */
function finishLiveRuns() {
  return [...liveRuns].map((finish) => finish({ cutShort: true }));
}

/** How long a run (with its warm-up) may take before it is abandoned, in ms. */
function runDeadlineMs(s) {
  const warm = warmupScenario(s);
  const expected = expectedDurationS(s);
  // A count-bounded closed loop's speed depends on the server: 900 s.
  const measured = expected === null ? 900000 : Math.round((expected * 1.5 + s.timeout_s + 30) * 1000);
  return measured + (warm ? runDeadlineMs(warm) : 0);
}

function describeExit({ code, signal, error }) {
  if (error) return error.message;
  return signal ? `signal ${signal}` : `exit code ${code}`;
}

function lastLine(text) {
  return (text || '').split('\n').filter(Boolean).slice(-1)[0] || '';
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
    client_cpu_pct: null,
    client_bound: false,
    client_loop_delay_ms: null,
    warmup: null,
    server_cpu_pct: null,
    server_bound: null,
    machine_cpu: null,
    disturbed: null,
    judged: false,
    not_judged_because: [`failed: ${failure}`],
    superseded_by: null,
    params: scenarioParams(scenario),
    ...extra,
  };
}

/** Waits (polling, bounded) until the server's open descriptors are back near baseline. */
async function settle(pid, baseline, maxMs = 3000) {
  if (baseline === null) return;
  const until = performance.now() + maxMs;
  while (performance.now() < until) {
    const n = countFds(pid);
    if (n === null || n <= baseline + 2) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function fmtNum(x, digits = 2) {
  return x === null || x === undefined ? '–' : x.toFixed(digits);
}

function runLine(run, { serverWidth = 5, trials = 1 } = {}) {
  const tag = `${run.server.padEnd(serverWidth)} ${run.scenario.padEnd(20)}`;
  const trial = trials > 1 && run.trial ? `, trial ${run.trial}/${trials}` : '';
  if (!run.ok) return `${tag} FAILED${trial ? ` (${trial.slice(2)})` : ''}: ${run.failure}`;
  const errors = Object.values(run.errors).reduce((a, b) => a + b, 0);
  return (
    `${tag} ${String(run.replies).padStart(6)}/${run.requests} replies` +
    `  mean ${fmtNum(run.latency_ms.mean)} ms  p99 ${fmtNum(run.latency_ms.p99)} ms` +
    `  ${Math.round(run.throughput_rps)} req/s  cpu ${fmtNum(run.server_cpu && run.server_cpu.ms_per_request, 3)} ms/req` +
    `${errors ? `  errors ${errors}` : ''}${run.client_bound ? '  CLIENT-BOUND' : ''}` +
    `${run.server_bound === false ? `  NOT SERVER-BOUND (server ${run.server_cpu_pct}% of its core)` : ''}${run.disturbed ? '  DISTURBED' : ''}` +
    `  (${run.duration_s.toFixed(1)} s${trial})`
  );
}

/** The counters a run's window is measured between: the server's CPU, this process's (the load generator), the machine's. */
function cpuSnapshot(pid) {
  return { at: performance.now(), server: readCpu(pid), client: process.cpuUsage(), machine: readMachineCpu() };
}

/**
 * Sends scenario's warm-up load (warmupScenario) through the built-in engine and forgets its
 * replies; resolves { seconds, requests } (requests sent, errors included).
 */
async function warmUp({ handle, scenario, signal }) {
  const samples = new Samples();
  const started = samples.start();
  await ENGINES[engineFor(scenario)].run({ host: handle.host, port: handle.port, scenario, samples, signal, onProgress: null });
  return { seconds: round3((performance.now() - started) / 1000), requests: samples.length };
}

/**
 * Runs one scenario against a running server: its warm-up (not counted), then the measured run.
 * Resolves { run, samples } or, when the outer signal interrupted it, { interrupted: true }.
 */
async function runOne({ server, trial = null, handle, scenario, outerSignal, serverState, progress }) {
  const engine = engineFor(scenario);
  const controller = new AbortController();
  const abort = (reason) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const onOuter = () => abort({ kind: 'interrupted' });
  if (outerSignal) {
    if (outerSignal.aborted) return { interrupted: true };
    outerSignal.addEventListener('abort', onOuter, { once: true });
  }
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
      warmup = await warmUp({ handle, scenario: warm, signal: controller.signal });
    } catch (err) {
      engineError = new Error(`during the warm-up: ${err.message}`, { cause: err });
    }
  }
  const samples = new Samples();
  const startedAt = new Date().toISOString();
  const rss = startRssSampler(pid);
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const before = cpuSnapshot(pid);
  samples.start();
  let extra = {};
  try {
    // Not after a warm-up that failed or was cut short (the server exited, a deadline, Ctrl-C).
    if (!engineError && !controller.signal.aborted) {
      extra = (await ENGINES[engine].run({ host: handle.host, port: handle.port, scenario, samples, signal: controller.signal, onProgress: progress })) || {};
    }
  } catch (err) {
    engineError = err;
  } finally {
    clearTimeout(deadline);
    serverState.abortRun = null;
    if (outerSignal) outerSignal.removeEventListener('abort', onOuter);
  }
  const after = cpuSnapshot(pid);
  const wallMs = after.at - before.at;
  loopDelay.disable();
  const cpu = cpuDelta(before.server, after.server);
  const peakKb = rss.stop();

  const reason = controller.signal.aborted ? controller.signal.reason : null;
  if (reason && reason.kind === 'interrupted') return { interrupted: true };

  const role = scenario.kind === 'slow_clients' ? 'probe' : null;
  // External engines (httperf, wrk) keep no samples: their own summary stands in.
  const { summary: engineSummary, ...engineExtra } = extra;
  const stats = engineSummary || summarizeSamples(samples, { role });
  const allReplies = role ? summarizeSamples(samples).replies : stats.replies;
  const durationS = stats.last_end_ms !== null ? stats.last_end_ms / 1000 : wallMs / 1000;
  const clientS = (after.client.user - before.client.user + after.client.system - before.client.system) / 1e6;
  const clientPct = round3(((clientS * 1000) / wallMs) * 100);

  const timeouts = stats.errors ? stats.errors.timeout || 0 : 0;
  const suspectHung = !serverState.exit && ((reason && reason.kind === 'deadline') || timeouts > 0);
  if (suspectHung && !(await stillAnswers(handle))) serverState.hung = scenario.name;

  let failure = null;
  if (serverState.exit) {
    failure = `the server exited during the run (${describeExit(serverState.exit)})${lastLine(handle.output()) ? `: ${lastLine(handle.output())}` : ''}`;
  } else if (serverState.hung) {
    failure = `the server stopped answering (hung): ${timeouts} requests timed out, and a GET /hello after the run got no reply within ${HUNG_PROBE_MS / 1000} s`;
  } else if (reason && reason.kind === 'deadline') {
    failure = `the run did not finish within its deadline of ${Math.round(deadlineMs / 1000)} s`;
  } else if (engineError) {
    failure = `the load generator failed: ${engineError.message}`;
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
          ms_per_request: allReplies > 0 ? round3(((cpu.user_s + cpu.system_s) * 1000) / allReplies) : null,
          // The kernel counts CPU time in clock ticks (10 ms at USER_HZ 100): one tick over the
          // replies is the step of ms_per_request (perf/lib/trials.js leaves coarser ones unjudged).
          resolution_ms: allReplies > 0 ? 1000 / clkTck() / allReplies : null,
        }
      : null,
    server_peak_rss_mb: peakKb ? Math.round((peakKb / 1024) * 10) / 10 : null,
    // false for --target: a server elsewhere has no /proc here, so its CPU and memory are not measured.
    server_measured: pid !== null,
    client_cpu_pct: clientPct,
    client_bound: isClientBound(clientPct),
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
  // An external engine is a process of its own: its CPU is the load generator's too.
  const engineCpu = engineExtra.client_cpu ? engineExtra.client_cpu.user_s + engineExtra.client_cpu.system_s : 0;
  const { server_cpu_pct: serverCpuPct, server_resolution_pct: serverResolutionPct, ...machineCpu } = cpuShares({
    wallS: wallMs / 1000,
    loadS: durationS,
    serverS: cpu ? cpu.user_s + cpu.system_s : null,
    clientS: clientS + engineCpu,
    machine: machineCpuDelta(before.machine, after.machine),
  });
  run.server_cpu_pct = serverCpuPct;
  run.machine_cpu = machineCpu;
  Object.assign(run, judgeRun({ scenario, ok: run.ok, failure, clientCpuPct: run.client_cpu_pct, clientBound: run.client_bound, shares: { server_cpu_pct: serverCpuPct, server_resolution_pct: serverResolutionPct, ...machineCpu }, loadS: durationS }));
  return { run, samples };
}

/**
 * options: {
 *   servers: ['node','em'], scenarios: names or null (all), quick: false,
 *   repeat: trials per server and scenario (default 1), run interleaved: trial 1 of every
 *   server, then trial 2 of every server…; each trial starts each server afresh,
 *   outDir: null (perf/results/<UTC timestamp>, and perf/results/latest points at it),
 *   pin: true, definitions (default perf/servers.json), scenariosDir,
 *   signal (AbortSignal: stop, keep finished runs, write the summary),
 *   log(line), status(text or null) for a live progress line, readyTimeoutMs,
 *   resultsRoot (default perf/results: where outDir null creates its folder and latest),
 *   warmup: seconds of warm-up before every run, overriding the scenarios' warmup_s (0: none),
 *   lighterEngines: true (with the default engine, run scenarios again with httperf or wrk
 *     where they are the lighter load generator: againWithLighterEngines) }
 * Resolves { dir, runs, interrupted, error (the message of what stopped the run, or null),
 * unwritten ([{ name, message }]: files its end could not write), summaryText, resultsFile }.
 */
async function runScenarios(options = {}) {
  let definitions = options.definitions || loadServerDefinitions();
  const serverNames = options.servers || ['node', 'em'];
  if (options.target) {
    // --target URL: one server, already running (here or on another machine), named by --servers.
    if (serverNames.length !== 1) throw new UsageError('--target benchmarks one server: name it with --servers NAME (a name of perf/servers.json, or any label)');
    let url;
    try {
      url = new URL(options.target);
    } catch {
      url = null;
    }
    if (!url || url.protocol !== 'http:' || !url.port) throw new UsageError(`--target takes http://HOST:PORT, got '${options.target}'`);
    const [label] = serverNames;
    const known = definitions[label] || { serves: null };
    definitions = { ...definitions, [label]: { ...known, description: `already running at ${url.origin}`, remote: url.origin } };
  }
  if (options.target && options.link) throw new UsageError('--link runs servers it starts; it cannot be used with --target');
  if (options.link) {
    try {
      parseRate(options.link);
    } catch (err) {
      throw new UsageError(err.message);
    }
    const unavailable = linkUnavailableReason();
    if (unavailable) throw new UsageError(unavailable);
  }
  const unknown = serverNames.filter((s) => !definitions[s]);
  if (unknown.length) throw new UsageError(`unknown server${unknown.length > 1 ? 's' : ''} ${unknown.map((s) => `'${s}'`).join(', ')} (known: ${Object.keys(definitions).join(', ')})`);
  if (serverNames.length === 0) throw new UsageError('no servers selected');
  // --engine httperf|wrk: scenarios it cannot run faithfully are skipped (engineSkipped).
  const engineName = options.engine || 'autocannon';
  // Only the default engine's runs are ever replaced by a lighter engine's; behind --link the
  // link is meant to set the pace, which no lighter client changes.
  const lighter = options.lighterEngines !== false && engineName === DEFAULT_ENGINE && !options.link;
  const selected = selectEngine(loadScenarios({ dir: options.scenariosDir, quick: !!options.quick, names: options.scenarios || null }), engineName);
  const engineSkipped = selected.skipped;
  // --warmup SECONDS: every scenario's warm-up, whatever its file says.
  const warmupOverride = options.warmup ?? null;
  if (warmupOverride !== null && !(typeof warmupOverride === 'number' && warmupOverride >= 0 && warmupOverride <= MAX_WARMUP_S)) {
    throw new UsageError(`--warmup must be a number of seconds from 0 (none) to ${MAX_WARMUP_S}, not '${warmupOverride}'`);
  }
  const scenarios = warmupOverride === null ? selected.scenarios : selected.scenarios.map((s) => ({ ...s, warmup_s: warmupOverride }));
  const log = options.log || ((line) => process.stdout.write(line + '\n'));
  const status = options.status || (() => {});
  const signal = options.signal || null;
  const trials = options.repeat ?? 1; // the CLI's default: DEFAULT_TRIALS (trial_plan.js)
  if (!Number.isInteger(trials) || trials < 1) throw new UsageError(`--repeat must be a whole number, 1 or more (not '${options.repeat}')`);
  // Servers that cannot run on this machine, and scenarios a server cannot serve, are skipped.
  const skipped = [];
  const served = {};
  for (const server of serverNames) {
    const lacking = missingRequirement(definitions[server]);
    if (lacking) skipped.push({ server, scenario: null, reason: lacking });
    served[server] = lacking ? [] : scenarios.filter((s) => {
      const lacks = missingCapabilities(definitions[server], s);
      if (lacks) skipped.push({ server, scenario: s.name, reason: `needs ${lacks.join(', ')}; ${server} serves ${definitions[server].serves.join(', ')}` });
      return !lacks;
    });
    if (!lacking && !served[server].length) skipped.push({ server, scenario: null, reason: 'it serves none of the selected scenarios' });
  }
  const runnable = serverNames.filter((s) => served[s].length > 0);
  if (!runnable.length) throw new Error(`no server can run: ${skipped.filter((k) => k.scenario === null).map((k) => `${k.server}: ${k.reason}`).join('; ')}`);
  const plan = trialPlan(runnable, trials);
  const serverWidth = Math.max(5, ...runnable.map((s) => s.length));

  const pinning = planPinning({ want: options.pin !== false });
  const resultsRoot = options.resultsRoot || RESULTS_ROOT;
  const dir = createResultsDir({ dir: options.outDir, root: resultsRoot });
  const store = new ResultsStore(dir, { latestRoot: options.outDir ? null : resultsRoot });
  const environment = collectEnvironment({
    pinning,
    options: {
      quick: !!options.quick,
      servers: serverNames,
      scenarios: scenarios.map((s) => s.name),
      out: dir,
      pin: options.pin !== false,
      repeat: trials,
      target: options.target || null,
      link: options.link || null,
      engine: engineName,
      warmup: warmupOverride,
      lighter_engines: lighter,
    },
  });
  environment.started_at = new Date().toISOString();
  environment.servers = Object.fromEntries(serverNames.map((s) => [s, definitions[s]]));
  // Pinned only now: the environment above still saw every CPU.
  if (pinning.enabled) {
    try {
      pinProcess(process.pid, pinning.client_cpu);
    } catch (err) {
      Object.assign(pinning, { enabled: false, server_cpu: null, client_cpu: null, reason: err.message });
    }
  }

  const wasInterrupted = () => !!(signal && signal.aborted);
  let ended = null;
  // Records how the run ended (results.json, summary.md/.csv), once; synchronous, so that a
  // second Ctrl-C can call it (finishLiveRuns) and exit.
  const finish = ({ error = null, cutShort = false } = {}) => {
    if (ended) return ended;
    liveRuns.delete(finish);
    const interrupted = cutShort || wasInterrupted();
    store.environment.finished_at = new Date().toISOString();
    const analysis = analyzeRuns(store.runs, { servers: runnable, scenarios: store.environment.options.scenarios });
    const context = { definitions: environment.servers, skipped, ...analysis };
    const unwritten = store.finish(
      { interrupted, error: error ? error.message : null, skipped, ...analysis },
      { 'summary.md': toMarkdown(store.runs, context), 'summary.csv': toCsv(store.runs, context) },
    );
    ended = {
      dir,
      runs: store.runs,
      interrupted,
      error: error ? error.message : null,
      unwritten: unwritten.map((u) => ({ name: u.name, message: u.error.message })),
      summaryText: toText(store.runs, context),
      resultsFile: store.resultsFile,
    };
    return ended;
  };

  let link = null;
  let error = null;
  try {
    store.init(environment);
    liveRuns.add(finish);
    store.setExtra({ interrupted: false, error: null, skipped });
    log(`results: ${dir}`);
    log(pinning.enabled ? `pinning: servers on CPU ${pinning.server_cpu}, load generator on CPU ${pinning.client_cpu}` : `pinning: off (${pinning.reason})`);
    for (const k of skipped) log(k.scenario ? `${k.server}: skips ${k.scenario} (${k.reason})` : `${k.server}: skipped: ${k.reason}`);
    if (engineSkipped.length) store.setExtra({ engine_skipped: engineSkipped });
    for (const k of engineSkipped) log(skippedLine(k));
    const runCount = runnable.reduce((n, s) => n + served[s].length, 0) * trials;
    log(`plan: ${trials} trial${trials > 1 ? 's' : ''} × ${runnable.length} server${runnable.length > 1 ? 's' : ''} (${runnable.join(', ')}), ${runCount} runs; expected to take about ${fmtDuration(estimatePlanS(plan, served) + (lighter ? foreseenAgainS({ runnable, served, trials }) : 0))}`);
    // --link RATE: the servers run in a network namespace behind a rate-limited veth pair.
    link = options.link ? createLink(options.link) : null;
    if (link) {
      store.environment.link = { rate: link.rate, rate_bits: link.rateBits, server_address: link.serverAddress, namespace: link.namespace, qdisc: 'tbf, both directions' };
      log(`link: servers in network namespace ${link.namespace} at ${link.serverAddress}, ${link.rate} each way (tbf)`);
    }
    const ctx = { plan, served, trials, definitions, options, link, pinning, store, signal, wasInterrupted, log, status, serverWidth };
    await runPlan(ctx);
    if (lighter && !wasInterrupted()) await againWithLighterEngines({ ...ctx, runnable });
  } catch (err) {
    if (!store.claimed) throw err; // no folder of its own to record anything in
    // Whatever stopped the run (a full disk…) is recorded with the runs finished before it.
    error = err;
  } finally {
    if (link) removeLink(link);
  }
  return finish({ error });
}

/**
 * The engine each scenario's verdict should come from, where another than the built-in one is
 * installed and can run it faithfully: { scenario: { engine, why } }.
 *   one client at a time (sequential_6000): the load generator's own time per request is part
 *     of every figure, so it is run again with httperf (C, the seed's own tool); the verdict
 *     then uses whichever engine's cycle per request is shorter (pickLighter)
 *   a closed loop where the built-in load generator was the bottleneck in some run
 *     (client-bound, or the server not saturated): run again with wrk (C, one thread)
 */
function lighterEngines(runnable, served, runs) {
  const bottlenecked = (r) => r.ok && r.engine !== 'wrk' && (r.client_bound || r.server_bound === false);
  const wanted = {};
  for (const s of runnable.flatMap((server) => served[server])) {
    if (wanted[s.name]) continue;
    const why = 'the built-in load generator was the bottleneck';
    if (oneClientAtATime(s) && ENGINES.httperf.whyNot(s) === null) {
      wanted[s.name] = { engine: 'httperf', why: 'one client at a time: the load generator\'s own time per request is part of every figure' };
    } else if (!runs.some((r) => r.scenario === s.name && bottlenecked(r))) {
      continue;
    } else if (ENGINES.wrk.whyNot(s) === null) {
      wanted[s.name] = { engine: 'wrk', why };
    } else {
      const timed = asTimed(s, runs);
      if (timed && ENGINES.wrk.whyNot({ ...s, ...timed }) === null) {
        wanted[s.name] = { engine: 'wrk', why: `${why}; wrk stops after a duration, so it runs for ${timed.duration_s} s, the time the built-in runs took, instead of ${s.requests} requests`, as: timed };
      }
    }
  }
  return wanted;
}

/**
 * A closed loop bounded by a total count of requests, as one bounded by time, for an engine
 * that only stops after a duration (wrk): the same connections and requests for the whole
 * seconds the built-in runs took (median, rounded up). The count only sets the run's length:
 * every connection stays open throughout either way. null for a count per connection (wrk
 * would keep a connection past it) or when no built-in run finished.
 */
function asTimed(s, runs) {
  if (s.kind !== 'closed' || s.requests === null || s.requests_per_connection !== null) return null;
  const took = median(runs.filter((r) => r.scenario === s.name && r.ok && r.engine !== 'wrk').map((r) => r.duration_s));
  return took ? { requests: null, duration_s: Math.max(1, Math.ceil(took)) } : null;
}

/** The runs again with other engines: { plan, served } for runPlan. */
function againPlan({ runnable, served, trials, wanted, names }) {
  const again = Object.fromEntries(runnable.map((server) => [server, served[server].filter((s) => names.includes(s.name)).map((s) => ({ ...s, ...wanted[s.name].as, engine: wanted[s.name].engine }))]));
  return { plan: trialPlan(runnable.filter((server) => again[server].length), trials), served: again };
}

/**
 * Seconds the runs again with other engines will take that can be foreseen before any run: the
 * one-client-at-a-time scenarios (httperf). wrk's depend on what the runs find.
 */
function foreseenAgainS({ runnable, served, trials }) {
  const wanted = lighterEngines(runnable, served, []);
  const names = Object.keys(wanted).filter((name) => !whyNotInstalled(wanted[name].engine));
  if (!names.length) return 0;
  const again = againPlan({ runnable, served, trials, wanted, names });
  return estimatePlanS(again.plan, again.served);
}

function oneClientAtATime(s) {
  return s.kind === 'closed' && s.concurrency === 1;
}

const median = (xs) => {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return v.length ? (v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2) : null;
};

/**
 * Of the built-in engine's runs and `engine`'s runs of a one-client-at-a-time scenario, the
 * engine whose own time per request is smaller: { engine, text }. Each request's cycle is the
 * server's time plus the load generator's, one after the other, so against the same server the
 * engine with the shorter cycle (1 / req/s, median of its runs) spends less of its own; it must
 * be shorter on every server. (CPU time cannot tell: httperf busy-polls a whole core.)
 */
function pickLighter(runs, scenario, engine) {
  const mine = runs.filter((r) => r.scenario === scenario && r.ok);
  const builtInName = mine.find((r) => r.engine !== engine)?.engine || DEFAULT_ENGINE;
  const cycleMs = (server, isOther) => {
    const rps = median(mine.filter((r) => r.server === server && (r.engine === engine) === isOther).map((r) => r.throughput_rps));
    return rps ? 1000 / rps : null;
  };
  const servers = [...new Set(mine.map((r) => r.server))];
  const cycles = servers.map((server) => ({ server, other: cycleMs(server, true), builtIn: cycleMs(server, false) }));
  const figures = cycles.map((c) => `${c.server} ${fmtMs(c.other)} vs ${fmtMs(c.builtIn)}`).join(', ');
  const shorter = cycles.every((c) => c.other !== null && (c.builtIn === null || c.other < c.builtIn));
  return shorter
    ? { engine, text: `${engine}'s cycle per request is shorter than ${builtInName}'s on every server (${figures} ms)` }
    : { engine: builtInName, text: `${engine}'s cycle per request is not shorter than ${builtInName}'s on every server (${figures} ms)` };
}

const fmtMs = (x) => (x === null ? '?' : x.toFixed(3));

/**
 * A verdict wherever the machine can give one, from the lightest engine that runs the scenario
 * faithfully (lighterEngines): those scenarios are run again in full, every trial of every
 * server, with that engine. Both sets of runs are kept; a verdict uses one engine per scenario,
 * so that both its sides are measured alike; the other engine's runs are marked superseded
 * (superseded_by). results.json's verdict_engines says which scenarios, and why.
 */
async function againWithLighterEngines(ctx) {
  const { store, served, runnable, trials, log } = ctx;
  const wanted = lighterEngines(runnable, served, store.runs);
  const names = Object.keys(wanted).filter((name) => {
    const why = whyNotInstalled(wanted[name].engine);
    if (why) log(`${wanted[name].engine}: does not run ${name} again (${wanted[name].why}): ${why}`);
    return !why;
  });
  if (!names.length) return;
  const again = againPlan({ runnable, served, trials, wanted, names });
  for (const name of names) log(`${wanted[name].engine}: runs ${name} again: ${wanted[name].why}`);
  log(`plan: ${again.plan.length} more server starts; expected to take about ${fmtDuration(estimatePlanS(again.plan, again.served))} more`);
  await runPlan({ ...ctx, ...again });
  const verdictEngines = {};
  const reasons = {};
  for (const name of names) {
    const { engine, why } = wanted[name];
    const pick = engine === 'httperf' ? pickLighter(store.runs, name, engine) : { engine, text: why };
    verdictEngines[name] = pick.engine;
    reasons[name] = pick.text;
    log(`${name}: the verdict uses ${pick.engine}'s runs (${pick.text})`);
    for (const r of store.runs) {
      if (r.scenario !== name || r.engine === pick.engine || !r.ok) continue;
      r.judged = false;
      r.superseded_by = pick.engine;
      r.not_judged_because.push(`superseded: ${pick.engine} ran ${name} again (${pick.text}); the verdict uses ${pick.engine}'s runs`);
    }
  }
  store.setExtra({ verdict_engines: verdictEngines, verdict_engine_reasons: reasons });
}

/** The trials of the plan, server by server; appends each run to the store as it ends. */
async function runPlan({ plan, served, trials, definitions, options, link, pinning, store, signal, wasInterrupted, log, status, serverWidth }) {
  const fullyChecked = new Set();
  for (const { trial, server } of plan) {
    if (wasInterrupted()) break;
    const scenarios = served[server]; // only the scenarios this server can serve
    const ofTrials = trials > 1 ? ` (trial ${trial}/${trials})` : '';
    log(`${server}: starting${ofTrials} (${definitions[server].description || definitions[server].command})`);
    let handle;
    try {
      const cpu = pinning.enabled ? pinning.server_cpu : null;
      const readyTimeoutMs = options.readyTimeoutMs || 20000;
      if (options.target) handle = remoteServer(server, options.target);
      else if (link) handle = await startServer(server, { definitions, host: link.serverAddress, port: LINK_PORT, prefix: link.commandPrefix, cpu, readyTimeoutMs });
      else handle = await startServer(server, { definitions, host: HOST, cpu, readyTimeoutMs });
    } catch (err) {
      log(`${server}: not benchmarked: ${err.message}`);
      for (const s of scenarios) store.addRun(failedRun(server, s, `the server did not start: ${err.message}`, { trial }));
      continue;
    }
    const serverState = { exit: null, diedDuring: null, hung: null, abortRun: null, current: null };
    handle.exited.then((info) => {
      serverState.exit = info;
      serverState.diedDuring = serverState.current;
      if (serverState.abortRun) serverState.abortRun();
    });
    const onInterrupt = () => handle.stop(2000);
    if (signal) signal.addEventListener('abort', onInterrupt, { once: true });
    try {
      if (wasInterrupted()) break; // while it started: stopped below, unchecked
      const short = fullyChecked.has(server); // later trials: a short check
      log(`${server}: pid ${handle.pid} listening on ${handle.url}; checking the contract${short ? ' (short check)' : ''}`);
      let contract;
      try {
        contract = await Promise.race([
          checkContract({ host: handle.host, port: handle.port }, scenarios, { serves: definitions[server].serves || null, short }),
          new Promise((resolve) => setTimeout(() => resolve({ ok: false, failure: `contract checks did not finish within ${CONTRACT_DEADLINE_MS / 1000} s` }), CONTRACT_DEADLINE_MS).unref()),
          handle.exited.then((info) => ({ ok: false, failure: `the server exited during the contract checks (${describeExit(info)})` })),
        ]);
      } catch (err) {
        contract = { ok: false, failure: err.message };
      }
      if (wasInterrupted()) break;
      if (!contract.ok) {
        log(`${server}: not benchmarked: the contract check failed: ${contract.failure}`);
        for (const s of scenarios) store.addRun(failedRun(server, s, `the server failed the contract check: ${contract.failure}`, { trial }));
        continue;
      }
      fullyChecked.add(server);
      const baselineFds = countFds(handle.pid);
      for (const scenario of scenarios) {
        if (wasInterrupted()) break;
        if (serverState.hung) {
          store.addRun(failedRun(server, scenario, `not run: the server stopped answering during ${serverState.hung}`, { trial }));
          continue;
        }
        if (serverState.exit) {
          store.addRun(failedRun(server, scenario, `not run: the server exited during ${serverState.diedDuring || 'an earlier scenario'} (${describeExit(serverState.exit)})`, { trial }));
          continue;
        }
        serverState.current = scenario.name;
        const label = `${server.padEnd(serverWidth)} ${scenario.name.padEnd(20)}`;
        const expected = expectedDurationS(scenario);
        const about = [trials > 1 ? `trial ${trial}/${trials}` : null, expected ? `~${Math.ceil(expected)} s` : null, scenario.warmup_s ? `after a ${scenario.warmup_s} s warm-up` : null].filter(Boolean).join(', ');
        status(`${label} running${about ? ` (${about})` : ''}`);
        let lastStatus = 0;
        const progress = ({ done, total }) => {
          const now = performance.now();
          if (now - lastStatus < 250) return;
          lastStatus = now;
          status(`${label} ${done}${total ? `/${total}` : ''} done`);
        };
        const result = await runOne({ server, trial, handle, scenario, outerSignal: signal, serverState, progress });
        status(null);
        if (result.interrupted) {
          log(`${label} interrupted; not recorded`);
          break;
        }
        store.addRun(result.run, result.samples);
        log(runLine(result.run, { serverWidth, trials }));
        if (!serverState.exit && !serverState.hung) await settle(handle.pid, baselineFds);
      }
    } finally {
      if (signal) signal.removeEventListener('abort', onInterrupt);
      await handle.stop(3000);
      log(`${server}: stopped`);
    }
  }
}

module.exports = { LinkError, runScenarios, finishLiveRuns, runOne, runDeadlineMs, failedRun, pickLighter, UsageError, HOST };
