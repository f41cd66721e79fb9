'use strict';
// The seeds table in words: each seed study's headline ratio as published beside this run's
// (perf/lib/judge/seeds.js seedRows, as judged: perf/lib/judge/judged.js), with whether the
// published conclusion holds, for the terminal, summary.txt/.md and the report. Decides nothing.

const { METRICS } = require('../rule/metrics');
const { METRIC_WORDS } = require('./metric_words');
const { DEFAULT_MARGIN } = require('../method');
const { marginText, fmtNumber, fmtFactor, fmtInterval, markdownTable } = require('./format');
const { withoutAdvice, noteWords } = require('./verdict_notes');
const { verdictWords } = require('./verdict_words');

/**
 * A row's finding in a few words: a's factor over b with its interval ("1.62× [1.40–1.88]"),
 * or, where no verdict is possible, the two sides' values ("37,615 vs 35,904 req/s").
 */
function foundText(row) {
  const c = row.comparison;
  if (!c) return 'not run';
  const other = row.here_metric !== row.metric ? ` (${METRIC_WORDS[row.here_metric].label})` : '';
  if (row.estimate) return `≈${fmtFactor(row.estimate.factor)} ${fmtInterval(row.estimate.ci)} (estimated from CPU/req)`;
  if (!row.found || !row.found.ci) {
    if (c.value_a !== null && c.value_b !== null && c.value_a !== undefined) return `${fmtNumber(c.value_a, METRICS[row.here_metric].unit)} vs ${fmtNumber(c.value_b, METRICS[row.here_metric].unit)} ${METRICS[row.here_metric].unit}`;
    return verdictWords(c);
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
  const why = c.excluded ? withoutAdvice(c.note) : c.no_verdict || noteWords(c.note) || 'no interval';
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

module.exports = { SEEDS_TITLE, SEEDS_HEAD, seedCells, notHereLines, seedsMarkdown, foundText, outcomeText, outcomeWords };
