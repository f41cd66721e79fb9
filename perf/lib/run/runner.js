'use strict';
// runScenarios(options): the scenario runner's programmatic API (perf/cli/run.js is a thin shell
// over it). For each trial, for each server: start it (pinned to one CPU), check the contract,
// run every scenario it can serve against it (the load generator, this process, pinned to
// another CPU), stop it. At the end, aggregates and comparisons over the trials (./trials.js).
// Each run is appended to results.json as soon as it ends; the summary is written at the end,
// also when the run is interrupted (options.signal), stopped by an error (a full disk), or
// ended at once by finishLiveRuns() (a second Ctrl-C). Every wait has a deadline. What it is
// asked is checked in ./run_options.js, one run is measured in ./run_one.js, and the scenarios
// a lighter engine runs again are in ./lighter_engines.js.

const path = require('node:path');
const { startServer, remoteServer } = require('../hosts/server_process');
const { createLink, removeLink, LinkError } = require('../hosts/netns');
const { setUpLoadHosts, loadHostsEnvironment, removeLoadHosts } = require('../hosts/load_hosts');
const { checkContract } = require('./contract_check');
const { countFds } = require('../measure/proc_stats');
const { expectedDurationS } = require('../plan/scenarios');
const { collectEnvironment } = require('./environment');
const { ResultsStore, createResultsDir, RESULTS_ROOT } = require('../store/results_store');
const { toMarkdown, toCsv, toText } = require('../text/summary');
const { planPinning, pinProcess, allowedCpus } = require('../hosts/pinning');
const { skippedLine } = require('../engines');
const { analyzeRuns } = require('../judge/verdicts');
const { trialPlan, estimatePlanS, fmtDuration } = require('../plan/trial_plan');
const { resolveRunOptions, UsageError } = require('../plan/run_options');
const { runOne, failedRun, settle, describeExit } = require('./run_one');
const { runLine } = require('../text/run_log');
const { foreseenAgainS, againWithLighterEngines } = require('./lighter_engines');

const HOST = '127.0.0.1'; // servers it starts listen here, unless --link puts them in a namespace
// Inside --link's namespace nothing else listens, so every server can have the same port.
const LINK_PORT = 8080;
const CONTRACT_DEADLINE_MS = 120000;

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
  const { definitions, serverNames, engineName, lighter, scenarios, engineSkipped, warmupOverride, trials, skipped, served, runnable, loadHosts: loadHostsAsked } = resolveRunOptions(options);
  const log = options.log || ((line) => process.stdout.write(line + '\n'));
  const status = options.status || (() => {});
  const signal = options.signal || null;
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
      load_hosts: options.loadHosts || null,
      seeds: Boolean(options.scenariosFor),
      engine: engineName,
      warmup: warmupOverride,
      lighter_engines: lighter,
    },
  });
  environment.started_at = new Date().toISOString();
  environment.servers = Object.fromEntries(serverNames.map((s) => [s, definitions[s]]));
  // Pinned only now: the environment above still saw every CPU. Given back at the end, so that
  // a caller's next run in this process (the cross-check's) can pin afresh.
  const ownCpus = allowedCpus();
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
    const { results, unwritten } = store.finish(
      { interrupted, error: error ? error.message : null, skipped, ...analysis },
      (written) => ({ 'summary.md': toMarkdown(written), 'summary.csv': toCsv(written) }),
    );
    ended = {
      dir,
      runs: store.runs,
      interrupted,
      error: error ? error.message : null,
      unwritten: unwritten.map((u) => ({ name: u.name, message: u.error.message })),
      summaryText: toText(results),
      resultsFile: store.resultsFile,
    };
    return ended;
  };

  let link = null;
  let loadHosts = null;
  let error = null;
  try {
    store.init(environment);
    liveRuns.add(finish);
    store.setExtra({ interrupted: false, error: null, skipped });
    log(`results: ${dir}`);
    log(pinning.enabled ? `pinning: servers on CPU ${pinning.server_cpu}, load generator on CPU ${pinning.client_cpu}` : `pinning: off (${pinning.reason})`);
    for (const k of skipped.filter((x) => !x.unplanned)) log(k.scenario ? `${k.server}: skips ${k.scenario} (${k.reason})` : `${k.server}: skipped: ${k.reason}`);
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
    // --load-hosts: Tsung's agents run there; netns:N hosts are made here, the servers in a
    // namespace of their own on the same bridge.
    if (loadHostsAsked) {
      loadHosts = await setUpLoadHosts(loadHostsAsked, { cpus: pinning.enabled ? [pinning.client_cpu] : null, logRoot: path.join(dir, 'tsung'), log });
      store.environment.load_hosts = loadHostsEnvironment(loadHosts);
    }
    const ctx = { plan, served, trials, definitions, options, link, loadHosts, pinning, store, signal, wasInterrupted, log, status, serverWidth };
    await runPlan(ctx);
    if (lighter && !wasInterrupted()) await againWithLighterEngines({ ...ctx, runnable, runPlan });
  } catch (err) {
    if (!store.claimed) throw err; // no folder of its own to record anything in
    // Whatever stopped the run (a full disk…) is recorded with the runs finished before it.
    error = err;
  } finally {
    if (link) removeLink(link);
    if (loadHosts) removeLoadHosts(loadHosts);
    if (pinning.enabled && ownCpus) pinProcess(process.pid, ownCpus.join(','));
  }
  return finish({ error });
}

/** The trials of the plan, server by server; appends each run to the store as it ends. */
async function runPlan({ plan, served, trials, definitions, options, link, loadHosts, pinning, store, signal, wasInterrupted, log, status, serverWidth }) {
  const fullyChecked = new Set();
  // --link and --load-hosts netns:N run the servers in a namespace of their own.
  const namespace = link ? { address: link.serverAddress, commandPrefix: link.commandPrefix } : loadHosts && loadHosts.server;
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
      else if (namespace) handle = await startServer(server, { definitions, host: namespace.address, port: LINK_PORT, prefix: namespace.commandPrefix, cpu, readyTimeoutMs });
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
        const result = await runOne({ server, trial, handle, scenario, outerSignal: signal, serverState, progress, loadHosts });
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

module.exports = { LinkError, runScenarios, finishLiveRuns, UsageError, HOST };
