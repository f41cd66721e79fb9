'use strict';
// How every output of the project writes a number, a duration, a factor, an interval, a list of
// trials and a table: the terminal, summary.txt/.md/.csv, compare, the cross-check, the overhead study and the
// report all call these, so that one figure reads the same wherever it is shown.

/** 75 -> "1 min 15 s", 3720 -> "1 h 2 min". */
function fmtDuration(s) {
  const t = Math.max(1, Math.round(s));
  if (t < 60) return `${t} s`;
  if (t < 3600) return `${Math.floor(t / 60)} min${t % 60 ? ` ${t % 60} s` : ''}`;
  const m = Math.round(t / 60);
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
}

/**
 * A measured value for a person: three significant digits or so ("0.052", "3.41", "16.0",
 * "313"), whole numbers with thousands separators for counts and rates ("18,781"); "–" when
 * there is none. unit: 'req/s' and 'count' are whole; anything else is read as a quantity.
 */
function fmtNumber(v, unit) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  if (unit === 'req/s' || unit === 'count') return Math.round(v).toLocaleString('en-US');
  const a = Math.abs(v);
  if (a === 0) return '0';
  if (a < 0.01) return v.toPrecision(2);
  if (a < 1) return v.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
  if (a < 10) return v.toFixed(2);
  if (a < 100) return v.toFixed(1);
  return Math.round(v).toLocaleString('en-US');
}

/** A factor: "2.41×", "2.5×", "47.8×", "130×"; "–" when there is none. */
function fmtFactor(x) {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  return `${x < 10 ? x.toFixed(2).replace(/0$/, '') : x < 100 ? x.toFixed(1) : Math.round(x)}×`;
}

/** A margin in words: "±10 %" for 0.1. */
function marginText(margin) {
  return `±${+(margin * 100).toFixed(1)} %`;
}

/** An interval of factors: "[2.10–2.77]"; "" when there is none. */
function fmtInterval(ci) {
  if (!ci) return '';
  const f = (x) => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : String(Math.round(x)));
  return `[${f(ci[0])}–${f(ci[1])}]`;
}

/** A ratio as a change in percent: 1.034 → "+3.4%", 0.5 → "-50%"; "–" when there is none. */
function fmtChange(ratio) {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '–';
  const pct = (ratio - 1) * 100;
  const s = Math.abs(pct) < 10 ? pct.toFixed(1) : pct.toFixed(0);
  return `${pct >= 0 ? '+' : ''}${s === '-0.0' ? '0.0' : s}%`;
}

/** " (trial 2)", " (trials 1–3)", " (trials 1, 3)"; "" for none, or when the run had one trial. */
function trialsLabel(trials, maxTrials) {
  if (!trials.length || maxTrials <= 1) return '';
  if (trials.length === 1) return ` (trial ${trials[0]})`;
  const consecutive = trials.every((t, i) => i === 0 || t === trials[i - 1] + 1);
  return ` (trials ${consecutive ? `${trials[0]}–${trials[trials.length - 1]}` : trials.join(', ')})`;
}

/** Lines of a table with columns padded to their widest cell; align: 'l' or 'r' per column. */
function alignedTable(head, body, align) {
  const widths = head.map((h, i) => Math.max(String(h).length, ...body.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (align[i] === 'r' ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join('  ').trimEnd();
  return [line(head), ...body.map(line)];
}

/** Lines of a Markdown table; align: 'l' or 'r' per column. */
function markdownTable(head, body, align) {
  const row = (cells) => `| ${cells.join(' | ')} |`;
  return [row(head), `|${head.map((_, i) => (align[i] === 'r' ? ' ---: ' : ' --- ')).join('|')}|`, ...body.map(row)];
}

/**
 * The anchor a Markdown heading gets on GitHub (and in most renderers): its text lower-cased,
 * what is neither a letter, a digit, a space, "-" nor "_" dropped, each space a "-".
 * "Ruby 3.3 + YJIT, 2026-11-29" → "ruby-33--yjit-2026-11-29".
 */
function markdownAnchor(heading) {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** One CSV field: quoted when it holds a quote, a comma or a line break; objects as JSON. */
function csvField(v) {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV text of a header and rows of fields. */
function csvLines(head, body) {
  return `${[head, ...body].map((fields) => fields.map(csvField).join(',')).join('\n')}\n`;
}

/** Rows of objects as CSV, columns the union of their keys in first-seen order. */
function objectsToCsv(rows) {
  const cols = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
  return csvLines(cols, rows.map((r) => cols.map((c) => r[c])));
}

/** The host's calibration (perf/lib/run/calibration.js) in words, one value or a range: "calibration 0.0121–0.0130 ms CPU/req". */
function calibrationWords(values) {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return `calibration ${lo.toFixed(4)}${hi > lo ? `–${hi.toFixed(4)}` : ''} ms CPU/req`;
}

module.exports = { calibrationWords, fmtNumber, fmtDuration, fmtFactor, fmtInterval, marginText, fmtChange, trialsLabel, alignedTable, markdownTable, markdownAnchor, csvField, csvLines, objectsToCsv };
