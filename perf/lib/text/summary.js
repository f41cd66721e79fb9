'use strict';
// The summary of a run, as aligned text (toText: summary.txt), summary.md (toMarkdown) and
// summary.csv (toCsv): one row per scenario, one column group per server (mean and p99 reply time, req/s,
// server CPU ms per request), like seed 002's table; each cell is the centre of the server's
// trials (geometric mean; the run itself with one trial). Below it the verdicts of the pair of
// servers (node vs em when both ran), each metric's answer in its words; then, when reference
// servers ran, each server's overhead against them; the seeds table; the warnings. Everything
// here formats what perf/lib/judge/judged.js judgeResults gave; nothing is decided here.

const { rampLines } = require('./ramps');
const { warningText } = require('./warnings');
const { waitingLines } = require('./held');
const { backendLines } = require('./backends');
const { runtimeLines, runtimeRows, RUNTIME_HEAD, RUNTIME_TITLE } = require('./runtime');
const { OVERHEAD_METRICS } = require('../judge/verdicts');
const { MIN_TAIL_SAMPLES } = require('../rule/compare');
const { TOO_FEW } = require('../store/no_verdict');
const { CLIENT_BOUND_ADVICE, tooFewText } = require('./verdict_notes');
const { METRICS, METRIC_NAMES: VERDICT_METRICS } = require('../rule/metrics');
const { METRIC_WORDS } = require('./metric_words');
const { seedCells, seedsMarkdown, notHereLines, SEEDS_TITLE, SEEDS_HEAD } = require('./seeds');
const { verdictWords, keptWords, intervalMethodText } = require('./verdict_words');
const { fmtNumber, fmtFactor, fmtInterval, trialsLabel, alignedTable, markdownTable, csvLines, marginText } = require('./format');

const GROUP_COLUMNS = [
  { key: 'mean', metric: 'mean_ms', label: 'mean ms', csv: 'mean_ms' },
  { key: 'p99', metric: 'p99_ms', label: 'p99 ms', csv: 'p99_ms' },
  { key: 'rps', metric: 'throughput_rps', label: 'req/s', csv: 'rps' },
  { key: 'cpu', metric: 'cpu_ms_per_request', label: 'CPU ms/req', csv: 'cpu_ms_per_request' },
];
// The summary of a run stopped before any of its runs finished.
const NO_RUNS = 'No run finished.';

/** A metric's value as the tables print it. */
const fmtMetric = (metric, v) => fmtNumber(v, METRICS[metric].unit);

/**
 * The tables' content: { servers, scenarios, rows: [{ scenario, cells: { server: { ok, mean,
 * p99, rps, cpu, errors, trials, used, basis, replies, p99Resolved } } }], notes, pairs (each
 * pair of runtimes: { pair, comparisons }), and the judged results' overheads, pair, trials,
 * engines, seeds, looks }.
 */
function summarize(results) {
  const { runs, servers, scenarios } = results;
  const notes = results.warnings.map((w) => `${w.server} ${w.scenario}${trialsLabel(w.trials, results.trials)}: ${warningText(w)}`);
  const rows = scenarios.map((scenario) => {
    const cells = {};
    for (const server of servers) {
      const rs = runs.filter((x) => x.server === server && x.scenario === scenario);
      if (!rs.length) continue;
      const agg = results.aggregates.find((a) => a.server === server && a.scenario === scenario);
      const tail = results.tails.find((t) => t.server === server && t.scenario === scenario);
      const centre = (m) => (agg && agg.metrics[m] ? agg.metrics[m].centre : null);
      cells[server] = {
        ok: rs.some((r) => r.ok),
        mean: centre('mean_ms'),
        p99: centre('p99_ms'),
        rps: centre('throughput_rps'),
        cpu: centre('cpu_ms_per_request'),
        errors: rs.reduce((n, r) => n + r.error_count, 0),
        trials: rs.length,
        used: agg ? agg.used_trials.length : 0,
        basis: agg ? agg.basis : null,
        // The replies behind each trial's p99, and whether enough of them lie above it for it to be one.
        replies: tail.replies,
        p99Resolved: tail.p99_resolved,
      };
      if (cells[server].basis === 'client-bound') notes.push(`${server} ${scenario}: every finished trial was client-bound: its numbers describe the load generator; ${CLIENT_BOUND_ADVICE}`);
    }
    return { scenario, cells };
  });
  if (runs.some((r) => r.slow_clients)) notes.push('slow_* and big_upload rows show the fast probe\'s latency and rate, measured while the slow clients were active around it.');
  const bySkipper = new Map();
  // A scenario --seeds did not ask of a server (unplanned) is no news.
  for (const k of results.skipped.filter((x) => !x.unplanned)) {
    if (k.scenario === null) notes.push(`${k.server}: not run: ${k.reason}`);
    else bySkipper.set(k.server, [...(bySkipper.get(k.server) || []), k]);
  }
  for (const [server, list] of bySkipper) {
    notes.push(`${server} does not serve ${list.map((k) => k.scenario).join(', ')} (${[...new Set(list.map((k) => k.reason.split(';')[0]))].join('; ')}): not run`);
  }
  const smallP99 = rows.flatMap((row) => Object.entries(row.cells).filter(([, c]) => c.ok && !c.p99Resolved).map(([server]) => `${server} ${row.scenario}`));
  if (smallP99.length) notes.push(`p99 needs ${fmtNumber(MIN_TAIL_SAMPLES / 0.01, 'count')} requests (${MIN_TAIL_SAMPLES} above it); with fewer it is the slowest few, not a p99 (n too small, not judged): ${smallP99.join(', ')}.`);
  const { overheads, pair, trials, engines, seeds, looks } = results;
  // Each pair of runtimes the run compares (node vs em first), with its comparisons.
  const pairs = results.pairs.map((p) => ({ pair: p.pair, comparisons: p.comparisons }));
  return { servers, scenarios, rows, notes, pairs, overheads, pair, trials, engines, seeds, looks };
}

/** A pair's comparison of a scenario and metric (a judged pair's comparisons), or null. */
function pairComparison(p, scenario, metric) {
  return p.comparisons.find((c) => c.scenario === scenario && c.metric === metric) || null;
}

/** A scenario's name in the tables: "short_conn_256 (verdict from wrk)" where another engine gave its verdict. */
function scenarioLabel(s, scenario) {
  return s.engines[scenario] ? `${scenario} (verdict from ${s.engines[scenario]})` : scenario;
}

/** The cells of a server in the summary table; a p99 too few requests lie above is "n too small". */
function cellTexts(cell) {
  if (!cell) return GROUP_COLUMNS.map(() => '');
  if (!cell.ok) return ['FAILED', '', '', ''];
  return GROUP_COLUMNS.map((c) => (c.key === 'p99' && !cell.p99Resolved ? TOO_FEW : fmtMetric(c.metric, cell[c.key])));
}

function trialsLine(s) {
  if (s.trials <= 1) return 'One trial per server and scenario: ratios without confidence intervals (1 trial: no interval; use --repeat 3).';
  const unit = s.looks ? 'rounds' : 'trials';
  return `Each cell is the centre (geometric mean) of up to ${s.trials} ${unit}; failed ${unit} and ${unit} not judged (client-bound, not server-bound, ${s.looks ? 'shared core' : 'disturbed'}, superseded) left out.`;
}

/** Rows of a pair's verdict table (p: one of summarize's pairs): [{ scenario, metric, a value, b value, ratio, ci, verdict }]. */
function verdictRows(s, p) {
  const rows = [];
  for (const scenario of s.scenarios) {
    for (const metric of VERDICT_METRICS) {
      const c = pairComparison(p, scenario, metric);
      if (!c) continue;
      const value = (v) => (c.no_verdict === TOO_FEW ? TOO_FEW : fmtMetric(metric, v));
      rows.push({
        scenario,
        metric,
        label: METRIC_WORDS[metric].label,
        va: value(c.value_a),
        vb: value(c.value_b),
        ratio: c.ratio === null ? '–' : c.ratio.toFixed(c.ratio < 10 ? 3 : 1),
        ci: c.ci95 ? fmtInterval(c.ci95) : c.excluded || c.no_verdict ? '' : c.ratio === null ? '' : '1 trial: no interval',
        verdict: verdictWords(c),
        c,
      });
    }
  }
  return rows;
}

function verdictTitle(s, [a, b]) {
  const how = s.trials > 1 ? `, ${intervalMethodText(s.looks)}; the answer: a winner where the interval excludes 1, "same" where it lies wholly within the margin, else undecided` : '';
  return `Verdicts, ${a} vs ${b}: ratio = ${a} ÷ ${b}${how}; the factor says who is better: lower times, CPU and memory, higher req/s.`;
}

function overheadCell(m) {
  if (!m) return '–';
  if (m.excluded) return `not compared (${m.excluded})`;
  if (m.no_verdict) return m.no_verdict;
  if (m.overhead === null) return '–';
  const ci = m.ci95 ? ` ${fmtInterval(m.ci95)}` : ' (no interval)';
  return `${fmtFactor(m.overhead)}${ci}${overheadAnswer(m)}`;
}

/** Overhead columns are factors, whatever the metric's own unit. */
const overheadHead = (m) => `${METRIC_WORDS[m].label.split(' ')[0]} ×`;

/** What an overhead's interval answers, after it: " same ±10 %", " undecided", or nothing for a cost or a saving (the interval excludes 1). */
function overheadAnswer(m) {
  if (m.decision === 'same') return ` same ${marginText(m.margin)}`;
  return m.decision === 'undecided' ? ' undecided' : '';
}

function overheadTitle() {
  return 'Overhead against references: how many times the reference\'s cost (time, 1/throughput, CPU per request); 1.00× = no overhead; "same" = within the margin of no overhead; undecided = the interval holds 1 and reaches past the margin.';
}

/** summary.md: the tables of toText as Markdown. */
function toMarkdown(results) {
  const s = summarize(results);
  const { servers, rows, notes } = s;
  const header = ['scenario', ...servers.flatMap((sv) => GROUP_COLUMNS.map((c) => `${sv} ${c.label}`))];
  const lines = rows.length
    ? [...markdownTable(header, rows.map((row) => [scenarioLabel(s, row.scenario), ...servers.flatMap((sv) => cellTexts(row.cells[sv]))]), header.map((_, i) => (i === 0 ? 'l' : 'r'))), '', trialsLine(s)]
    : [NO_RUNS];
  for (const p of s.pairs) {
    const vrows = verdictRows(s, p);
    if (!vrows.length) continue;
    const [a, b] = p.pair;
    lines.push('', verdictTitle(s, p.pair), '', ...markdownTable(['scenario', 'metric', a, b, `${a}/${b}`, '95% CI', 'verdict'], vrows.map((r) => [scenarioLabel(s, r.scenario), r.label, r.va, r.vb, r.ratio, r.ci, r.verdict]), ['l', 'l', 'r', 'r', 'r', 'l', 'l']));
  }
  if (s.overheads.length) {
    const head = ['scenario', 'server', 'reference', ...OVERHEAD_METRICS.map(overheadHead)];
    lines.push('', overheadTitle(), '', ...markdownTable(head, s.overheads.map((o) => [o.scenario, o.server, `${o.reference} (${o.role})`, ...OVERHEAD_METRICS.map((m) => overheadCell(o.metrics[m]))]), head.map((_, i) => (i < 3 ? 'l' : 'r'))));
  }
  const runtime = runtimeRows(results);
  if (runtime.length) lines.push('', RUNTIME_TITLE, '', ...markdownTable(RUNTIME_HEAD, runtime, RUNTIME_HEAD.map((_, i) => (i < 2 ? 'l' : 'r'))));
  if (s.seeds.length) lines.push('', SEEDS_TITLE, '', seedsMarkdown(s.seeds).trimEnd());
  const ramps = rampLines(results);
  if (ramps.length) lines.push('', ramps[1], '', ...ramps.slice(2).map((l) => `- ${l.trim()}`));
  const waiting = waitingLines(results);
  if (waiting.length) lines.push('', waiting[1], '', ...waiting.slice(2).map((l) => `- ${l.trim()}`));
  const backends = backendLines(results);
  if (backends.length) lines.push('', backends[1], '', ...backends.slice(2).map((l) => `- ${l.trim()}`));
  if (notes.length) lines.push('', ...notes.map((n) => `- ${n}`));
  return lines.join('\n') + '\n';
}

const round6 = (x) => (x === null || x === undefined ? null : Math.round(x * 1e6) / 1e6);

/**
 * A row per scenario: per server <s>_ok, _mean_ms, _p99_ms, _rps, _cpu_ms_per_request, _errors;
 * then per server <s>_trials (trials used for the centres); per server <s>_p99_note (why _p99_ms
 * is empty: "n too small (…)"; else empty); verdict_engine (the engine that gave the scenario's
 * verdict when not the built-in one, else empty); then for the verdict pair a vs b and each
 * metric <a>_over_<b>_<metric> (ratio a/b), _lo, _hi (95% interval), _verdict.
 */
function toCsv(results) {
  const s = summarize(results);
  const { servers, rows } = s;
  const header = [
    'scenario',
    ...servers.flatMap((sv) => [`${sv}_ok`, ...GROUP_COLUMNS.map((c) => `${sv}_${c.csv}`), `${sv}_errors`]),
    ...servers.map((sv) => `${sv}_trials`),
    ...servers.map((sv) => `${sv}_p99_note`),
    'verdict_engine',
  ];
  const pairKey = (p) => `${p.pair[0]}_over_${p.pair[1]}`;
  for (const p of s.pairs) for (const m of VERDICT_METRICS) header.push(`${pairKey(p)}_${m}`, `${pairKey(p)}_${m}_lo`, `${pairKey(p)}_${m}_hi`, `${pairKey(p)}_${m}_verdict`);
  const body = rows.map((row) => {
    const fields = [row.scenario];
    for (const sv of servers) {
      const c = row.cells[sv];
      if (!c) fields.push('', '', '', '', '', '');
      else fields.push(c.ok, round6(c.mean), c.p99Resolved ? round6(c.p99) : null, c.rps === null ? null : Math.round(c.rps * 10) / 10, round6(c.cpu), c.errors);
    }
    for (const sv of servers) fields.push(row.cells[sv] ? row.cells[sv].used : '');
    for (const sv of servers) {
      const c = row.cells[sv];
      fields.push(c && c.ok && !c.p99Resolved ? tooFewText(c.replies, 0.99) : null);
    }
    fields.push(s.engines[row.scenario] || null);
    for (const p of s.pairs) {
      for (const m of VERDICT_METRICS) {
        const c = pairComparison(p, row.scenario, m);
        fields.push(c ? round6(c.ratio) : null, c && c.ci95 ? round6(c.ci95[0]) : null, c && c.ci95 ? round6(c.ci95[1]) : null, c ? verdictWords(c) : null);
      }
    }
    return fields;
  });
  return csvLines(header, body);
}

/**
 * The false-discovery control over the run's comparisons beyond the headline questions, in one
 * line (judged results' falseDiscoveries, judge/multiplicity.js); [] where none was tested.
 */
function falseDiscoveryLines(results) {
  const f = results.falseDiscoveries;
  if (!f || !f.tested) return [];
  const dropped = f.winners - f.kept;
  return ['', `Beyond the headline questions: ${f.winners} winner${f.winners === 1 ? '' : 's'} at 95 % among ${f.tested} comparisons; ${keptWords(f, fmtNumber)}${dropped ? `; the other ${dropped} are undecided` : ''}.`];
}

/** Aligned text with a header line per server group, for the terminal. */
function toText(results) {
  const s = summarize(results);
  const { servers, rows, notes } = s;
  const names = rows.map((row) => scenarioLabel(s, row.scenario));
  const nameWidth = Math.max(8, ...names.map((n) => n.length));
  const texts = rows.map((row) => servers.map((sv) => cellTexts(row.cells[sv])));
  const colWidths = GROUP_COLUMNS.map((c, i) => Math.max(c.label.length, 7, ...texts.flatMap((t) => t.map((cells) => cells[i].length))));
  const groupWidth = colWidths.reduce((a, b) => a + b, 0) + 2 * (colWidths.length - 1);
  const pad = (x, w) => x.padStart(w);
  const groupLine = ' '.repeat(nameWidth) + servers.map((sv) => '   ' + centre(` ${sv} `, groupWidth, '─')).join('');
  const headLine = 'scenario'.padEnd(nameWidth) + servers.map(() => '   ' + GROUP_COLUMNS.map((c, i) => pad(c.label, colWidths[i])).join('  ')).join('');
  const body = rows.map((row, r) =>
    names[r].padEnd(nameWidth) + servers.map((sv, k) => '   ' + texts[r][k].map((t, i) => pad(t, colWidths[i])).join('  ')).join(''),
  );
  const out = rows.length ? [groupLine, headLine, ...body, '', trialsLine(s)] : [NO_RUNS];
  for (const p of s.pairs) {
    const vrows = verdictRows(s, p);
    if (!vrows.length) continue;
    const [a, b] = p.pair;
    let last = null;
    const tableRows = vrows.map((r) => {
      const name = r.scenario === last ? '' : scenarioLabel(s, r.scenario);
      last = r.scenario;
      return [name, r.label, r.va, r.vb, r.ratio, r.ci, r.verdict];
    });
    out.push('', verdictTitle(s, p.pair), ...alignedTable(['scenario', 'metric', a, b, `${a}/${b}`, '95% CI', 'verdict'], tableRows, ['l', 'l', 'r', 'r', 'r', 'l', 'l']));
  }
  out.push(...falseDiscoveryLines(results), ...runtimeLines(results), ...rampLines(results), ...waitingLines(results), ...backendLines(results), ...overheadLines(results), ...seedLines(results));
  if (notes.length) out.push('', ...notes.map((n) => `* ${n}`));
  return out.join('\n') + '\n';
}

/** The overhead table as aligned text, after a blank line; [] when no reference ran. */
function overheadLines(results) {
  if (!results.overheads.length) return [];
  const tableRows = results.overheads.map((o) => [o.scenario, o.server, o.reference, ...OVERHEAD_METRICS.map((m) => overheadCell(o.metrics[m]))]);
  return ['', overheadTitle(), ...alignedTable(['scenario', 'server', 'reference', ...OVERHEAD_METRICS.map(overheadHead)], tableRows, ['l', 'l', 'l', 'l', 'l', 'l', 'l'])];
}

/** The seeds table as aligned text, after a blank line; [] when no seed's pair ran. */
function seedLines(results) {
  if (!results.seeds.length) return [];
  const notHere = notHereLines(results.seeds);
  return ['', SEEDS_TITLE, ...alignedTable(SEEDS_HEAD, results.seeds.map(seedCells), SEEDS_HEAD.map(() => 'l')), ...(notHere.length ? ['Not run here:', ...notHere.map((l) => `  ${l}`)] : [])];
}

function centre(text, width, fill) {
  if (text.length >= width) return text;
  const left = Math.floor((width - text.length) / 2);
  return fill.repeat(left) + text + fill.repeat(width - text.length - left);
}

module.exports = { toMarkdown, toCsv, toText, overheadLines, seedLines, falseDiscoveryLines };
