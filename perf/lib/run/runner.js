'use strict';
// runScenarios(options): the scenario runner's programmatic API (perf/cli/run.js is a thin shell
// over it). What it is asked is resolved once, before anything starts, into a plan
// (perf/lib/plan/run_plan.js); each step below is given the part of it that it needs. For each
// trial, for each server: start it (pinned to one CPU), check the contract (./contract_check.js),
// run every scenario it can serve against it (./run_one.js; the load generator, this process,
// pinned to another CPU), stop it; then the scenarios a lighter engine runs again
// (./lighter_engines.js). Each run is appended to results.json as soon as it ends, and the
// document is closed at the end, also when the run is interrupted (options.signal), stopped by
// an error (a full disk), or ended at once by finishLiveRuns() (a second Ctrl-C): what was
// measured, nothing judged; its readers judge it (perf/lib/studies/run_summary.js writes the
// summaries). Every wait has a deadline.

const path = require('node:path');
const { startServer, remoteServer, loadServerDefinitions } = require('../hosts/server_process');
const { startBackends } = require('../hosts/backends');
const { readLimits } = require('../hosts/fd_limits');
const { createLink, removeLink } = require('../hosts/netns');
const { setUpLoadHosts, loadHostsEnvironment, removeLoadHosts } = require('../hosts/load_hosts');
const { pinProcess, allowedCpus } = require('../hosts/pinning');
const { checkContract } = require('./contract_check');
const { countFds } = require('../measure/proc_stats');
const { expectedDurationS } = require('../store/scenario_doc');
const { collectEnvironment } = require('./environment');
const { prepareRuntimes, describeRuntimes } = require('./runtimes');
const { movedLines, standInLines, runtimesLine } = require('../text/runtimes');
const { ResultsStore, createResultsDir } = require('../store/results_store');
const { skippedLine, whyNotInstalled, rateClientLine } = require('../engines');
const { resolvePlan } = require('../plan/run_plan');
const { runOne, failedRun, settle, describeExit } = require('./run_one');
const { runLine } = require('../text/run_log');
const { measureInRounds } = require('./rounds');
const { roundsEstimate } = require('../plan/rounds');
const { measureRamps } = require('./ramp');
const { measureHeldCounts } = require('./held');
const { ABOVE_WAIT_BOUND_MS } = require('../method');
const { calibrate } = require('./calibration');
const { planLine } = require('../text/plan_line');
const { calibrationLine } = require('../text/calibration');
const { searchesText } = require('../text/ramps');
const { foreseenAgainS, runsAgain, chooseVerdictEngines, lighterEngines } = require('./lighter_engines');

const HOST = '127.0.0.1'; // servers it starts listen here, unless --link puts them in a namespace
// Inside --link's namespace nothing else listens: each server has its port from this one on,
// its own, since the ramps search servers side by side.
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

const aborted = (signal) => Boolean(signal && signal.aborted);

/**
 * options: what to run, resolved into the plan (perf/lib/plan/run_plan.js) {
 *   servers (default: perf/questions.json's contenders, node, em, async_http), references: false (adds the servers that are references for
 *   them), seeds: false (every seed study's servers, each on its seeds' scenarios),
 *   scenarios: names or null (all), quick: false,
 *   repeat: trials per server and scenario (default 1), run interleaved: trial 1 of every
 *   server, then trial 2 of every server…; each trial starts each server afresh,
 *   outDir: null (perf/results/<UTC timestamp>, and perf/results/latest points at it),
 *   resultsRoot (default perf/results: where outDir null creates its folder and latest),
 *   pin: true, definitions (default perf/servers.json), scenariosDir, readyTimeoutMs,
 *   warmup: seconds of warm-up before every run, overriding the scenarios' warmup_s (0: none),
 *   engine: 'autocannon' (the built-in engines), 'httperf', 'wrk' or 'tsung' (with loadHosts),
 *   target (a server already running), link (a rate),
 *   lighterEngines: true (with the default engine, run scenarios again with httperf or wrk
 *     where they are the lighter load generator: ./lighter_engines.js),
 *   random: Math.random (what draws each round's order; a test gives its own to know the order) }
 * and how it reports and stops: { log(line), status(text or null) for a live progress line,
 *   signal (AbortSignal: stop, keep finished runs, close results.json) }.
 * Resolves { dir, runs, interrupted, error (the message of what stopped the run, or null),
 * unwritten ([{ name, message }]: files its end could not write), resultsFile, decoded (the
 * document written, as perf/lib/store/results_doc.js decodes it: what its readers judge) }.
 */
async function runScenarios(asked = {}) {
  const io = {
    log: asked.log || ((line) => process.stdout.write(line + '\n')),
    status: asked.status || (() => {}),
    signal: asked.signal || null,
  };
  const { log, status, signal } = io;
  let plan = resolvePlan(asked);
  // The runtimes the servers run on, installed where missing; a quick run may move servers to
  // the runtimes the machine has (perf/lib/run/runtimes.js), and its plan is made again with them.
  const ready = await prepareRuntimes(plan.definitions, { quick: !!asked.quick, log });
  for (const line of movedLines(ready.moved)) log(line);
  const options = ready.moved.length ? { ...asked, definitions: { ...(asked.definitions || loadServerDefinitions()), ...ready.definitions } } : asked;
  if (ready.moved.length) plan = resolvePlan(options);
  for (const line of standInLines(plan.recorded.stand_ins, { ...loadServerDefinitions(), ...options.definitions })) log(line);
  // The backends the scenarios call (/upstream, /db), up and checked before anything is
  // measured; ones that will not start leave their scenarios out, as missing ones do.
  let backends = null;
  if (plan.backends.names.length && !aborted(signal)) {
    try {
      backends = await startBackends(plan.backends.names, { cpu: plan.pinning.enabled ? plan.pinning.client_cpu : null, log });
    } catch (err) {
      plan = resolvePlan({ ...options, backendsDown: err.message });
    }
  }
  if (plan.seeds) log(`seeds: every seed study's comparison (perf/seeds.json): ${plan.servers.join(', ')}, each on its seeds' scenarios`);

  const dir = createResultsDir(plan.output);
  const store = new ResultsStore(dir, { latestRoot: plan.output.dir ? null : plan.output.root });
  const environment = collectEnvironment({ pinning: plan.pinning, options: { ...plan.recorded, out: dir } });
  environment.started_at = new Date().toISOString();
  environment.servers = plan.definitions;
  environment.runtimes = describeRuntimes(plan.definitions);
  const onWhat = runtimesLine(environment.runtimes, plan.definitions);
  if (onWhat) log(onWhat);
  // The load generator's open-files limit as raised for the scenarios; each server's is added
  // when it first starts (it inherits this one and raises its soft limit to the hard one).
  environment.fd_limits = { load_generator: plan.descriptors.limits, servers: {} };
  environment.backends = backends ? backends.environment : null;
  // Pinned only now: the environment above still saw every CPU. Given back at the end, so that
  // a caller's next run in this process (the cross-check's) can pin afresh.
  const ownCpus = allowedCpus();
  const pinning = pinLoadGenerator(plan.pinning);
  environment.pinning = pinning;

  let ended = null;
  // Records how the run ended (results.json), once; synchronous, so that a second Ctrl-C can
  // call it (finishLiveRuns) and exit.
  const finish = ({ error = null, cutShort = false } = {}) => {
    if (ended) return ended;
    liveRuns.delete(finish);
    const interrupted = cutShort || aborted(signal);
    store.environment.finished_at = new Date().toISOString();
    // What was measured, nothing judged: each reader judges the written document once
    // (perf/lib/judge/judged.js; the run CLI's reader is perf/lib/studies/run_summary.js).
    const { results: decoded, unwritten } = store.finish({ interrupted, error: error ? error.message : null, skipped: plan.skipped });
    ended = {
      dir,
      runs: store.runs,
      interrupted,
      error: error ? error.message : null,
      unwritten: unwritten.map((u) => ({ name: u.name, message: u.error.message })),
      resultsFile: store.resultsFile,
      decoded,
    };
    return ended;
  };

  let link = null;
  let loadHosts = null;
  let error = null;
  // The servers up (bringUp adds each, bringDown takes it out), stopped at once when the run is
  // interrupted: one listener on the run's signal for them all, where a listener each passed
  // Node's limit of 10 (MaxListenersExceededWarning) with six servers up and a simultaneous
  // round's runs.
  const serversUp = new Set();
  const stopServersUp = () => {
    for (const handle of serversUp) handle.stop(2000);
  };
  if (signal) signal.addEventListener('abort', stopServersUp, { once: true });
  try {
    store.init(environment);
    liveRuns.add(finish);
    store.setExtra({ interrupted: false, error: null, skipped: plan.skipped });
    log(`results: ${dir}`);
    log(pinning.enabled ? `pinning: servers on CPU ${pinning.server_cpu}, load generator on CPU ${pinning.client_cpu}` : `pinning: off (${pinning.reason})`);
    // The scenarios the fd limit cannot hold: one line for them all (plan.descriptors.line).
    for (const k of plan.skipped.filter((x) => !x.unplanned && !x.fd_limit && !x.backend)) log(k.scenario ? `${k.server}: skips ${k.scenario} (${k.reason})` : `${k.server}: skipped: ${k.reason}`);
    if (plan.descriptors.line) log(plan.descriptors.line);
    if (plan.backends.line) log(plan.backends.line);
    const rateLine = rateClientLine(Object.values(plan.served).flat().some((s) => s.kind === 'rate' && !s.engine) || (plan.ramps || []).some((r) => !r.engine));
    if (rateLine) log(rateLine);
    if (plan.engine.skipped.length) store.setExtra({ engine_skipped: plan.engine.skipped });
    for (const k of plan.engine.skipped) log(skippedLine(k));
    log(planLine(plan, foreseen(plan)));
    // --link RATE: the servers run in a network namespace behind a rate-limited veth pair.
    link = plan.link ? createLink(plan.link) : null;
    if (link) {
      store.environment.link = { rate: link.rate, rate_bits: link.rateBits, server_address: link.serverAddress, namespace: link.namespace, qdisc: 'tbf, both directions' };
      log(`link: servers in network namespace ${link.namespace} at ${link.serverAddress}, ${link.rate} each way (tbf)`);
    }
    // --load-hosts: Tsung's agents run there; netns:N hosts are made here, the servers in a
    // namespace of their own on the same bridge.
    if (plan.loadHosts) {
      loadHosts = await setUpLoadHosts(plan.loadHosts, { cpus: pinning.enabled ? [pinning.client_cpu] : null, logRoot: path.join(dir, 'tsung'), log });
      store.environment.load_hosts = loadHostsEnvironment(loadHosts);
    }
    // The host's yardstick, before anything else loads it.
    if (plan.calibration && !aborted(signal)) {
      status(`calibration: the ${plan.calibration.server} reference at a fixed load`);
      store.environment.calibration = await calibrate(plan.calibration, { cpu: pinning.enabled ? pinning.server_cpu : null, signal });
      status(null);
      log(calibrationLine(store.environment.calibration));
    }
    const namespace = link ? { address: link.serverAddress, commandPrefix: link.commandPrefix } : loadHosts && loadHosts.server;
    const start = serverStarter(plan, { cpu: pinning.enabled ? pinning.server_cpu : null, namespace, backends });
    const session = { plan, start, loadHosts, link, store, io, serversUp };
    if (plan.rounds) {
      await runPairedRounds(session);
    } else {
      await runTrials(plan, session);
    }
    if (!plan.rounds && plan.engine.lighter && !aborted(signal)) {
      const again = runsAgain(plan, store.runs, log);
      if (again) {
        await runTrials(again, session);
        store.setExtra(chooseVerdictEngines(again, store.runs, log));
      }
    }
    if (plan.ramps.length && !aborted(signal)) await runRamps(session);
    if (plan.held && !aborted(signal)) await runHeld(session);
  } catch (err) {
    if (!store.claimed) throw err; // no folder of its own to record anything in
    // Whatever stopped the run (a full disk…) is recorded with the runs finished before it.
    error = err;
  } finally {
    if (signal) signal.removeEventListener('abort', stopServersUp);
    if (backends) await backends.stop();
    if (link) removeLink(link);
    if (loadHosts) removeLoadHosts(loadHosts);
    if (pinning.enabled && ownCpus) pinProcess(process.pid, ownCpus.join(','));
  }
  return finish({ error });
}

/** Pins this process, the load generator, as planned; returns the pinning in force (off, and why, when taskset failed). */
function pinLoadGenerator(planned) {
  if (!planned.enabled) return planned;
  try {
    pinProcess(process.pid, planned.client_cpu);
    return planned;
  } catch (err) {
    return { enabled: false, server_cpu: null, client_cpu: null, reason: err.message };
  }
}

/**
 * What the run foresees beyond the plan's own estimate (plan.estimate), for the plan line: in
 * paired rounds the first look's seconds, a round more where a lighter engine installed here is
 * chosen first (firstLookS); in trials the runs again with a lighter engine that can be
 * foreseen (againS); the calibration where the run starts with it (plan.calibration).
 */
function foreseen(plan) {
  const { calibration } = plan;
  if (!plan.rounds) return { againS: plan.engine.lighter ? foreseenAgainS(plan) : 0, calibration };
  const { runnable, served } = plan;
  const probed = plan.engine.lighter ? Object.entries(lighterEngines(plan, [])).filter(([, w]) => !whyNotInstalled(w.engine)).map(([name]) => name) : [];
  const firstLookS = plan.scenarios.reduce((t, scenario) => t + roundsEstimate(scenario, runnable.filter((s) => served[s].includes(scenario)).length, { looks: plan.rounds.looks, probe: probed.includes(scenario.name) }).first_look_s, 0);
  return { firstLookS, calibration };
}

/**
 * How the plan's servers are started: (server) => its handle. --target's runs already;
 * namespace (--link's, or --load-hosts netns:N's): the servers run there, the plan's k-th on
 * LINK_PORT + k. backends (perf/lib/hosts/backends.js, or null): each server is told where they
 * are (UPSTREAM, REDIS), and its handle keeps their processes (`backends`), whose CPU every run
 * measures beside the server's.
 */
function serverStarter({ definitions, target, readyTimeoutMs }, { cpu, namespace, backends }) {
  if (target) return (server) => remoteServer(server, target);
  const names = Object.keys(definitions);
  const where = (server) => (namespace ? { host: namespace.address, port: LINK_PORT + names.indexOf(server), prefix: namespace.commandPrefix } : { host: HOST });
  const env = backends ? backends.env : {};
  const processes = backends ? backends.processes : [];
  return async (server) => Object.assign(await startServer(server, { definitions, ...where(server), cpu, readyTimeoutMs, env }), { backends: processes });
}

/**
 * Runs `runs` ({ order, served }: the plan's trials, or the runs again with lighter engines),
 * server by server, and appends each run to the store as it ends. session: { plan (the
 * servers' definitions, the trials), start(server) (serverStarter), loadHosts (the set-up load
 * hosts, for Tsung), store, io: { log, status, signal } }.
 */
async function runTrials({ order, served }, session) {
  const { plan, loadHosts, link, store, io } = session;
  const { log, status, signal } = io;
  const { trials } = plan;
  const serverWidth = Math.max(5, ...plan.runnable.map((s) => s.length));
  const fullyChecked = new Set();
  for (const { trial, server } of order) {
    if (aborted(signal)) break;
    const scenarios = served[server]; // only the scenarios this server can serve
    const u = await bringUp(server, scenarios, session, { trial, short: fullyChecked.has(server) });
    if (!u) continue;
    fullyChecked.add(server);
    try {
      for (const scenario of scenarios) {
        if (aborted(signal)) break;
        const serverState = u.state;
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
        const about = [trials > 1 ? `trial ${trial}/${trials}` : null, expected ? `~${Math.ceil(expected)} s` : null, scenario.warmup_s ? `after a warm-up of ${scenario.warmup_s} s or more` : null].filter(Boolean).join(', ');
        status(`${label} running${about ? ` (${about})` : ''}`);
        let lastStatus = 0;
        const progress = ({ done, total }) => {
          const now = performance.now();
          if (now - lastStatus < 250) return;
          lastStatus = now;
          status(`${label} ${done}${total ? `/${total}` : ''} done`);
        };
        const result = await runOne({ server, trial, handle: u.handle, scenario, outerSignal: signal, serverState, progress, loadHosts, link });
        status(null);
        if (result.interrupted) {
          log(`${label} interrupted; not recorded`);
          break;
        }
        store.addRun(result.run, result.samples);
        log(runLine(result.run, { serverWidth, trials }));
        if (!serverState.exit && !serverState.hung) await settle(u.handle.pid, u.baselineFds);
      }
    } finally {
      await u.bringDown();
    }
  }
}

/**
 * Starts a server and checks the contract on it (short: a later trial's shorter check):
 * { handle, state, baselineFds, bringDown() }, with state following what happens to it (exit,
 * diedDuring, hung: set by runOne; abortRun, current). null when it did not start, failed the
 * check or Ctrl-C came: each of its scenarios is then recorded as a failed run (trial).
 */
async function bringUp(server, scenarios, { plan, start, store, io, serversUp }, { trial, short, restart = false }) {
  const { signal } = io;
  // A restart between paired rounds says only what failed, and records no run: each round
  // records its own failed one.
  const log = (line) => !restart && io.log(line);
  const addFailed = (s, why) => !restart && store.addRun(failedRun(server, s, why, { trial }));
  const { trials, definitions } = plan;
  const ofTrials = trials > 1 ? ` (trial ${trial}/${trials})` : '';
  log(`${server}: starting${ofTrials} (${definitions[server].description || definitions[server].command})`);
  let handle;
  try {
    handle = await start(server);
  } catch (err) {
    io.log(`${server}: not benchmarked: ${err.message}`);
    for (const s of scenarios) addFailed(s, `the server did not start: ${err.message}`);
    return null;
  }
  const state = { exit: null, diedDuring: null, hung: null, abortRun: null, current: null, warmed: false };
  const fdLimits = store.environment.fd_limits;
  if (handle.pid !== null && !fdLimits.servers[server]) fdLimits.servers[server] = readLimits(handle.pid);
  handle.exited.then((info) => {
    state.exit = info;
    state.diedDuring = state.current;
    if (state.abortRun) state.abortRun();
  });
  serversUp.add(handle);
  const bringDown = async ({ quiet = false } = {}) => {
    serversUp.delete(handle);
    // A server found hung cannot act on SIGTERM (its loop is what hung): SIGKILL it at once.
    await handle.stop(state.hung ? 0 : 3000);
    if (!quiet) io.log(`${server}: stopped`);
  };
  let contract = { ok: false, failure: 'interrupted' };
  if (!aborted(signal)) {
    log(`${server}: pid ${handle.pid} listening on ${handle.url}; checking the contract${short ? ' (short check)' : ''}`);
    try {
      contract = await Promise.race([
        checkContract({ host: handle.host, port: handle.port }, scenarios, { serves: definitions[server].serves || null, short }),
        new Promise((resolve) => setTimeout(() => resolve({ ok: false, failure: `contract checks did not finish within ${CONTRACT_DEADLINE_MS / 1000} s` }), CONTRACT_DEADLINE_MS).unref()),
        handle.exited.then((info) => ({ ok: false, failure: `the server exited during the contract checks (${describeExit(info)})` })),
      ]);
    } catch (err) {
      contract = { ok: false, failure: err.message };
    }
  }
  if (aborted(signal)) {
    await bringDown({ quiet: restart }); // while it started: stopped, unchecked
    return null;
  }
  if (!contract.ok) {
    io.log(`${server}: not benchmarked: the contract check failed: ${contract.failure}`);
    for (const s of scenarios) addFailed(s, `the server failed the contract check: ${contract.failure}`);
    await bringDown({ quiet: restart });
    return null;
  }
  return { handle, state, baselineFds: countFds(handle.pid), bringDown };
}

/**
 * The plan's scenarios in paired rounds (./rounds.js): every server started and checked once,
 * all up while the rounds alternate between them, stopped at the end. Records in results.json
 * what the budget bought (rounds_budget).
 */
async function runPairedRounds(session) {
  const { plan, store, io } = session;
  const up = new Map();
  try {
    for (const server of plan.runnable) {
      if (aborted(io.signal)) return;
      const u = await bringUp(server, plan.served[server], session, { trial: 1, short: false });
      if (u) up.set(server, u);
    }
    if (!up.size || aborted(io.signal)) return;
    // Each visit of a scenario on servers started for it (a short check): memory a server kept
    // from an earlier scenario (em's heap after big_upload: 86 MB) is never this one's peak RSS.
    const restart = async (server, scenario) => {
      await up.get(server).bringDown({ quiet: true });
      const u = await bringUp(server, [scenario], session, { trial: null, short: true, restart: true });
      up.set(server, u || { state: { notStarted: 'the server did not start again for this scenario (see the line above)' }, bringDown: async () => {} });
    };
    const { budget } = await measureInRounds(up, { ...session, restart });
    store.setExtra({ rounds_budget: budget });
  } finally {
    for (const u of up.values()) await u.bringDown();
  }
}

/**
 * The plan's ramps (./ramp.js), after the scenarios: every server started afresh for each ramp,
 * checked, searched side by side, stopped at the end. Records results.json's `ramps`.
 */
async function runRamps(session) {
  const { plan, store, io } = session;
  const up = new Map();
  const bring = async (server, scenario) => {
    const u = await bringUp(server, [scenario], session, { trial: null, short: true, restart: true });
    up.set(server, u || { state: { notStarted: 'the server did not start for the ramp (see the line above)' }, bringDown: async () => {} });
  };
  try {
    io.log(`ramps: ${plan.ramps.map((r) => r.name).join(', ')}, ${searchesText(plan.rampOptions.repeat)} each, for the highest rate held at ${plan.rampOptions.objective.percentile} ≤ ${plan.rampOptions.objective.ms} ms`);
    const restart = async (server, scenario) => {
      if (up.has(server)) await up.get(server).bringDown({ quiet: true });
      await bring(server, scenario);
    };
    const ramps = await measureRamps(up, { plan, io, restart, loadHosts: session.loadHosts, link: session.link, record: (section) => store.setExtra({ ramps: section }), keepSamples: (rel, samples) => store.writeSamples(rel, samples) });
    store.setExtra({ ramps });
  } finally {
    for (const u of up.values()) await u.bringDown();
  }
}

/**
 * The held-count search (./held.js), after the ramps: each step on a server started afresh for
 * it, checked (short), stopped at the end. Records results.json's `held`.
 */
async function runHeld(session) {
  const { plan, store, io } = session;
  const up = new Map();
  try {
    io.log(`held: the most waiting requests each server holds at p99 ≤ wait + ${ABOVE_WAIT_BOUND_MS} ms, no errors (GET /delay?ms=${plan.held.wait_ms} over as many keep-alive connections, ${plan.held.from.toLocaleString('en-US')} to ${plan.held.to.toLocaleString('en-US')})`);
    const restart = async (server, scenario) => {
      if (up.has(server)) await up.get(server).bringDown({ quiet: true });
      const u = await bringUp(server, [scenario], session, { trial: null, short: true, restart: true });
      up.set(server, u || { state: { notStarted: 'the server did not start for the held-count search (see the line above)' }, bringDown: async () => {} });
    };
    const held = await measureHeldCounts(up, { plan, io, restart, record: (section) => store.setExtra({ held: section }) });
    store.setExtra({ held });
  } finally {
    for (const u of up.values()) await u.bringDown();
  }
}

module.exports = { runScenarios, finishLiveRuns };
