'use strict';
// Number formatting shared by the page and the chart labels.

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

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function csvCell(v) {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows of objects to CSV, columns = union of keys in first-seen order. */
function toCsv(rows) {
  const cols = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
  const lines = [cols.join(',')];
  for (const r of rows) lines.push(cols.map((c) => csvCell(r[c])).join(','));
  return `${lines.join('\n')}\n`;
}

module.exports = { fmtNumber, escapeHtml, toCsv };
