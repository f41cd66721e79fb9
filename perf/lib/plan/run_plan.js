'use strict';
// The plan of a run, resolved once before anything starts: what runScenarios is asked (the
// command line's options, perf/cli/run.js) and the files it names (perf/servers.json, the
// scenario files, perf/seeds.json) become one frozen object: the servers and their
// definitions, the scenarios as run, which server runs which, the trials and their order, the
// engine, the pinning, the hosts and where the results go (resolvePlan). Each stage of the run
// (perf/lib/run/) is then given the part of it that it needs. A mistake the caller made is a
// UsageError (perf/cli/run.js prints it with the usage line, exit 2).

const { loadServerDefinitions } = require('../hosts/server_process');
const { parseRate, linkUnavailableReason } = require('../hosts/netns');
const { parseLoadHosts, netnsHostsUnavailableReason } = require('../hosts/load_hosts');
const { planPinning } = require('../hosts/pinning');
const { backendsFor, missingBackend } = require('../hosts/backends');
const { RESULTS_ROOT } = require('../store/results_store');
const { seedPlan } = require('./seeds');
const { loadScenarios, MAX_WARMUP_S } = require('./scenarios');
const { heldConnections, scenarioNeeds } = require('../store/scenario_doc');
const { ensureDescriptors, descriptorsFor, shortfallLine, FD_RESERVE } = require('../hosts/fd_limits');
const { HELD_SEARCH, heldStepScenario, estimateHeldS } = require('./held');
const { roundSlice, estimateFirstLookS } = require('./rounds');
const { plannedCalibration } = require('./calibration');
const { loadRamps, stepScenario, estimateRampS, rampConnections } = require('./ramps');
const { PERCENTILES } = require('../measure/stats');

// Searches per server and ramp: their spread is the sustainable rate's interval, three the
// fewest whose Student-t interval is of any use. A quick run's searches are coarser (0.5 s
// steps, a 20 % bracket) and four of them: t on 3 degrees of freedom, 3.18 over √4 rather than
// 4.30 over √3, a third narrower for a third more steps (five quick runs of three searches,
// 2026-11-28: a new connection per request decided in 2, em 1.5-1.59x, undecided in 3, e.g.
// [0.46-1.09] from node 4,305/s three times against em 6,089, 7,241 and 5,120).
const RAMP_REPEAT = 3;
const QUICK_RAMP_REPEAT = 4;
const { DEFAULT_ENGINE, ENGINES, selectEngine } = require('../engines');
const { missingCapabilities, missingRequirement, trialPlan, estimatePlanS, DEFAULT_TRIALS } = require('./trial_plan');
const { DEFAULT_MARGIN, DEFAULT_OBJECTIVE, DEFAULT_LOOKS } = require('../method');
const { withRuntimeVariants, tunedOf, quickRuntime, runsOn, runtimeOf, unavailable, referenceTargets, RuntimeError } = require('../hosts/runtimes');
const { headline, headlineServers, standIns, subjectsOf, quickSelection } = require('./questions');

/** A mistake in what the caller asked for (unknown server…): the CLI prints it with usage, exit 2. */
class UsageError extends Error {}

// How long a server may take to print its ready line (or open its port).
const READY_TIMEOUT_MS = 20000;

/**
 * The plan of the run runScenarios(options) asks for (its options: perf/lib/run/runner.js),
 * checked, with its lists and maps frozen (the scenario and definition objects in them are the
 * engines' and servers' input, read, never changed):
 *   servers      the servers asked for, in order (--references and --seeds add theirs); a quick
 *                run's own choice has a reference stand in for a server it cannot start
 *                (recorded.stand_ins: [{ server, by }]: async for async_http without Ruby 3.3)
 *   definitions  { server: definition } of those (perf/servers.json's; --target's says where
 *                the server already runs: `remote`)
 *   scenarios    the scenarios selected, as run: --engine and --warmup applied; in paired
 *                rounds an open loop's round is a slice of its schedule (roundSlice:
 *                `connections` of its `full_connections`)
 *   served       { server: the scenarios it runs } (those it can serve; with --seeds, its seeds')
 *   runnable     the servers with a scenario to run
 *   rampServers  the servers the ramps search: runnable, and in a quick run the tuned
 *                configurations of theirs (tuned_of) the scenarios leave out
 *   skipped      [{ server, scenario (null: all of them), reason, unplanned (--seeds: not said) }]
 *   trials       trials per server and scenario (1 with rounds)
 *   order        [{ trial, server }]: the runnable servers' trials in the order they run (trialPlan)
 *   rounds       { budgetS, looks, random } with a budget (--budget): the servers measured in
 *                paired rounds until each comparison is decided or the budget spent
 *                (perf/lib/run/rounds.js), each round's order drawn with random() (options.random,
 *                default Math.random); null: fixed trials
 *   unpaired     why a budget could not be used (one server, --target, --link, --load-hosts:
 *                then DEFAULT_TRIALS trials), or null
 *   engine       { name: --engine, skipped: [{ engine, scenario, reason }] (what it cannot run
 *                faithfully), lighter: whether scenarios are run again with lighter engines }
 *   pinning      { enabled, server_cpu, client_cpu, reason } (perf/lib/hosts/pinning.js)
 *   target       --target's URL (a server already running), or null
 *   link         --link's rate, or null
 *   loadHosts    --load-hosts parsed ({ kind: 'netns', count } | { kind: 'ssh', hosts }), or null
 *   readyTimeoutMs  how long a server may take to be ready
 *   output       { dir: --out, or null for a new folder under root; root }
 *   seeds        whether --seeds chose the servers and scenarios
 *   margin       how close two servers must be to be called the same (--margin: 0.1 is ±10 %)
 *   backends     { names: the backends to start (perf/lib/hosts/backends.js), line: the one
 *                line that says which scenarios were skipped for want of theirs, or null }
 *   calibration  the host's calibration (perf/lib/plan/calibration.js: { server, scenario,
 *                seconds }) where the run measures it first (perf/lib/run/calibration.js): a
 *                quick or full run of the default scenarios on this machine's loopback; else null
 *   estimate     its seconds as foreseen before anything runs: { trials_s (the trials in
 *                order; paired rounds take their budget instead), ramps_s, ramps_most_s (every
 *                search to its last step), held_s (null without the held-count search) }
 *   recorded     what results.json records of all this (environment.options); its `out` is
 *                --out until the run has made its folder
 */
function resolvePlan(options) {
  if (options.seeds && (options.servers || options.scenarios || options.references)) {
    throw new UsageError('--seeds chooses the servers and scenarios itself (perf/seeds.json): leave out --servers, --scenarios and --references');
  }
  // --seeds: each seed study's servers, each on its seeds' scenarios only.
  const seeds = options.seeds ? seedPlan() : null;
  let definitions = options.definitions || loadServerDefinitions();
  // Why a runtime cannot be used now, or null (a test gives its own).
  const runtimeMissing = options.runtimeMissing || ((id) => unavailable(runtimeOf(id)));
  // Each runtime as its users tune it too (perf/servers.json tuned_of), unless servers were
  // named: a full run measures the tuned configurations on everything, a quick one in its ramps.
  // A quick run of its own choosing measures the headline questions (perf/questions.json) only,
  // on each runtime's defaults unless --tuned: what its budget buys of them (quickPlan).
  const headlineQuick = Boolean(options.quick && !seeds && !options.scenarios && !options.scenariosDir);
  const withTuned = options.tuned ?? !(options.servers || seeds || options.target || options.link || options.loadHosts || headlineQuick);
  // A quick run starts its servers on the runtimes installed or installed in seconds
  // (quickRuntime); a server that cannot run on what it gets has its reference stand in for it.
  const runsHere = (s) => !options.quick || !definitions[s] || !definitions[s].runtime || runsOn(definitions[s], quickRuntime(definitions[s].runtime, runtimeMissing));
  const asked = seeds ? seeds.servers : options.servers || headlineServers(definitions, runsHere);
  const standing = seeds || options.servers ? [] : standIns(definitions, runsHere);
  // "SERVER@RUNTIME": the same server on another runtime of perf/runtimes.json (em@ruby31).
  try {
    definitions = withRuntimeVariants(definitions, asked);
  } catch (err) {
    if (err instanceof RuntimeError) throw new UsageError(err.message);
    throw err;
  }
  const tuned = withTuned ? asked.map((s) => tunedOf(s, definitions)).filter((t) => t && !asked.includes(t)) : [];
  // A tuned configuration on a runtime other than its definition's (em_tuned@ruby31) is made as
  // the servers asked are.
  definitions = withRuntimeVariants(definitions, tuned);
  const quickChoice = headlineQuick ? quickPlan(options, { servers: asked.length, rampServers: asked.length + tuned.length }) : null;
  const servers = seeds ? seeds.servers : withReferences(options.quick ? asked : [...asked, ...tuned], definitions, options.references);
  const target = options.target || null;
  if (target) {
    // --target URL: one server, already running (here or on another machine), named by --servers.
    if (servers.length !== 1) throw new UsageError('--target benchmarks one server: name it with --servers NAME (a name of perf/servers.json, or any label)');
    let url;
    try {
      url = new URL(target);
    } catch {
      url = null;
    }
    if (!url || url.protocol !== 'http:' || !url.port) throw new UsageError(`--target takes http://HOST:PORT, got '${target}'`);
    const [label] = servers;
    const known = definitions[label] || { serves: null };
    definitions = { ...definitions, [label]: { ...known, description: `already running at ${url.origin}`, remote: url.origin } };
  }
  const link = options.link || null;
  if (target && link) throw new UsageError('--link runs servers it starts; it cannot be used with --target');
  if (link) {
    try {
      parseRate(link);
    } catch (err) {
      throw new UsageError(err.message);
    }
    const unavailable = linkUnavailableReason();
    if (unavailable) throw new UsageError(unavailable);
  }
  const engineName = options.engine || DEFAULT_ENGINE;
  const loadHosts = resolveLoadHosts(options.loadHosts ?? null, { engineName, target, link });
  const unknown = servers.filter((s) => !definitions[s]);
  if (unknown.length) throw new UsageError(`unknown server${unknown.length > 1 ? 's' : ''} ${unknown.map((s) => `'${s}'`).join(', ')} (known: ${Object.keys(definitions).join(', ')})`);
  if (servers.length === 0) throw new UsageError('no servers selected');
  // --engine httperf|wrk: scenarios it cannot run faithfully are skipped (engine.skipped).
  const names = seeds ? [...new Set(Object.values(seeds.scenariosFor).flat())] : quickChoice ? quickChoice.scenarios : options.scenarios || null;
  const selected = selectEngine(loadScenarios({ dir: options.scenariosDir, quick: !!options.quick, names }), engineName);
  // Only the default engine's runs are ever replaced by a lighter engine's; behind --link the
  // link is meant to set the pace, which no lighter client changes.
  const lighter = options.lighterEngines !== false && engineName === DEFAULT_ENGINE && !link;
  // --warmup SECONDS: every scenario's warm-up, whatever its file says.
  const warmup = options.warmup ?? null;
  const margin = options.margin ?? DEFAULT_MARGIN;
  if (!(margin > 0)) throw new UsageError(`--margin must be a percentage above 0 (not '${options.margin}')`);
  if (warmup !== null && !(typeof warmup === 'number' && warmup >= 0 && warmup <= MAX_WARMUP_S)) {
    throw new UsageError(`--warmup must be a number of seconds from 0 (none) to ${MAX_WARMUP_S}, not '${warmup}'`);
  }
  const scenarios = warmup === null ? selected.scenarios : selected.scenarios.map((s) => ({ ...s, warmup_s: warmup }));
  const budget = options.budget ?? null;
  if (budget !== null && !(Number.isFinite(budget) && budget > 0)) throw new UsageError(`--budget must be a time above 0, e.g. 3min or 180s (not '${options.budget}')`);
  if (budget !== null && options.repeat !== null && options.repeat !== undefined) throw new UsageError('--budget measures in paired rounds until each comparison is decided; --repeat runs a fixed number of trials: use one');
  const { served, skipped } = assignScenarios(servers, scenarios, definitions, seeds && seeds.scenariosFor);
  const heldDesign = selectHeld(options, { target, link, loadHosts, seeds, headlineQuick });
  const ramps = selectRamps(quickChoice ? { ...options, ramps: quickChoice.ramps } : options, { target, seeds, engineName });
  const descriptors = holdDescriptors(scenarios, served, skipped, { fixed: options.nofile ?? null, remote: Boolean(target), alsoHeld: Math.max(heldDesign ? heldDesign.to : 0, ...ramps.list.map(rampConnections)) });
  const backends = planBackends(scenarios, served, skipped, { definitions, target, link, loadHosts, down: options.backendsDown ?? null });
  // The held-count search goes no higher than the fd limit holds.
  const capped = heldDesign && descriptors.limits.soft !== null && descriptorsFor(heldDesign.to) > descriptors.limits.soft ? { ...heldDesign, to: Math.max(heldDesign.from, descriptors.limits.soft - FD_RESERVE), capped_by_fd_limit: true } : heldDesign;
  const runnable = servers.filter((s) => served[s].length > 0);
  // Only the servers that serve /delay (a reference answering /hello alone has nothing to hold).
  const heldServers = capped ? runnable.filter((s) => !missingCapabilities(definitions[s], heldStepScenario(capped, capped.from))) : [];
  const held = heldServers.length ? { ...capped, servers: heldServers } : null;
  if (!runnable.length) throw new Error(`no server can run: ${skipped.filter((k) => k.scenario === null).map((k) => `${k.server}: ${k.reason}`).join('; ')}`);
  // A budget measures in paired rounds where servers can be up side by side: two or more, on
  // this machine's loopback (--link and netns load hosts put them on one address and port).
  const unpaired = budget === null ? null : runnable.length < 2 ? 'one server: nothing to pair' : target ? '--target' : link ? '--link' : loadHosts ? '--load-hosts' : null;
  // A quick run's budget is the whole run's: its ramps' share is kept from the rounds'.
  const roundsBudget = quickChoice && budget !== null ? Math.max(0, budget - quickChoice.rampsS) : budget;
  const rounds = budget !== null && !unpaired ? { budgetS: roundsBudget, looks: DEFAULT_LOOKS, random: options.random || Math.random } : null;
  const asRun = new Map(scenarios.map((sc) => [sc.name, rounds ? roundSlice(sc) : sc]));
  const servedAsRun = Object.fromEntries(Object.entries(served).map(([server, list]) => [server, list.map((sc) => asRun.get(sc.name))]));
  // Without rounds: the trials asked for; where a budget could not be used, the CLI's default.
  const trials = rounds ? 1 : options.repeat ?? (budget !== null ? DEFAULT_TRIALS : 1);
  if (!Number.isInteger(trials) || trials < 1) throw new UsageError(`--repeat must be a whole number, 1 or more (not '${options.repeat}')`);
  // The ramps search the runnable servers, and in a quick run the tuned configurations of theirs too.
  const rampServers = [...runnable, ...tuned.filter((t) => !runnable.includes(t) && runnable.some((s) => tunedOf(s, definitions) === t))];
  const pin = options.pin !== false;
  const output = { dir: options.outDir || null, root: options.resultsRoot || RESULTS_ROOT };
  const planned = Object.fromEntries([...servers, ...rampServers.filter((s) => !servers.includes(s))].map((s) => [s, definitions[s]]));
  const order = trialPlan(runnable, trials);
  const rampsS = (longest) => ramps.list.reduce((t, r) => t + estimateRampS(r, { servers: rampServers.length, repeat: ramps.repeat, longest }), 0);
  const plan = {
    servers,
    definitions: planned,
    scenarios: [...asRun.values()],
    served: servedAsRun,
    runnable,
    skipped,
    trials,
    order,
    rounds,
    unpaired,
    engine: { name: engineName, skipped: [...selected.skipped, ...ramps.skipped], lighter },
    pinning: planPinning({ want: pin }),
    target,
    link,
    loadHosts,
    readyTimeoutMs: options.readyTimeoutMs || READY_TIMEOUT_MS,
    output,
    seeds: Boolean(seeds),
    margin,
    descriptors,
    backends,
    calibration: calibrates(options, { seeds, target, link, loadHosts }) ? plannedCalibration() : null,
    held,
    ramps: ramps.list,
    rampServers,
    rampOptions: { objective: ramps.objective, repeat: ramps.repeat },
    estimate: { trials_s: estimatePlanS(order, servedAsRun), ramps_s: rampsS(false), ramps_most_s: rampsS(true), held_s: held ? estimateHeldS(held, held.servers.length) : null },
    recorded: {
      quick: !!options.quick,
      servers,
      scenarios: scenarios.map((s) => s.name),
      out: output.dir,
      pin,
      repeat: rounds ? null : trials,
      design: rounds ? 'rounds' : 'trials',
      budget_s: rounds ? budget : null,
      looks: rounds ? rounds.looks : null,
      target,
      link,
      load_hosts: options.loadHosts || null,
      seeds: Boolean(seeds),
      engine: engineName,
      warmup,
      margin,
      lighter_engines: lighter,
      ramps: ramps.list.map((r) => r.name),
      ramp_servers: ramps.list.length ? rampServers : [],
      slo: ramps.list.length ? ramps.objective : null,
      held: Boolean(held),
      headline: quickChoice ? { budget_s: budget, chosen: quickChoice.chosen, left: quickChoice.left } : null,
      stand_ins: standing,
    },
  };
  return freezeAllBut(plan, new Set([...asRun.values(), ...Object.values(planned), ...(plan.calibration ? [plan.calibration.scenario] : [])]));
}

/**
 * What a quick run of its own choosing measures: the headline questions' subjects (perf/lib/plan/
 * questions.js) that its budget (options.budget; all of them without one) buys, ranked by the
 * questions each likely decides per second (options.decides(question): the chance one run
 * decides it, from the archive) at its estimated cost: a scenario's first look on `servers`
 * (firstLookS), a ramp's searches on `rampServers`. { scenarios, ramps (names, in that order),
 * rampsS (the ramps' estimated seconds, kept from the rounds' budget), chosen, left: [{ name,
 * kind, questions (ids), cost_s }] }.
 */
function quickPlan(options, { servers, rampServers }) {
  const { questions } = headline();
  const allRamps = loadRamps({ dir: options.rampsDir, quick: true });
  const repeat = options.rampRepeat ?? QUICK_RAMP_REPEAT;
  const rampS = (name) => estimateRampS(allRamps.find((r) => r.name === name), { servers: rampServers, repeat });
  // --ramps names the ramps itself (none: none): the budget buys scenarios with what they leave.
  // A server elsewhere (--target) has no ramps: this machine cannot restart it.
  const own = options.target ? [] : options.ramps ?? null;
  const subjects = subjectsOf(questions, allRamps.map((r) => r.name)).filter((s) => own === null || s.kind === 'scenario');
  const scenarios = loadScenarios({ dir: options.scenariosDir, quick: true, names: subjects.filter((s) => s.kind === 'scenario').map((s) => s.name) });
  const ownS = own ? own.filter((name) => allRamps.some((r) => r.name === name)).reduce((t, name) => t + rampS(name), 0) : 0;
  const costS = (subject) => (subject.kind === 'ramp' ? rampS(subject.name) : firstLookS(scenarios.find((s) => s.name === subject.name), servers));
  const { chosen, left } = quickSelection(subjects, { budgetS: (options.budget ?? Infinity) - ownS, costS, decides: options.decides || undefined });
  const shown = (s) => ({ name: s.name, kind: s.kind, questions: s.questions.map((q) => q.id), cost_s: Math.round(s.costS) });
  const rampsChosen = chosen.filter((s) => s.kind === 'ramp');
  return {
    scenarios: chosen.filter((s) => s.kind === 'scenario').map((s) => s.name),
    ramps: own ?? rampsChosen.map((s) => s.name),
    rampsS: ownS + rampsChosen.reduce((t, s) => t + s.costS, 0),
    chosen: chosen.map(shown),
    left: left.map(shown),
  };
}

/**
 * Seconds a scenario's first look on `servers` should take before any was measured
 * (./rounds.js): its first look's rounds and one more (where a lighter engine is chosen, or a
 * round replaced), and each server's warm-up once.
 */
function firstLookS(scenario, servers) {
  return estimateFirstLookS([{ scenario: roundSlice(scenario), servers, probe: true }], DEFAULT_LOOKS);
}

/**
 * The ramps to run (perf/lib/plan/ramps.js) and their objective: --ramps NAMES, or by default
 * every ramp in a run of the default scenarios (with --quick those of the headline questions its
 * budget buys, quickPlan, at their quick values; not with --scenarios, --seeds or another scenarios folder, which choose what
 * runs); none with --ramps none. Ramps run on servers this machine starts and restarts: on
 * loopback, behind --link's link (which may saturate first: the steps say so), or beside
 * --load-hosts netns:N (Tsung's hosts, whose rates add); not with --target. Another --engine
 * runs the ramps it can run faithfully, and skips the others (skipped, as for the scenarios).
 * --slo p99=10ms sets the objective, --ramp-repeat the searches per server. { list, objective,
 * repeat, skipped }.
 */
function selectRamps(options, { target, seeds, engineName }) {
  const asked = options.ramps ?? null;
  const objective = parseSlo(options.slo ?? null);
  if (asked && asked.length && target) throw new UsageError('--ramps runs on servers this machine starts (and starts again when one exits): not with --target');
  const byDefault = asked === null && !options.scenarios && !options.scenariosDir && !seeds && !target;
  const names = asked && asked.length ? asked : null;
  const loaded = names || byDefault ? loadRamps({ dir: options.rampsDir, quick: !!options.quick, names }) : [];
  const { list, skipped } = rampsForEngine(loaded, engineName);
  if (names && !list.length) throw new UsageError(`--engine ${engineName} can run none of the ramps asked for (${skipped.map((k) => `${k.scenario}: ${k.reason}`).join('; ')})`);
  const repeat = options.rampRepeat ?? (options.quick ? QUICK_RAMP_REPEAT : RAMP_REPEAT);
  if (!Number.isInteger(repeat) || repeat < 1) throw new UsageError(`--ramp-repeat must be a whole number, 1 or more (not '${options.rampRepeat}')`);
  return { list, objective, repeat, skipped };
}

/**
 * The ramps an engine runs: all with the built-in engines; with an external one (--engine) those
 * whose steps it can run faithfully, each marked with it (stepScenario passes it on to engineFor),
 * the others skipped: { list, skipped: [{ engine, scenario, reason, ramp: true }] }.
 */
function rampsForEngine(ramps, engineName) {
  if (engineName === DEFAULT_ENGINE) return { list: ramps, skipped: [] };
  const list = [];
  const skipped = [];
  for (const ramp of ramps) {
    const reason = ENGINES[engineName].whyNot(stepScenario(ramp, ramp.from_rps));
    if (reason) skipped.push({ engine: engineName, scenario: ramp.name, reason, ramp: true });
    else list.push({ ...ramp, engine: engineName });
  }
  return { list, skipped };
}

/**
 * The held-count search's design (perf/lib/run/held.js HELD_SEARCH, --quick's or the full one),
 * or null: it runs by default where the ramps do (a run of the default scenarios on servers
 * this machine starts, over loopback), --held asks for it with any scenarios, --no-held leaves
 * it out.
 */
function selectHeld(options, { target, link, loadHosts, seeds, headlineQuick }) {
  const remote = target ? '--target' : link ? '--link' : loadHosts ? '--load-hosts' : null;
  if (options.held === true && remote) throw new UsageError(`--held runs on servers this machine starts, over loopback: not with ${remote}`);
  const byDefault = !options.scenarios && !options.scenariosDir && !seeds && !remote && !headlineQuick;
  return (options.held ?? byDefault) ? { ...HELD_SEARCH[options.quick ? 'quick' : 'full'] } : null;
}

/** "p99=10ms" → { percentile: 'p99', ms: 10 }; null → the default objective. */
function parseSlo(text) {
  if (text === null) return DEFAULT_OBJECTIVE;
  const names = Object.keys(PERCENTILES);
  const m = new RegExp(`^(${names.join('|')})\\s*(?:=|<=|≤)\\s*(\\d+(?:\\.\\d+)?)\\s*ms$`).exec(String(text).trim());
  if (!m || !(Number(m[2]) > 0)) throw new UsageError(`--slo takes a percentile and a time, e.g. p99=10ms (${names.join(', ')}), not '${text}'`);
  return { percentile: m[1], ms: Number(m[2]) };
}

/** The servers asked for, and with --references every server that is a reference for one of them. */
function withReferences(asked, definitions, references) {
  if (!references) return asked;
  const referencesOf = (name) => !asked.includes(name) && referenceTargets(name, definitions).some((target) => asked.includes(target));
  return [...asked, ...Object.keys(definitions).filter(referencesOf)];
}

/**
 * Which scenarios each server runs: { served: { server: [scenario] }, skipped }. A server
 * that cannot run on this machine (`requires`) runs none, a server runs only the scenarios it
 * can serve (`serves`), and with --seeds (scenariosFor: { server: [name] }) only its seeds'.
 */
function assignScenarios(servers, scenarios, definitions, scenariosFor) {
  const skipped = [];
  const served = {};
  for (const server of servers) {
    const def = definitions[server];
    const lacking = missingRequirement(def);
    if (lacking) skipped.push({ server, scenario: null, reason: lacking });
    const chosen = scenariosFor ? scenarios.filter((s) => (scenariosFor[server] || []).includes(s.name)) : scenarios;
    for (const s of scenarios) if (!chosen.includes(s)) skipped.push({ server, scenario: s.name, reason: 'not one of its seeds\' scenarios (--seeds)', unplanned: true });
    served[server] = lacking ? [] : chosen.filter((s) => {
      const lacks = missingCapabilities(def, s);
      if (lacks) skipped.push({ server, scenario: s.name, reason: `needs ${lacks.join(', ')}; ${server} serves ${def.serves.join(', ')}` });
      return !lacks;
    });
    if (!lacking && !served[server].length) skipped.push({ server, scenario: null, reason: scenariosFor ? 'none of its seeds\' scenarios was selected' : 'it serves none of the selected scenarios' });
  }
  return { served, skipped };
}

/**
 * The backends to start (perf/lib/hosts/backends.js: the upstream service for /upstream, Redis
 * for /db), by the runner: { names, line }. A server that serves a route calling a backend is
 * started with it in every run, whatever scenarios are selected: its set-up (a Redis client
 * connected, or not) changes what it measures (V8 pretenures node's allocations with its Redis
 * client connected, RESULTS.md), so a quick run and a full run measure one set-up. A server
 * that says nothing of its routes (a stand-in) gets those of the selected scenarios only. The
 * scenarios whose backend cannot run here (not installed, or the servers are not on this
 * machine's loopback, where the backends listen) are left out of `served`, recorded in
 * `skipped` (backend: true) and said in one line (`line`, or null), as is a server started
 * without the backends its routes call. down: why the backends did not start when the runner
 * tried (options.backendsDown), which leaves their scenarios out the same way.
 */
function planBackends(scenarios, served, skipped, { definitions, target, link, loadHosts, down }) {
  const needs = (s) => backendsFor(scenarioNeeds(s));
  const runs = Object.keys(served).filter((server) => served[server].length);
  const declared = runs.flatMap((server) => (Array.isArray(definitions[server]?.serves) ? definitions[server].serves : []));
  const wanted = backendsFor([...declared, ...scenarios.flatMap(scenarioNeeds)]);
  const elsewhere = target ? '--target: the server elsewhere was not started with this run\'s backends' : link ? '--link: the servers in the namespace cannot reach the backends on this machine\'s loopback' : loadHosts ? '--load-hosts: the servers in their namespace cannot reach the backends on this machine\'s loopback' : null;
  const why = Object.fromEntries(wanted.map((name) => [name, elsewhere || missingBackend(name) || (down && `the backends did not start: ${down}`)]));
  const out = scenarios.filter((s) => needs(s).some((name) => why[name]));
  for (const [server, list] of Object.entries(served)) {
    served[server] = list.filter((s) => !out.includes(s));
    for (const s of out) if (list.includes(s)) skipped.push({ server, scenario: s.name, reason: needs(s).map((name) => why[name]).filter(Boolean).join('; '), backend: true });
  }
  const reasons = [...new Set(Object.values(why).filter(Boolean))];
  const without = wanted.filter((name) => why[name]);
  const line = out.length
    ? `backends: ${out.map((s) => s.name).join(', ')} skipped (${reasons.join('; ')})`
    : without.length && !elsewhere
      ? `backends: ${without.join(', ')} not started (${reasons.join('; ')}): the servers run without ${without.length > 1 ? 'their clients' : 'its client'}, a set-up unlike runs with ${without.length > 1 ? 'them' : 'it'}`
      : null;
  const names = wanted.filter((name) => !why[name] && Object.values(served).some((list) => list.length));
  return { names, line };
}

/**
 * Raises this process's open-files limit (the load generator's, and the servers' it starts,
 * which inherit it) as far as the scenarios need (perf/lib/hosts/fd_limits.js), and leaves out
 * of `served` the scenarios it still cannot hold, recorded in `skipped` (fd_limit: true) and
 * said in one line. A server elsewhere (--target) has its own limit, not this machine's to
 * raise; the load generator's still counts. alsoHeld: the most connections the held-count
 * search or a ramp's top step holds (rampConnections), raised for too where the system allows. Returns { limits, line }.
 */
function holdDescriptors(scenarios, served, skipped, { fixed, remote, alsoHeld }) {
  const need = Math.max(descriptorsFor(alsoHeld), ...scenarios.map((s) => descriptorsFor(heldConnections(s))));
  const limits = ensureDescriptors(need, { fixed });
  const over = scenarios.filter((s) => limits.soft !== null && descriptorsFor(heldConnections(s)) > limits.soft);
  for (const [server, list] of Object.entries(served)) {
    served[server] = list.filter((s) => !over.includes(s));
    for (const s of over) if (list.includes(s)) skipped.push({ server, scenario: s.name, reason: `fd limit ${limits.soft} < ${descriptorsFor(heldConnections(s))} descriptors for ${heldConnections(s)} connections`, fd_limit: true });
  }
  const line = shortfallLine(limits, over.map((s) => s.name), Math.max(0, ...over.map(heldConnections)));
  return { limits: { ...limits, server_elsewhere: remote }, line };
}

/**
 * --load-hosts, where --engine tsung runs its agents: { kind: 'netns', count } (made on this
 * machine, with the servers in a namespace of their own) or { kind: 'ssh', hosts } (machines
 * elsewhere, which reach a server given by --target); null for the other engines.
 */
function resolveLoadHosts(asked, { engineName, target, link }) {
  if (asked === null) {
    if (engineName === 'tsung') throw new UsageError('--engine tsung runs its load on load hosts: add --load-hosts netns:N (made on this machine) or --load-hosts HOST,HOST,… (machines reachable by ssh, with Tsung installed)');
    return null;
  }
  let loadHosts;
  try {
    loadHosts = parseLoadHosts(asked);
  } catch (err) {
    throw new UsageError(err.message);
  }
  if (engineName !== 'tsung') throw new UsageError('--load-hosts is where --engine tsung runs its agents: add --engine tsung');
  if (link) throw new UsageError('--load-hosts and --link both put the servers behind a network of their own: use one');
  if (loadHosts.kind === 'netns') {
    if (target) throw new UsageError('--load-hosts netns:N runs the servers it starts in a namespace of their own; for a server at --target, name load hosts that reach it');
    const unavailable = netnsHostsUnavailableReason();
    if (unavailable) throw new UsageError(unavailable);
  } else if (!target) {
    throw new UsageError('load hosts on other machines need a server they can reach: start it where they reach it and give --target http://ADDRESS:PORT (or use --load-hosts netns:N on this machine)');
  }
  return loadHosts;
}

/**
 * Freezes x and every object in it, but those in `inputs`: the scenarios and the server
 * definitions, which the engines and the server launcher hand to libraries as they are.
 */
function freezeAllBut(x, inputs) {
  if (x === null || typeof x !== 'object' || inputs.has(x) || Object.isFrozen(x)) return x;
  for (const v of Object.values(x)) freezeAllBut(v, inputs);
  return Object.freeze(x);
}

/**
 * Whether a run measures the host's calibration first (perf/lib/plan/calibration.js): every run
 * the archive may keep (a full run, of chosen scenarios and ramps too: a ramp-only run makes the
 * archive's sustainable rates, and its host must be set beside the others') and a quick run of
 * the defaults; not a quick run of chosen scenarios (a check of those), nor a run of stand-ins,
 * of the seed studies, or of a server behind a link, elsewhere, or loaded from other hosts.
 */
function calibrates(options, { seeds, target, link, loadHosts }) {
  if (seeds || target || link || loadHosts || options.scenariosDir || options.rampsDir) return false;
  return !(options.quick && options.scenarios);
}

module.exports = { resolvePlan, UsageError };
