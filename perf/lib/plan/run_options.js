'use strict';
// What runScenarios is asked to do, checked before anything starts: the servers (and
// --target's stand-in definition), --link, --engine, --warmup and --repeat, and which
// scenarios each server can serve here. A mistake the caller made is a UsageError (perf/cli/run.js
// prints it with the usage line, exit 2).

const { loadServerDefinitions } = require('../hosts/server_process');
const { parseRate, linkUnavailableReason } = require('../hosts/netns');
const { loadScenarios, MAX_WARMUP_S } = require('./scenarios');
const { DEFAULT_ENGINE, selectEngine } = require('../engines');
const { missingCapabilities, missingRequirement } = require('./trial_plan');
const { parseLoadHosts, netnsHostsUnavailableReason } = require('../hosts/load_hosts');

/** A mistake in what the caller asked for (unknown server…): the CLI prints it with usage, exit 2. */
class UsageError extends Error {}

/**
 * The run runScenarios(options) asks for: { definitions, serverNames, engineName, lighter
 * (run scenarios again with lighter engines), scenarios (as run: --engine and --warmup
 * applied), engineSkipped, warmupOverride, trials, skipped ([{ server, scenario (null: all),
 * reason }]), served ({ server: its scenarios }), runnable (servers with any) }.
 */
function resolveRunOptions(options) {
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
  const loadHosts = resolveLoadHosts(options);
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
  const trials = options.repeat ?? 1; // the CLI's default: DEFAULT_TRIALS (trial_plan.js)
  if (!Number.isInteger(trials) || trials < 1) throw new UsageError(`--repeat must be a whole number, 1 or more (not '${options.repeat}')`);
  // Servers that cannot run on this machine, and scenarios a server cannot serve, are skipped.
  const skipped = [];
  const served = {};
  for (const server of serverNames) {
    const lacking = missingRequirement(definitions[server]);
    if (lacking) skipped.push({ server, scenario: null, reason: lacking });
    // --seeds: each server runs only its seeds' scenarios (options.scenariosFor).
    const chosen = options.scenariosFor ? scenarios.filter((s) => (options.scenariosFor[server] || []).includes(s.name)) : scenarios;
    for (const s of scenarios) if (!chosen.includes(s)) skipped.push({ server, scenario: s.name, reason: 'not one of its seeds\' scenarios (--seeds)', unplanned: true });
    served[server] = lacking ? [] : chosen.filter((s) => {
      const lacks = missingCapabilities(definitions[server], s);
      if (lacks) skipped.push({ server, scenario: s.name, reason: `needs ${lacks.join(', ')}; ${server} serves ${definitions[server].serves.join(', ')}` });
      return !lacks;
    });
    if (!lacking && !served[server].length) skipped.push({ server, scenario: null, reason: options.scenariosFor ? 'none of its seeds\' scenarios was selected' : 'it serves none of the selected scenarios' });
  }
  const runnable = serverNames.filter((s) => served[s].length > 0);
  if (!runnable.length) throw new Error(`no server can run: ${skipped.filter((k) => k.scenario === null).map((k) => `${k.server}: ${k.reason}`).join('; ')}`);
  return { definitions, serverNames, engineName, lighter, scenarios, engineSkipped, warmupOverride, trials, skipped, served, runnable, loadHosts };
}

/**
 * --load-hosts, where --engine tsung runs its agents: { kind: 'netns', count } (made on this
 * machine, with the servers in a namespace of their own) or { kind: 'ssh', hosts } (machines
 * elsewhere, which reach a server given by --target); null for the other engines.
 */
function resolveLoadHosts(options) {
  const engine = options.engine || DEFAULT_ENGINE;
  if (options.loadHosts === undefined || options.loadHosts === null) {
    if (engine === 'tsung') throw new UsageError('--engine tsung runs its load on load hosts: add --load-hosts netns:N (made on this machine) or --load-hosts HOST,HOST,… (machines reachable by ssh, with Tsung installed)');
    return null;
  }
  let loadHosts;
  try {
    loadHosts = parseLoadHosts(options.loadHosts);
  } catch (err) {
    throw new UsageError(err.message);
  }
  if (engine !== 'tsung') throw new UsageError('--load-hosts is where --engine tsung runs its agents: add --engine tsung');
  if (options.link) throw new UsageError('--load-hosts and --link both put the servers behind a network of their own: use one');
  if (loadHosts.kind === 'netns') {
    if (options.target) throw new UsageError('--load-hosts netns:N runs the servers it starts in a namespace of their own; for a server at --target, name load hosts that reach it');
    const unavailable = netnsHostsUnavailableReason();
    if (unavailable) throw new UsageError(unavailable);
  } else if (!options.target) {
    throw new UsageError('load hosts on other machines need a server they can reach: start it where they reach it and give --target http://ADDRESS:PORT (or use --load-hosts netns:N on this machine)');
  }
  return loadHosts;
}

module.exports = { resolveRunOptions, UsageError };
