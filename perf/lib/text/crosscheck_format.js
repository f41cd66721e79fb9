'use strict';
// A cross-check's comparison (perf/lib/judge/crosscheck.js buildReport) in words: the document
// as crosscheck.json stores it (its labels, verdicts, notes, agreements and the built-in engines'
// latency in words), aligned text for the terminal and Markdown: the table, its legend and notes,
// and the servers' verdicts by engine.

const { fmtNumber, alignedTable, marginText } = require('./format');
const { METRIC_WORDS } = require('./metric_words');

/** Each compared metric's label (perf/lib/judge/crosscheck.js CROSSCHECK_METRICS). */
const LABELS = {
  throughput_rps: METRIC_WORDS.throughput_rps.label,
  mean_ms: METRIC_WORDS.mean_ms.label,
  mean_ms_from_actual_start: 'mean ms, lag removed',
  p50_ms: METRIC_WORDS.p50_ms.label,
  p90_ms: 'p90 ms',
  p99_ms: METRIC_WORDS.p99_ms.label,
  max_ms: 'max ms',
  connect_ms: 'connect ms',
  cpu_ms_per_request: 'server CPU ms/req',
  errors: 'errors',
  client_cpu_pct: 'client CPU %',
};

/** What each built-in engine's latency means (an external engine records its own, latency_basis). */
const BUILTIN_BASIS = {
  autocannon: 'autocannon (through the runner\'s hooks): from writing the request to the last byte of the reply; connect not included; exact, every reply',
  sequential: 'sequential engine: from opening the connection (connect included) to the last byte of the reply; exact, every reply',
  open_loop: 'open-loop engine: from the connection\'s scheduled start (connect and any schedule lag included) to the last byte of the reply; exact, every reply',
  constant_rate: 'constant-rate engine: from when the request was due (its wait for a busy connection and the schedule lag included) to the last byte of the reply, as Node read it; exact, every reply',
  rate_client: 'rate_client (C): from when the request was due (its wait for a busy connection and the schedule lag included) to the kernel\'s receive time of the reply\'s last bytes; exact, every reply',
  slow_clients: 'slow-client engine: the probe\'s latency from its scheduled start',
};

/** The notes' words (perf/lib/judge/crosscheck.js definitionNotes and compareMetric), by code. */
const NOTE_WORDS = {
  httperf_connection_time: 'httperf: connection time, connect() to the end of the connection; 0.1 ms steps',
  httperf_reply_time: 'httperf: reply time = response + transfer (mean only); 0.1 ms steps',
  open_loop_scheduled_start: 'open loop: counted from the scheduled start, so schedule lag is inside',
  open_loop_lag_removed: 'open loop: mean minus the mean schedule lag, i.e. from the actual start of the connection',
  sequential_from_open: 'sequential: counted from opening the connection',
  wrk_fill_in: 'wrk: excludes connect, adds coordinated-omission fill-in samples',
  tsung_from_ready: 'tsung: from when the user was ready to send (connect included on a new connection) to the end of the reply, not from a schedule',
  httperf_connect_time: 'httperf: mean connect() time of its connections, 0.1 ms steps; the built-in engines time it in Node, up to the connect callback',
  httperf_closes: 'httperf closes the connection itself (no Connection: close); the built-in engine asks the server to close',
  wrk_closes: 'wrk closes the connection itself after the reply and reconnects',
  httperf_recv_buffer: 'httperf reads with a 16 KiB receive buffer (its --recv-buffer default), so a larger reply arrives in several windows: more server CPU and time per reply',
  httperf_errors_per_connection: 'httperf counts a failed connection (or session) once, not each request it carried',
  wrk_errors: 'wrk: connect errors count as refused, read/write errors as reset, replies slower than --timeout as timeouts',
  open_loop_rate_set: 'open loop: the rate is set by the schedule, both should match it',
  tsung_poisson: 'tsung: arrivals are a Poisson process (random gaps, bursts), the built-in open loop and httperf space them evenly',
  tsung_agents: 'tsung: its agents on the load hosts (a sum where they share this machine\'s cores)',
  httperf_busy_polls: 'httperf busy-polls: about 100% whatever the load',
  builtin_runner_cpu: 'built-in: the runner process (Node), not an external tool',
  measured_by_neither: 'neither engine measures it',
  compared_by_ranges: 'compared by the trials\' ranges (a zero cannot go on the log scale)',
};

/** A note in words: a code, or { code, … } with what its words need. */
function noteText(note) {
  if (typeof note === 'string') return NOTE_WORDS[note];
  if (note.code === 'not_measured_by') return `${note.engine} does not measure it`;
  return `ok trials: ${Object.entries(note.trials).map(([engine, n]) => `${engine} ${n}`).join(', ')}`;
}

/** A row's verdict in words: "agree within ±10 %", "agree within ±10 % (resolution)", "too few trials"; the other codes are their words. */
function verdictText(code, margin) {
  if (code === 'too_few_trials') return 'too few trials';
  if (code === 'no_data') return 'no data';
  const [head, ...rest] = code.split(' (');
  return head === 'agree' ? [`agree within ${marginText(margin)}`, ...rest].join(' (') : code;
}

/** How the engines' answers about the servers relate (perf/lib/rule/answer.js relate, or 'cannot_tell'), in words. */
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
 * The comparison document in words, as crosscheck.json stores it: each row's label, verdict and
 * notes, the tally's keys, each server verdict's label and agreement, and what each engine's
 * latency means, in words; the margin is in them.
 */
function crosscheckWords(report) {
  const { margin, ...doc } = report;
  const label = (metric) => (metric ? LABELS[metric] : null);
  return {
    ...doc,
    groups: doc.groups.map((g) => ({ ...g, latency_basis: Object.fromEntries(Object.entries(g.latency_basis).map(([e, basis]) => [e, basis || BUILTIN_BASIS[g.engine_runs[e]] || g.engine_runs[e]])) })),
    rows: doc.rows.map(({ server, scenario, metric, ...r }) => ({ server, scenario, metric, label: label(metric), ...r, verdict: verdictText(r.verdict, margin), notes: r.notes.map(noteText) })),
    tally: Object.fromEntries(Object.entries(doc.tally).map(([code, n]) => [verdictText(code, margin), n])),
    server_verdicts: doc.server_verdicts.map(({ scenario, metric, ...v }) => ({ scenario, metric, label: label(metric), ...v, agreement: agreementText(v.agreement, doc.engines, margin) })),
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
