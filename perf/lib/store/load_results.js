'use strict';
// Reads and checks a results folder's results.json (the scenario runner's output; its format is
// described in perf/README.md). Tolerant of what an interrupted run leaves behind: missing
// runs, failed runs without numbers, missing optional fields. Intolerant, with a one-line
// message, of what makes a report meaningless: no folder, no results.json, no runs at all.

const fs = require('node:fs');
const path = require('node:path');
const { orderServers } = require('../report/style');
const { readResultsFile, ResultsError, RESULTS_FILE } = require('./results_doc');

class ReportError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ReportError';
  }
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

/** One run with every field the report reads present (null when unknown). */
function normaliseRun(raw, index) {
  if (!raw || typeof raw !== 'object') throw new ReportError(`${RESULTS_FILE}: runs[${index}] is not an object`);
  if (typeof raw.server !== 'string' || !raw.server) throw new ReportError(`${RESULTS_FILE}: runs[${index}] has no "server" name`);
  if (typeof raw.scenario !== 'string' || !raw.scenario) throw new ReportError(`${RESULTS_FILE}: runs[${index}] has no "scenario" name`);
  const lat = raw.latency_ms || {};
  const cpu = raw.server_cpu || {};
  return {
    ...raw,
    ok: raw.ok !== false && !raw.failure,
    failure: raw.failure ? String(raw.failure) : raw.ok === false ? 'run failed (no reason recorded)' : null,
    client_bound: raw.client_bound === true,
    requests: num(raw.requests),
    replies: num(raw.replies),
    errors: { refused: 0, reset: 0, timeout: 0, other: 0, ...(raw.errors && typeof raw.errors === 'object' ? raw.errors : {}) },
    status: raw.status && typeof raw.status === 'object' ? raw.status : {},
    throughput_rps: num(raw.throughput_rps),
    latency_ms: numbers(lat, ['min', 'mean', 'p50', 'p90', 'p99', 'p999', 'max']),
    connect_ms: numbers(raw.connect_ms, ['mean', 'p99']),
    duration_s: num(raw.duration_s),
    server_cpu: { ...numbers(cpu, ['user_s', 'system_s', 'ms_per_request']) },
    server_peak_rss_mb: num(raw.server_peak_rss_mb),
    client_cpu_pct: num(raw.client_cpu_pct),
    trial: raw.trial ?? null,
  };
}

/** Total of the error counts of a run. */
function errorCount(run) {
  return Object.values(run.errors).reduce((a, b) => a + (Number(b) || 0), 0);
}

/**
 * Loads <dir>/results.json. Returns
 * { dir, file, environment, runs, servers, scenarios, comparisons, raw }.
 * Throws ReportError (message fit for one terminal line) when the folder is unusable.
 */
function loadResults(dir) {
  if (!dir) throw new ReportError('no results folder given');
  const abs = path.resolve(dir);
  let stat;
  try {
    stat = fs.statSync(abs);
  } catch {
    throw new ReportError(`results folder not found: ${abs}`);
  }
  if (!stat.isDirectory()) throw new ReportError(`not a folder: ${abs}`);
  const file = path.join(abs, RESULTS_FILE);
  if (!fs.existsSync(file)) throw new ReportError(`no ${RESULTS_FILE} in ${abs} (is this a results folder?)`);
  let raw;
  try {
    raw = readResultsFile(file);
  } catch (e) {
    if (e instanceof ResultsError) throw new ReportError(e.message);
    throw e;
  }
  if (raw.runs.length === 0) throw new ReportError(`${file} lists no runs (the run stopped before any finished?)`);
  const runs = raw.runs.map(normaliseRun);
  const scenarios = [];
  for (const r of runs) if (!scenarios.includes(r.scenario)) scenarios.push(r.scenario);
  return {
    dir: abs,
    file,
    environment: raw.environment && typeof raw.environment === 'object' ? raw.environment : {},
    runs,
    servers: orderServers(runs.map((r) => r.server)),
    scenarios,
    comparisons: Array.isArray(raw.comparisons) ? raw.comparisons : null,
    raw,
  };
}

/** The runs of one server in one scenario (several when there are trials). */
function runsOf(results, scenario, server) {
  return results.runs.filter((r) => r.scenario === scenario && r.server === server);
}

module.exports = { loadResults, runsOf, errorCount, ReportError, RESULTS_FILE };
