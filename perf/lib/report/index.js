'use strict';
// buildReport(resultsDir): reads a results folder (results.json + samples/), draws every chart
// as SVG and PNG into <resultsDir>/charts/ with each chart's data beside it (CSV and the
// Vega-Lite spec), and writes <resultsDir>/report.html, one self-contained page with the
// charts inline. Uses only the saved files, so it can be re-run at any time.

const fs = require('node:fs');
const path = require('node:path');
const { loadResults, runsOf, ResultsError } = require('../store/results_doc');
const { judgeResults } = require('../judge/judged');
const { readSamples, findSamplesFile, ROLE } = require('../measure/samples');
const agg = require('./aggregate');
const specs = require('./chart_specs');
const { HEADLINE_METRICS, representative, comparisons, flags, headline } = require('./headline');
const { METRICS, metricValue } = require('../rule/metrics');
const { METRIC_WORDS } = require('../text/metric_words');
const { renderSvg, svgToPng, fontInfo } = require('./render');
const { renderHtml } = require('./html');
const { rateUnit } = require('../plan/ramps');
const { heldConnections } = require('../store/scenario_doc');
const { isWaitingRun } = require('../judge/held');
const { fmtNumber, objectsToCsv: toCsv } = require('../text/format');
const { MIN_TAIL_SAMPLES } = require('../rule/compare');
const { TOO_FEW } = require('../store/no_verdict');
const { noteWords } = require('../text/verdict_notes');
const { seedRows, seedChartRows, ERAS, STUDY } = require('./seed');
const { orderServers } = require('./style');

const { pauseChart, failedSteps, timelineRuns } = require('./pause_charts');
const { runtimeRows } = require('./runtime_table');
const { loadProfiles, NoProfiles } = require('./profiles');
const { runForests, forestSpecs } = require('./forest');
const { DEFAULT_OBJECTIVE, ABOVE_WAIT_BOUND_MS } = require('../method');

const { writeFileAtomic } = require('../store/results_store');
const { mergeLatencyHistograms } = require('../measure/stats');

const { NO_WINNER } = specs;

/** --timeline named a scenario the results do not have: the message fits one terminal line. */
class UnknownScenario extends Error {}

const REPORT_FILE = 'report.html';
const CHARTS_DIR = 'charts';
const CHART_FILE = /\.(svg|png|csv|vl\.json)$/;
/** Above this many requests in one chart, draw per-interval bands instead of one dot each. */
const MAX_POINTS = 5000;
/** Number of intervals a banded timeline aims for. */
const TARGET_BINS = 150;
const BAR_METRICS = ['mean_ms', 'p99_ms', 'throughput_rps', 'cpu_ms_per_request', 'peak_rss_mb'];
/** The bar charts' percentile metrics: a bar only where the run's replies resolve it (judged: p99_resolved). */
const TAIL = { p99_ms: true };

function slug(s) {
  return String(s).toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'x';
}

function isSlowScenario(scenario, loaded) {
  if (loaded.some((d) => d.info && (d.info.roles.probe > 0 || d.info.roles.slow > 0))) return true;
  return /^slow/.test(scenario);
}

/** Reads the samples of every server in one scenario. Returns [{server, run, samples, info, file, note}]. */
async function loadScenario(results, scenario, log) {
  const out = [];
  for (const server of results.servers) {
    const run = representative(results, scenario, server);
    if (!run) {
      out.push({ server, run: null, note: `${server}: no run` });
      continue;
    }
    const file = findSamplesFile(results.dir, run);
    if (!file) {
      const why = run.ok ? 'no per-request samples saved' : 'no data (run failed)';
      out.push({ server, run, note: `${server}: ${why}` });
      continue;
    }
    const t0 = Date.now();
    let samples;
    try {
      samples = await readSamples(file);
    } catch (e) {
      out.push({ server, run, note: `${server}: samples unreadable (${e.message.split('\n')[0]})` });
      log(`warning: ${path.relative(results.dir, file)}: ${e.message.split('\n')[0]}`);
      continue;
    }
    const info = agg.describe(samples);
    log(`read ${path.relative(results.dir, file)}: ${info.n.toLocaleString('en-US')} requests in ${Date.now() - t0} ms`);
    out.push({ server, run, samples, info, file, note: samples.n === 0 ? `${server}: samples file is empty` : null });
  }
  return out;
}

/**
 * The HdrHistogram of every trial a verdict may use of a server in a scenario (ok, judged, not
 * superseded), merged: { histogram, trials }, or null when a trial has none stored (older
 * results, an engine without per-request times).
 */
function pooledHistogram(results, scenario, server) {
  const runs = runsOf(results, scenario, server).filter((r) => r.usable);
  if (!runs.length || runs.some((r) => !r.latency_histogram)) return null;
  return { histogram: mergeLatencyHistograms(runs.map((r) => r.latency_histogram)), trials: runs.length };
}

/** Builds the chart descriptions (spec + data + caption) for one scenario. */
function scenarioCharts(results, scenario, loaded) {
  const servers = results.servers;
  const slow = isSlowScenario(scenario, loaded);
  const withData = loaded.filter((d) => d.samples && d.samples.n > 0);
  // Which requests a scenario's latency is about: in slow-client scenarios the fast probe's.
  const keepFor = (d) => {
    const s = d.samples;
    if (slow && d.info.roles.probe > 0) return (i) => s.role[i] === ROLE.probe;
    return (i) => s.role[i] !== ROLE.slow;
  };
  const notes = loaded.filter((d) => d.note).map((d) => d.note);
  const charts = [];
  const base = slug(scenario);

  // Timeline (or, for slow-client scenarios, the probe chart).
  if (withData.length) {
    let total = 0;
    let span = 0;
    for (const d of withData) {
      const keep = keepFor(d);
      for (let i = 0; i < d.samples.n; i++) if (keep(i)) total++;
      span = Math.max(span, d.info.spanMs);
    }
    const mode = total > MAX_POINTS ? 'bands' : 'points';
    const binMs = agg.pickBinWidth(span, TARGET_BINS);
    const values = [];
    for (const d of withData) {
      const keep = keepFor(d);
      const rows = mode === 'points' ? agg.requestPoints(d.samples, keep) : agg.intervalBands(d.samples, binMs, keep);
      for (const r of rows) {
        if (mode === 'bands') r.t_s = agg.round((r.t0_s + r.t1_s) / 2, 6);
        values.push({ server: d.server, kind: slow ? 'probe' : 'request', ...r });
      }
    }
    const drawn = withData.map((d) => d.server);
    // Intervals with replies but too few of them for a p99 (intervalBands leaves it null): said
    // in the chart's legend and caption, since the p99 line breaks there.
    const answered = mode === 'bands' ? values.filter((r) => r.p50 !== null) : [];
    const tail = { unresolved: answered.filter((r) => r.p99 === null).length, intervals: answered.length, minTail: MIN_TAIL_SAMPLES };
    const cutCaption = tail.unresolved ? ` The dashed p99 line is drawn only for intervals with at least ${MIN_TAIL_SAMPLES} requests above their p99, and breaks elsewhere (n too small in ${tail.unresolved} of ${tail.intervals} intervals).` : '';
    if (slow) {
      const periodRows = [];
      let anyPeriods = false;
      for (const d of withData) {
        const periods = agg.mergePeriods(agg.recordedPeriods(d.run) || agg.slowPeriodsFromSamples(d.samples));
        for (const p of periods) {
          anyPeriods = true;
          periodRows.push({ server: d.server, kind: 'period', start_s: agg.round(p.start_ms / 1000, 4), end_s: agg.round(p.end_ms / 1000, 4) });
        }
      }
      const extra = anyPeriods ? [] : ['(No slow-client activity was recorded.)'];
      charts.push({
        name: `${base}_probe`,
        kind: 'probe',
        title: `${scenario}: fast probe while slow clients are active`,
        caption: `Response time of the fast probe during the run, one row per server; grey spans are the times when slow clients were connected. A server that keeps serving others while slow clients hog connections shows no rise inside the grey spans.${cutCaption}`,
        spec: specs.probeSpec({ scenario, servers: drawn, mode, binMs, values: [...periodRows, ...values], tail, notes: [...extra, ...notes] }),
        rows: [...periodRows, ...values],
        servers: drawn,
      });
    } else {
      charts.push({
        name: `${base}_timeline`,
        kind: 'timeline',
        title: `${scenario}: response time during the run`,
        caption: `Response time of ${mode === 'points' ? 'every request' : 'the requests in each interval'} by when it was sent, one row per server on the same axes: warm-up, stalls and drift show as changes along the run.${cutCaption}`,
        spec: specs.timelineSpec({ scenario, servers: drawn, mode, binMs, values, tail, notes }),
        rows: values,
        servers: drawn,
      });
    }
  }

  // Percentile curve: every judged trial's replies pooled, from their stored histograms; else
  // the representative run's samples, else its summary percentiles.
  const curveRows = [];
  const curveServers = [];
  const curveNotes = [];
  const counts = {};
  for (const d of loaded) {
    let points = [];
    let n = null;
    const pooled = pooledHistogram(results, scenario, d.server);
    if (pooled) {
      n = pooled.histogram.totalCount;
      points = agg.percentileCurveFromHistogram(pooled.histogram);
      if (pooled.trials > 1) curveNotes.push(`${d.server}: ${pooled.trials} trials pooled (their stored HdrHistograms merged).`);
    } else if (d.samples && d.samples.n > 0) {
      const keep = keepFor(d);
      const sorted = agg.sortedLatencies(d.samples, (i) => d.samples.status[i] !== 0 && keep(i));
      n = sorted.length;
      points = agg.percentileCurve(sorted);
    } else if (d.run && d.run.ok) {
      n = d.run.replies;
      points = agg.percentileCurveFromSummary(d.run.latency_ms, n);
      if (points.length) curveNotes.push(`${d.server}: from the run's summary percentiles (no samples).`);
    }
    if (!points.length) {
      if (n !== null && n < MIN_TAIL_SAMPLES) curveNotes.push(`${d.server}: ${n} requests, too few for a percentile curve (n too small: it needs ${MIN_TAIL_SAMPLES}).`);
      else if (d.note) curveNotes.push(d.note);
      continue;
    }
    counts[d.server] = n;
    curveServers.push(d.server);
    for (const p of points) curveRows.push({ server: d.server, ...p });
  }
  if (curveRows.length) {
    const what = slow && withData.some((d) => d.info.roles.probe > 0) ? "fast probe's response time" : 'response time';
    charts.push({
      name: `${base}_percentiles`,
      kind: 'percentiles',
      title: `${scenario}: ${what} by percentile`,
      caption: `Latency distribution (${what}) read like an HdrHistogram plot: the curve at 99% is the time 99% of requests stayed under; the log axis stretches the tail (99.9%, 99.99%). Each curve stops where fewer than ${MIN_TAIL_SAMPLES} of its n requests lie above it. Lower is better.`,
      spec: specs.percentileSpec({ scenario, servers: curveServers, values: curveRows, counts, minTail: MIN_TAIL_SAMPLES, what, notes: curveNotes }),
      rows: curveRows,
      servers: curveServers,
      counts,
    });
  }
  const missing = servers.filter((s) => !charts.some((c) => c.servers.includes(s)));
  for (const c of charts) c.missing = servers.filter((s) => !c.servers.includes(s));
  // Where no server has a curve, why (too few requests) is said beside the other charts.
  return { charts, slow, missing, noCurve: curveRows.length ? [] : curveNotes };
}

/** Charts across scenarios: head-to-head ratios and one bar chart per metric. */
function overviewCharts(results, comps) {
  const charts = [];
  const pair = results.pair;
  if (pair) {
    const [a, b] = pair;
    const metrics = HEADLINE_METRICS.map((m) => METRIC_WORDS[m].short);
    const rows = comps
      .filter((c) => HEADLINE_METRICS.includes(c.metric) && c.factor !== null)
      .map((c) => {
        const m = METRICS[c.metric];
        const times = m.better === 'lower' ? 1 / c.ratio : c.ratio;
        const ci = Array.isArray(c.ci95) ? (m.better === 'lower' ? [1 / c.ci95[1], 1 / c.ci95[0]] : c.ci95) : [null, null];
        const winner = c.winner || NO_WINNER;
        const label = `${c.words} (${a} ${fmtNumber(c.value_a, m.unit)} vs ${b} ${fmtNumber(c.value_b, m.unit)} ${m.unit})`;
        return { scenario: c.scenario, metric: METRIC_WORDS[c.metric].short, times, times_lo: ci[0], times_hi: ci[1], winner, label, a, b, value_a: c.value_a, value_b: c.value_b, ratio_a_over_b: c.ratio };
      });
    if (rows.length) {
      charts.push({
        name: 'overview_ratio',
        kind: 'ratio',
        title: `${a} vs ${b}: who is faster, and by how much`,
        caption: `For each scenario, how many times better ${a} is than ${b} (right of the centre line) or ${b} than ${a} (left): for p50 and p99 the ratio of response times, for req/s the ratio of throughputs. Log axis, so 2× either way is the same distance.`,
        spec: specs.ratioSpec({ a, b, scenarios: results.scenarios, metrics, values: rows }),
        rows,
        servers: [...new Set(rows.map((r) => r.winner).filter((w) => w !== NO_WINNER))],
        colourServers: pair,
      });
    }
  }
  for (const metric of BAR_METRICS) {
    const m = METRICS[metric];
    const rows = [];
    for (const scenario of results.scenarios) {
      for (const server of results.servers) {
        const run = representative(results, scenario, server);
        if (!run) continue;
        // A p99 of fewer than 10 000 requests is their slowest few: no bar (perf/lib/rule/compare.js).
        const few = run.ok && TAIL[metric] && !run.p99_resolved;
        const value = run.ok && !few ? metricValue(run, metric) : null;
        let label = few ? TOO_FEW : run.ok ? fmtNumber(value, m.unit) : 'failed';
        if (run.ok && run.client_bound) label += ' (client-bound)';
        rows.push({ scenario, server, value, label, flagged: !run.ok || run.client_bound || few });
      }
    }
    if (!rows.some((r) => r.value !== null)) continue;
    const title = METRIC_WORDS[metric].long;
    const better = m.better === 'lower' ? 'Shorter bars are better.' : 'Longer bars are better.';
    charts.push({
      name: `overview_${metric}`,
      kind: 'bars',
      title: `${title} (${m.unit})`,
      caption: `The ${title} per scenario and server. ${better} Faded bars: failed or client-bound runs.`,
      spec: specs.metricBarsSpec({ metric, title, unit: m.unit, better: `${m.better === 'lower' ? 'Shorter' : 'Longer'} is better; faded = failed or client-bound run.`, servers: results.servers, scenarios: results.scenarios, values: rows }),
      rows,
      servers: [...new Set(rows.filter((r) => r.value !== null).map((r) => r.server))],
    });
  }
  return charts;
}

/**
 * A forest plot is cut into parts of at most this many lines: the primary pair's 17 scenarios
 * of a full run (about 85 lines) then read side by side on a laptop's first screen, and one
 * under the other on a phone.
 */
const FOREST_MAX_LINES = 48;

/**
 * The run's answers drawn, one forest plot per pair it answers (forest.js runForests: node vs
 * em first), each cut into parts of at most FOREST_MAX_LINES lines: [{ a, b, rows (the
 * input's), charts }].
 */
function forestCharts(results) {
  return runForests(results).map((input) => {
    const parts = forestSpecs(input, { maxLines: FOREST_MAX_LINES });
    const { a, b } = input;
    return {
      a,
      b,
      margin: input.margin,
      rows: input.rows,
      charts: parts.map(({ spec, rows }, i) => ({
        name: `forest_${slug(a)}_vs_${slug(b)}${parts.length > 1 ? `_${i + 1}` : ''}`,
        kind: 'forest',
        title: `${a} vs ${b}${parts.length > 1 ? ` (${i + 1} of ${parts.length})` : ''}`,
        caption: `Every comparison of ${a} and ${b} with a 95 % interval${parts.length > 1 ? ` (${i + 1} of ${parts.length})` : ''}: left of 1 ${a} is better, right of it ${b}, by the factor on the log axis; coloured where one wins, dark grey where both are the same within the margin, light grey where undecided. Comparisons without an interval (not judged, or one trial) are in the answers below.`,
        spec,
        rows: rows.map((r) => ({ group: r.group, label: r.label, kind: r.kind, run: r.run, favours_b: r.favours_b, ci_lo: r.ci[0], ci_hi: r.ci[1], decision: r.decision, winner: r.winner, note: r.note })),
        servers: [a, b],
      })),
    };
  });
}

/** The seed study's tests then and now (seed.js), with its chart; null when node and em did not both run. */
function seedChart(results) {
  if (!results.servers.includes('node') || !results.servers.includes('em')) return null;
  const rows = seedRows(results);
  if (!rows.some((r) => r.now.node || r.now.em)) return null;
  const values = seedChartRows(rows);
  return {
    rows,
    chart: {
      name: 'seed_002',
      kind: 'seed',
      title: 'The 2011 study\'s four tests, then and now',
      caption: `Mean response time per test and server: the 2011 study's table (${STUDY.tests.source}) and this run, with 95% intervals where there are trials. Log axis: compare the gap between the servers within a row, not the rows.`,
      spec: specs.seedSpec({ servers: ['node', 'em'], tests: [...new Set(values.map((v) => v.test))], eras: ERAS, values }),
      rows: values,
      servers: ['node', 'em'],
    },
  };
}

/**
 * The runs of the scenarios that offered a ramp's work at a fixed rate (open loop, one request
 * per new connection, the same request: the seed's ramp-up tests at 20, 100 and 200 a second),
 * as rows of its chart: the low end of the curve. A percentile is kept only where the run's
 * replies resolve it (the judged runs' p99_resolved and p999_resolved, as everywhere in the report).
 */
function sameWorkRows(results, ramp, servers) {
  if (!ramp.request || ramp.connection === 'keep-alive') return [];
  const same = (p) => p && p.kind === 'open' && p.requests_per_connection === 1 && p.request.method === ramp.request.method && p.request.path === ramp.request.path;
  return results.runs.filter((r) => r.ok && servers.includes(r.server) && !r.superseded_by && same(r.params)).map((r) => ({
    server: r.server, scenario: r.scenario, search: null, rate: r.params.rate, achieved_rps: r.throughput_rps ?? null,
    p50_ms: r.latency_ms.p50, p99_ms: r.p99_resolved ? r.latency_ms.p99 : null, p999_ms: r.p999_resolved ? r.latency_ms.p999 : null,
    errors: r.error_count, server_cpu_pct: r.server_cpu_pct ?? null, client_cpu_pct: r.client_cpu_pct ?? null, failure: null, limited: null,
  }));
}

/**
 * The latency–load chart of each ramp (results.json's ramps): its data one row per step of
 * every search and per run of the scenarios of the same work (sameWorkRows; the CSV beside
 * it), the sustainable rate of each server marked. [] without ramps.
 */
function rampCharts(results) {
  const doc = results.ramps;
  if (!doc) return [];
  return doc.ramps.map((ramp) => {
    const servers = orderServers(Object.keys(ramp.servers));
    const rows = servers.flatMap((server) => ramp.servers[server].searches.flatMap((search, i) => search.steps.map((st) => ({
      server, scenario: null, search: i + 1, rate: st.rate, achieved_rps: st.achieved_rps ?? null, p50_ms: st.p50_ms ?? null, p99_ms: st.p99_ms ?? null, p999_ms: st.p999_ms ?? null,
      errors: st.errors ?? null, server_cpu_pct: st.server_cpu_pct ?? null, client_cpu_pct: st.client_cpu_pct ?? null, failure: st.failure || null, limited: st.limited || null,
    }))));
    rows.push(...sameWorkRows(results, ramp, servers));
    const measured = rows.filter((r) => !r.limited);
    const values = measured.flatMap((r) => [['p50', r.p50_ms], ['p99', r.p99_ms], ['p99.9', r.p999_ms]].filter(([, ms]) => ms > 0).map(([percentile, ms]) => ({ server: r.server, rate: r.rate, percentile, ms, scenario: r.scenario })));
    const cpu = measured.filter((r) => r.server_cpu_pct !== null).map((r) => ({ server: r.server, rate: r.rate, cpu_pct: r.server_cpu_pct }));
    const sustained = servers.map((server) => ({ server, rate: ramp.servers[server].sustainable_rps.centre })).filter((r) => r.rate > 0);
    return {
      name: `ramp_${slug(ramp.name)}`,
      kind: 'ramp',
      title: `${ramp.name}: response time against offered rate`,
      caption: `${ramp.description}. Each server's searches, every step a point, and the runs of the scenarios of the same work hollow, the low end (${doc.objective.percentile} ≤ ${doc.objective.ms} ms the grey rule; each server's sustainable rate, the geometric mean of its complete searches, a vertical rule), and its CPU beneath. Log axes.`,
      spec: specs.rampSpec({ name: ramp.name, servers, values, cpu, sustained, objective: doc.objective, unit: rateUnit(ramp) }),
      rows,
      servers,
    };
  });
}

/**
 * The waiting-requests chart: latency above the wait against connections held, p50
 * and p99, for every server, from the usable waiting runs (aboveWait) and the held-count
 * search's steps (its rows the CSV beside it); null when nothing waited.
 */
function waitingChart(results) {
  const rows = [];
  for (const r of results.runs.filter((x) => x.above_wait_ms && isWaitingRun(x) && x.usable && !x.superseded_by)) {
    rows.push({ server: r.server, source: r.scenario, connection: r.params.kind === 'rate' ? 'keep-alive' : 'new', held: heldConnections(r.params), wait_ms: r.above_wait_ms.wait_ms, p50_ms: r.above_wait_ms.p50, p99_ms: r.above_wait_ms.p99, peak_rss_mb: r.server_peak_rss_mb ?? null, errors: r.error_count });
  }
  const held = results.held;
  for (const [server, s] of Object.entries((held && held.servers) || {})) {
    for (const st of s.steps.filter((x) => !x.limited && !x.stop && Number.isFinite(x.p50_ms))) {
      rows.push({ server, source: 'held-count search', connection: 'keep-alive', held: st.held, wait_ms: held.design.wait_ms, p50_ms: st.p50_ms - held.design.wait_ms, p99_ms: st.above_wait_p99_ms, peak_rss_mb: st.peak_rss_mb ?? null, errors: st.errors ?? null });
    }
  }
  if (!rows.length) return null;
  const servers = results.servers.filter((s) => rows.some((r) => r.server === s));
  const values = rows.flatMap((r) => [['p50', r.p50_ms], ['p99', r.p99_ms]].filter(([, ms]) => Number.isFinite(ms)).map(([percentile, ms]) => ({ server: r.server, source: r.source, connection: r.connection, held: r.held, percentile, ms })));
  const bound = results.waiting ? results.waiting.bound_ms : ABOVE_WAIT_BOUND_MS;
  return {
    name: 'waiting_above_wait',
    kind: 'waiting',
    title: 'Latency above the wait against connections held',
    caption: `p50 − N and p99 − N of every usable waiting run (GET /delay?ms=N, N the wait) and of every step of the held-count search, against the requests held at once; hollow: a new connection per request. The grey rule: the search's bound, p99 − N ≤ ${bound} ms. Log x, symlog y.`,
    spec: specs.waitingSpec({ servers, values, boundMs: bound }),
    rows,
    servers,
  };
}

/** Reads a samples file for a chart, or says in a note why it cannot: { samples } or { note }. */
async function samplesFor(file, what, results, log) {
  if (!file || !fs.existsSync(file)) return { note: `${what}: its samples file is missing.` };
  try {
    const samples = await readSamples(file);
    log(`read ${path.relative(results.dir, file)}: ${samples.n.toLocaleString('en-US')} requests`);
    return samples.n ? { samples } : { note: `${what}: its samples file is empty.` };
  } catch (e) {
    log(`warning: ${path.relative(results.dir, file)}: ${e.message.split('\n')[0]}`);
    return { note: `${what}: samples unreadable (${e.message.split('\n')[0]}).` };
  }
}

/**
 * The charts of the step that decided each search, where it kept its samples (pause_charts.js
 * failedSteps): its requests over time with the server's pauses. One { charts, notes } per ramp.
 */
async function rampStepCharts(results, log) {
  const doc = results.ramps;
  if (!doc) return [];
  const out = doc.ramps.map(() => ({ charts: [], notes: [] }));
  for (const f of failedSteps(doc, orderServers(doc.ramps.flatMap((r) => Object.keys(r.servers))))) {
    const ramp = doc.ramps[f.ramp];
    const st = f.entry;
    const searches = ramp.servers[f.server].searches.length;
    const at = `at ${fmtNumber(st.rate, 'req/s')}/s (search ${f.search}${searches > 1 ? ` of ${searches}` : ''}, step ${f.step})`;
    const { samples, note } = await samplesFor(path.resolve(results.dir, st.samples_file), `${f.server} ${at}`, results, log);
    if (note) {
      out[f.ramp].notes.push(note);
      continue;
    }
    const chart = pauseChart({
      name: `ramp_${slug(ramp.name)}__${slug(f.server)}__s${f.search}_step${f.step}`,
      server: f.server,
      title: `${f.server}, ${ramp.name} ${at}`,
      headline: `Failed: ${st.failure}.${st.client_suspect ? ` Perhaps the harness's: ${st.client_suspect}.` : ''}`,
      samples,
      runtime: st.runtime,
      objective: doc.objective,
      measuredMs: st[`${doc.objective.percentile}_ms`],
      what: 'step',
    });
    out[f.ramp].charts.push(chart);
  }
  return out;
}

/**
 * --timeline's charts of a scenario (pause_charts.js timelineRuns): each server's last run with
 * samples, its requests over time with its pauses, against the ramps' objective (the default
 * one without ramps). { charts, notes }.
 */
async function scenarioPauseCharts(results, scenario, log) {
  const objective = (results.ramps && results.ramps.objective) || DEFAULT_OBJECTIVE;
  const out = { charts: [], notes: [] };
  const picked = timelineRuns(results, scenario, (r) => findSamplesFile(results.dir, r) !== null);
  for (const server of results.servers.filter((s) => !picked.some((p) => p.server === s))) out.notes.push(`${server}: no finished run with samples.`);
  for (const { server, run } of picked) {
    const trial = Number.isInteger(run.trial) ? `, ${results.looks ? 'round' : 'trial'} ${run.trial}` : '';
    const { samples, note } = await samplesFor(findSamplesFile(results.dir, run), `${server}${trial}`, results, log);
    if (note) {
      out.notes.push(note);
      continue;
    }
    out.charts.push(pauseChart({
      name: `${slug(scenario)}_pauses_${slug(server)}`,
      server,
      title: `${server}, ${scenario}${trial}`,
      headline: objective === DEFAULT_OBJECTIVE && !results.ramps ? `The rule: the ramps' default objective, ${objective.percentile} ≤ ${objective.ms} ms (no ramp ran).` : null,
      samples,
      runtime: run.runtime ?? null,
      objective,
      measuredMs: run.latency_ms ? run.latency_ms[objective.percentile] : null,
      what: 'run',
    }));
  }
  return out;
}

/** Renders one chart to SVG/PNG, writes its files, and returns what the page needs. */
async function renderChart(chart, chartsDir, { png }) {
  // The pause charts thin their dots to one a spot first, so they may be drawn as one path.
  const { svg, warnings } = await renderSvg(chart.spec, { id: chart.name, mergePoints: chart.kind === 'pauses' });
  const files = {
    svg: `${CHARTS_DIR}/${chart.name}.svg`,
    png: png ? `${CHARTS_DIR}/${chart.name}.png` : null,
    csv: `${CHARTS_DIR}/${chart.name}.csv`,
    spec: `${CHARTS_DIR}/${chart.name}.vl.json`,
  };
  fs.writeFileSync(path.join(chartsDir, `${chart.name}.svg`), `<?xml version="1.0" encoding="UTF-8"?>\n${svg}\n`);
  if (png) fs.writeFileSync(path.join(chartsDir, `${chart.name}.png`), svgToPng(svg));
  fs.writeFileSync(path.join(chartsDir, `${chart.name}.csv`), toCsv(chart.rows));
  fs.writeFileSync(path.join(chartsDir, `${chart.name}.vl.json`), `${JSON.stringify(chart.spec)}\n`);
  return { name: chart.name, kind: chart.kind, title: chart.title, caption: chart.caption, svg, files, servers: chart.servers, missing: chart.missing || [], colourServers: chart.colourServers || chart.servers, counts: chart.counts || null, warnings };
}

/**
 * Builds <resultsDir>/report.html and <resultsDir>/charts/*.{svg,png,csv,vl.json}.
 * options: results (the folder's results already judged, judge/judged.js: a reader that judged
 * them gives them, so that they are judged once; default: read and judged here); log(message)
 * for progress lines (default: silent); png (default true); timeline (a
 * scenario whose runs to draw with the server's pauses, or null); profiles (a folder written by
 * scripts/profile.sh whose flame graphs to show; default <resultsDir>/profiles when it exists).
 * Resolves to {reportPath, charts: [{name, files, servers, missing}], warnings, ms}.
 * Rejects with a ResultsError (one-line message) when the folder has no usable results.json,
 * with an UnknownScenario (one line) when timeline names no scenario of it, and with a
 * NoProfiles (one line) when profiles names a folder without profile.json.
 */
async function buildReport(resultsDir, { results: judged = null, log = () => {}, png = true, timeline = null, profiles: profilesDir = null } = {}) {
  const t0 = Date.now();
  const decoded = judged || judgeResults(loadResults(resultsDir));
  if (timeline !== null && !decoded.scenarios.includes(timeline)) {
    throw new UnknownScenario(`--timeline: no scenario '${timeline}' in ${decoded.dir} (its scenarios: ${decoded.scenarios.join(', ') || 'none'})`);
  }
  // The flame graphs of scripts/profile.sh (--out <resultsDir>/profiles, or --profiles DIR).
  const profiles = loadProfiles(decoded.dir, { dir: profilesDir });
  if (profiles) log(`profiles: ${profiles.file}, ${profiles.servers.length} server${profiles.servers.length === 1 ? '' : 's'}`);
  // The page lists servers in the report's own order (node, em, then the references).
  const results = { ...decoded, servers: orderServers(decoded.servers) };
  const chartsDir = path.join(results.dir, CHARTS_DIR);
  fs.mkdirSync(chartsDir, { recursive: true });
  for (const f of fs.readdirSync(chartsDir)) if (CHART_FILE.test(f)) fs.rmSync(path.join(chartsDir, f), { force: true });

  const comps = comparisons(results);
  const rendered = [];
  const warnings = [];
  const sections = [];
  if (profiles) for (const w of profiles.warnings) warnings.push(`profiles: ${w}`);
  const render = async (chart) => {
    const r = await renderChart(chart, chartsDir, { png });
    for (const w of r.warnings) warnings.push(`${chart.name}: ${w}`);
    rendered.push(r);
    return r;
  };

  log(`${results.runs.length} runs, ${results.scenarios.length} scenarios, servers: ${results.servers.join(', ')}`);
  const forests = [];
  for (const f of forestCharts(results)) {
    const figures = [];
    for (const chart of f.charts) figures.push(await render(chart));
    forests.push({ a: f.a, b: f.b, margin: f.margin, rows: f.rows, figures });
  }
  const seed = seedChart(results);
  if (seed) seed.figure = await render(seed.chart);
  const ramps = [];
  for (const chart of rampCharts(results)) ramps.push(await render(chart));
  const rampSteps = [];
  for (const { charts, notes } of await rampStepCharts(results, log)) {
    const figures = [];
    for (const chart of charts) figures.push(await render(chart));
    rampSteps.push({ figures, notes });
  }
  const waitingPlot = waitingChart(results);
  const waiting = waitingPlot ? await render(waitingPlot) : null;
  const overview = [];
  for (const chart of overviewCharts(results, comps)) overview.push(await render(chart));
  for (const [i, scenario] of results.scenarios.entries()) {
    log(`scenario ${i + 1}/${results.scenarios.length}: ${scenario}`);
    const loaded = await loadScenario(results, scenario, log);
    const { charts, slow, noCurve } = scenarioCharts(results, scenario, loaded);
    const figures = [];
    for (const chart of charts) figures.push(await render(chart));
    let pauses = null;
    if (scenario === timeline) {
      const drawn = await scenarioPauseCharts(results, scenario, log);
      pauses = { figures: [], notes: drawn.notes };
      for (const chart of drawn.charts) pauses.figures.push(await render(chart));
    }
    sections.push({ scenario, slow, figures, noCurve, notes: loaded.filter((d) => d.note).map((d) => d.note), pauses, runtime: runtimeRows(results, scenario) });
  }

  fs.writeFileSync(path.join(chartsDir, 'comparisons.csv'), toCsv(comps.map((c) => ({
    scenario: c.scenario, metric: c.metric, a: c.a, b: c.b, value_a: c.value_a, value_b: c.value_b, ratio_a_over_b: c.ratio,
    ci95_lo: c.ci95 ? c.ci95[0] : null, ci95_hi: c.ci95 ? c.ci95[1] : null, significant: c.significant ?? null, n_a: c.n_a ?? null, n_b: c.n_b ?? null,
    winner: c.winner, factor: c.factor, excluded: c.excluded ?? null, no_verdict: c.no_verdict ?? null, note: noteWords(c.note),
    decision: c.decision ?? null, margin: c.margin ?? null, more_measuring: c.more_measuring ?? null, answer: c.words ?? null,
  }))));

  const html = renderHtml({
    results,
    comparisons: comps,
    flags: flags(results),
    headline: headline(results, comps),
    forests,
    seed,
    ramps,
    rampSteps,
    waiting,
    overview,
    sections,
    profiles,
    fonts: fontInfo(),
    generatedAt: new Date().toISOString(),
  });
  const reportPath = path.join(results.dir, REPORT_FILE);
  writeFileAtomic(reportPath, html);
  const ms = Date.now() - t0;
  log(`wrote ${reportPath} (${rendered.length} charts, ${(html.length / 1024).toFixed(0)} KiB) in ${(ms / 1000).toFixed(1)} s`);
  return {
    reportPath,
    charts: rendered.map((r) => ({ name: r.name, kind: r.kind, files: r.files, servers: r.servers, missing: r.missing })),
    warnings,
    ms,
  };
}

module.exports = { buildReport, ResultsError, UnknownScenario, NoProfiles };
