'use strict';
// Where a set of results was measured: machine, software versions, project commit. Every
// probe has a short deadline and a fallback of null, so a missing tool never stops a run.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { execFileSync } = require('node:child_process');
const { runtimeOf } = require('../hosts/runtimes');
const { METHOD_VERSIONS, thresholds } = require('../method');
const { PROJECT_ROOT } = require('../project_root');

function run(command, args, options = {}) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'], cwd: PROJECT_ROOT, ...options }).trim();
  } catch {
    return null;
  }
}

function osName() {
  try {
    const text = fs.readFileSync('/etc/os-release', 'utf8');
    const m = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(text);
    if (m) return m[1];
  } catch {
    // not Linux, or no os-release
  }
  return `${os.type()} ${os.release()}`;
}

/** The first CPU's flags and microcode in /proc/cpuinfo: hosts sold under one model name differ in them. */
function cpuDetails(cpuinfo = '/proc/cpuinfo') {
  try {
    const first = fs.readFileSync(cpuinfo, 'utf8').split(/\n\s*\n/)[0];
    const field = (name) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(first)?.[1].trim() ?? null;
    const flags = field('flags');
    return { flags: flags ? flags.split(/\s+/).sort() : null, microcode: field('microcode') };
  } catch {
    return { flags: null, microcode: null };
  }
}

/** The kernel's view of each CPU vulnerability and its mitigation, by name (Linux only, else null). */
function cpuMitigations(dir = '/sys/devices/system/cpu/vulnerabilities') {
  try {
    const out = {};
    for (const name of fs.readdirSync(dir).sort()) out[name] = fs.readFileSync(path.join(dir, name), 'utf8').trim();
    return out;
  } catch {
    return null;
  }
}

// What every server serves alike: a change to either changes what each server is measured on.
const SHARED_SOURCES = ['shared_www', 'contract.json'];

/**
 * The folders a server's code lives in: those its definition names (`sources`: a server whose
 * code loads another folder's, as each Ruby server loads ruby/shared's request gate and routes),
 * else that of the first script its definition runs, else none.
 */
function sourceFolders(definition) {
  if (definition.sources) return definition.sources;
  const script = [definition.command, ...(definition.args || [])].find((x) => typeof x === 'string' && (/\.(js|rb|sh)$/.test(x) || x.startsWith('perf/c/build/')));
  if (!script) return [];
  return [script.startsWith('perf/c/build/') ? 'perf/c' : path.dirname(script)];
}

/**
 * What of a server's runtime its digest holds: a runtime the project installs, by its id, pinned
 * version and variables (YJIT); nothing for the machine's own as it is (as before runtimes were
 * data, so that a record of the machine's node is current for node@node20).
 */
function runtimePart(def) {
  if (!def.runtime) return {};
  const runtime = runtimeOf(def.runtime);
  return runtime.from === 'system' && !Object.keys(runtime.env).length ? {} : { runtime: { id: runtime.id, version: runtime.version ?? null, env: runtime.env } };
}

/**
 * A digest per server of what makes it at a commit (HEAD when not given): git's tree (or blob)
 * ids of its folders and the shared files, and its definition (command, arguments, environment),
 * so that a later run can tell whether a record measured the server it would measure. null for
 * a server git cannot tell (no such commit, not a git checkout).
 */
function serverSources(definitions, { commit = 'HEAD', root = PROJECT_ROOT } = {}) {
  const ids = new Map();
  const idOf = (p) => {
    if (!ids.has(p)) ids.set(p, run('git', ['rev-parse', '--verify', '--quiet', `${commit}:${p}`], { cwd: root }));
    return ids.get(p);
  };
  const out = {};
  for (const [name, def] of Object.entries(definitions)) {
    const parts = [...sourceFolders(def), ...SHARED_SOURCES].map((p) => [p, idOf(p)]);
    out[name] = parts.some(([, id]) => !id) ? null : crypto.createHash('sha256').update(JSON.stringify({ parts, command: def.command, args: def.args || [], env: def.env || {}, ...runtimePart(def) })).digest('hex').slice(0, 16);
  }
  return out;
}

/** Versions of the locked gems, from Gemfile.lock (what bundler installs and loads). */
function lockedGems(root = PROJECT_ROOT) {
  try {
    const text = fs.readFileSync(path.join(root, 'Gemfile.lock'), 'utf8');
    const gems = {};
    for (const m of text.matchAll(/^ {4}([A-Za-z0-9_.-]+) \(([^)]+)\)$/gm)) gems[m[1]] = m[2];
    return gems;
  } catch {
    return {};
  }
}

function npmVersion(name) {
  try {
    return JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

/** The environment object of results.json (see perf/REFERENCE.md, "Output"). */
function collectEnvironment({ pinning = null, options = {} } = {}) {
  const cpus = os.cpus();
  const gems = lockedGems();
  const rubyVersion = run('ruby', ['-e', 'print RUBY_VERSION + "p" + RUBY_PATCHLEVEL.to_s']);
  const status = run('git', ['status', '--porcelain', '--untracked-files=no']);
  const cpu = cpuDetails();
  return {
    os: osName(),
    kernel: `${os.type()} ${os.release()}`,
    arch: os.arch(),
    cpu_model: cpus.length ? cpus[0].model : null,
    cpu_flags: cpu.flags,
    cpu_microcode: cpu.microcode,
    cpu_mitigations: cpuMitigations(),
    cores: cpus.length,
    cores_available: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
    memory_gb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    hostname: os.hostname(),
    node: process.version,
    ruby: rubyVersion,
    eventmachine: gems.eventmachine || null,
    eventmachine_httpserver: gems.eventmachine_httpserver || null,
    gems,
    npm_packages: { autocannon: npmVersion('autocannon'), 'hdr-histogram-js': npmVersion('hdr-histogram-js') },
    project_commit: run('git', ['rev-parse', 'HEAD']),
    project_dirty: status === null ? null : status.length > 0,
    pinning,
    thresholds: thresholds(),
    methods: METHOD_VERSIONS,
    options,
  };
}

module.exports = { collectEnvironment, lockedGems, cpuDetails, cpuMitigations, serverSources };
