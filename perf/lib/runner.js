'use strict';
// runScenarios(options): the scenario runner's programmatic API (perf/cli.js is a thin shell
// over it). For each server: start it (pinned to one CPU), check the contract, run every
// scenario against it (the load generator, this process, pinned to another CPU), stop it.
// Each run is appended to results.json as soon as it ends; the summary is written at the end,
// also when the run is interrupted (options.signal). Every wait has a deadline.

const path = require('node:path');
const { performance, monitorEventLoopDelay } = require('node:perf_hooks');
const { startServer, loadServerDefinitions } = require('./server_process');
const { loadScenarios, expectedDurationS, scenarioParams } = require('./scenarios');
const { checkContract } = require('./contract_check');
const { Samples } = require('./samples');
const { summarizeSamples, round3 } = require('./stats');
const { readCpu, cpuDelta, startRssSampler, countFds } = require('./proc_stats');
const { collectEnvironment } = require('./environment');
const { ResultsStore, defaultResultsDir, RESULTS_ROOT } = require('./results_store');
const { toMarkdown, toCsv, toText } = require('./summary');
const { planPinning, pinProcess } = require('./pinning');
const { runOpenLoop } = require('./open_loop');
const { runSequential } = require('./sequential');
const { runAutocannon } = require('./autocannon_engine');
const { runSlowClients } = require('./slow_clients');

const HOST = '127.0.0.1'; // the runner only ever targets the local machine
const CLIENT_BOUND_PCT = 90;
const CONTRACT_DEADLINE_MS = 120000;

/** A mistake in what the caller asked for (unknown server…): the CLI prints it with usage, exit 2. */
class UsageError extends Error {}

/**
 * Engines by name. Each says whether it can run a scenario faithfully and runs it:
 * run(ctx) with ctx = { host, port, scenario, samples, signal, onProgress } resolves with extra
 * fields for the run object. Issue 6 adds httperf and wrk here.
 */
const ENGINES = {
  autocannon: {
    supports: (s) => s.kind === 'closed' && s.keep_alive,
    run: ({ host, port, scenario: s, samples, signal, onProgress }) =>
      runAutocannon({
        host,
        port,
        request: s.request,
        concurrency: s.concurrency,
        requests: s.requests,
        requestsPerConnection: s.requests_per_connection,
        durationMs: s.duration_s === null ? null : s.duration_s * 1000,
        timeoutMs: s.timeout_s * 1000,
        samples,
        signal,
        onProgress,
      }),
  },
  sequential: {
    supports: (s) => s.kind === 'closed' && !s.keep_alive,
    run: ({ host, port, scenario: s, samples, signal, onProgress }) =>
      runSequential({
        host,
        port,
        request: s.request,
        concurrency: s.concurrency,
        requests: s.requests,
        durationMs: s.duration_s === null ? null : s.duration_s * 1000,
        timeoutMs: s.timeout_s * 1000,
        samples,
        signal,
        onProgress,
      }),
  },
  open_loop: {
    supports: (s) => s.kind === 'open',
    run: ({ host, port, scenario: s, samples, signal, onProgress }) =>
      runOpenLoop({
        host,
        port,
        request: s.request,
        connections: s.connections,
        rate: s.rate,
        requestsPerConnection: s.requests_per_connection,
        timeoutMs: s.timeout_s * 1000,
        samples,
        signal,
        onProgress,
      }),
  },
  slow_clients: {
    supports: (s) => s.kind === 'slow_clients',
    run: ({ host, port, scenario: s, samples, signal, onProgress }) =>
      runSlowClients({ host, port, scenario: s, timeoutMs: s.timeout_s * 1000, samples, signal, onProgress }),
  },
};

/** The engine that runs scenario s (the built-in choice: autocannon where it is faithful). */
function engineFor(s) {
  const name = Object.keys(ENGINES).find((n) => ENGINES[n].supports(s));
  if (!name) throw new Error(`no engine can run scenario '${s.name}'`);
  return name;
}

/** How long a run may take before it is abandoned, in ms. */
function runDeadlineMs(s) {
  const expected = expectedDurationS(s);
  if (expected === null) return 900000; // count-bounded closed loop: speed depends on the server
  return Math.round((expected * 1.5 + s.timeout_s + 30) * 1000);
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
    connect_ms: null,
    duration_s: null,
    server_cpu: null,
    server_peak_rss_mb: null,
    client_cpu_pct: null,
    client_bound: false,
    client_loop_delay_ms: null,
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

function runLine(run) {
  const tag = `${run.server.padEnd(5)} ${run.scenario.padEnd(20)}`;
  if (!run.ok) return `${tag} FAILED: ${run.failure}`;
  const errors = Object.values(run.errors).reduce((a, b) => a + b, 0);
  return (
    `${tag} ${String(run.replies).padStart(6)}/${run.requests} replies` +
    `  mean ${fmtNum(run.latency_ms.mean)} ms  p99 ${fmtNum(run.latency_ms.p99)} ms` +
    `  ${Math.round(run.throughput_rps)} req/s  cpu ${fmtNum(run.server_cpu && run.server_cpu.ms_per_request, 3)} ms/req` +
    `${errors ? `  errors ${errors}` : ''}${run.client_bound ? '  CLIENT-BOUND' : ''}  (${run.duration_s.toFixed(1)} s)`
  );
}

/**
 * Runs one scenario against a running server. Resolves { run, samples } or, when the outer
 * signal interrupted it, { interrupted: true }.
 */
async function runOne({ server, handle, scenario, outerSignal, serverState, progress }) {
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
  const samples = new Samples();
  const startedAt = new Date().toISOString();
  const cpuBefore = readCpu(pid);
  const rss = startRssSampler(pid);
  const clientBefore = process.cpuUsage();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const wallStart = performance.now();
  samples.start();
  let extra = {};
  let driverError = null;
  try {
    extra = (await ENGINES[engine].run({ host: HOST, port: handle.port, scenario, samples, signal: controller.signal, onProgress: progress })) || {};
  } catch (err) {
    driverError = err;
  } finally {
    clearTimeout(deadline);
    serverState.abortRun = null;
    if (outerSignal) outerSignal.removeEventListener('abort', onOuter);
  }
  const wallMs = performance.now() - wallStart;
  const client = process.cpuUsage(clientBefore);
  loopDelay.disable();
  const cpu = cpuDelta(cpuBefore, readCpu(pid));
  const peakKb = rss.stop();

  const reason = controller.signal.aborted ? controller.signal.reason : null;
  if (reason && reason.kind === 'interrupted') return { interrupted: true };

  const role = scenario.kind === 'slow_clients' ? 'probe' : null;
  const stats = summarizeSamples(samples, { role });
  const allReplies = role ? summarizeSamples(samples).replies : stats.replies;
  const durationS = stats.last_end_ms !== null ? stats.last_end_ms / 1000 : wallMs / 1000;
  const clientPct = round3(((client.user + client.system) / 1000 / wallMs) * 100);

  let failure = null;
  if (serverState.exit) {
    failure = `the server exited during the run (${describeExit(serverState.exit)})${lastLine(handle.output()) ? `: ${lastLine(handle.output())}` : ''}`;
  } else if (reason && reason.kind === 'deadline') {
    failure = `the run did not finish within its deadline of ${Math.round(deadlineMs / 1000)} s`;
  } else if (driverError) {
    failure = `the load generator failed: ${driverError.message}`;
  } else if (stats.replies === 0) {
    const kinds = Object.entries(stats.errors).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
    failure = `no replies${kinds ? ` (errors: ${kinds})` : ''}`;
  } else if (stats.status['2xx'] === 0) {
    const classes = Object.entries(stats.status).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
    failure = `no 2xx replies (${classes})`;
  }

  const counts = { requests: stats.requests, replies: stats.replies, errors: stats.errors, status: stats.status, latency_ms: stats.latency_ms, connect_ms: stats.connect_ms };
  const run = {
    server,
    scenario: scenario.name,
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
        }
      : null,
    server_peak_rss_mb: peakKb ? Math.round((peakKb / 1024) * 10) / 10 : null,
    client_cpu_pct: clientPct,
    client_bound: clientPct >= CLIENT_BOUND_PCT,
    // How late the load generator's own event loop ran (beyond the 10 ms sampling interval):
    // a high value means its measurements include its own delays (a busy or shared CPU).
    client_loop_delay_ms: {
      p99: round3(Math.max(0, loopDelay.percentile(99) / 1e6 - 10)),
      max: round3(Math.max(0, loopDelay.max / 1e6 - 10)),
    },
    params: scenarioParams(scenario),
    ...extra,
  };
  return { run, samples };
}

/**
 * options: {
 *   servers: ['node','em'], scenarios: names or null (all), quick: false,
 *   outDir: null (perf/results/<UTC timestamp>, and perf/results/latest points at it),
 *   pin: true, definitions (default perf/servers.json), scenariosDir,
 *   signal (AbortSignal: stop, keep finished runs, write the summary),
 *   log(line), status(text or null) for a live progress line, readyTimeoutMs }
 * Resolves { dir, runs, interrupted, summaryText }.
 */
async function runScenarios(options = {}) {
  const definitions = options.definitions || loadServerDefinitions();
  const serverNames = options.servers || ['node', 'em'];
  const unknown = serverNames.filter((s) => !definitions[s]);
  if (unknown.length) throw new UsageError(`unknown server${unknown.length > 1 ? 's' : ''} ${unknown.map((s) => `'${s}'`).join(', ')} (known: ${Object.keys(definitions).join(', ')})`);
  if (serverNames.length === 0) throw new UsageError('no servers selected');
  const scenarios = loadScenarios({ dir: options.scenariosDir, quick: !!options.quick, names: options.scenarios || null });
  const log = options.log || ((line) => process.stdout.write(line + '\n'));
  const status = options.status || (() => {});
  const signal = options.signal || null;

  const pinning = planPinning({ want: options.pin !== false });
  const dir = options.outDir ? path.resolve(options.outDir) : defaultResultsDir();
  const store = new ResultsStore(dir, { latestRoot: options.outDir ? null : RESULTS_ROOT });
  const environment = collectEnvironment({
    pinning,
    options: {
      quick: !!options.quick,
      servers: serverNames,
      scenarios: scenarios.map((s) => s.name),
      out: dir,
      pin: options.pin !== false,
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
  store.init(environment);
  log(`results: ${dir}`);
  log(pinning.enabled ? `pinning: servers on CPU ${pinning.server_cpu}, load generator on CPU ${pinning.client_cpu}` : `pinning: off (${pinning.reason})`);

  let interrupted = false;
  const wasInterrupted = () => interrupted || (signal && signal.aborted);

  for (const server of serverNames) {
    if (wasInterrupted()) break;
    log(`${server}: starting (${definitions[server].description || definitions[server].command})`);
    let handle;
    try {
      handle = await startServer(server, { definitions, host: HOST, cpu: pinning.enabled ? pinning.server_cpu : null, readyTimeoutMs: options.readyTimeoutMs || 20000 });
    } catch (err) {
      log(`${server}: not benchmarked: ${err.message}`);
      for (const s of scenarios) store.addRun(failedRun(server, s, `the server did not start: ${err.message}`));
      continue;
    }
    const serverState = { exit: null, diedDuring: null, abortRun: null, current: null };
    handle.exited.then((info) => {
      serverState.exit = info;
      serverState.diedDuring = serverState.current;
      if (serverState.abortRun) serverState.abortRun();
    });
    const onInterrupt = () => handle.stop(2000);
    if (signal) signal.addEventListener('abort', onInterrupt, { once: true });
    try {
      log(`${server}: pid ${handle.pid} listening on ${handle.url}; checking the contract`);
      let contract;
      try {
        contract = await Promise.race([
          checkContract({ host: HOST, port: handle.port }, scenarios),
          new Promise((resolve) => setTimeout(() => resolve({ ok: false, failure: `contract checks did not finish within ${CONTRACT_DEADLINE_MS / 1000} s` }), CONTRACT_DEADLINE_MS).unref()),
          handle.exited.then((info) => ({ ok: false, failure: `the server exited during the contract checks (${describeExit(info)})` })),
        ]);
      } catch (err) {
        contract = { ok: false, failure: err.message };
      }
      if (wasInterrupted()) break;
      if (!contract.ok) {
        log(`${server}: not benchmarked: the contract check failed: ${contract.failure}`);
        for (const s of scenarios) store.addRun(failedRun(server, s, `the server failed the contract check: ${contract.failure}`));
        continue;
      }
      const baselineFds = countFds(handle.pid);
      for (const scenario of scenarios) {
        if (wasInterrupted()) break;
        if (serverState.exit) {
          store.addRun(failedRun(server, scenario, `not run: the server exited during ${serverState.diedDuring || 'an earlier scenario'} (${describeExit(serverState.exit)})`));
          continue;
        }
        serverState.current = scenario.name;
        const label = `${server.padEnd(5)} ${scenario.name.padEnd(20)}`;
        const expected = expectedDurationS(scenario);
        status(`${label} running${expected ? ` (~${Math.ceil(expected)} s)` : ''}`);
        let lastStatus = 0;
        const progress = ({ done, total }) => {
          const now = performance.now();
          if (now - lastStatus < 250) return;
          lastStatus = now;
          status(`${label} ${done}${total ? `/${total}` : ''} done`);
        };
        const result = await runOne({ server, handle, scenario, outerSignal: signal, serverState, progress });
        status(null);
        if (result.interrupted) {
          interrupted = true;
          log(`${label} interrupted; not recorded`);
          break;
        }
        store.addRun(result.run, result.samples);
        log(runLine(result.run));
        if (!serverState.exit) await settle(handle.pid, baselineFds);
      }
    } finally {
      if (signal) signal.removeEventListener('abort', onInterrupt);
      await handle.stop(3000);
      log(`${server}: stopped`);
    }
  }

  interrupted = !!wasInterrupted();
  store.environment.finished_at = new Date().toISOString();
  store.setExtra({ interrupted });
  store.writeText('summary.md', toMarkdown(store.runs));
  store.writeText('summary.csv', toCsv(store.runs));
  const summaryText = toText(store.runs);
  return { dir, runs: store.runs, interrupted, summaryText, resultsFile: store.resultsFile };
}

module.exports = { runScenarios, runOne, engineFor, runDeadlineMs, failedRun, UsageError, ENGINES, HOST, CLIENT_BOUND_PCT };
