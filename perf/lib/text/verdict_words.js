'use strict';
// A comparison's verdict in words: what its answer (perf/lib/rule/metrics.js answerOf, given to
// every comparison by perf/lib/judge/judged.js) says, as the terminal, summary.txt/.md/.csv and
// the report write it. Decides nothing.

const { fmtFactor, fmtInterval, marginText } = require('./format');
const { FDR } = require('../judge/multiplicity');
const { lookLevel } = require('../rule/group_sequential');
const { LEVEL } = require('../method');
const { METRIC_WORDS } = require('./metric_words');
const { noteWords } = require('./verdict_notes');

/** "about 4× the measuring", "over 100× the measuring": what would likely decide an undecided answer. */
function moreText(more) {
  if (more === null || more === undefined) return 'more measuring';
  if (more > 100) return 'over 100× the measuring';
  return `about ${more < 10 ? Math.max(2, Math.ceil(more * 2) / 2) : Math.ceil(more)}× the measuring`;
}

/**
 * A judged comparison as words: "node 2.41× faster [2.10–2.77]", "same within ±10 % [0.96–1.05]",
 * "undecided: em 1.04× faster [0.89–1.22]; about 4× the measuring would decide" (or, for a
 * winner the false-discovery control did not keep, why: judge/multiplicity.js), "no verdict
 * (node 1.3× faster; 1 trial: no interval)", "not compared: node client-bound …". The interval
 * of a winner or an undecided one is the lead's factor's; of "same", the ratio's (a ÷ b).
 */
function verdictWords(c) {
  if (!c) return '–';
  const a = c.answer;
  if (a.kind === 'excluded') return `not compared: ${noteWords(a.why)}`;
  if (a.kind === 'no_verdict') return a.code;
  if (a.kind === 'not_measured') return `– (${noteWords(a.why)})`;
  const text = `${a.lead} ${fmtFactor(a.factor)} ${METRIC_WORDS[c.metric].word}`;
  if (a.kind === 'no_interval') return `no verdict (${fmtFactor(a.factor) === '1.0×' ? '1.0×' : text}; ${noteWords(a.why)})`;
  if (a.kind === 'winner') return `${text} ${fmtInterval(a.ci)}`;
  if (a.kind === 'same') return `same within ${marginText(a.margin)} ${fmtInterval(c.ci95)}`;
  if (a.fdr) return `undecided: ${text} ${fmtInterval(a.ci)}, ${notKeptText(a.fdr)} over the run`;
  return `undecided: ${text} ${fmtInterval(a.ci)}; ${moreText(a.more)} would decide`;
}

/**
 * Why a winner at its own interval's level is undecided: the false-discovery control
 * (judge/multiplicity.js) did not keep it among the winners at its rate q ({ kept: false, q }).
 */
function notKeptText(fdr) {
  return `a winner at ${LEVEL * 100} % alone, not kept with false discoveries held at ${fdr.q * 100} %`;
}

/**
 * What the false-discovery control kept (judge/multiplicity.js's count f), the words a run's
 * summary and the archive's block share; about: how the expected count is written.
 */
function keptWords(f, about) {
  return `Benjamini–Hochberg at ${FDR * 100} % keeps ${f.kept}, among which it holds the expected share of false winners to ${FDR * 100} % or less (about ${about(f.expected_false)})`;
}

/**
 * How a run's intervals were made, in a clause for legends and notes: from paired rounds
 * (looks, the results' options.looks) or from independent trials (looks null).
 */
function intervalMethodText(looks) {
  if (!looks) return '95 % confidence intervals over the trials (Student t on log values; Welch for ratios)';
  const pct = Math.round(lookLevel(looks) * 10000) / 100;
  return `95 % confidence intervals from paired rounds (Student t on the rounds' paired log differences, looked at after ${looks.join(', ')} rounds at ${pct} % each, Bonferroni)`;
}

/**
 * How two answers relate (perf/lib/rule/answer.js relate; perf/lib/judge/compare_verdicts.js
 * adds only_a, only_b and not_judged_in_one), in the words of a tally or a bracket.
 */
const RELATION_WORDS = {
  same_winner: 'same winner',
  opposite: 'opposite',
  both_same: 'both same',
  same_vs_clear: 'same vs clear winner',
  same_vs_close: 'same vs close winner',
  only_first: 'only first',
  only_second: 'only second',
  only_a: 'only A',
  only_b: 'only B',
  neither: 'neither',
  not_judged_in_one: 'not judged in one',
};

module.exports = { RELATION_WORDS, moreText, verdictWords, keptWords, notKeptText, intervalMethodText };
