'use strict';
// False discoveries among many verdicts. One full run judges hundreds of comparisons at 95 %
// each, and the archive pools as many: at 5 % a comparison, chance alone names winners. The
// headline questions (perf/questions.json) are the confirmatory set, judged each at 95 % as
// asked; every other comparison's winner must also survive the Benjamini–Hochberg step-up
// procedure at 5 % over all the other comparisons judged with it (Benjamini & Hochberg 1995,
// valid for independent or positively dependent tests, as comparisons that share a run's
// servers are), which bounds the expected share of false winners among those kept by 5 %. A
// winner it does not keep becomes undecided, and says why. Written here: jStat, the project's
// statistics library, has no multiple-testing procedure, and the procedure is a sort and a scan.

const { jStat } = require('jstat');
const { logStandardError } = require('./meta');
const QUESTIONS = require('../../questions.json');

const FDR = 0.05;

/**
 * Whether a comparison of subject (a scenario or ramp) on metric between servers a and b (their
 * names, either way round) answers a headline question: a question of perf/questions.json
 * between one of its pairs.
 */
function isHeadline(subject, metric, a, b) {
  const paired = QUESTIONS.pairs.some((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a));
  return paired && QUESTIONS.questions.some((q) => q.subject === subject && q.metric === metric);
}

/**
 * The two-sided p-value of "no difference" (a log ratio of 0) for an estimate y with standard
 * error se: Student's t on df degrees of freedom (the normal with df null), times tests (the
 * looks a sequential comparison took at level 1 − 5 % / looks: its p on the 5 % scale, so that
 * p < 5 % exactly where its interval excludes 1).
 */
function pValue(y, se, df = null, tests = 1) {
  if (!(se > 0)) return y === 0 ? 1 : 0;
  const z = Math.abs(y) / se;
  const tail = df ? jStat.studentt.cdf(-z, df) : jStat.normal.cdf(-z, 0, 1);
  return Math.min(1, 2 * tail * tests);
}

/**
 * Which of the p-values Benjamini–Hochberg keeps at level q: [bool], in their order. The largest
 * rank i (of m, ascending) with p(i) ≤ i q / m, and every p-value up to it.
 */
function benjaminiHochberg(ps, q = FDR) {
  const m = ps.length;
  const order = ps.map((p, i) => [p, i]).sort((x, y) => x[0] - y[0]);
  let cut = -1;
  order.forEach(([p], rank) => {
    if (p <= ((rank + 1) * q) / m) cut = rank;
  });
  const kept = new Array(m).fill(false);
  for (let rank = 0; rank <= cut; rank++) kept[order[rank][1]] = true;
  return kept;
}

/**
 * Items (comparisons, or pooled answers) with their winners held to the false-discovery rate:
 * items: [x], each with a decision; confirmatory(x): whether it answers a headline question (left
 * as it is); test(x): { y, se, df, tests } for pValue, or null where it has no interval (left as it
 * is). Every other item with a decision is tested; a winner whose p-value the procedure does not
 * keep becomes { decision: 'undecided', winner: null, fdr: { kept: false, q } } (its factor kept;
 * perf/lib/text/verdict_words.js notKeptText says why). Returns
 * { items, summary: { tested, winners (before), kept, expected_false (at most, q × kept) } }.
 */
function controlFalseDiscoveries(items, { confirmatory, test, q = FDR }) {
  const tested = [];
  items.forEach((x, i) => {
    if (!x.decision || confirmatory(x)) return;
    const t = test(x);
    if (t) tested.push({ i, p: pValue(t.y, t.se, t.df, t.tests) });
  });
  const kept = benjaminiHochberg(tested.map((t) => t.p), q);
  const out = items.slice();
  let winners = 0;
  let keptWinners = 0;
  tested.forEach(({ i }, j) => {
    if (out[i].decision !== 'winner') return;
    winners++;
    if (kept[j]) keptWinners++;
    // Its factor and interval stay: they are what it measured; only the winner goes.
    else out[i] = { ...out[i], decision: 'undecided', winner: null, fdr: { kept: false, q } };
  });
  return { items: out, summary: { tested: tested.length, winners, kept: keptWinners, expected_false: q * keptWinners } };
}

/**
 * A run's comparison as controlFalseDiscoveries tests it: its log ratio, the standard error its
 * interval gives (meta.js logStandardError: paired rounds on Student's t, rounds − 1, at the
 * looks' level), or null without an interval.
 */
function comparisonTest(c, looks) {
  const se = c.ratio > 0 ? logStandardError(c, { looks }) : null;
  if (se === null) return null;
  const paired = c.method === 'paired' && Number.isInteger(c.rounds) && c.rounds >= 2;
  return { y: Math.log(c.ratio), se, df: paired ? c.rounds - 1 : null, tests: paired && looks ? looks.length : 1 };
}

module.exports = { FDR, isHeadline, pValue, benjaminiHochberg, controlFalseDiscoveries, comparisonTest };
