'use strict';
// The results document, results.json: its version, its JSON Schema (perf/schemas/
// results.schema.json, draft 2020-12, checked with ajv), its encoder and its one reader,
// together. The runner writes it through perf/lib/store/results_store.js (encodeResults) and
// checks what it wrote; every output (the terminal and summary.md of the run itself, the
// report, compare, the seeds table) reads it through decodeResults, then has it judged by
// perf/lib/judge/judged.js judgeResults (the verdicts, and what older files lack). This file
// reads and checks; it decides nothing. A file written before the schema existed (no
// schema_version) is read as it is, unchecked.

const fs = require('node:fs');
const path = require('node:path');
const { compiledSchema } = require('./compiled_schema');

const RESULTS_FILE = 'results.json';
const SCHEMA_VERSION = 1;
const SCHEMA_FILE = path.join(__dirname, '..', '..', 'schemas', 'results.schema.json');

let validate = null;
function validator() {
  if (!validate) validate = compiledSchema(JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')), { options: { allErrors: false, strict: true } });
  return validate;
}

/** Where a document breaks the schema, in one line ("/runs/3/replies must be integer"), or null. */
function schemaProblem(doc) {
  if (validator()(doc)) return null;
  const [e] = validate.errors;
  const where = e.instancePath || '(the document)';
  const detail = e.params && e.params.allowedValue !== undefined ? ` (${JSON.stringify(e.params.allowedValue)})` : e.params && e.params.additionalProperty ? ` ('${e.params.additionalProperty}')` : '';
  return `${where} ${e.message}${detail}`;
}

/** The results document of a run's parts, as results.json's text. */
function encodeResults({ environment, runs, ...extra }) {
  return `${JSON.stringify({ schema_version: SCHEMA_VERSION, environment, ...extra, runs }, null, 2)}\n`;
}

/** A results.json that cannot be read: the message fits one terminal line. */
class ResultsError extends Error {}

/**
 * Reads and checks a results.json: the parsed document, or a ResultsError saying what is
 * wrong with it (not JSON, no runs list, a schema_version this reader does not know, or where
 * it breaks the schema).
 */
function readResultsFile(file) {
  let doc;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ResultsError(e.code ? `cannot read ${file}: ${e.code}` : `${file} is not valid JSON: ${e.message.split('\n')[0]}`);
  }
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.runs)) throw new ResultsError(`${file} has no "runs" list`);
  if (doc.schema_version === undefined) return doc;
  if (doc.schema_version !== SCHEMA_VERSION) throw new ResultsError(`${file} has schema_version ${JSON.stringify(doc.schema_version)}; this version of the project reads ${SCHEMA_VERSION}`);
  const problem = schemaProblem(doc);
  if (problem) throw new ResultsError(`${file} does not match perf/schemas/results.schema.json: ${problem}`);
  return doc;
}

function num(x) {
  if (x === null || x === undefined || x === '') return null;
  const v = Number(x);
  return Number.isFinite(v) ? v : null;
}

function numbers(obj, keys) {
  const out = {};
  for (const k of keys) out[k] = obj && typeof obj === 'object' ? num(obj[k]) : null;
  return out;
}

/**
 * One run with every field an output reads present (null when unknown): a failed run has no
 * latencies, and files older than the schema may lack any field.
 */
function normaliseRun(raw, index) {
  if (!raw || typeof raw !== 'object') throw new ResultsError(`${RESULTS_FILE}: runs[${index}] is not an object`);
  if (typeof raw.server !== 'string' || !raw.server) throw new ResultsError(`${RESULTS_FILE}: runs[${index}] has no "server" name`);
  if (typeof raw.scenario !== 'string' || !raw.scenario) throw new ResultsError(`${RESULTS_FILE}: runs[${index}] has no "scenario" name`);
  return {
    ...raw,
    ok: raw.ok !== false && !raw.failure,
    failure: raw.failure ? String(raw.failure) : raw.ok === false ? 'run failed (no reason recorded)' : null,
    // null: the engine's CPU says nothing of its load (httperf busy-polls a core).
    client_bound: raw.client_bound === null ? null : raw.client_bound === true,
    requests: num(raw.requests),
    replies: num(raw.replies),
    errors: { refused: 0, reset: 0, timeout: 0, other: 0, ...(raw.errors && typeof raw.errors === 'object' ? raw.errors : {}) },
    status: raw.status && typeof raw.status === 'object' ? raw.status : {},
    throughput_rps: num(raw.throughput_rps),
    latency_ms: numbers(raw.latency_ms, ['min', 'mean', 'p50', 'p90', 'p99', 'p999', 'max']),
    connect_ms: numbers(raw.connect_ms, ['mean', 'p99']),
    duration_s: num(raw.duration_s),
    server_cpu: numbers(raw.server_cpu, ['user_s', 'system_s', 'total_s', 'ms_per_request', 'resolution_ms']),
    server_peak_rss_mb: num(raw.server_peak_rss_mb),
    client_cpu_pct: num(raw.client_cpu_pct),
    trial: raw.trial ?? null,
  };
}

/** The names that occur in seen, those of asked first in its order, then the others as first seen. */
function askedOrder(asked, seen) {
  const present = new Set(seen);
  const first = Array.isArray(asked) ? asked.filter((x) => present.has(x)) : [];
  return [...new Set([...first, ...seen])];
}

/**
 * A results document as read, before it is judged (perf/lib/judge/judged.js judgeResults): {
 * dir, file, environment, definitions, runs (normalised: normaliseRun), servers, scenarios (in
 * the order the run was asked for), skipped, trials (the most of any server and scenario; rounds
 * in paired rounds), looks (paired rounds' looks, or null for trials), aggregates and
 * comparisons (as stored, or null for a file without them), ramps, held, waiting (as stored, or
 * null), backends (as stored; undefined for a file without them), interrupted, error, doc (the
 * document as stored) }.
 */
function decodeResults(doc, { dir = null, file = null } = {}) {
  const runs = doc.runs.map(normaliseRun);
  const environment = doc.environment && typeof doc.environment === 'object' ? doc.environment : {};
  const options = environment.options || {};
  const stored = Array.isArray(doc.comparisons) && Array.isArray(doc.aggregates);
  return {
    dir,
    file,
    environment,
    definitions: environment.servers || {},
    runs,
    // In the order the run was asked for (paired rounds take the servers in a random order).
    servers: askedOrder(options.servers, runs.map((r) => r.server)),
    scenarios: askedOrder(options.scenarios, runs.map((r) => r.scenario)),
    skipped: Array.isArray(doc.skipped) ? doc.skipped : [],
    trials: Math.max(1, ...runs.map((r) => (Number.isInteger(r.trial) ? r.trial : 1))),
    looks: (options.design === 'rounds' && options.looks) || null,
    aggregates: stored ? doc.aggregates : null,
    comparisons: stored ? doc.comparisons : null,
    ramps: doc.ramps || null,
    held: doc.held || null,
    waiting: doc.waiting || null,
    backends: doc.backends,
    interrupted: Boolean(doc.interrupted),
    error: doc.error || null,
    doc,
  };
}

/**
 * Reads <dir>/results.json through decodeResults. Throws a ResultsError (one terminal line)
 * when the folder is unusable: none, no results.json, a file that breaks the schema, no runs.
 */
function loadResults(dir) {
  if (!dir) throw new ResultsError('no results folder given');
  const abs = path.resolve(dir);
  let stat;
  try {
    stat = fs.statSync(abs);
  } catch {
    throw new ResultsError(`results folder not found: ${abs}`);
  }
  if (!stat.isDirectory()) throw new ResultsError(`not a folder: ${abs}`);
  const file = path.join(abs, RESULTS_FILE);
  if (!fs.existsSync(file)) throw new ResultsError(`no ${RESULTS_FILE} in ${abs} (is this a results folder?)`);
  const doc = readResultsFile(file);
  if (doc.runs.length === 0) throw new ResultsError(`${file} lists no runs (the run stopped before any finished?)`);
  return decodeResults(doc, { dir: abs, file });
}

/**
 * The results.json a command-line argument names: a results directory, a results.json file,
 * `latest` (perf/results/latest), or the name of a directory under root. Throws a ResultsError
 * (one terminal line) where there is none.
 */
function resolveResultsFile(arg, { root }) {
  const candidates = [path.resolve(arg)];
  if (!arg.includes('/') && !arg.includes(path.sep)) candidates.push(path.join(root, arg));
  for (const p of candidates) {
    let stat;
    try {
      stat = fs.statSync(p);
    } catch {
      continue;
    }
    if (stat.isDirectory()) {
      const file = path.join(p, RESULTS_FILE);
      if (fs.existsSync(file)) return file;
      throw new ResultsError(`no results.json in ${p} (is it a results directory?)`);
    }
    return p;
  }
  throw new ResultsError(`no such results directory or file: ${arg}`);
}

/** Reads, checks and decodes one results.json (decodeResults); a ResultsError where it cannot. */
function loadResultsFile(file) {
  const doc = readResultsFile(file);
  const bad = doc.runs.findIndex((r) => !r || typeof r.server !== 'string' || typeof r.scenario !== 'string');
  if (bad >= 0) throw new ResultsError(`${file}: runs[${bad}] has no server or scenario name`);
  if (doc.runs.length === 0) throw new ResultsError(`${file}: lists no runs`);
  return decodeResults(doc, { dir: path.dirname(file), file });
}

/** The runs of one server in one scenario (several when there are trials). */
function runsOf(results, scenario, server) {
  return results.runs.filter((r) => r.scenario === scenario && r.server === server);
}

module.exports = { RESULTS_FILE, SCHEMA_VERSION, SCHEMA_FILE, schemaProblem, encodeResults, readResultsFile, decodeResults, loadResults, resolveResultsFile, loadResultsFile, runsOf, ResultsError };
