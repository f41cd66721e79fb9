'use strict';
// What scripts/compare.sh prints: two runs' changes (perf/lib/judge/compare_runs.js) as an
// aligned table with its regressions, and whether two runs name the same winners
// (perf/lib/judge/compare_verdicts.js).

const path = require('node:path');
const { METRICS } = require('../rule/metrics');
const { environmentDifferences } = require('../judge/compare_runs');
const { KINDS } = require('../judge/compare_verdicts');
const { MIN_TAIL_SAMPLES } = require('../rule/compare');
const { RATE_SET, TOO_FEW } = require('../store/no_verdict');
const { noteWords } = require('./verdict_notes');
const { reasonLabel } = require('../store/reasons');
const { fmtNumber, fmtChange, alignedTable } = require('./format');
const { RELATION_WORDS } = require('./verdict_words');
const { METRIC_WORDS } = require('./metric_words');

/** One difference between the two environments (compare_runs.js environmentDifferences) in words. */
function differenceText({ key, a, b }) {
  if (key === 'quick') return `--quick: ${a ? 'yes' : 'no'} in A, ${b ? 'yes' : 'no'} in B (the loads differ)`;
  if (key === 'pinning') return `CPU pinning: ${a ? 'on' : 'off'} in A, ${b ? 'on' : 'off'} in B`;
  return `${key}: ${JSON.stringify(a)} in A, ${JSON.stringify(b)} in B`;
}

// Why a pair's runs could not be compared (compare_runs.js unusable, or a load that differs).
const NOT_COMPARED_WORDS = {
  'load-differs': () => 'the load differs (scenario parameters, e.g. --quick in one run only)',
  'no-run': ({ side }) => `no run in ${side}`,
  'client-bound': ({ side }) => `every ${side} trial client-bound`,
  'not-judged': ({ side, reasons }) => `every ${side} trial not judged (${reasons.map(reasonLabel).join(', ')})`,
  failed: ({ side }) => `every ${side} trial failed`,
};

// A row's verdict (compare_runs.js compareRuns) in its column.
const VERDICT_WORDS = {
  'not-compared': (r) => `not compared: ${NOT_COMPARED_WORDS[r.not_compared.why](r.not_compared)}`,
  'not-measured': () => 'not measured',
  'no-verdict': (r) => `no verdict (${r.no_verdict})`,
  zero: () => 'a trial measured 0 (below the resolution): not judged',
  'no-interval': (r) => (r.single === 'both' ? '1 trial each: no interval, not judged' : `${r.single} has 1 trial: no interval, not judged`),
  'no-change': () => 'no significant change',
  regression: (r, thresholdPct) => `REGRESSION (worse by more than ${thresholdPct}%)`,
  'worse-within': (r, thresholdPct) => `worse, within ${thresholdPct}%`,
  better: () => 'better',
};

// What "no verdict (…)" means, once per kind under the table; another kind says its first row's note.
const NO_VERDICT_WORDS = {
  [RATE_SET]: 'the schedule fixes the throughput of open-loop and slow-client scenarios whatever the server does',
  [TOO_FEW]: `fewer than ${MIN_TAIL_SAMPLES} requests above the percentile in A's or B's trials, so it is their slowest few`,
};

/** The notes under the table: the pairs run in one side only, then what each kind of no verdict means. */
function comparisonNotes({ only, noVerdicts }) {
  return [
    ...only.map((o) => `${o.server} ${o.scenario}: only in ${o.side}; not compared`),
    ...noVerdicts.map(({ kind, note }) => `no verdict (${kind}): ${NO_VERDICT_WORDS[kind] || noteWords(note)}`),
  ];
}

function describeRun(label, R) {
  const e = R.environment;
  const trials = Math.max(1, ...R.runs.map((r) => (Number.isInteger(r.trial) ? r.trial : 1)));
  const bits = [
    e.project_commit ? `commit ${String(e.project_commit).slice(0, 8)}${e.project_dirty ? '+changes' : ''}` : null,
    e.started_at ? `started ${e.started_at}` : null,
    `${trials} trial${trials > 1 ? 's' : ''}`,
    e.options && e.options.quick ? '--quick' : null,
  ].filter(Boolean);
  return `${label}: ${path.relative(process.cwd(), R.dir) || '.'} (${bits.join(', ')})`;
}

/** The whole report as text lines. */
function formatComparison(A, B, result) {
  const lines = [describeRun('A', A), describeRun('B', B)];
  lines.push(`Change from A to B = B ÷ A, with its 95% confidence interval (Welch's t on log values of the trials); a regression is significantly worse by more than ${result.thresholdPct}% (for req/s: A ÷ B). Failed, client-bound, not judged and superseded trials are left out.`);
  for (const d of environmentDifferences(A, B)) lines.push(`note: A and B differ: ${differenceText(d)}`);
  lines.push('');
  const head = ['server', 'scenario', 'metric', 'A', 'B', 'change', '95% CI', 'verdict'];
  let last = null;
  const body = result.rows.map((r) => {
    const key = `${r.server}|${r.scenario}`;
    const first = key !== last;
    last = key;
    const ci = r.ci95 ? `[${fmtChange(r.ci95[0])}, ${fmtChange(r.ci95[1])}]` : '';
    return [first ? r.server : '', first ? r.scenario : '', r.metric ? METRIC_WORDS[r.metric].label : '(all)', r.metric ? fmtNumber(r.a, METRICS[r.metric].unit) : '–', r.metric ? fmtNumber(r.b, METRICS[r.metric].unit) : '–', fmtChange(r.ratio), ci, VERDICT_WORDS[r.verdict](r, result.thresholdPct)];
  });
  lines.push(...alignedTable(head, body, ['l', 'l', 'l', 'r', 'r', 'r', 'l', 'l']));
  const notes = comparisonNotes(result);
  if (notes.length) lines.push('', ...notes.map((n) => `note: ${n}`));
  lines.push('');
  const regs = result.regressions;
  if (regs.length) {
    lines.push(`${regs.length} significant regression${regs.length > 1 ? 's' : ''} beyond ${result.thresholdPct}%:`);
    for (const r of regs) lines.push(`  ${r.server} ${r.scenario} ${METRIC_WORDS[r.metric].label}: ${fmtChange(r.ratio)} [${fmtChange(r.ci95[0])}, ${fmtChange(r.ci95[1])}]`);
  } else {
    const unjudged = result.rows.filter((r) => r.ci95 === null).length;
    lines.push(`no significant regression beyond ${result.thresholdPct}%${unjudged ? ` (${unjudged} of ${result.rows.length} rows could not be judged: see the verdict column)` : ''}`);
  }
  return lines;
}

/** The agreement as text lines: the tally, then every row where a winner was named. */
function formatVerdictAgreement(result) {
  const t = result.tally;
  const lines = [
    `Verdicts of A and B (scenario × metric × pair of servers, ${result.rows.length} in both): ${KINDS.map((k) => `${RELATION_WORDS[k]} ${t[k]}`).join(', ')}.`,
  ];
  const named = result.rows.filter((r) => r.winnerA || r.winnerB);
  if (named.length) {
    lines.push('', 'Where a winner was named:');
    for (const r of named) lines.push(`  ${RELATION_WORDS[r.kind].padEnd(12)} ${r.scenario} ${METRIC_WORDS[r.metric].label} (${r.a} vs ${r.b}): A ${r.winnerA || '–'}, B ${r.winnerB || '–'}`);
  }
  return lines;
}

module.exports = { formatComparison, describeRun, formatVerdictAgreement };
