'use strict';
// The README's pictures of the answers across runs: a forest plot (forest.js) of the headline
// questions (perf/questions.json) per pair of runtimes on their defaults, each question's
// pooled line first and every run's own line under it, as meta-analyses draw them. Written to
// docs/answers_<a>_vs_<b>.svg by `npm run answers -- --write`, and compared byte for byte by the
// test of the generated blocks.

const path = require('node:path');
const { forestSvg } = require('./forest');
const { basisWords, metricLabel } = require('../text/pooled');
const { PROJECT_ROOT } = require('../project_root');

/** Where a pair's figure is written. */
const answersImage = (pair) => path.join(PROJECT_ROOT, 'docs', `answers_${pair.names.a}_vs_${pair.names.b}.svg`);

/** favours_b and its interval from a ratio a ÷ b and its interval, by the metric's direction. */
function favoursB(better, ratio, ci) {
  return better === 'lower' ? { favours_b: ratio, ci } : { favours_b: 1 / ratio, ci: [1 / ci[1], 1 / ci[0]] };
}

/** A run's line's name: the day it started and its host. */
function runName(record) {
  return `${String(record.started_at).slice(0, 10)} ${record.host.cpu_model || ''}`.trim();
}

/**
 * The forest's input (forest.js) for a pair of perf/questions.json: a pooled line per headline
 * question the archive answers, its runs' lines under it (the runs' alone where they are too
 * few to pool). null when none has an interval.
 */
function answersForest({ questions, pooledOf }, pair) {
  const rows = [];
  for (const q of questions) {
    const p = pooledOf(q, pair);
    if (!p || (!p.ci95 && p.decision !== 'few')) continue;
    const group = q.topic || q.question;
    const label = `${q.topic ? q.question : metricLabel(q.metric)}`;
    // Fewer runs than pool (judge/meta.js MIN_POOLED_RUNS): their own lines only.
    if (p.ci95) rows.push({ group, label, kind: 'pooled', run: null, ...favoursB(p.better, p.ratio, p.ci95), decision: p.decision, winner: p.winner, note: basisWords(p) });
    for (const r of p.runs) {
      if (r.answer.log_se === null) continue;
      rows.push({ group, label, kind: 'run', run: runName(r.record), ...favoursB(p.better, r.answer.ratio, r.answer.ci95), decision: r.answer.decision || 'undecided', winner: r.answer.winner || null, note: null });
    }
  }
  if (!rows.length) return null;
  const margin = pooledOf(questions[0], pair)?.margin ?? 0.1;
  return { title: `${pair.a} vs ${pair.b} across the archive's runs: who is better, by how much`, a: pair.a, b: pair.b, margin, rows };
}

/**
 * The README's figures, one per pair of the first pair's kind (each runtime on its defaults)
 * that the archive answers with an interval, on the first era's runtimes that it answers
 * (today's, else history's: perf/lib/plan/questions.js eraPairs): [{ file, svg (the file's
 * text), markdown (its image line) }].
 */
async function answersFigures(answers) {
  const [first] = answers.pairs;
  if (!first) return [];
  const inputs = answers.pairs.filter((p) => p.label === first.label).map((pair) => ({ pair, input: answersForest(answers, pair) })).filter((x) => x.input);
  const era = inputs.length ? inputs[0].pair.era : null;
  const figures = [];
  for (const { pair, input } of inputs.filter((x) => x.pair.era === era)) {
    const file = answersImage(pair);
    const alt = `Forest plot: ${input.a} against ${input.b} on each headline question, pooled across the archive's runs with each run's own interval under it`;
    figures.push({ file, svg: await forestSvg(input), markdown: `![${alt}](docs/${path.basename(file)})` });
  }
  return figures;
}

module.exports = { answersFigures, answersForest };
