'use strict';
// The runtimes the servers run on (perf/runtimes.json): which one a server runs on, where an
// installed one lives (.runtimes/, ignored by git), the environment that puts a server on it,
// and what it exactly is (its versions, read from the runtime itself). Installing one is
// perf/lib/hosts/install_runtime.js's.
//
// A server's definition (perf/servers.json) names its runtime; "SERVER@RUNTIME" names the same
// server on another (em@ruby31), a definition made from the two. A definition without one runs
// its command as the machine has it (nginx, the C servers).

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { PROJECT_ROOT } = require('../project_root');

const RUNTIMES_FILE = path.join(PROJECT_ROOT, 'perf', 'runtimes.json');
const RUNTIMES_DIR = path.join(PROJECT_ROOT, '.runtimes');
// Written last by an install: its presence says the runtime is whole.
const INSTALLED_FILE = 'installed.json';
// Prints what a Ruby runtime and the gems the servers load are, as JSON (describeRuntime).
const RUBY_PROBE = path.join(PROJECT_ROOT, 'ruby', 'runtime_probe.rb');

/** A runtime that cannot be used or named: the message fits one terminal line. */
class RuntimeError extends Error {}

let cached = null;
function runtimesFile() {
  if (!cached) cached = JSON.parse(fs.readFileSync(RUNTIMES_FILE, 'utf8'));
  return cached;
}

/**
 * The runtime named id, a variant ("of") merged onto the runtime it varies: { id, base (the id
 * of what is installed), kind, label, from, env, ... }. Throws RuntimeError for an unknown id.
 */
function runtimeOf(id, file = runtimesFile()) {
  const def = file.runtimes[id];
  if (!def) throw new RuntimeError(`unknown runtime '${id}' (known: ${Object.keys(file.runtimes).join(', ')})`);
  if (!def.of) return { ...def, id, base: id, env: def.env || {} };
  const base = runtimeOf(def.of, file);
  return { ...base, ...def, id, base: base.base, env: { ...base.env, ...(def.env || {}) } };
}

/** The folder an installed runtime lives in (null for the machine's own). */
function installDir(runtime, root = RUNTIMES_DIR) {
  if (runtime.from === 'system') return null;
  return path.join(root, `${runtime.base}-${runtime.version}`);
}

/** The folder of its commands (bin/), or null for the machine's own (found on PATH). */
function binDir(runtime, root = RUNTIMES_DIR) {
  const dir = installDir(runtime, root);
  return dir ? path.join(dir, 'bin') : null;
}

/**
 * What an install recorded (installed.json), or null when it is not (wholly) installed, or was
 * built with other configure options than perf/runtimes.json gives now (built before
 * --enable-load-relative, a Ruby finds its library at the folder it was built in, and fails once
 * the checkout that built it moves or is gone): then it is installed again.
 */
function installRecord(runtime, root = RUNTIMES_DIR) {
  const dir = installDir(runtime, root);
  if (!dir) return null;
  let record;
  try {
    record = JSON.parse(fs.readFileSync(path.join(dir, INSTALLED_FILE), 'utf8'));
  } catch {
    return null;
  }
  const same = JSON.stringify(record.configure ?? null) === JSON.stringify(runtime.configure ?? null);
  return same ? record : null;
}

function run(command, args, env) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', timeout: 15000, stdio: ['ignore', 'pipe', 'pipe'], cwd: PROJECT_ROOT, env }).trim();
  } catch {
    return null;
  }
}

/** The version the machine's own command prints ("v20.20.2", "3.1.2"), or null without one. */
function systemVersion(runtime) {
  const args = runtime.kind === 'node' ? ['-p', 'process.versions.node'] : ['-e', 'print RUBY_VERSION'];
  return run(runtime.command, args, process.env);
}

/**
 * Why the runtime cannot be used now, in one line, or null when it can: a machine's own one
 * missing or of another version, an installed one not installed.
 */
const systemVersions = new Map(); // a machine's command does not change during a run
function unavailable(runtime, root = RUNTIMES_DIR) {
  if (runtime.from === 'system') {
    if (!systemVersions.has(runtime.command)) systemVersions.set(runtime.command, systemVersion(runtime));
    const version = systemVersions.get(runtime.command);
    if (version === null) return `${runtime.label} is the machine's own '${runtime.command}', which is not installed`;
    if (version !== runtime.major && !version.startsWith(`${runtime.major}.`)) return `${runtime.label} is the machine's own '${runtime.command}', which is ${version} here`;
    return null;
  }
  return installRecord(runtime, root) ? null : `${runtime.label} (${runtime.id}) is not installed: npm run runtimes -- install ${runtime.base}`;
}

// A runtime a quick run may install on its way: a download of seconds (Node's build), not a
// compilation of minutes (Ruby's).
const QUICK_INSTALLS = ['npm'];

/**
 * The runtime a quick run puts a server of runtime id on: id where it is installed or installs in
 * seconds, else the runtime of its kind the README's history table answers for (perf/runtimes.json
 * history). missing(id): why a runtime cannot be used now, or null (unavailable's).
 */
function quickRuntime(id, missing = (x) => unavailable(runtimeOf(x))) {
  const runtime = runtimeOf(id);
  if (!missing(id) || runtime.from === 'system' || QUICK_INSTALLS.includes(runtime.from)) return id;
  return runtimesFile().history[runtime.kind];
}

/**
 * Whether a server's definition runs on runtime id: any of its kind, or, where it names the
 * runtimes it needs (perf/servers.json runs_on: async-http's server needs Ruby 3.3's gems),
 * one of those or a variant of one.
 */
function runsOn(def, id) {
  return !def.runs_on || def.runs_on.includes(runtimeOf(id).base);
}

/**
 * The environment that puts a server on the runtime: its commands first on PATH (a server's
 * command, "node" or "ruby", is looked up there, through taskset or ip netns exec too) and the
 * runtime's own variables (YJIT).
 */
function runtimeEnv(runtime, env = process.env, root = RUNTIMES_DIR) {
  const bin = binDir(runtime, root);
  return { ...env, ...(bin ? { PATH: `${bin}${path.delimiter}${env.PATH || ''}` } : {}), ...runtime.env };
}

/** "SERVER@RUNTIME" read: { server, runtime } (runtime null in a name without one). */
function parseLabel(label) {
  const [server, runtime = null] = label.split('@');
  return { server, runtime };
}

/** The name of server on runtime: "SERVER@RUNTIME" (parseLabel reads it). */
const labelOf = (server, runtime) => `${server}@${runtime}`;

/**
 * The runtimes a definition may run on with its own settings: its runtime, and for a tuned
 * configuration each runtime its tuning was measured on (perf/servers.json `on`: that runtime's
 * description, args, env and tuning).
 */
function settingsRuntimes(def) {
  return [def.runtime, ...Object.keys(def.on || {})].filter(Boolean);
}

/**
 * The tuned configuration of a server among the definitions (tuned_of), on the server's own
 * runtime (a tuning is chosen by measurement on each runtime: perf/servers.json `on`), or null
 * where none was measured: em has em_tuned, em@ruby31 em_tuned@ruby31 (withRuntimeVariants
 * makes it), em@ruby33 none.
 */
function tunedOf(server, definitions = {}) {
  const def = definitions[server] || {};
  // A server on another runtime (em@ruby31, perf/lib/hosts/runtimes.js) is tuned as its server is there.
  const base = def.variant_of || server;
  const names = Object.keys(definitions).filter((n) => definitions[n] && definitions[n].tuned_of === base);
  const made = names.find((n) => definitions[n].runtime === def.runtime);
  if (made) return made;
  const measured = names.find((n) => !definitions[n].variant_of && settingsRuntimes(definitions[n]).includes(def.runtime));
  return measured ? labelOf(measured, def.runtime) : null;
}

/** The servers a server is the reference of (perf/servers.json reference_for, one name or a list; '*': every server), [] for one that is none's. */
function referenceTargets(server, definitions = {}) {
  return [].concat((definitions[server] && definitions[server].reference_for) || []);
}

/** The server a tuned configuration tunes, or the server itself. */
function baseOf(server, definitions = {}) {
  return (definitions[server] && definitions[server].tuned_of) || server;
}

/**
 * definitions with an entry for each "SERVER@RUNTIME" among names: SERVER's definition on that
 * runtime (of the same kind as SERVER's own; a tuned configuration with the settings measured on
 * it, `on`, and on no runtime it was not measured on). Throws RuntimeError for a name that
 * cannot be made.
 */
function withRuntimeVariants(definitions, names = []) {
  const out = { ...definitions };
  for (const name of names) {
    if (out[name] || !name.includes('@')) continue;
    const { server, runtime: id } = parseLabel(name);
    const def = definitions[server];
    if (!def) continue; // the caller says "unknown server" with the list of known ones
    if (!def.runtime) throw new RuntimeError(`'${name}': server '${server}' names no runtime (it runs its command as the machine has it)`);
    const runtime = runtimeOf(id);
    const own = runtimeOf(def.runtime);
    if (runtime.kind !== own.kind) throw new RuntimeError(`'${name}': ${server} runs on a ${own.kind} runtime, ${id} is ${runtime.kind}`);
    if (!runsOn(def, id)) throw new RuntimeError(`'${name}': ${server} runs on ${def.runs_on.join(' and ')} only (perf/servers.json runs_on)`);
    // A tuning holds on the runtime it was measured on only.
    if (def.tuned_of && !settingsRuntimes(def).includes(id)) throw new RuntimeError(`'${name}': ${server}'s tuning was measured on ${settingsRuntimes(def).join(' and ')}, not on ${id}; run ${labelOf(def.tuned_of, id)} for its defaults`);
    const { on, ...base } = def;
    const settings = (on && on[id]) || {};
    out[name] = { ...base, ...settings, runtime: id, description: `${settings.description || def.description}, on ${runtime.label}`, variant_of: server };
  }
  return out;
}

/** The exact runtime a probe reads: Node's process.versions, or Ruby's (ruby/runtime_probe.rb). */
function probe(runtime, env) {
  if (runtime.kind === 'node') {
    const text = run('node', ['-p', 'JSON.stringify({ ...process.versions, execArgv: process.execArgv })'], env);
    if (!text) return null;
    const v = JSON.parse(text);
    return { version: v.node, v8: v.v8, libuv: v.uv, llhttp: v.llhttp, openssl: v.openssl };
  }
  const text = run('ruby', [RUBY_PROBE], env);
  return text ? JSON.parse(text) : null;
}

/**
 * What a runtime is, for results.json (environment.runtimes): { id, label, from, path (of its
 * commands), installed (its install's record), ...the probe's figures (version; Node: v8, libuv,
 * llhttp; Ruby: yjit, the GC variables set, the gems the servers load and io-event's selector) },
 * read with the environment a server gets (serverEnv: its definition's variables on top).
 */
function describeRuntime(id, { serverEnv = {}, root = RUNTIMES_DIR } = {}) {
  const runtime = runtimeOf(id);
  const env = { ...runtimeEnv(runtime, process.env, root), ...serverEnv };
  const bin = binDir(runtime, root);
  return {
    id,
    label: runtime.label,
    from: runtime.from,
    path: bin ? path.relative(PROJECT_ROOT, bin) : run('sh', ['-c', `command -v ${runtime.command}`], env),
    installed: installRecord(runtime, root),
    ...(probe(runtime, env) || { version: null }),
  };
}

/** The ids of the runtimes of each kind that the README's tables answer for ({ today, history }). */
function eras(file = runtimesFile()) {
  return { today: file.today, history: file.history };
}

module.exports = {
  referenceTargets,
  RUNTIMES_FILE,
  RUNTIMES_DIR,
  INSTALLED_FILE,
  RuntimeError,
  runtimesFile,
  runtimeOf,
  parseLabel,
  labelOf,
  installDir,
  binDir,
  installRecord,
  unavailable,
  quickRuntime,
  runsOn,
  runtimeEnv,
  settingsRuntimes,
  tunedOf,
  baseOf,
  withRuntimeVariants,
  describeRuntime,
  eras,
};
