'use strict';
// A results document as every output reads it: what perf/lib/store/results_doc.js decoded, with
// the judge's verdicts and what follows from them, derived here once per reader. A run records
// what it measured and nothing judged, so its runs are judged here, and so are its waiting runs
// and backends; an older file's stored verdicts are used as they are (brought up to today's
// limits: verdicts.js withLimits). Every
// comparison carries its answer (metrics.js answerOf), which perf/lib/text/ puts in words; what
// follows from the verdicts (which runs count, each pair's comparisons the way round it is asked,
// what tuning does, what a larger budget would buy, the seed study's claims) is data here too,
// so that text and the report only read and render.

const { analyzeRuns, withLimits, overheads, primaryPair, runtimePairs, verdictEngines, pairComparisons, tailsOf } = require('./verdicts');
const { usableForVerdict, isSuperseded, percentileResolved } = require('../rule/compare');
const { tunedPair, tunedOfPair, tuningEffects } = require('./tuning');
const { judgeRamps } = require('./ramps');
const { budgetOutlook } = require('../rule/group_sequential');
const { analyzeWaiting, memoryResolved, judgeHeld } = require('./held');
const { analyzeBackends } = require('./backends');
const { withAnswer } = require('../rule/metrics');
const { runWarnings } = require('./warnings');
const { errorCount } = require('../measure/samples');
const { seedsRun, studyTests } = require('./seeds');
const { DEFAULT_MARGIN } = require('../method');
const { controlFalseDiscoveries, comparisonTest, isHeadline } = require('./multiplicity');

/**
 * A run as every output reads it: as stored, with usable (a verdict may use it: it finished and
 * the runner left it in: perf/lib/rule/compare.js usableForVerdict), superseded (another engine's runs
 * replaced it: isSuperseded), error_count (its failed requests, all kinds together) and
 * p99_resolved, p999_resolved (its replies resolve that percentile: percentileResolved).
 */
function judgedRun(r) {
  return { ...r, usable: usableForVerdict(r), superseded: isSuperseded(r), error_count: errorCount(r), p99_resolved: percentileResolved(r.replies, 0.99), p999_resolved: percentileResolved(r.replies, 0.999) };
}

/**
 * The decoded results (decodeResults) judged: { dir, file, environment, definitions, runs (each
 * judgedRun), servers, scenarios, skipped, trials, looks, aggregates, tails (the requests behind
 * each server's p99 in each scenario and whether they resolve one: verdicts.js tailsOf),
 * comparisons (every pair of servers, each with its answer; beyond the headline questions, a
 * winner only where it survives the false-discovery control: multiplicity.js),
 * falseDiscoveries ({ tested, winners, kept, expected_false }: that control's count), pair (the pair the verdicts are
 * about), pairComparisons (the pair's comparisons, each oriented pair[0] vs pair[1]),
 * tunedPair, tunedComparisons (the tuned pair's, oriented so), tuning (what tuning both does to
 * each answer a winner was named in: tuning.js tuningEffects), pairs (each pair of runtimes the
 * run compares, the primary pair first: verdicts.js runtimePairs, each { pair, comparisons,
 * tunedPair, tunedComparisons, tuning } as above), budget (with paired rounds and a
 * budget, what a larger one would likely decide of every pair's: group_sequential.js budgetOutlook;
 * else null),
 * overheads (servers against their references), seeds (the seed studies' rows whose pair ran),
 * study (the 2011 study's tests and their claims judged here: seeds.js studyTests), engines (the
 * engine each verdict came from, where not the built-in one), warnings, ramps (each ramp with
 * every server's sustainable rate, its pairs compared and what tuning both does to its answer:
 * ramps.js judgeRamps), held (the held-count
 * search, or null), waiting (what the runs that wait say: as stored, or analyzeWaiting of the
 * runs; in both, every memory slope with its at_most_kb: held.js memoryResolved), backends
 * (what a backend call costs each server: as stored, or analyzeBackends of the runs),
 * interrupted, error, doc }.
 */
function judgeResults(decoded) {
  const { servers, scenarios, definitions, skipped, looks, environment } = decoded;
  const runs = decoded.runs.map(judgedRun);
  const options = environment.options || {};
  const margin = options.margin || DEFAULT_MARGIN;
  const analysis = decoded.comparisons ? { aggregates: decoded.aggregates, comparisons: withLimits(decoded.comparisons, runs) } : analyzeRuns(runs, { servers, scenarios, margin, looks });
  // Beyond the headline questions, winners held to the false-discovery rate over the run's
  // scenarios (its ramps answer headline questions only: the sustainable rates).
  const { items: controlled, summary: falseDiscoveries } = controlFalseDiscoveries(analysis.comparisons, { confirmatory: (c) => isHeadline(c.scenario, c.metric, c.a, c.b), test: (c) => comparisonTest(c, looks) });
  const comparisons = controlled.map(withAnswer);
  const heldJudged = judgeHeld(decoded.held);
  const { held, waiting } = memoryResolved(heldJudged, decoded.waiting || analyzeWaiting(runs, heldJudged, usableForVerdict));
  const pair = primaryPair(servers, definitions);
  const tuned = tunedPair(servers, definitions);
  const ofPair = pairComparisons(comparisons, pair);
  const pairs = runtimePairs(servers, definitions).map((p) => {
    const t = tunedOfPair(p, servers, definitions);
    return { pair: p, comparisons: pairComparisons(comparisons, p), tunedPair: t, tunedComparisons: pairComparisons(comparisons, t), tuning: tuningEffects(comparisons, { tunedPair: t, definitions, scenarios }) };
  });
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
    tails: tailsOf(runs, analysis.aggregates, servers, scenarios),
    comparisons,
    falseDiscoveries,
    pair,
    pairComparisons: ofPair,
    tunedPair: tuned,
    tunedComparisons: pairComparisons(comparisons, tuned),
    tuning: tuningEffects(comparisons, { tunedPair: tuned, definitions, scenarios }),
    pairs,
    budget: options.design === 'rounds' && decoded.doc.rounds_budget && pair ? budgetOutlook({ comparisons: pairs.flatMap((p) => p.comparisons), runs, scenarios, looks: options.looks }) : null,
    overheads: overheads(comparisons, definitions, servers, scenarios),
    seeds: seedsRun({ runs, comparisons, margin }),
    study: studyTests(comparisons),
    engines: verdictEngines(runs),
    warnings: runWarnings(runs, { skipped }),
    ramps: judgeRamps(decoded.ramps, definitions, margin),
    held,
    waiting,
    backends: decoded.backends === undefined ? analyzeBackends(runs, usableForVerdict, servers) : decoded.backends,
    interrupted: decoded.interrupted,
    error: decoded.error,
    doc: decoded.doc,
  };
}

module.exports = { judgeResults };
