'use strict';
// The summary table: one row per scenario, one column group per server (mean and p99 reply
// time, req/s, server CPU ms per request), like seed 002's table. The same rows are written as
// Markdown (summary.md), CSV (summary.csv) and printed as aligned text.

const GROUP_COLUMNS = [
  { key: 'mean', label: 'mean ms', csv: 'mean_ms' },
  { key: 'p99', label: 'p99 ms', csv: 'p99_ms' },
  { key: 'rps', label: 'req/s', csv: 'rps' },
  { key: 'cpu', label: 'CPU ms/req', csv: 'cpu_ms_per_req' },
];

// Open-loop runs whose connections opened later than this behind schedule get a note.
const LAG_NOTE_MS = 20;

function fmtMs(x) {
  if (x === null || x === undefined) return '–';
  if (x < 10) return x.toFixed(2);
  if (x < 100) return x.toFixed(1);
  return x.toFixed(0);
}

function fmtRps(x) {
  if (x === null || x === undefined) return '–';
  return x < 100 ? x.toFixed(1) : Math.round(x).toString();
}

function fmtCpu(x) {
  if (x === null || x === undefined) return '–';
  return x < 1 ? x.toFixed(3) : x.toFixed(2);
}

/** { servers, rows: [{ scenario, cells: { server: { ok, mean, p99, rps, cpu, errors } } }], notes } */
function summarize(runs) {
  const servers = [];
  const scenarios = [];
  for (const r of runs) {
    if (!servers.includes(r.server)) servers.push(r.server);
    if (!scenarios.includes(r.scenario)) scenarios.push(r.scenario);
  }
  const notes = [];
  const rows = scenarios.map((scenario) => {
    const cells = {};
    for (const server of servers) {
      const r = runs.find((x) => x.server === server && x.scenario === scenario);
      if (!r) continue;
      const errors = r.errors ? Object.values(r.errors).reduce((a, b) => a + b, 0) : 0;
      cells[server] = {
        ok: r.ok,
        mean: r.latency_ms ? r.latency_ms.mean : null,
        p99: r.latency_ms ? r.latency_ms.p99 : null,
        rps: r.throughput_rps ?? null,
        cpu: r.server_cpu ? r.server_cpu.ms_per_request : null,
        errors,
      };
      if (!r.ok) notes.push(`${server} ${scenario}: FAILED: ${r.failure}`);
      else if (errors > 0) {
        const kinds = Object.entries(r.errors).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
        notes.push(`${server} ${scenario}: ${errors} of ${r.requests} requests failed (${kinds})`);
      }
      if (r.ok && r.client_bound) notes.push(`${server} ${scenario}: the load generator was the bottleneck (${r.client_cpu_pct}% of a core)`);
      if (r.ok && r.schedule_lag_ms && r.schedule_lag_ms.max > LAG_NOTE_MS) {
        notes.push(`${server} ${scenario}: the load generator opened a connection up to ${Math.round(r.schedule_lag_ms.max)} ms behind schedule; that delay counts in its latency`);
      }
    }
    return { scenario, cells };
  });
  if (runs.some((r) => r.slow_clients)) notes.push('slow_* and big_upload rows show the fast probe\'s latency and rate, measured while the slow clients were active around it.');
  return { servers, rows, notes };
}

function cellTexts(cell) {
  if (!cell) return GROUP_COLUMNS.map(() => '');
  if (!cell.ok) return ['FAILED', '', '', ''];
  return [fmtMs(cell.mean), fmtMs(cell.p99), fmtRps(cell.rps), fmtCpu(cell.cpu)];
}

function toMarkdown(runs) {
  const { servers, rows, notes } = summarize(runs);
  const header = ['scenario', ...servers.flatMap((s) => GROUP_COLUMNS.map((c) => `${s} ${c.label}`))];
  const lines = [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...rows.map((row) => `| ${[row.scenario, ...servers.flatMap((s) => cellTexts(row.cells[s]))].join(' | ')} |`),
  ];
  if (notes.length) lines.push('', ...notes.map((n) => `- ${n}`));
  return lines.join('\n') + '\n';
}

function csvField(x) {
  if (x === null || x === undefined) return '';
  const s = String(x);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function toCsv(runs) {
  const { servers, rows } = summarize(runs);
  const header = ['scenario', ...servers.flatMap((s) => [`${s}_ok`, ...GROUP_COLUMNS.map((c) => `${s}_${c.csv}`), `${s}_errors`])];
  const lines = [header.join(',')];
  for (const row of rows) {
    const fields = [row.scenario];
    for (const s of servers) {
      const c = row.cells[s];
      if (!c) fields.push('', '', '', '', '', '');
      else fields.push(c.ok, c.mean, c.p99, c.rps === null ? null : Math.round(c.rps * 10) / 10, c.cpu, c.errors);
    }
    lines.push(fields.map(csvField).join(','));
  }
  return lines.join('\n') + '\n';
}

/** Aligned text with a header line per server group, for the terminal. */
function toText(runs) {
  const { servers, rows, notes } = summarize(runs);
  const nameWidth = Math.max(8, ...rows.map((r) => r.scenario.length));
  const colWidths = GROUP_COLUMNS.map((c) => Math.max(c.label.length, 7));
  const groupWidth = colWidths.reduce((a, b) => a + b, 0) + 2 * (colWidths.length - 1);
  const pad = (s, w) => s.padStart(w);
  const groupLine = ' '.repeat(nameWidth) + servers.map((s) => '   ' + centre(` ${s} `, groupWidth, '─')).join('');
  const headLine = 'scenario'.padEnd(nameWidth) + servers.map(() => '   ' + GROUP_COLUMNS.map((c, i) => pad(c.label, colWidths[i])).join('  ')).join('');
  const body = rows.map((row) =>
    row.scenario.padEnd(nameWidth) + servers.map((s) => '   ' + cellTexts(row.cells[s]).map((t, i) => pad(t, colWidths[i])).join('  ')).join(''),
  );
  return [groupLine, headLine, ...body, ...(notes.length ? ['', ...notes.map((n) => `* ${n}`)] : [])].join('\n') + '\n';
}

function centre(text, width, fill) {
  if (text.length >= width) return text;
  const left = Math.floor((width - text.length) / 2);
  return fill.repeat(left) + text + fill.repeat(width - text.length - left);
}

module.exports = { summarize, toMarkdown, toCsv, toText };
