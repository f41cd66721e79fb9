'use strict';
// A results document as every output reads it: what perf/lib/store/results_doc.js decoded, with
// the judge's verdicts and what follows from them, derived here once. Verdicts stored in the
// document are used as they are (brought up to today's limits where the file predates them:
// verdicts.js withLimits); a document without them (an older file) is judged here with the same
// rule the runner applied when it wrote them, and so are its waiting runs and backends. Every
// comparison carries its answer (metrics.js answerOf), which perf/lib/text/ puts in words.

const { analyzeRuns, withLimits, overheads, primaryPair, verdictEngines, usableForVerdict } = require('./verdicts');
const { tunedPair } = require('./tuning');
const { analyzeWaiting, memoryResolved } = require('./waiting');
const { analyzeBackends } = require('./backends');
const { withAnswer } = require('./metrics');
const { runWarnings } = require('./warnings');
const { seedsRun } = require('./seeds');
const { DEFAULT_MARGIN } = require('./answer');

/**
 * The decoded results (decodeResults) judged: { dir, file, environment, definitions, runs,
 * servers, scenarios, skipped, trials, looks, aggregates, comparisons (every pair of servers,
 * each with its answer), pair (the pair the verdicts are about), tunedPair, overheads (servers
 * against their references), seeds (the seed studies' rows whose pair ran), engines (the engine
 * each verdict came from, where not the built-in one), warnings, ramps, held (the held-count
 * search, or null), waiting (what the runs that wait say: as stored, or analyzeWaiting of the
 * runs; in both, every memory slope with its at_most_kb: waiting.js memoryResolved), backends
 * (what a backend call costs each server: as stored, or analyzeBackends of the runs),
 * interrupted, error, doc }.
 */
function judgeResults(decoded) {
  const { runs, servers, scenarios, definitions, skipped, looks, environment } = decoded;
  const margin = (environment.options || {}).margin || DEFAULT_MARGIN;
  const analysis = decoded.comparisons ? { aggregates: decoded.aggregates, comparisons: withLimits(decoded.comparisons, runs) } : analyzeRuns(runs, { servers, scenarios, margin, looks });
  const comparisons = analysis.comparisons.map(withAnswer);
  const { held, waiting } = memoryResolved(decoded.held, decoded.waiting || analyzeWaiting(runs, decoded.held, usableForVerdict));
  return {
    dir: decoded.dir,
    file: decoded.file,
    environment,
    definitions,
    runs,
    servers,
    scenarios,
    skipped,
    trials: decoded.trials,
    looks,
    aggregates: analysis.aggregates,
    comparisons,
    pair: primaryPair(servers, definitions),
    tunedPair: tunedPair(servers, definitions),
    overheads: overheads(comparisons, definitions, servers, scenarios),
    seeds: seedsRun({ runs, comparisons, margin }),
    engines: verdictEngines(runs),
    warnings: runWarnings(runs, { skipped }),
    ramps: decoded.ramps,
    held,
    waiting,
    backends: decoded.backends === undefined ? analyzeBackends(runs, usableForVerdict, servers) : decoded.backends,
    interrupted: decoded.interrupted,
    error: decoded.error,
    doc: decoded.doc,
  };
}

module.exports = { judgeResults };
