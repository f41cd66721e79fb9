'use strict';
// The headline questions (perf/questions.json), read here once: the few comparisons the
// README's findings are about, each mapped to the scenario (perf/scenarios/) or ramp
// (perf/ramps/) and the metric that answers it. A quick run measures exactly their subjects, in
// the order that decides the most per second its budget buys (quickSelection); its terminal
// answers them a line each (perf/lib/text/questions.js); the archive pools them into README.md
// (perf/lib/studies/archive.js).

const QUESTIONS_FILE = require('../../questions.json');
const { runtimeOf, eras, labelOf, settingsRuntimes, referenceTargets } = require('../hosts/runtimes');

// The chance that one run decides a question, before any archived run says otherwise.
const PRIOR_DECIDES = 0.5;

/** { questions, pairs } of perf/questions.json. */
function headline() {
  return { questions: QUESTIONS_FILE.questions, pairs: QUESTIONS_FILE.pairs };
}

// The runtimes the README answers for, in its order: today's first, then history's (perf/runtimes.json).
const ERAS = ['today', 'history'];

/**
 * The pairs of perf/questions.json as the answers across runs ask them, in each era of
 * perf/runtimes.json (today's runtimes first, then history's; a tuned pair only in the era of
 * its runtime): { ...pair, era, a, b (each side SERVER@RUNTIME, the era's runtime of the
 * server's kind: perf/lib/store/archive.js runtimeLabel), names: { a, b } (the servers) }.
 */
function eraPairs(definitions) {
  const runtimes = eras();
  const kindOf = (s) => runtimeOf(definitions[s].runtime).kind;
  // Of the definitions given (a test's stand-ins have none of the pairs' servers).
  const pairs = QUESTIONS_FILE.pairs.filter((p) => [p.a, p.b].every((s) => definitions[s] && definitions[s].runtime));
  // A tuned configuration tunes its server on the runtimes it was measured on (perf/servers.json
  // `on`, perf/lib/judge/tuning.js): it is asked in their eras only.
  const inEra = (era, s) => !definitions[s].tuned_of || settingsRuntimes(definitions[s]).includes(runtimes[era][kindOf(s)]);
  return ERAS.flatMap((era) =>
    pairs.filter((p) => inEra(era, p.a) && inEra(era, p.b)).map((p) => ({ ...p, era, a: labelOf(p.a, runtimes[era][kindOf(p.a)]), b: labelOf(p.b, runtimes[era][kindOf(p.b)]), names: { a: p.a, b: p.b } })),
  );
}

/**
 * The pairs of perf/questions.json that compare each runtime with its defaults (neither side a
 * tuned configuration: perf/servers.json tuned_of), in order; of them only those whose both
 * sides are among servers, where given.
 */
function defaultPairs(definitions, servers = null) {
  const tuned = (s) => Boolean(definitions[s] && definitions[s].tuned_of);
  return QUESTIONS_FILE.pairs.filter((p) => !tuned(p.a) && !tuned(p.b) && (!servers || (servers.includes(p.a) && servers.includes(p.b))));
}

/**
 * The servers a run compares unless told others: each side of the default pairs but a reference
 * (perf/servers.json reference_for: measured with --references), in order (node, em, async_http).
 * runsHere(server): whether it can run in this run (a quick run without Ruby 3.3 cannot start
 * async_http); where a server cannot, its reference stands in (the hand-written async).
 */
function headlineServers(definitions, runsHere = () => true) {
  const targets = (s) => referenceTargets(s, definitions);
  const sides = [...new Set(defaultPairs(definitions).flatMap((p) => [p.a, p.b]))];
  const absent = sides.filter((s) => !targets(s).length && !runsHere(s));
  return sides.filter((s) => runsHere(s) && (!targets(s).length || targets(s).some((t) => absent.includes(t))));
}

/**
 * The servers that stand in for those a run cannot start (headlineServers): [{ server, by }].
 */
function standIns(definitions, runsHere) {
  const chosen = headlineServers(definitions, runsHere);
  return chosen.flatMap((by) => referenceTargets(by, definitions).filter((server) => !runsHere(server)).map((server) => ({ server, by })));
}

/**
 * The subjects the questions name, each once, in the order they first appear: [{ name, kind
 * ('scenario' | 'ramp'), questions }]. rampNames: the names of perf/ramps/ (a subject not
 * among them is a scenario).
 */
function subjectsOf(questions, rampNames) {
  const subjects = [];
  for (const q of questions) {
    let s = subjects.find((x) => x.name === q.subject);
    if (!s) subjects.push((s = { name: q.subject, kind: rampNames.includes(q.subject) ? 'ramp' : 'scenario', questions: [] }));
    s.questions.push(q);
  }
  return subjects;
}

// Subjects a quick run chooses among at most: every subset is weighed (2^n of them).
const MAX_SUBJECTS = 16;

/**
 * What a quick run measures within budgetS seconds: of every set of subjects that fits, the one
 * that likely decides the most questions (decides(question): the chance one run decides it,
 * PRIOR_DECIDES where nothing says; costS(subject): its estimated seconds), the cheaper where
 * two decide as much; a knapsack solved whole, since taking the most per second first can fill
 * the budget with cheap long shots and leave out a question nearly sure to be decided. Where
 * nothing fits, the one that decides the most per second (nothing measured is no answer). The
 * chosen run in the order that decides the most per second. { chosen, left, spentS }, each
 * subject with its costS and decides.
 */
function quickSelection(subjects, { budgetS, costS, decides = () => PRIOR_DECIDES }) {
  if (subjects.length > MAX_SUBJECTS) throw new Error(`quickSelection: ${subjects.length} subjects, more than the ${MAX_SUBJECTS} it weighs every set of`);
  const ranked = subjects
    .map((s) => ({ ...s, costS: costS(s), decides: s.questions.reduce((t, q) => t + decides(q), 0) }))
    .sort((x, y) => y.decides / y.costS - x.decides / x.costS);
  let best = { mask: 0, decides: -1, costS: 0 };
  for (let mask = 1; mask < 1 << ranked.length; mask++) {
    const set = ranked.filter((_, i) => mask & (1 << i));
    const cost = set.reduce((t, s) => t + s.costS, 0);
    if (cost > budgetS) continue;
    const sum = set.reduce((t, s) => t + s.decides, 0);
    if (sum > best.decides + 1e-9 || (Math.abs(sum - best.decides) <= 1e-9 && cost < best.costS)) best = { mask, decides: sum, costS: cost };
  }
  if (best.decides < 0 && ranked.length) best = { mask: 1 };
  const chosen = ranked.filter((_, i) => best.mask & (1 << i));
  const left = ranked.filter((_, i) => !(best.mask & (1 << i)));
  return { chosen, left, spentS: chosen.reduce((t, s) => t + s.costS, 0) };
}

module.exports = { ERAS, eraPairs, headline, defaultPairs, headlineServers, standIns, subjectsOf, quickSelection, PRIOR_DECIDES };
