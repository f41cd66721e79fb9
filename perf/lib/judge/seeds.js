'use strict';
// The seed studies' headline comparisons (perf/seeds.json) beside a run: what --seeds runs
// (seedPlan), and for each seed its published ratio next to this machine's, with the interval
// and whether the published conclusion holds (seedRows). A pair of servers in one scenario is
// the run's own comparison (results.json `comparisons`); one server in two scenarios (long
// against short connections) goes through the same verdict rule (verdicts.js compareRunSets).

const { seeds: SEEDS } = require('../../seeds.json');
const { METRICS, leadOf, verdictWords } = require('./metrics');
const { compareRunSets, findComparison, withoutAdvice, notJudgedBecause } = require('./verdicts');
const { reasonCode } = require('./reasons');
const { fmtNumber, fmtFactor, fmtInterval, markdownTable } = require('../text/format');
const { DEFAULT_MARGIN, claimOutcome, marginText } = require('./answer');

/** The servers and, for each, the scenarios --seeds runs: { servers, scenariosFor }. */
function seedPlan() {
  const scenariosFor = {};
  const add = (server, scenario) => {
    scenariosFor[server] = scenariosFor[server] || [];
    if (!scenariosFor[server].includes(scenario)) scenariosFor[server].push(scenario);
  };
  for (const s of SEEDS) {
    if (s.here.server) {
      add(s.here.server, s.here.a);
      add(s.here.server, s.here.b);
    } else {
      add(s.here.a, s.here.scenario);
      add(s.here.b, s.here.scenario);
    }
  }
  return { servers: Object.keys(scenariosFor), scenariosFor };
}

/** How many times better side a is than side b in the metric's direction. */
function factorOf(metric, a, b) {
  return METRICS[metric].better === 'lower' ? b / a : a / b;
}

/**
 * A seed study's headline claim as a question of this project's pair: { seed, claim (its words),
 * subject (scenario), metric, a, b, winner (the side the study found better), factor (how many
 * times better, ≥ 1) }, or null for a seed of one server in two scenarios or one not in seeds.json.
 */
function seedClaim(id) {
  const seed = SEEDS.find((s) => s.seed === id);
  if (!seed || seed.here.server) return null;
  const factor = factorOf(seed.metric, seed.published.a.value, seed.published.b.value);
  const { a, b } = seed.here;
  return { seed: id, claim: seed.claim, subject: seed.here.scenario, metric: seed.here.metric || seed.metric, a, b, winner: factor >= 1 ? a : b, factor: Math.max(factor, 1 / factor) };
}

/** The runs of a seed's two sides, [a's, b's]: one server in two scenarios, or two servers in one. */
function sideRuns(here, runs) {
  const of = here.server ? (sc) => runs.filter((r) => r.server === here.server && r.scenario === sc) : (server) => runs.filter((r) => r.server === server && r.scenario === here.scenario);
  return [of(here.a), of(here.b)];
}

/** The comparison of one seed's pair in a run (its runs, and its comparisons when stored). */
function comparisonOf(seed, runs, comparisons, margin) {
  const { here } = seed;
  const metric = here.metric || seed.metric;
  if (here.server) return compareRunSets(`${here.a} vs ${here.b}`, metric, here.a, here.b, ...sideRuns(here, runs), margin);
  return findComparison(comparisons, here.scenario, metric, here.a, here.b) || null;
}

// Why a run may still give its server's CPU per request for an estimate: the load generator,
// not the server, set the pace. The server's own CPU per request is exact whoever did.
const PACED_BY_CLIENT = new Set(['client-bound', 'not-server-bound']);

/**
 * Where a throughput claim could not be judged because the load generator could not saturate
 * the servers (the C servers, nginx), an estimate from the utilization law: each side's
 * capacity is about 1 ÷ its CPU seconds per request at the rate reached, so a's capacity over
 * b's is b's CPU per request over a's, compared with the project's rule on the runs judged or
 * held back only by the client (each server's own CPU, exact per process). { factor, ci, outcome,
 * comparison }, or null where there is nothing to estimate from. It is an estimate: an event
 * loop's CPU per request falls as load rises, and on node and em the law overshoots what they
 * serve (RESULTS.md, "Sustainable throughput"): where both sides overshoot alike, the ratio holds.
 */
function estimateOf(seed, runs, margin, publishedFactor) {
  if ((seed.here.metric || seed.metric) !== 'throughput_rps') return null;
  const usable = (r) => r.ok && notJudgedBecause(r).every((why) => PACED_BY_CLIENT.has(reasonCode(why)));
  const asJudged = (rs) => rs.filter(usable).map((r) => ({ ...r, not_judged_because: [], client_bound: false }));
  const { here } = seed;
  const [runsA, runsB] = sideRuns(here, runs);
  const c = compareRunSets(`${here.a} vs ${here.b} (CPU per request)`, 'cpu_ms_per_request', here.a, here.b, asJudged(runsA), asJudged(runsB), margin);
  const found = foundFactor(c);
  if (!found || !found.ci) return null;
  return { ...found, outcome: outcomeOf(c, found, publishedFactor), comparison: c };
}

/** What the run found for a's lead over b, as a factor of a with its interval (a's direction). */
function foundFactor(c) {
  if (!c || c.excluded || c.no_verdict || c.ratio === null || c.ratio === undefined) return null;
  const { lead, factor, ci } = leadOf(c);
  const ofA = lead === c.a;
  return { factor: ofA ? factor : 1 / factor, ci: ci ? (ofA ? ci : [1 / ci[1], 1 / ci[0]]) : null };
}

/**
 * The published claim against this run (perf/lib/judge/answer.js claimOutcome: confirmed, less,
 * more, gone, reversed, smaller, undecided; for a "really close" claim, published factor null:
 * confirmed, differ, undecided), or null where the comparison has no interval to judge it by.
 */
function outcomeOf(c, found, publishedFactor) {
  if (!c || !found || !found.ci) return null;
  return claimOutcome(found.ci, publishedFactor, c.margin ?? DEFAULT_MARGIN);
}

/**
 * One row per seed: { seed, title, study, claim, published: { a, b, factor }, here (the pair),
 * comparison, found ({ factor, ci } of a over b, or null), says (the verdict in words), outcome
 * (outcomeOf; null: not judged), estimate (estimateOf, where not judged), not_here }. runs and comparisons: a run's, as
 * perf/lib/store/results_doc.js decodeResults gives them.
 */
function seedRows({ runs, comparisons, margin = DEFAULT_MARGIN }) {
  return SEEDS.map((seed) => {
    const c = comparisonOf(seed, runs, comparisons, margin);
    const missing = seed.here.server ? ![seed.here.a, seed.here.b].every((sc) => runs.some((r) => r.server === seed.here.server && r.scenario === sc)) : !c;
    const says = missing ? 'not run' : verdictWords(c);
    const found = missing ? null : foundFactor(c);
    const published = { a: seed.published.a, b: seed.published.b, factor: factorOf(seed.metric, seed.published.a.value, seed.published.b.value) };
    const outcome = missing ? null : outcomeOf(c, found, published.factor);
    return {
      seed: seed.seed,
      title: seed.title,
      study: seed.study,
      claim: seed.claim,
      metric: seed.metric,
      here_metric: seed.here.metric || seed.metric,
      published,
      here: seed.here,
      comparison: missing ? null : c,
      found,
      says,
      outcome,
      estimate: missing || outcome ? null : estimateOf(seed, runs, margin, published.factor),
      not_here: seed.not_here || [],
    };
  });
}

/** The rows of seedRows whose pair ran in these results. */
function seedsRun(results) {
  return seedRows(results).filter((r) => r.comparison);
}

/**
 * A row's finding in a few words: a's factor over b with its interval ("1.62× [1.40–1.88]"),
 * or, where no verdict is possible, the two sides' values ("37,615 vs 35,904 req/s").
 */
function foundText(row) {
  const c = row.comparison;
  if (!c) return 'not run';
  const other = row.here_metric !== row.metric ? ` (${METRICS[row.here_metric].label})` : '';
  if (row.estimate) return `≈${fmtFactor(row.estimate.factor)} ${fmtInterval(row.estimate.ci)} (estimated from CPU/req)`;
  if (!row.found || !row.found.ci) {
    if (c.value_a !== null && c.value_b !== null && c.value_a !== undefined) return `${fmtNumber(c.value_a, METRICS[row.here_metric].unit)} vs ${fmtNumber(c.value_b, METRICS[row.here_metric].unit)} ${METRICS[row.here_metric].unit}`;
    return row.says;
  }
  return `${fmtFactor(row.found.factor)} ${fmtInterval(row.found.ci)}${other}`;
}

/** A claim's outcome in words: "confirmed", "apache still wins, by less", … (a and b: the claim's sides). */
function outcomeWords(outcome, a, b, margin = DEFAULT_MARGIN) {
  const words = {
    confirmed: 'confirmed',
    less: `${a} still wins, by less`,
    more: `${a} still wins, by more`,
    gone: `gone: the same within ${marginText(margin)}`,
    reversed: `reversed: ${b} wins here`,
    smaller: 'smaller, size unknown',
    differ: 'not close: one wins here',
    undecided: 'undecided',
  };
  return words[outcome];
}

/** The published conclusion against this run, in words; why not judged, in short. */
function outcomeText(row) {
  const c = row.comparison;
  if (!c) return 'not run';
  if (row.outcome) return outcomeWords(row.outcome, row.here.a, row.here.b, c.margin ?? DEFAULT_MARGIN);
  const why = c.excluded ? withoutAdvice(c.note) : c.no_verdict || c.note || 'no interval';
  if (row.estimate && row.estimate.outcome) return `estimated: ${outcomeWords(row.estimate.outcome, row.here.a, row.here.b, c.margin ?? DEFAULT_MARGIN)} (measured, not judged: ${why})`;
  return `not judged (${why})`;
}

const SEEDS_TITLE = 'Seeds reproduced: each seed study\'s headline ratio as published, and this machine\'s for the same pair (its 95 % interval), the claim judged against its own number: confirmed where the interval holds it; still wins, by less or by more; gone (the same within the margin); reversed; smaller, size unknown (the interval excludes it but holds 1); undecided (it holds both).';
const SEEDS_HEAD = ['seed', 'comparison', 'published', 'ratio ×', 'here ×', 'conclusion'];

/** A row of the seeds table: its cells under SEEDS_HEAD. */
function seedCells(row) {
  const unit = METRICS[row.metric].unit;
  const figures = `${row.published.a.system} ${row.published.a.value.toLocaleString('en-US')} vs ${row.published.b.system} ${row.published.b.value.toLocaleString('en-US')} ${unit}`;
  return [row.seed, row.title, figures, fmtFactor(row.published.factor), foundText(row), outcomeText(row)];
}

/** The systems of the rows' seeds that cannot run here, each once: "000: X: why." */
function notHereLines(rows) {
  return [...new Set(rows.flatMap((r) => r.not_here.map((n) => `${r.seed}: ${n.system}: ${n.why}.`)))];
}

/** The seeds table as Markdown (summary.md). */
function seedsMarkdown(rows) {
  const lines = markdownTable(SEEDS_HEAD, rows.map(seedCells), SEEDS_HEAD.map(() => 'l'));
  const notHere = notHereLines(rows);
  return `${lines.join('\n')}\n${notHere.length ? `\nNot run here:\n${notHere.map((l) => `- ${l}`).join('\n')}\n` : ''}`;
}

module.exports = {
  seedClaim,
  SEEDS, SEEDS_TITLE, SEEDS_HEAD, seedPlan, seedRows, seedsRun, seedCells, notHereLines, seedsMarkdown, foundFactor, outcomeOf, foundText, outcomeText, outcomeWords };
