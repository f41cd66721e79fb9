'use strict';
// A cross-check's comparison (perf/lib/judge/crosscheck.js buildReport) in words: the document
// as crosscheck.json stores it (its verdicts and agreements in words), aligned text for the
// terminal and Markdown: the table, its legend and notes, and the servers' verdicts by engine.

const { fmtNumber, alignedTable, marginText } = require('./format');

/** A row's verdict in words: "agree within ±10 %", "agree within ±10 % (resolution)"; the other codes are their words. */
function verdictText(code, margin) {
  const [head, ...rest] = code.split(' (');
  return head === 'agree' ? [`agree within ${marginText(margin)}`, ...rest].join(' (') : code;
}

/** How the engines' answers about the servers relate (perf/lib/judge/answer.js relate, or 'cannot_tell'), in words. */
function agreementText(code, engines, margin) {
  const words = {
    same_winner: 'same winner',
    opposite: 'opposite',
    both_same: `both the same within ${marginText(margin)}`,
    same_vs_clear: 'contradict: one a clear winner, the other the same',
    same_vs_close: 'one a close winner, the other the same',
    only_first: `only ${engines[0]} decided`,
    only_second: `only ${engines[1]} decided`,
    neither: 'both undecided',
    cannot_tell: 'cannot tell',
  };
  return words[code];
}

/**
 * The comparison document in words, as crosscheck.json stores it: each row's verdict, the
 * tally's keys and each server verdict's agreement in words; the margin is in them.
 */
function crosscheckWords(report) {
  const { margin, ...doc } = report;
  return {
    ...doc,
    rows: doc.rows.map((r) => ({ ...r, verdict: verdictText(r.verdict, margin) })),
    tally: Object.fromEntries(Object.entries(doc.tally).map(([code, n]) => [verdictText(code, margin), n])),
    server_verdicts: doc.server_verdicts.map((v) => ({ ...v, agreement: agreementText(v.agreement, doc.engines, margin) })),
  };
}

function fmtRatio(x) {
  return x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(3);
}

function fmtCi(ci) {
  return ci ? `[${fmtRatio(ci[0])}, ${fmtRatio(ci[1])}]` : '–';
}

/** Every distinct note, numbered in order of first use: Map(note → number). */
function footnotes(report) {
  const map = new Map();
  for (const r of report.rows) for (const n of r.notes || []) if (!map.has(n)) map.set(n, map.size + 1);
  return map;
}

function cells(report, r, notes) {
  const refs = (r.notes || []).map((n) => notes.get(n)).join(',');
  if (!r.metric) return [r.server, r.scenario, '–', '', '', '', '', r.verdict, refs];
  const side = (s) => `${fmtNumber(s.centre)}${s.n !== report.repeat ? ` (n=${s.n})` : ''}`;
  return [r.server, r.scenario, r.label, side(r.a), side(r.b), fmtRatio(r.ratio), fmtCi(r.ci95), r.verdict, refs];
}

function headers(report) {
  const [A, B] = report.engines;
  return ['server', 'scenario', 'metric', A, B, `${B}/${A}`, '95% CI', 'verdict', 'notes'];
}

function legend(report, margin) {
  const [A, B] = report.engines;
  const lines = [
    `${A} vs ${B}: ${report.repeat} trials each${report.quick ? ' (--quick: counts ÷20)' : ''}, engines interleaved. Columns ${A} and ${B}: geometric mean of the trials (plain mean for counts); ${B}/${A}: ratio with Welch's 95% interval on the log scale.`,
    `Intervals are widened to cover each engine's reporting step (httperf prints ms with one decimal: ±0.05 ms; server CPU is counted in clock ticks: ±2 ticks over the run's replies), so a step-quantised value does not fake precision.`,
    `Verdict: agree within ${marginText(margin)} = the whole interval lies within the margin (an equivalence test); differ = the interval excludes 1 (see the notes: a difference of definition is not a difference of server); undecided = neither; (resolution) = the interval was widened to the reporting steps; agree: identical = the same values every trial; n/a = one engine does not measure it; info = not comparable by design.`,
  ];
  if (A === 'autocannon' || B === 'autocannon') lines.push('autocannon here means the built-in engines: autocannon for keep-alive closed loops, the open_loop and sequential engines elsewhere (the run\'s engine is named per scenario below).');
  return lines;
}

function groupLines(report) {
  const out = [];
  for (const g of report.groups) {
    const [A, B] = report.engines;
    out.push(`${g.server} ${g.scenario}: ${A} = ${g.engine_runs[A] || '–'}${g.commands[A] ? ` (${g.commands[A]})` : ''}; ${B} = ${g.engine_runs[B] || '–'}${g.commands[B] ? ` (${g.commands[B]})` : ''}`);
  }
  return out;
}

function basisLines(report) {
  const seen = new Map();
  for (const g of report.groups) for (const e of report.engines) if (g.latency_basis[e]) seen.set(g.engine_runs[e], g.latency_basis[e]);
  return [...seen.entries()].map(([engine, basis]) => `${engine}: ${basis}`);
}

function tallyLine(report) {
  const parts = Object.entries(report.tally).map(([k, n]) => `${k} ${n}`);
  return `comparable rows: ${parts.join(', ') || 'none'}`;
}

/** Aligned text for the terminal, of the comparison document (buildReport). */
function toText(coded) {
  const report = crosscheckWords(coded);
  const head = headers(report);
  const notes = footnotes(report);
  const body = report.rows.map((r) => cells(report, r, notes));
  const out = [...alignedTable(head, body, head.map((_, i) => ([3, 4, 5].includes(i) ? 'r' : 'l'))), '', tallyLine(report), ...legend(report, coded.margin), ...verdictLines(report), '', 'notes:', ...[...notes].map(([n, i]) => `  ${i}. ${n}`), '', 'latency, by engine:', ...basisLines(report).map((l) => `  ${l}`), '', 'runs:', ...groupLines(report).map((l) => `  ${l}`)];
  if (report.skipped.length) out.push('', 'skipped:', ...report.skipped.map((k) => `  ${k.scenario}: ${k.engine} cannot run it faithfully (${k.reason})`));
  if (report.failures.length) out.push('', 'failed runs (left out):', ...report.failures.map((f) => `  ${f}`));
  if (report.interrupted) out.push('', 'INTERRUPTED: the comparison covers the trials that finished.');
  return out.join('\n') + '\n';
}

function verdictCells(report, v) {
  const [A, B] = report.engines;
  const side = (x) => (x ? `${fmtRatio(x.ratio)} ${fmtCi(x.ci95)}` : '–');
  return [v.scenario, v.label, side(v.engines[A]), side(v.engines[B]), v.agreement, v.intervals_overlap === null ? '–' : v.intervals_overlap ? 'yes' : 'no'];
}

function verdictHead(report) {
  const [A, B] = report.engines;
  const r = report.server_verdicts.length ? report.server_verdicts[0].ratio : '';
  return ['scenario', 'metric', `${A}: ${r} [95% CI]`, `${B}: ${r} [95% CI]`, 'verdicts', 'CIs overlap'];
}

/** The second table: do the engines say the same about the servers? */
function verdictLines(report) {
  if (!report.server_verdicts.length) return [];
  const head = verdictHead(report);
  const body = report.server_verdicts.map((v) => verdictCells(report, v));
  return ['', `Server verdicts by engine (ratio ${report.server_verdicts[0].ratio}; each engine's answer: a winner, the same within the margin, or undecided; "same winner" and "both the same" agree, "opposite" and "contradict" do not):`, ...alignedTable(head, body, head.map(() => 'l'))];
}

function mdEscape(s) {
  return String(s).replace(/\|/g, '\\|');
}

/** Markdown of the comparison document (buildReport): the table, the legend, what each engine's latency means, the command lines. */
function toMarkdown(coded) {
  const report = crosscheckWords(coded);
  const head = headers(report);
  const notes = footnotes(report);
  const out = [
    `# Cross-check: ${report.engines.join(' vs ')}`,
    '',
    `| ${head.map(mdEscape).join(' | ')} |`,
    `|${head.map((_, i) => ([3, 4, 5].includes(i) ? ' ---: ' : ' --- ')).join('|')}|`,
    ...report.rows.map((r) => `| ${cells(report, r, notes).map(mdEscape).join(' | ')} |`),
    '',
    tallyLine(report),
    '',
    ...legend(report, coded.margin).map((l) => `- ${l}`),
    '',
    ...(report.server_verdicts.length
      ? [
          '## Server verdicts by engine',
          '',
          `Ratio ${report.server_verdicts[0].ratio}; each engine's answer: a winner, the same within the margin, or undecided; "same winner" and "both the same" agree, "opposite" and "contradict" do not.`,
          '',
          `| ${verdictHead(report).map(mdEscape).join(' | ')} |`,
          `|${verdictHead(report).map(() => ' --- ').join('|')}|`,
          ...report.server_verdicts.map((v) => `| ${verdictCells(report, v).map(mdEscape).join(' | ')} |`),
          '',
        ]
      : []),
    '## Notes',
    '',
    ...[...notes].map(([n, i]) => `${i}. ${n}`),
    '',
    '## What each engine\'s latency is',
    '',
    ...basisLines(report).map((l) => `- ${l}`),
    '',
    '## Runs',
    '',
    ...groupLines(report).map((l) => `- ${mdEscape(l)}`),
  ];
  if (report.skipped.length) out.push('', '## Skipped', '', ...report.skipped.map((k) => `- ${k.scenario}: ${k.engine} cannot run it faithfully (${k.reason})`));
  if (report.failures.length) out.push('', '## Failed runs (left out)', '', ...report.failures.map((f) => `- ${f}`));
  if (report.interrupted) out.push('', '**Interrupted:** the comparison covers the trials that finished.');
  return out.join('\n') + '\n';
}

module.exports = { crosscheckWords, toText, toMarkdown };
