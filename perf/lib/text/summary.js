'use strict';
// The summary: one row per scenario, one column group per server (mean and p99 reply time,
// req/s, server CPU ms per request), like seed 002's table; each cell is the centre of the
// server's trials (geometric mean; the run itself with one trial). Below it the verdicts: the
// first pair of servers (node vs em when both ran) compared per scenario and metric, with 95%
// confidence intervals over the trials and the words "no significant difference" where the
// interval includes 1; then, when reference servers ran, each server's overhead against them.
// The same content is written as Markdown (summary.md), CSV (summary.csv) and aligned text.
// Every warning about a run (runWarnings: failed, errors, client-bound or close to it, behind
// schedule) is listed under the tables here and in the report's "Read with care" block.
// A scenario whose verdict comes from another engine than the built-in load generator
// (verdictEngines) says so beside its name; the runs of the engine it was chosen over are listed
// as superseded, for information, not as warnings against that verdict.

const { analyzeRuns, findComparison, overheads, OVERHEAD_METRICS, CLIENT_BOUND_ADVICE, percentileResolved, tooFewText, withLimits, fewestReplies, isSuperseded, TOO_FEW, MIN_TAIL_SAMPLES } = require('../judge/verdicts');
const { METRICS, verdictWords, fmtFactor, fmtInterval } = require('../judge/metrics');
const { NEAR_CLIENT_BOUND_PCT } = require('../judge/bottleneck');
const { seedsRun, seedCells, seedsMarkdown, notHereLines, SEEDS_TITLE, SEEDS_HEAD } = require('../judge/seeds');

const GROUP_COLUMNS = [
  { key: 'mean', metric: 'mean_ms', label: 'mean ms', csv: 'mean_ms' },
  { key: 'p99', metric: 'p99_ms', label: 'p99 ms', csv: 'p99_ms' },
  { key: 'rps', metric: 'throughput_rps', label: 'req/s', csv: 'rps' },
  { key: 'cpu', metric: 'cpu_ms_per_request', label: 'CPU ms/req', csv: 'cpu_ms_per_request' },
];
/** The metrics in the verdict table, in this order. */
const VERDICT_METRICS = ['mean_ms', 'p50_ms', 'p99_ms', 'throughput_rps', 'cpu_ms_per_request', 'peak_rss_mb'];

// The summary of a run stopped before any of its runs finished.
const NO_RUNS = 'No run finished.';

// Open-loop runs whose connections opened later than this behind schedule get a warning.
const LAG_NOTE_MS = 20;

const sumErrors = (r) => (r.errors ? Object.values(r.errors).reduce((a, b) => a + (Number(b) || 0), 0) : 0);

/**
 * The engine whose runs gave each scenario's verdict, where the reader must be told:
 * { short_conn_256: 'wrk' }. Where two engines ran a scenario the runs of one are superseded by
 * the other's (superseded_by, as results.json's verdict_engines records; older results say so
 * only in not_judged_because, and their verdict's runs carry the engine in their params); a
 * scenario run by another engine than the built-in one (--engine httperf|wrk) has it in its
 * runs' params.
 */
function verdictEngines(runs) {
  const out = {};
  for (const r of runs) {
    const engine = r.superseded_by || (r.ok && !isSuperseded(r) && r.params && r.params.engine);
    if (engine) out[r.scenario] = engine;
  }
  return out;
}

/**
 * Everything a reader must be warned about, one entry per server, scenario and problem, its
 * trials folded together: [{ scenario, server, trials, kind, severity, text }], kind one of
 * failed, missing, errors, client_bound, near_client_bound, not_judged (the runner's other
 * reasons), schedule_lag; severity bad | warn; and, for information (severity info),
 * superseded: a run another engine replaced, whose own problems (it was client-bound, …) are
 * why, not warnings against the verdict. trials: the trials it happened in (trialsLabel);
 * text reads after "<server> <scenario> (trials …): ", its figures as ranges over those trials
 * (foldTexts). missing: a server that ran other scenarios has no run of this one and was not
 * skipped on purpose (the run was interrupted).
 */
function runWarnings(runs, { skipped = [] } = {}) {
  const folded = new Map();
  for (const w of perRunWarnings(runs, { skipped })) {
    const key = `${w.scenario}\u0000${w.server}\u0000${w.kind}`;
    if (!folded.has(key)) folded.set(key, { scenario: w.scenario, server: w.server, trials: [], kind: w.kind, severity: w.severity, texts: [], details: [] });
    const f = folded.get(key);
    if (w.trial !== null) f.trials.push(w.trial);
    f.texts.push(w.text);
    f.details.push(...(w.details || []));
  }
  // The details (a superseded run's own problems) once each, in brackets after the text.
  return [...folded.values()].map(({ texts, details, ...w }) => ({ ...w, text: `${foldTexts(texts)}${details.length ? ` (${foldTexts(details)})` : ''}` }));
}

// A figure in a warning's text: what differs from trial to trial.
const FIGURE = /\d+(?:\.\d+)?/g;
const HOLE = '\u0000';

/**
 * Warnings of several trials as one text: texts alike but for their figures become one, each
 * figure its range ("the load generator used 84–88 % of its core"); texts that differ otherwise
 * are kept apart, joined by "; ".
 */
function foldTexts(texts) {
  const bySkeleton = new Map();
  for (const t of texts) {
    const skeleton = t.replace(FIGURE, HOLE);
    if (!bySkeleton.has(skeleton)) bySkeleton.set(skeleton, []);
    bySkeleton.get(skeleton).push(t.match(FIGURE) || []);
  }
  return [...bySkeleton].map(([skeleton, figures]) => {
    let i = 0;
    return skeleton.replace(new RegExp(HOLE, 'g'), () => {
      const column = figures.map((f) => f[i]);
      i++;
      const sorted = [...column].sort((x, y) => Number(x) - Number(y));
      return Number(sorted[0]) === Number(sorted[sorted.length - 1]) ? column[0] : `${sorted[0]}–${sorted[sorted.length - 1]}`;
    });
  }).join('; ');
}

/** " (trial 2)", " (trials 1–3)", " (trials 1, 3)"; "" for none, or when the run had one trial. */
function trialsLabel(trials, maxTrials) {
  if (!trials.length || maxTrials <= 1) return '';
  if (trials.length === 1) return ` (trial ${trials[0]})`;
  const consecutive = trials.every((t, i) => i === 0 || t === trials[i - 1] + 1);
  return ` (trials ${consecutive ? `${trials[0]}–${trials[trials.length - 1]}` : trials.join(', ')})`;
}

/** runWarnings before folding: one entry per run and problem, with its trial. */
function perRunWarnings(runs, { skipped = [] } = {}) {
  const servers = [...new Set(runs.map((r) => r.server))];
  const scenarios = [...new Set(runs.map((r) => r.scenario))];
  const out = [];
  for (const scenario of scenarios) {
    for (const server of servers) {
      const rs = runs.filter((r) => r.server === server && r.scenario === scenario);
      const isSkipped = skipped.some((k) => k.server === server && (k.scenario === scenario || k.scenario === null));
      if (!rs.length && !isSkipped) out.push({ scenario, server, trial: null, kind: 'missing', severity: 'bad', text: 'no run (interrupted?)' });
      for (const r of rs) {
        const w = (kind, severity, text, details = []) => out.push({ scenario, server, trial: Number.isInteger(r.trial) ? r.trial : null, kind, severity, text, details });
        if (!r.ok) {
          w('failed', 'bad', `FAILED: ${r.failure}`);
          continue;
        }
        if (isSuperseded(r)) {
          const reasons = Array.isArray(r.not_judged_because) ? r.not_judged_because : [];
          const superseded = reasons.find((why) => why.startsWith('superseded')) || `superseded by ${r.superseded_by}'s runs`;
          const others = reasons.filter((why) => why !== superseded);
          w('superseded', 'info', `${superseded}; kept for information`, others);
          continue;
        }
        const errs = sumErrors(r);
        if (errs > 0) {
          const kinds = Object.entries(r.errors).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
          w('errors', 'warn', `${errs} of ${r.requests} requests failed (${kinds})`);
        }
        const cpu = Number.isFinite(r.client_cpu_pct) ? Math.round(r.client_cpu_pct) : null;
        if (r.client_bound) w('client_bound', 'warn', `client-bound${cpu === null ? '' : ` (load generator at ${cpu} % of its core)`}, not used for a verdict: ${CLIENT_BOUND_ADVICE}`);
        // client_bound null: the engine's CPU says nothing of its load (httperf busy-polls a core).
        else if (r.client_bound === false && cpu !== null && cpu >= NEAR_CLIENT_BOUND_PCT) w('near_client_bound', 'warn', `the load generator used ${cpu} % of its core, close to client-bound: the server may be faster than measured`);
        // The runner's other reasons to leave a run out (not server-bound, disturbed: perf/lib/judge/bottleneck.js).
        for (const why of Array.isArray(r.not_judged_because) ? r.not_judged_because : []) {
          if (!/^(client-bound|failed):/.test(why)) w('not_judged', 'warn', `not used for a verdict: ${why}`);
        }
        if (r.schedule_lag_ms && r.schedule_lag_ms.max > LAG_NOTE_MS) {
          w('schedule_lag', 'warn', `connections opened up to ${Math.round(r.schedule_lag_ms.max)} ms behind schedule; that delay counts in the latency`);
        }
      }
    }
  }
  return out;
}

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

function fmtMb(x) {
  if (x === null || x === undefined) return '–';
  return x.toFixed(1);
}

const FORMAT = { mean_ms: fmtMs, p50_ms: fmtMs, p99_ms: fmtMs, throughput_rps: fmtRps, cpu_ms_per_request: fmtCpu, peak_rss_mb: fmtMb };

/**
 * The pair the verdict table compares: node vs em when both ran, else the first two servers
 * that are no reference (references have their own table); none when only one is.
 */
function primaryPair(servers, definitions = {}) {
  if (servers.includes('node') && servers.includes('em')) return ['node', 'em'];
  const own = servers.filter((s) => !(definitions[s] && definitions[s].reference_for));
  if (own.length === 1) return null; // one server and its references: the overhead table says it all
  const list = own.length >= 2 ? own : servers;
  return list.length >= 2 ? [list[0], list[1]] : null;
}

/**
 * { servers, scenarios, rows: [{ scenario, cells: { server: { ok, mean, p99, rps, cpu, errors,
 * trials, used, basis, replies, p99Resolved } } }], notes, comparisons, aggregates, overheads,
 * pair, trials, engines (verdictEngines) }.
 * context: { aggregates, comparisons } (computed from runs when absent), definitions (the
 * servers.json entries, for reference pairings), skipped ([{ server, scenario, reason }]).
 */
function summarize(runs, context = {}) {
  const servers = [...new Set(runs.map((r) => r.server))];
  const scenarios = [...new Set(runs.map((r) => r.scenario))];
  const analysis = context.comparisons && context.aggregates ? { ...context, comparisons: withLimits(context.comparisons, runs) } : analyzeRuns(runs, { servers, scenarios });
  const engines = verdictEngines(runs);
  const maxTrials = Math.max(1, ...runs.map((r) => (Number.isInteger(r.trial) ? r.trial : 1)));
  const warnings = runWarnings(runs, { skipped: context.skipped || [] });
  const notes = warnings.map((w) => `${w.server} ${w.scenario}${trialsLabel(w.trials, maxTrials)}: ${w.text}`);
  const rows = scenarios.map((scenario) => {
    const cells = {};
    for (const server of servers) {
      const rs = runs.filter((x) => x.server === server && x.scenario === scenario);
      if (!rs.length) continue;
      const agg = analysis.aggregates.find((a) => a.server === server && a.scenario === scenario);
      const centre = (m) => (agg && agg.metrics[m] ? agg.metrics[m].centre : null);
      const errors = rs.reduce((n, r) => n + sumErrors(r), 0);
      cells[server] = {
        ok: rs.some((r) => r.ok),
        mean: centre('mean_ms'),
        p99: centre('p99_ms'),
        rps: centre('throughput_rps'),
        cpu: centre('cpu_ms_per_request'),
        errors,
        trials: rs.length,
        used: agg ? agg.used_trials.length : 0,
        basis: agg ? agg.basis : null,
        // The replies behind each trial's p99 (older results.json aggregates lack them: every ok
        // run's), and whether enough of them lie above it for it to be one (perf/lib/judge/verdicts.js).
        replies: agg && agg.fewest_replies !== undefined ? agg.fewest_replies : fewestReplies(rs.filter((r) => r.ok)),
      };
      cells[server].p99Resolved = percentileResolved(cells[server].replies, 0.99);
      if (cells[server].basis === 'client-bound') notes.push(`${server} ${scenario}: every finished trial was client-bound: its numbers describe the load generator; ${CLIENT_BOUND_ADVICE}`);
    }
    return { scenario, cells };
  });
  if (runs.some((r) => r.slow_clients)) notes.push('slow_* and big_upload rows show the fast probe\'s latency and rate, measured while the slow clients were active around it.');
  const bySkipper = new Map();
  // A scenario --seeds did not ask of a server (unplanned) is no news.
  for (const k of (context.skipped || []).filter((x) => !x.unplanned)) {
    if (k.scenario === null) notes.push(`${k.server}: not run: ${k.reason}`);
    else bySkipper.set(k.server, [...(bySkipper.get(k.server) || []), k]);
  }
  for (const [server, list] of bySkipper) {
    notes.push(`${server} does not serve ${list.map((k) => k.scenario).join(', ')} (${[...new Set(list.map((k) => k.reason.split(';')[0]))].join('; ')}): not run`);
  }
  const pair = primaryPair(servers, context.definitions || {});
  const over = context.definitions ? overheads(analysis.comparisons, context.definitions, servers, scenarios) : [];
  const smallP99 = rows.flatMap((row) => Object.entries(row.cells).filter(([, c]) => c.ok && !c.p99Resolved).map(([server]) => `${server} ${row.scenario}`));
  if (smallP99.length) notes.push(`p99 needs ${(MIN_TAIL_SAMPLES / 0.01).toLocaleString('en-US')} requests (${MIN_TAIL_SAMPLES} above it); with fewer it is the slowest few, not a p99 (n too small, not judged): ${smallP99.join(', ')}.`);
  return { servers, scenarios, rows, notes, warnings, comparisons: analysis.comparisons, aggregates: analysis.aggregates, overheads: over, pair, trials: maxTrials, engines };
}

/** A scenario's name in the tables: "short_conn_256 (verdict from wrk)" where another engine gave its verdict. */
function scenarioLabel(s, scenario) {
  return s.engines[scenario] ? `${scenario} (verdict from ${s.engines[scenario]})` : scenario;
}

/** The cells of a server in the summary table; a p99 too few requests lie above is "n too small". */
function cellTexts(cell) {
  if (!cell) return GROUP_COLUMNS.map(() => '');
  if (!cell.ok) return ['FAILED', '', '', ''];
  return [fmtMs(cell.mean), cell.p99Resolved ? fmtMs(cell.p99) : TOO_FEW, fmtRps(cell.rps), fmtCpu(cell.cpu)];
}

function trialsLine(s) {
  if (s.trials <= 1) return 'One trial per server and scenario: ratios without confidence intervals (1 trial: no interval; use --repeat 3).';
  return `Each cell is the centre (geometric mean) of up to ${s.trials} trials; failed and client-bound trials left out.`;
}

/** Rows of the verdict table: [{ scenario, metric, a value, b value, ratio, ci, verdict }]. */
function verdictRows(s) {
  if (!s.pair) return [];
  const [a, b] = s.pair;
  const rows = [];
  for (const scenario of s.scenarios) {
    for (const metric of VERDICT_METRICS) {
      const c = findComparison(s.comparisons, scenario, metric, a, b);
      if (!c) continue;
      const f = FORMAT[metric];
      const value = (v) => (c.no_verdict === TOO_FEW ? TOO_FEW : v === null ? '–' : f(v));
      rows.push({
        scenario,
        metric,
        label: METRICS[metric].label,
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

function verdictTitle(s) {
  const [a, b] = s.pair;
  return `Verdicts, ${a} vs ${b}: ratio = ${a} ÷ ${b}${s.trials > 1 ? ', 95% confidence interval (Student t on log values; Welch for ratios)' : ''}; the factor says who is better: lower times, CPU and memory, higher req/s.`;
}

function overheadCell(m) {
  if (!m) return '–';
  if (m.excluded) return `not compared (${m.excluded})`;
  if (m.no_verdict) return m.no_verdict;
  if (m.overhead === null) return '–';
  const ci = m.ci95 ? ` ${fmtInterval(m.ci95)}` : ' (no interval)';
  return `${fmtFactor(m.overhead)}${ci}${m.significant === false ? ' n.s.' : ''}`;
}

/** Overhead columns are factors, whatever the metric's own unit. */
const overheadHead = (m) => `${METRICS[m].label.split(' ')[0]} ×`;

function overheadTitle() {
  return 'Overhead against references: how many times the reference\'s cost (time, 1/throughput, CPU per request); 1.00× = no overhead; n.s. = not significantly different from 1.';
}

function toMarkdown(runs, context = {}) {
  const s = summarize(runs, context);
  const { servers, rows, notes } = s;
  const header = ['scenario', ...servers.flatMap((sv) => GROUP_COLUMNS.map((c) => `${sv} ${c.label}`))];
  const lines = rows.length
    ? [
        `| ${header.join(' | ')} |`,
        `|${header.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
        ...rows.map((row) => `| ${[scenarioLabel(s, row.scenario), ...servers.flatMap((sv) => cellTexts(row.cells[sv]))].join(' | ')} |`),
        '',
        trialsLine(s),
      ]
    : [NO_RUNS];
  const vrows = verdictRows(s);
  if (vrows.length) {
    const [a, b] = s.pair;
    lines.push('', verdictTitle(s), '', `| scenario | metric | ${a} | ${b} | ${a}/${b} | 95% CI | verdict |`, '| --- | --- | ---: | ---: | ---: | --- | --- |');
    for (const r of vrows) lines.push(`| ${scenarioLabel(s, r.scenario)} | ${r.label} | ${r.va} | ${r.vb} | ${r.ratio} | ${r.ci} | ${r.verdict} |`);
  }
  if (s.overheads.length) {
    lines.push('', overheadTitle(), '', `| scenario | server | reference | ${OVERHEAD_METRICS.map(overheadHead).join(' | ')} |`, `| --- | --- | --- |${OVERHEAD_METRICS.map(() => ' ---: |').join('')}`);
    for (const o of s.overheads) lines.push(`| ${o.scenario} | ${o.server} | ${o.reference} (${o.role}) | ${OVERHEAD_METRICS.map((m) => overheadCell(o.metrics[m])).join(' | ')} |`);
  }
  const seeds = seedsRun({ runs, comparisons: s.comparisons });
  if (seeds.length) lines.push('', SEEDS_TITLE, '', seedsMarkdown(seeds).trimEnd());
  if (notes.length) lines.push('', ...notes.map((n) => `- ${n}`));
  return lines.join('\n') + '\n';
}


function csvField(x) {
  if (x === null || x === undefined) return '';
  const s = String(x);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const round6 = (x) => (x === null || x === undefined ? null : Math.round(x * 1e6) / 1e6);

/**
 * A row per scenario: per server <s>_ok, _mean_ms, _p99_ms, _rps, _cpu_ms_per_request, _errors;
 * then per server <s>_trials (trials used for the centres); per server <s>_p99_note (why _p99_ms
 * is empty: "n too small (…)", perf/lib/judge/verdicts.js; else empty); verdict_engine (the engine that
 * gave the scenario's verdict when not the built-in one, else empty); then for the verdict pair
 * a vs b and each metric <a>_over_<b>_<metric> (ratio a/b), _lo, _hi (95% interval), _verdict.
 */
function toCsv(runs, context = {}) {
  const s = summarize(runs, context);
  const { servers, rows } = s;
  const header = [
    'scenario',
    ...servers.flatMap((sv) => [`${sv}_ok`, ...GROUP_COLUMNS.map((c) => `${sv}_${c.csv}`), `${sv}_errors`]),
    ...servers.map((sv) => `${sv}_trials`),
    ...servers.map((sv) => `${sv}_p99_note`),
    'verdict_engine',
  ];
  const pairKey = s.pair ? `${s.pair[0]}_over_${s.pair[1]}` : null;
  if (pairKey) for (const m of VERDICT_METRICS) header.push(`${pairKey}_${m}`, `${pairKey}_${m}_lo`, `${pairKey}_${m}_hi`, `${pairKey}_${m}_verdict`);
  const lines = [header.join(',')];
  for (const row of rows) {
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
    if (pairKey) {
      for (const m of VERDICT_METRICS) {
        const c = findComparison(s.comparisons, row.scenario, m, s.pair[0], s.pair[1]);
        fields.push(c ? round6(c.ratio) : null, c && c.ci95 ? round6(c.ci95[0]) : null, c && c.ci95 ? round6(c.ci95[1]) : null, c ? verdictWords(c) : null);
      }
    }
    lines.push(fields.map(csvField).join(','));
  }
  return lines.join('\n') + '\n';
}

/** Columns padded to their widest cell; align: 'l' or 'r' per column. */
function alignedTable(head, body, align) {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (align[i] === 'l' ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ').trimEnd();
  return [line(head), ...body.map(line)];
}

/** Aligned text with a header line per server group, for the terminal. */
function toText(runs, context = {}) {
  const s = summarize(runs, context);
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
  const vrows = verdictRows(s);
  if (vrows.length) {
    const [a, b] = s.pair;
    let last = null;
    const tableRows = vrows.map((r) => {
      const name = r.scenario === last ? '' : scenarioLabel(s, r.scenario);
      last = r.scenario;
      return [name, r.label, r.va, r.vb, r.ratio, r.ci, r.verdict];
    });
    out.push('', verdictTitle(s), ...alignedTable(['scenario', 'metric', a, b, `${a}/${b}`, '95% CI', 'verdict'], tableRows, ['l', 'l', 'r', 'r', 'r', 'l', 'l']));
  }
  if (s.overheads.length) {
    const tableRows = s.overheads.map((o) => [o.scenario, o.server, o.reference, ...OVERHEAD_METRICS.map((m) => overheadCell(o.metrics[m]))]);
    out.push('', overheadTitle(), ...alignedTable(['scenario', 'server', 'reference', ...OVERHEAD_METRICS.map(overheadHead)], tableRows, ['l', 'l', 'l', 'l', 'l', 'l', 'l']));
  }
  const seeds = seedsRun({ runs, comparisons: s.comparisons });
  if (seeds.length) {
    out.push('', SEEDS_TITLE, ...alignedTable(SEEDS_HEAD, seeds.map(seedCells), SEEDS_HEAD.map(() => 'l')));
    const notHere = notHereLines(seeds);
    if (notHere.length) out.push('Not run here:', ...notHere.map((l) => `  ${l}`));
  }
  if (notes.length) out.push('', ...notes.map((n) => `* ${n}`));
  return out.join('\n') + '\n';
}

function centre(text, width, fill) {
  if (text.length >= width) return text;
  const left = Math.floor((width - text.length) / 2);
  return fill.repeat(left) + text + fill.repeat(width - text.length - left);
}

module.exports = { summarize, runWarnings, trialsLabel, verdictEngines, toMarkdown, toCsv, toText, primaryPair, VERDICT_METRICS };
