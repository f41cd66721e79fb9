'use strict';
// The archive of full runs (results/archive/*.json, committed): one compact record per run, its
// encoder and its one reader together, as results_doc.js is for results.json. A record keeps
// what the answers across runs need and what tells hosts apart, and leaves out the per-request
// samples and the runs' raw figures:
//   archive_version, id (its file name without .json), started_at, finished_at
//   host        cpu_model, cpu_microcode, cpu_flags, cpu_mitigations, kernel, os, cores,
//               memory_gb, hostname
//   software    node, ruby, gems, npm_packages (the machine's: the runner's and the system Ruby's)
//   runtimes    each runtime a server ran on, as the run read it (perf/lib/hosts/runtimes.js
//               describeRuntime: versions, YJIT, the gems loaded, io-event's selector); records
//               from before runtimes were data have none, their servers ran on the machine's own
//   commit, dirty   the project's commit and whether the working copy differed from it
//   methods     the versions of the measuring rules it used (perf/lib/method.js METHOD_VERSIONS)
//   sources     per server, a digest of what makes it (its folder and the shared files at the
//               commit, and its definition): a later digest that differs marks the run stale
//   machine     the steal and foreign CPU its runs saw (median and largest, % of a core)
//   calibration the host's yardstick: the libevent reference's CPU per request at one fixed
//               load (perf/lib/run/calibration.js), or null for a run before it was measured
//   options, servers (definitions), answers (every comparison with an interval or the reason
//   it has none, perf/lib/judge/meta.js runAnswers), aggregates, ramps (without the steps'
//   pauses and attribution), held (the same), waiting, backends
//   runtime_events  per scenario and server, its runtime events over the runs of its verdict
//               (measure/runtime_events.js runtimeAcross: GCs, stalls, what the p99 tail
//               coincided with and how much of it each kind of pause explains)
//   verdict_engines, verdict_engine_reasons  the load engine behind each scenario's verdict
//               where it is not the built-in one, and why
// Records are written once and never rewritten: a run's record says what that run found.

const fs = require('node:fs');
const path = require('node:path');
const { parseLabel, labelOf } = require('../hosts/runtimes');
const { writeFileAtomic } = require('./results_store');
const { median } = require('../measure/stats');
const { runtimeAcross } = require('../measure/runtime_events');
const { PROJECT_ROOT } = require('../project_root');

const ARCHIVE_VERSION = 1;
const ARCHIVE_DIR = path.join(PROJECT_ROOT, 'results', 'archive');
const REQUIRED = ['archive_version', 'id', 'started_at', 'host', 'commit', 'options', 'answers'];

/** An archive record that cannot be read or written: the message fits one terminal line. */
class ArchiveError extends Error {}

/** A step of a search without what only its own chart draws (pauses, the tail's attribution). */
function compactStep(step) {
  if (!step.runtime) return step;
  const runtime = { ...step.runtime };
  delete runtime.pauses;
  delete runtime.tail;
  return { ...step, runtime };
}

function compactSearch(search) {
  return search && Array.isArray(search.steps) ? { ...search, steps: search.steps.map(compactStep) } : search;
}

function compactRamps(ramps) {
  if (!ramps) return null;
  return {
    ...ramps,
    ramps: ramps.ramps.map((r) => ({
      ...r,
      servers: Object.fromEntries(Object.entries(r.servers).map(([name, s]) => [name, { ...s, searches: s.searches.map(compactSearch) }])),
    })),
  };
}

function compactHeld(held) {
  if (!held || !held.servers) return held || null;
  return { ...held, servers: Object.fromEntries(Object.entries(held.servers).map(([name, s]) => [name, compactSearch(s)])) };
}

/** The steal and foreign CPU the runs saw: median and largest of their machine_cpu, or nulls. */
function machineOf(runs) {
  const of = (key) => runs.map((r) => r.machine_cpu && r.machine_cpu[key]).filter(Number.isFinite);
  const summary = (values) => ({ median_pct: median(values), max_pct: values.length ? Math.max(...values) : null });
  return { runs: runs.length, steal: summary(of('steal_pct')), foreign_cpu: summary(of('foreign_cpu_pct')) };
}

/** "2026-11-27T12-20-18Z__ea6f34d": when the run started and its commit, a name that sorts by time. */
function recordId(environment) {
  const when = String(environment.started_at || 'unknown').replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  return `${when}__${String(environment.project_commit || 'nocommit').slice(0, 7)}`;
}

/**
 * The record of a judged run (perf/lib/judge/judged.js judgeResults of what the store read): answers (meta.js
 * runAnswers of the same run) and sources (perf/lib/run/environment.js serverSources at its commit)
 * are given by the caller.
 */
function recordOf(results, { answers, sources }) {
  const env = results.environment;
  return {
    archive_version: ARCHIVE_VERSION,
    id: recordId(env),
    started_at: env.started_at || null,
    finished_at: env.finished_at || null,
    host: {
      cpu_model: env.cpu_model || null,
      cpu_microcode: env.cpu_microcode || null,
      cpu_flags: env.cpu_flags || null,
      cpu_mitigations: env.cpu_mitigations || null,
      kernel: env.kernel || null,
      os: env.os || null,
      cores: env.cores ?? null,
      memory_gb: env.memory_gb ?? null,
      hostname: env.hostname || null,
    },
    software: { node: env.node || null, ruby: env.ruby || null, gems: env.gems || null, npm_packages: env.npm_packages || null },
    runtimes: env.runtimes || null,
    commit: env.project_commit || null,
    dirty: env.project_dirty ?? null,
    sources,
    methods: env.methods || null,
    machine: machineOf(results.runs),
    calibration: env.calibration || null,
    interrupted: results.interrupted,
    options: env.options || {},
    servers: results.definitions,
    answers,
    aggregates: results.aggregates,
    ramps: compactRamps(results.ramps),
    held: compactHeld(results.held),
    waiting: results.waiting || null,
    backends: results.backends || null,
    // The why, so that a cause can be read again from the record: each server's runtime events
    // per scenario over the runs its verdict used, and the engine behind each scenario's verdict
    // (the built-in one where none is named).
    runtime_events: runtimeEventsOf(results),
    verdict_engines: results.engines || {},
    verdict_engine_reasons: (results.doc && results.doc.verdict_engine_reasons) || {},
  };
}

/**
 * { scenario: { server: measure/runtime_events.js runtimeAcross over the runs of its verdict
 * (usable, not superseded) } } for the servers with runtime events; {} for a run without any.
 */
function runtimeEventsOf(results) {
  const out = {};
  for (const scenario of results.scenarios || []) {
    for (const server of results.servers || []) {
      const across = runtimeAcross(results.runs.filter((r) => r.scenario === scenario && r.server === server && r.usable && !r.superseded));
      if (across) (out[scenario] = out[scenario] || {})[server] = across;
    }
  }
  return out;
}

/**
 * The runtime a server of a run ran on: its definition's (servers: a record's or a run's
 * definitions), else, for a run from before runtimes were data, the machine's command of the
 * version the run recorded (software: { node, ruby }): node20, ruby31. null for a server that
 * names none and runs neither (nginx).
 */
function runtimeOfServer(servers, software, name) {
  const def = (servers && servers[name]) || {};
  if (def.runtime) return def.runtime;
  const version = def.command === 'node' || def.command === 'ruby' ? software && software[def.command] : null;
  const m = version && /^v?(\d+)\.(\d+)/.exec(version);
  if (!m) return null;
  return def.command === 'node' ? `node${m[1]}` : `ruby${m[1]}${m[2]}`;
}

/**
 * A server's name in the answers across runs: SERVER@RUNTIME (node@node24, em@ruby31), so that
 * answers pool per runtime and never across; a variant's (em@ruby31) is its own; a server on
 * no runtime keeps its name.
 */
function runtimeLabel(servers, software, name) {
  const def = (servers && servers[name]) || {};
  const runtime = runtimeOfServer(servers, software, name);
  if (!runtime) return name;
  return labelOf(def.variant_of || parseLabel(name).server, runtime);
}

// Six significant digits: far finer than any interval the runs give, and a third of the bytes.
const DIGITS = 6;
const rounded = (_, v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(DIGITS)) : v);

/** A record as the archive's file text: one key per line at the top, compact below, numbers to six digits. */
function encodeRecord(record) {
  const lines = Object.entries(record).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v, rounded)}`);
  return `{\n${lines.join(',\n')}\n}\n`;
}

/** A record from its file's text, checked for what every reader relies on. */
function decodeRecord(text, file) {
  let record;
  try {
    record = JSON.parse(text);
  } catch (e) {
    throw new ArchiveError(`${file} is not valid JSON: ${e.message.split('\n')[0]}`);
  }
  if (!record || typeof record !== 'object') throw new ArchiveError(`${file} is not an archive record`);
  const missing = REQUIRED.filter((k) => record[k] === undefined);
  if (missing.length) throw new ArchiveError(`${file} is not an archive record: no ${missing.join(', ')}`);
  // A record of a newer version may hold what this reader cannot pool; an older one is read as it is.
  if (!Number.isInteger(record.archive_version) || record.archive_version > ARCHIVE_VERSION) throw new ArchiveError(`${file} has archive_version ${JSON.stringify(record.archive_version)}; this version of the project reads ${ARCHIVE_VERSION}`);
  if (!Array.isArray(record.answers)) throw new ArchiveError(`${file}: "answers" is not a list`);
  return record;
}

/** Every record in dir, oldest first (their names sort by time); none when dir does not exist. */
function readArchive(dir = ARCHIVE_DIR) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const file = path.join(dir, name);
      return decodeRecord(fs.readFileSync(file, 'utf8'), file);
    });
}

/**
 * Writes a record to dir as <id>.json and returns its path. A record already there for the same
 * run is an error, not overwritten: a run's record says what that run found.
 */
function writeRecord(record, dir = ARCHIVE_DIR) {
  const file = path.join(dir, `${record.id}.json`);
  if (fs.existsSync(file)) throw new ArchiveError(`${file} exists already: this run is in the archive`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    writeFileAtomic(file, encodeRecord(record));
  } catch (err) {
    throw new ArchiveError(`cannot write ${file}: ${err.code || err.message}`);
  }
  return file;
}

module.exports = { ARCHIVE_VERSION, ARCHIVE_DIR, ArchiveError, recordOf, recordId, encodeRecord, decodeRecord, readArchive, writeRecord, runtimeOfServer, runtimeLabel };
