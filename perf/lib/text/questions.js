'use strict';
// A quick run's terminal: for each pair of runtimes, one line per headline question
// (perf/questions.json, each runtime's defaults) with the run's answer, then what its budget
// left open and what would answer it, then where the rest is. Formats the judged results'
// answers (judge/meta.js runAnswers, the shape the archive pools); decides nothing.

const { runtimeWords } = require('./runtimes');
const { headline } = require('../plan/questions');
const { runAnswers, acrossRuns, MIN_POOLED_RUNS } = require('../judge/meta');
const { answerWords, notJudgedWords } = require('./pooled');
const { fmtDuration } = require('./format');

/** The run's answer to question q between a and b (either way round), or null. */
function answerTo(answers, q, [a, b]) {
  return answers.find((x) => x.subject === q.subject && x.metric === q.metric && ((x.a === a && x.b === b) || (x.a === b && x.b === a))) || null;
}

/**
 * One question's answer in words; spread: the archive's between-run spread of its comparison
 * ({ tau2, k }, or null), which adds the answer across runs (judge/meta.js acrossRuns).
 */
function questionAnswer(answer, { measured, leftOut, spread }) {
  if (!measured) return leftOut ? `not measured: the budget bought the others first (its ${leftOut.kind} ${leftOut.name} about ${fmtDuration(leftOut.cost_s)} more)` : 'not measured in this run';
  if (!answer) return 'no comparison (a side did not run it)';
  if (answer.decision === null) return `not judged: ${notJudgedWords(answer.not_judged)}`;
  const own = answerWords({ ...answer, runs: [answer] });
  return spread ? `${own} · across runs: ${answerWords({ ...answer, ...acrossRuns(answer, spread, answer.margin), runs: [answer] })}` : own;
}

/**
 * The lines: for each pair of runtimes the run compares with their defaults (judged results'
 * pairs), "Keep-alive requests, the highest rate held at p99 ≤ 10 ms: node 1.2× the sustainable
 * rate [1.1–1.4]" for each question, and where the archive knows how much full runs of it differ
 * (spreadOf(answer): { tau2, k } or null), the answer across runs beside it; then what that
 * means, what stayed open; [] for a run that was not a quick run of the headline questions
 * (environment.options.headline) or had no pair. advice: what a larger budget would likely
 * decide (answers.js budgetAdvice), said when a question stayed undecided.
 */
function headlineLines(results, advice = '', spreadOf = null) {
  const chosen = (results.environment.options || {}).headline;
  if (!chosen || !results.pair) return [];
  const answers = runAnswers(results);
  const { questions } = headline();
  const measured = new Set([...results.scenarios, ...(results.ramps ? results.ramps.ramps.map((r) => r.name) : [])]);
  const width = Math.max(...questions.map((q) => `${q.topic}, ${q.question}`.length));
  const lines = [];
  const spreads = [];
  let open = 0;
  for (const { pair } of results.pairs) {
    if (lines.length) lines.push('');
    const env = results.environment;
    const on = (name) => {
      const def = (env.servers || {})[name];
      const words = def && def.runtime && env.runtimes ? runtimeWords(env.runtimes[def.runtime]) : null;
      return words ? `${name} (${words})` : name;
    };
    lines.push(`The headline questions, ${pair.map(on).join(' vs ')} (each runtime's defaults; 95 % intervals of the factor):`);
    for (const q of questions) {
      const leftOut = chosen.left.find((s) => s.name === q.subject) || null;
      const answer = answerTo(answers, q, pair);
      const spread = spreadOf && answer && answer.ci95 ? spreadOf(answer) : null;
      if (spread) spreads.push(spread.k);
      lines.push(`  ${`${q.topic}, ${q.question}`.padEnd(width)}  ${questionAnswer(answer, { measured: measured.has(q.subject), leftOut, spread })}`);
    }
    open += answers.filter((x) => x.decision === 'undecided' && questions.some((q) => answerTo([x], q, pair))).length;
  }
  const runs = spreads.length && (Math.min(...spreads) === Math.max(...spreads) ? `${spreads[0]}` : `${Math.min(...spreads)}–${Math.max(...spreads)}`);
  lines.push(spreads.length
    ? `"Across runs": the interval widened by how much the archive's full runs of that comparison differ (τ² from ${runs} runs): where the answer the runs scatter around likely lies, not only this run's; the first interval is this run's own noise only.`
    : `These intervals are this run's own noise, not the next run's: the archive has fewer than ${MIN_POOLED_RUNS} full runs of these comparisons on these runtimes to say how much runs differ.`);
  if (open && advice) lines.push(advice);
  if (chosen.left.length) lines.push(`Not measured in this budget: ${chosen.left.map((s) => s.name).join(', ')}; scripts/run_scenarios.sh --quick --budget ${Math.ceil((chosen.budget_s + chosen.left.reduce((t, s) => t + s.cost_s, 0)) / 60)}min measures them too, a full run (no --quick) everything.`);
  return lines;
}

module.exports = { headlineLines };
