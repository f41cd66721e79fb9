'use strict';
// Vega-Lite specs for the report's charts, as functions of data. No drawing happens here:
// render.js compiles these to SVG and PNG. Every chart encodes the server by colour (from
// style.js, stable per server) and, where lines or points of several servers overlap, also by
// dash or shape, so the chart still reads in greyscale.

const { serverScales } = require('./style');

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const FONT = 'Liberation Sans, Arial, Helvetica, sans-serif';
const MS_AXIS_TITLE = 'response time (ms, log scale)';
const SAME_COLOUR = '#777777';
/** The head-to-head chart's category for a comparison that names no winner. */
const NO_WINNER = 'no winner';

const CONFIG = {
  font: FONT,
  background: 'white',
  padding: 8,
  view: { stroke: '#bbbbbb' },
  axis: {
    labelFontSize: 12,
    titleFontSize: 13,
    titleFontWeight: 'normal',
    titleColor: '#222222',
    labelColor: '#333333',
    gridColor: '#e8e8e8',
    tickColor: '#888888',
    domainColor: '#888888',
  },
  legend: { labelFontSize: 13, titleFontSize: 13, titleFontWeight: 'normal', symbolStrokeWidth: 2 },
  title: { fontSize: 15, subtitleFontSize: 12, subtitleColor: '#444444', anchor: 'start', offset: 8, frame: 'bounds' },
  header: { labelFontSize: 13, labelFontWeight: 'bold' },
};

/** Percentile axis ticks as HdrHistogram plots show them: x = 1/(1-p) on a log axis. */
const PERCENTILE_TICKS = [2, 10, 100, 1000, 10000, 100000];
const PERCENTILE_LABEL_EXPR =
  "datum.value == 1 ? '0%' : datum.value == 2 ? '50%' : datum.value == 10 ? '90%' : " +
  "datum.value == 100 ? '99%' : datum.value == 1000 ? '99.9%' : datum.value == 10000 ? '99.99%' : " +
  "datum.value == 100000 ? '99.999%' : ''";

function base(description, title, subtitle) {
  const t = { text: title };
  if (subtitle && subtitle.length) t.subtitle = subtitle;
  return { $schema: SCHEMA, description, title: t, config: CONFIG };
}

const SERVER_LEGEND = { title: 'server', orient: 'top', symbolStrokeWidth: 0, symbolSize: 120, symbolOpacity: 1 };
/** Faceted charts have one row per server: the legend goes to the right, out of the way. */
const ROW_LEGEND = { ...SERVER_LEGEND, orient: 'right', symbolType: 'square' };

function colourEnc(servers, legend = SERVER_LEGEND) {
  const s = serverScales(servers);
  return { field: 'server', type: 'nominal', scale: { domain: s.domain, range: s.colours }, legend };
}
function dashEnc(servers, legend = SERVER_LEGEND) {
  const s = serverScales(servers);
  return { field: 'server', type: 'nominal', scale: { domain: s.domain, range: s.dashes }, legend };
}
function shapeEnc(servers, legend = SERVER_LEGEND) {
  const s = serverScales(servers);
  return { field: 'server', type: 'nominal', scale: { domain: s.domain, range: s.shapes }, legend };
}

function rowFacet(servers) {
  return {
    row: {
      field: 'server',
      type: 'nominal',
      sort: servers,
      header: { title: null, labelAngle: 0, labelAlign: 'left', labelOrient: 'top', labelAnchor: 'start', labelFontSize: 13, labelPadding: 4 },
    },
  };
}

const X_TIME = { field: 't_s', type: 'quantitative', title: 'time since start of run (s)', scale: { zero: true, nice: false }, axis: { tickCount: 8 } };

/** Tick values for a log axis over [lo, hi]: decades, plus 2 and 5 when the range is short. */
function logTicks(lo, hi) {
  if (!(lo > 0) || !(hi > 0)) return undefined;
  const from = Math.floor(Math.log10(lo) + 1e-9);
  const to = Math.ceil(Math.log10(hi) - 1e-9);
  const steps = to - from <= 3 ? [1, 2, 5] : [1];
  const ticks = [];
  for (let e = from; e <= Math.max(to, from + 1); e++) for (const m of steps) ticks.push(Number((m * 10 ** e).toPrecision(3)));
  return ticks.filter((t) => t >= 10 ** from - 1e-12 && t <= 10 ** Math.max(to, from + 1) + 1e-9);
}

/** A response-time axis (log). `extent` = [min, max] of the data, for the tick values. */
const Y_MS = (field = 'ms', extent = null, title = MS_AXIS_TITLE) => {
  const ticks = extent ? logTicks(extent[0], extent[1]) : undefined;
  const y = { field, type: 'quantitative', title, scale: { type: 'log' }, axis: { format: '~r' } };
  if (ticks) {
    y.scale.domain = [ticks[0], ticks[ticks.length - 1]];
    y.axis.values = ticks;
  }
  return y;
};

/** [min, max] over the given fields of the rows (ignoring null), or null. */
function extentOf(rows, fields) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rows) {
    for (const f of fields) {
      const v = r[f];
      if (typeof v === 'number' && v > 0) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
  }
  return lo <= hi ? [lo, hi] : null;
}

/** Layers drawing response time over time, per request (`mode` "points") or per interval ("bands"). */
/** In faceted charts each row has its own y axis: a two-line title fits a short row. */
const ROW_Y_TITLE = ['response time', '(ms, log scale)'];

function timeLayers(servers, mode, { filter = null, errors = true, extent = null } = {}) {
  const only = (expr) => ({ filter: filter ? `(${filter}) && (${expr})` : expr });
  const colour = colourEnc(servers, ROW_LEGEND);
  const shape = shapeEnc(servers, ROW_LEGEND);
  const yAxis = (field) => Y_MS(field, extent, ROW_Y_TITLE);
  if (mode === 'points') {
    const layers = [
      {
        // Small squares: in a chart with a row per server the shape need not tell servers apart,
        // and a square is the smallest SVG path (dense plots stay small).
        transform: [only('datum.ok')],
        mark: { type: 'square', size: 9, opacity: 0.55, aria: false },
        encoding: { x: X_TIME, y: yAxis('ms'), color: colour },
      },
      {
        // Failed requests: black × over the coloured dots, so they stand out in colour and grey.
        transform: [only('!datum.ok')],
        mark: { type: 'point', shape: 'cross', angle: 45, filled: true, size: 60, color: '#000000', opacity: 1, aria: false },
        encoding: { x: X_TIME, y: yAxis('ms') },
      },
    ];
    return errors ? layers : layers.slice(0, 1);
  }
  const xMid = { ...X_TIME, field: 't_s' };
  // An interval's p99 is null where its requests resolve none (aggregate.intervalBands): the p99
  // line and the shading break there rather than join the intervals on either side of it.
  const breakAtNull = { invalid: 'break-paths-filter-domains' };
  return [
    {
      transform: [only('datum.p50 != null')],
      mark: { type: 'area', opacity: 0.25, aria: false, ...breakAtNull },
      encoding: { x: xMid, y: yAxis('p99'), y2: { field: 'p50' }, color: colour },
    },
    {
      transform: [only('datum.p50 != null')],
      mark: { type: 'line', strokeWidth: 2, aria: false },
      encoding: { x: xMid, y: yAxis('p50'), color: colour },
    },
    {
      transform: [only('datum.p50 != null')],
      mark: { type: 'line', strokeWidth: 1, aria: false, ...breakAtNull },
      encoding: { x: xMid, y: yAxis('p99'), color: colour, strokeDash: { value: [3, 2] } },
    },
    {
      transform: [only('datum.max != null')],
      mark: { type: 'point', filled: true, size: 10, opacity: 0.7, aria: false },
      encoding: { x: xMid, y: yAxis('max'), color: colour, shape },
    },
  ];
}

/**
 * The legend of a banded chart. tail: how many of its `intervals` (with replies) are `unresolved`,
 * too few requests for a p99 (fewer than minTail above it, perf/lib/rule/compare.js): none is drawn there.
 */
function bandNote(binMs, { unresolved = 0, intervals = 0, minTail } = {}) {
  const width = binMs >= 1000 ? `${binMs / 1000} s` : `${binMs} ms`;
  const lines = [`Per ${width} interval: thick line = median, dashed line = p99,`, 'shaded = median to p99, dots = slowest request.'];
  if (unresolved) lines.push(`No p99 in ${unresolved} of ${intervals} intervals (n too small: fewer than ${minTail}`, 'requests above it): the dashed line and the shading break there.');
  return lines;
}

/**
 * Response time over the run, one row per server (shared axes).
 * values: points mode [{server, t_s, ms, ok}], bands mode [{server, t_s, p50, p99, max, n, errors}].
 * tail: { unresolved, intervals, minTail } of bandNote.
 */
function timelineSpec({ scenario, servers, mode, binMs, values, tail = {}, notes = [] }) {
  const how = mode === 'points' ? ['One dot per request; × = request that failed.'] : bandNote(binMs, tail);
  return {
    ...base(`Response time of every request over the run of ${scenario}, per server`, scenario, ['Response time during the run.', ...how, ...notes]),
    data: { values },
    facet: rowFacet(servers),
    spec: { width: 480, height: 110, layer: timeLayers(servers, mode, { errors: values.some((v) => v.ok === false), extent: extentOf(values, ['ms', 'p50', 'p99', 'max']) }) },
    resolve: { scale: { x: 'shared', y: 'shared' } },
  };
}

/**
 * Latency distribution, HdrHistogram style. values: [{server, x, percentile, ms, marker, end}];
 * counts: {server: requests behind its curve}. Each curve stops at the highest percentile its
 * requests resolve (aggregate.js); `end` points get a label saying so, and the subtitle gives n.
 */
function percentileSpec({ scenario, servers, values, counts = {}, minTail, what = 'response time', notes = [] }) {
  const maxX = Math.max(10, ...values.map((v) => v.x));
  const ticks = PERCENTILE_TICKS.filter((t) => t <= maxX * 1.0001);
  const x = {
    field: 'x',
    type: 'quantitative',
    title: 'percentile (log scale towards the tail)',
    scale: { type: 'log', domain: [1, maxX], nice: false },
    axis: { values: ticks, labelExpr: PERCENTILE_LABEL_EXPR, grid: true },
  };
  const y = Y_MS('ms', extentOf(values, ['ms']));
  const tooltip = [
    { field: 'server', type: 'nominal' },
    { field: 'percentile', type: 'quantitative', title: 'percentile (%)' },
    { field: 'ms', type: 'quantitative', title: 'ms', format: '.3~f' },
  ];
  const count = (s) => (Number.isFinite(counts[s]) ? counts[s].toLocaleString('en-US') : '?');
  const n = `n = ${servers.map((s) => `${count(s)} (${s})`).join(', ')} requests.`;
  const rule = [`A curve stops where fewer than ${minTail} requests lie above it`, `(n × (1 − p) ≥ ${minTail}); | marks where.`];
  const ends = values.filter((v) => v.end);
  return {
    ...base(`Percentile curve of ${what} in ${scenario}, per server`, scenario, [`${what.charAt(0).toUpperCase()}${what.slice(1)} by percentile (lower is better).`, n, ...(ends.length ? rule : []), ...notes]),
    width: 340,
    height: 250,
    data: { values: values.map((v) => (v.end ? { ...v, end_label: `| ends at ${+v.percentile.toFixed(1)} % (n = ${count(v.server)})` } : v)) },
    layer: [
      {
        mark: { type: 'line', strokeWidth: 2, interpolate: 'monotone' },
        encoding: { x, y, color: colourEnc(servers), strokeDash: dashEnc(servers), tooltip },
      },
      {
        transform: [{ filter: 'datum.marker' }],
        mark: { type: 'point', filled: true, size: 45, opacity: 1, stroke: '#222222', strokeWidth: 0.5 },
        encoding: { x, y, color: colourEnc(servers), shape: shapeEnc(servers), tooltip },
      },
      ...(ends.length
        ? [{
            transform: [{ filter: 'datum.end' }],
            mark: { type: 'text', align: 'left', baseline: 'middle', dx: -2, fontSize: 11, aria: false },
            encoding: { x, y, color: colourEnc(servers), text: { field: 'end_label' } },
          }]
        : []),
    ],
  };
}

/**
 * Slow-client scenarios: the fast probe's response time, slow clients' activity shaded.
 * values: [{server, kind: "period", start_s, end_s}] + probe rows as in timelineSpec.
 */
function probeSpec({ scenario, servers, mode, binMs, values, tail = {}, notes = [] }) {
  const how = mode === 'points' ? ['One dot per probe request; × = probe request that failed.'] : bandNote(binMs, tail);
  const periods = {
    transform: [{ filter: "datum.kind == 'period'" }],
    mark: { type: 'rect', opacity: 0.6, aria: false },
    encoding: {
      x: { field: 'start_s', type: 'quantitative', title: 'time since start of run (s)' },
      x2: { field: 'end_s' },
      fill: { datum: 'slow clients active', type: 'nominal', scale: { range: ['#dcdcdc'] }, legend: { title: null, orient: 'right', symbolType: 'square', symbolOpacity: 1, labelLimit: 220 } },
    },
  };
  return {
    ...base(`Fast probe's response time during ${scenario}, with the slow clients' activity shaded, per server`,
      scenario, ["Fast probe's response time; grey = slow clients active.", ...how, ...notes]),
    data: { values },
    facet: rowFacet(servers),
    spec: { width: 480, height: 110, layer: [periods, ...timeLayers(servers, mode, { filter: "datum.kind == 'probe'", errors: values.some((v) => v.kind === 'probe' && v.ok === false), extent: extentOf(values.filter((v) => v.kind === 'probe'), ['ms', 'p50', 'p99', 'max']) })] },
    resolve: { scale: { x: 'shared', y: 'shared' } },
  };
}

/**
 * One metric across scenarios, grouped bars per server.
 * values: [{scenario, server, value, label, flagged}] (value null = no bar, label still shown).
 */
function metricBarsSpec({ metric, title, unit, better = '', servers, scenarios, values, notes = [] }) {
  const y = { field: 'scenario', type: 'nominal', sort: scenarios, title: null, axis: { labelLimit: 160 } };
  const yOffset = { field: 'server', type: 'nominal', sort: servers };
  const maxValue = Math.max(0, ...values.map((v) => v.value || 0));
  return {
    ...base(`${title} (${unit}) per scenario and server`, `${title.charAt(0).toUpperCase()}${title.slice(1)} (${unit})`, [better, ...notes]),
    width: 340,
    height: { step: 13, for: 'offset' },
    data: { values: values.map((v) => ({ ...v, label_x: v.value === null ? 0 : v.value })) },
    layer: [
      {
        mark: { type: 'bar', stroke: '#333333', strokeWidth: 0.5 },
        encoding: {
          y,
          yOffset,
          x: { field: 'value', type: 'quantitative', title: `${title} (${unit})`, scale: { domain: [0, maxValue * 1.3 || 1] }, axis: { tickCount: 5, format: maxValue >= 10000 ? '~s' : '~r' } },
          color: colourEnc(servers),
          opacity: { condition: { test: 'datum.flagged', value: 0.4 }, value: 1 },
          tooltip: [{ field: 'scenario' }, { field: 'server' }, { field: 'label', title: metric }],
        },
      },
      {
        mark: { type: 'text', align: 'left', baseline: 'middle', dx: 3, fontSize: 10, color: '#222222' },
        encoding: { y, yOffset, x: { field: 'label_x', type: 'quantitative' }, text: { field: 'label' } },
      },
    ],
  };
}

/**
 * Head-to-head: how many times faster `a` is than `b` per scenario and metric (log axis, 1 = same).
 * values: [{scenario, metric, times (>1 = a better), times_lo, times_hi (its 95% interval, or
 * null), winner (server or NO_WINNER), label}].
 */
function ratioSpec({ a, b, scenarios, metrics, values, notes = [] }) {
  const extremes = values.flatMap((v) => [v.times, v.times_lo, v.times_hi]).filter((t) => Number.isFinite(t) && t > 0);
  const maxTimes = Math.max(2, ...extremes.map((t) => Math.max(t, 1 / t))) * 1.25;
  const withCi = values.some((v) => Number.isFinite(v.times_lo) && Number.isFinite(v.times_hi));
  const winners = [a, b];
  const s = serverScales(winners);
  const domain = [...s.domain, NO_WINNER];
  const range = [...s.colours, SAME_COLOUR];
  const steps = [];
  for (let e = 0; 10 ** e <= maxTimes; e++) for (const m of [1, 2, 5]) if (m * 10 ** e <= maxTimes) steps.push(m * 10 ** e);
  const ticks = [...steps.slice(1).reverse().map((t) => 1 / t), ...steps];
  const x = {
    field: 'times',
    type: 'quantitative',
    scale: { type: 'log', domain: [1 / maxTimes, maxTimes], nice: false },
    title: `← ${b} better · how many times · ${a} better →`,
    axis: { values: ticks, labelExpr: "(datum.value >= 1 ? format(datum.value, '~r') : format(1 / datum.value, '~r')) + '×'", grid: true },
  };
  const y = { field: 'scenario', type: 'nominal', sort: scenarios, title: null, axis: { labelLimit: 160 } };
  const yOffset = { field: 'metric', type: 'nominal', sort: metrics };
  const winnerColour = { field: 'winner', type: 'nominal', scale: { domain, range }, legend: { title: 'better', orient: 'top' } };
  return {
    ...base(`How many times faster ${a} is than ${b}, per scenario and metric`, `${a} vs ${b}: who is faster, and by how much`, [`Right of 1×: ${a} better; left: ${b} better. Log axis.${withCi ? ' Black lines: 95% confidence intervals.' : ''}`, ...notes]),
    width: 520,
    height: { step: 14, for: 'offset' },
    data: { values: values.map((v) => ({ ...v, one: 1 })) },
    layer: [
      { mark: { type: 'rule', color: '#444444', strokeWidth: 1 }, encoding: { x: { datum: 1, type: 'quantitative', scale: x.scale } } },
      {
        mark: { type: 'rule', strokeWidth: 2, aria: false },
        encoding: { y, yOffset, x, x2: { field: 'one' }, color: winnerColour },
      },
      ...(withCi
        ? [{
            transform: [{ filter: 'isValid(datum.times_lo) && isValid(datum.times_hi)' }],
            mark: { type: 'rule', color: '#222222', strokeWidth: 1, aria: false },
            encoding: { y, yOffset, x: { ...x, field: 'times_lo' }, x2: { field: 'times_hi' } },
          }]
        : []),
      {
        mark: { type: 'point', filled: true, size: 60, opacity: 1, stroke: '#222222', strokeWidth: 0.5 },
        encoding: {
          y,
          yOffset,
          x,
          color: winnerColour,
          shape: { field: 'metric', type: 'nominal', sort: metrics, scale: { domain: metrics, range: ['circle', 'square', 'triangle-up', 'diamond'] }, legend: { title: 'metric', orient: 'top' } },
          tooltip: [{ field: 'scenario' }, { field: 'metric' }, { field: 'label', title: 'result' }],
        },
      },
    ],
  };
}

/**
 * The seed study's four tests then and now: mean response time per server, one row per test
 * and era, log axis (2011's wireless-LAN milliseconds and this machine's loopback ones differ
 * by a factor of ten; what is compared is the gap between the servers within each row).
 * values: [{test, era, server, ms, lo, hi}] (lo/hi: 95% interval, or null).
 */
function seedSpec({ servers, tests, eras, values }) {
  const ext = extentOf(values, ['ms', 'lo', 'hi']);
  const ticks = ext ? logTicks(ext[0], ext[1]) : undefined;
  const x = { field: 'ms', type: 'quantitative', title: 'mean response time (ms, log scale)', scale: { type: 'log' }, axis: { format: '~r' } };
  if (ticks) {
    x.scale.domain = [ticks[0], ticks[ticks.length - 1]];
    x.axis.values = ticks;
  }
  const y = { field: 'era', type: 'nominal', sort: eras, title: null, axis: { labelLimit: 200 } };
  const withCi = values.some((v) => Number.isFinite(v.lo) && Number.isFinite(v.hi));
  return {
    ...base('Mean response time of the seed study\'s four tests in 2011 and in this run, per server', 'The 2011 study\'s four tests, then and now',
      ['Mean response time per server (lower is better); 2011: the study\'s table, over a wireless LAN.', `This run: loopback, centre of the trials${withCi ? '; black lines: 95% intervals' : ''}.`]),
    data: { values },
    facet: { row: { field: 'test', type: 'nominal', sort: tests, header: { title: null, labelAngle: 0, labelAlign: 'left', labelOrient: 'top', labelAnchor: 'start', labelFontSize: 13, labelPadding: 2 } } },
    spec: {
      width: 420,
      height: { step: 20 },
      layer: [
        ...(withCi
          ? [{
              transform: [{ filter: 'isValid(datum.lo) && isValid(datum.hi)' }],
              mark: { type: 'rule', color: '#222222', strokeWidth: 1.5, aria: false },
              encoding: { y, x: { ...x, field: 'lo' }, x2: { field: 'hi' } },
            }]
          : []),
        {
          mark: { type: 'point', filled: true, size: 80, opacity: 1, stroke: '#222222', strokeWidth: 0.5 },
          encoding: { y, x, color: colourEnc(servers), shape: shapeEnc(servers), tooltip: [{ field: 'test' }, { field: 'era' }, { field: 'server' }, { field: 'ms', title: 'mean ms', format: '.3~r' }] },
        },
      ],
    },
    resolve: { scale: { x: 'shared' } },
  };
}

/**
 * The latency–load chart of a ramp (perf/lib/run/ramp.js): response time against the offered
 * rate, every step of every search a point (the runs of scenarios of the same work, scenario
 * set, hollow: the low end), a line through each rate's median, per server and percentile
 * (p50, p99, p99.9 dashed apart), the objective a horizontal rule and each server's
 * sustainable rate a vertical one; beneath it the server's CPU % against the same rate. Log
 * axes. values: [{ server, rate, percentile, ms, scenario }]; cpu: [{ server, rate, cpu_pct }];
 * sustained: [{ server, rate }]; objective: { percentile, ms }; unit: what the rate counts.
 */
function rampSpec({ name, servers, values, cpu, sustained, objective, unit }) {
  const rates = extentOf([...values, ...cpu], ['rate']);
  const rateTicks = rates ? logTicks(rates[0], rates[1]) : undefined;
  const x = { field: 'rate', type: 'quantitative', title: `offered rate (${unit} a second, log scale)`, scale: { type: 'log' }, axis: { format: '~s' } };
  if (rateTicks) {
    x.scale.domain = [rateTicks[0], rateTicks[rateTicks.length - 1]];
    x.axis.values = rateTicks;
  }
  const percentiles = ['p50', 'p99', 'p99.9'];
  // One legend for the percentile, its symbol and its dash merged (the same field, title and domain).
  const pctLegend = { title: 'percentile', orient: 'top' };
  const dash = { field: 'percentile', type: 'nominal', sort: percentiles, scale: { domain: percentiles, range: [[1, 0], [6, 3], [2, 2]] }, legend: pctLegend };
  const pctShape = { field: 'percentile', type: 'nominal', sort: percentiles, scale: { domain: percentiles }, legend: pctLegend };
  const y = Y_MS('ms', extentOf([...values, { ms: objective.ms }], ['ms']), 'response time (ms, log scale)');
  return {
    ...base(`Response time against offered rate for ${name}, per server`, `${name}: how much load before the tail breaks`,
      [`Every step of every search a point, the runs of the scenarios of the same work (the seed's ramp-up tests) hollow, the line each rate's median; the objective (${objective.percentile} ≤ ${objective.ms} ms) the grey rule, each server's sustainable rate a vertical rule.`, 'Beneath: the server\'s CPU (% of one core) at each rate.']),
    vconcat: [
      {
        width: 560,
        height: 300,
        layer: [
          { data: { values: [{ ms: objective.ms }] }, mark: { type: 'rule', color: '#888888', strokeWidth: 1.5 }, encoding: { y: { field: 'ms', type: 'quantitative' } } },
          { data: { values: sustained }, mark: { type: 'rule', strokeWidth: 1.5, opacity: 0.8 }, encoding: { x: { field: 'rate', type: 'quantitative' }, color: colourEnc(servers) } },
          { data: { values }, transform: [{ filter: 'datum.scenario == null' }], mark: { type: 'point', filled: true, size: 28, opacity: 0.55 }, encoding: { x, y, color: colourEnc(servers), shape: pctShape, tooltip: [{ field: 'server' }, { field: 'percentile' }, { field: 'rate', title: 'offered /s', format: ',.0f' }, { field: 'ms', format: '.3~r' }] } },
          { data: { values }, transform: [{ filter: 'datum.scenario != null' }], mark: { type: 'point', filled: false, size: 70, strokeWidth: 1.5, opacity: 0.9 }, encoding: { x, y, color: colourEnc(servers), shape: pctShape, tooltip: [{ field: 'scenario' }, { field: 'server' }, { field: 'percentile' }, { field: 'rate', title: 'offered /s', format: ',.0f' }, { field: 'ms', format: '.3~r' }] } },
          { data: { values }, mark: { type: 'line', strokeWidth: 1.8 }, encoding: { x, y: { ...y, aggregate: 'median' }, color: colourEnc(servers), strokeDash: dash, detail: { field: 'server' } } },
        ],
        resolve: { scale: { y: 'shared' } },
      },
      {
        width: 560,
        height: 120,
        data: { values: cpu },
        layer: [
          { mark: { type: 'point', filled: true, size: 24, opacity: 0.55 }, encoding: { x, y: { field: 'cpu_pct', type: 'quantitative', title: 'server CPU (%)', scale: { domain: [0, 100], clamp: true } }, color: colourEnc(servers) } },
          { mark: { type: 'line', strokeWidth: 1.5 }, encoding: { x, y: { field: 'cpu_pct', type: 'quantitative', aggregate: 'median' }, color: colourEnc(servers) } },
        ],
      },
    ],
  };
}

/**
 * Latency above the wait against connections held: every waiting run and every step
 * of the held-count search a point (hollow: a connection per request), p50 and p99 told apart by
 * symbol and dash, the line each count's median per server and percentile; the bound a grey
 * rule. The y axis is symlog: a timer a millisecond early is below 0.
 */
function waitingSpec({ servers, values, boundMs }) {
  const held = extentOf(values, ['held']);
  const heldTicks = held ? logTicks(held[0], held[1]) : undefined;
  const x = { field: 'held', type: 'quantitative', title: 'requests waiting at once (connections held, log scale)', scale: { type: 'log' }, axis: { format: '~s' } };
  if (heldTicks) {
    x.scale.domain = [heldTicks[0], heldTicks[heldTicks.length - 1]];
    x.axis.values = heldTicks;
  }
  const percentiles = ['p50', 'p99'];
  const pctLegend = { title: 'percentile', orient: 'top' };
  const dash = { field: 'percentile', type: 'nominal', sort: percentiles, scale: { domain: percentiles, range: [[1, 0], [6, 3]] }, legend: pctLegend };
  const pctShape = { field: 'percentile', type: 'nominal', sort: percentiles, scale: { domain: percentiles }, legend: pctLegend };
  // The domain from 0 (or a timer's early millisecond) to the largest value or the bound, ticks at 1-2-5 steps.
  const ms = values.map((v) => v.ms);
  const lo = Math.min(0, ...ms);
  const hi = Math.max(boundMs, ...ms);
  const steps = [1, 2, 5].flatMap((m) => [1, 10, 100, 1000].map((e) => m * e)).sort((a, b) => a - b);
  const ticks = [...steps.filter((t) => t <= -lo).map((t) => -t).reverse(), 0, ...steps.filter((t) => t <= hi)];
  const y = { field: 'ms', type: 'quantitative', title: 'latency above the wait (ms, symlog scale)', scale: { type: 'symlog', domain: [lo, hi] }, axis: { values: ticks } };
  const tooltip = [{ field: 'server' }, { field: 'source' }, { field: 'percentile' }, { field: 'held', format: ',.0f' }, { field: 'ms', title: 'ms above the wait', format: '.3~r' }];
  return {
    ...base('Latency above the wait against connections held, per server', 'Waiting requests: what the wait costs as more of them are held', [`Every waiting run and every step of the held-count search a point (hollow: a new connection per request), the line each count's median; p99 − N ≤ ${boundMs} ms, the search's bound, the grey rule.`]),
    width: 560,
    height: 300,
    layer: [
      { data: { values: [{ ms: boundMs }] }, mark: { type: 'rule', color: '#888888', strokeWidth: 1.5 }, encoding: { y: { field: 'ms', type: 'quantitative' } } },
      { data: { values }, transform: [{ filter: "datum.connection == 'keep-alive'" }], mark: { type: 'point', filled: true, size: 28, opacity: 0.55 }, encoding: { x, y, color: colourEnc(servers), shape: pctShape, tooltip } },
      { data: { values }, transform: [{ filter: "datum.connection != 'keep-alive'" }], mark: { type: 'point', filled: false, size: 60, strokeWidth: 1.5, opacity: 0.9 }, encoding: { x, y, color: colourEnc(servers), shape: pctShape, tooltip } },
      { data: { values }, mark: { type: 'line', strokeWidth: 1.8 }, encoding: { x, y: { ...y, aggregate: 'median' }, color: colourEnc(servers), strokeDash: dash, detail: { field: 'server' } } },
    ],
  };
}

/** The pause chart's plot size (px): pause_charts.js widens short pauses and thins dots to it. */
const PAUSE_CHART_WIDTH = 500;
const PAUSE_CHART_HEIGHT = 260;
/**
 * The kinds of pause the pause chart shades, in legend order, with their fills: purples for the
 * GC (dark the major collections, light the rest) and sand for the loop's other stalls, hues no
 * server has (style.js: grey and black are servers' too).
 */
const PAUSE_BANDS = [
  { band: 'major GC', fill: '#762A83' },
  { band: 'minor or other GC', fill: '#C2A5CF' },
  { band: 'loop stall', fill: '#DDCC77' },
];

/**
 * One run's (or ramp step's) response time against when each request was sent, with the
 * server's pauses in the same window shaded behind the dots (perf/lib/report/pause_charts.js):
 * a request slowed by a GC or a stall sits over its band. values: [{ t_s, ms, ok }]; pauses:
 * [{ band (PAUSE_BANDS), x0_s, x1_s (drawn, widened to be seen), from_ms, to_ms }]; rules:
 * [{ kind: 'objective' (solid) or 'measured' (the run's own percentile, dashed), ms, label, above
 * (the label over its line, else under it) }]; titleLines: the title as drawn, wrapped.
 */
function pauseTimelineSpec({ server, title, titleLines = [title], subtitle = [], values, pauses, rules, xTitle, spanS }) {
  const extent = extentOf([...values, ...rules], ['ms']);
  const y = Y_MS('ms', extent);
  const x = { field: 't_s', type: 'quantitative', title: xTitle, scale: { domain: [0, spanS], nice: false }, axis: { tickCount: 8 } };
  const fill = {
    field: 'band',
    type: 'nominal',
    scale: { domain: PAUSE_BANDS.map((b) => b.band), range: PAUSE_BANDS.map((b) => b.fill) },
    legend: { title: 'pauses', orient: 'top', symbolType: 'square', symbolOpacity: 1 },
  };
  return {
    ...base(`Response time of the requests of ${title}, with the server's GC pauses and loop stalls shaded`, titleLines, subtitle),
    width: PAUSE_CHART_WIDTH,
    height: PAUSE_CHART_HEIGHT,
    layer: [
      {
        // Stalls first, the GC over them: a GC pause stalls the loop too.
        data: { values: [...pauses].sort((a, b) => (a.band === 'loop stall' ? -1 : 0) - (b.band === 'loop stall' ? -1 : 0)) },
        mark: { type: 'rect', opacity: 0.6, aria: false },
        encoding: { x: { field: 'x0_s', type: 'quantitative', scale: x.scale }, x2: { field: 'x1_s' }, fill },
      },
      {
        data: { values },
        transform: [{ filter: 'datum.ok' }],
        // Thinned to one a spot and drawn as one path (render.js mergeSymbolPaths), dots no
        // longer darken where they crowd: nearly opaque, so the server's colour reads true.
        mark: { type: 'square', size: 9, opacity: 0.8, aria: false },
        encoding: { x, y, color: colourEnc([server], { ...SERVER_LEGEND, title: 'requests' }) },
      },
      {
        data: { values },
        transform: [{ filter: '!datum.ok' }],
        mark: { type: 'point', shape: 'cross', angle: 45, filled: true, size: 50, color: '#000000', opacity: 1, aria: false },
        encoding: { x, y },
      },
      ...[['objective', []], ['measured', [5, 3]]].map(([kind, dash]) => ({
        data: { values: rules },
        transform: [{ filter: `datum.kind == '${kind}'` }],
        mark: { type: 'rule', color: '#444444', strokeWidth: 1.5, strokeDash: dash },
        encoding: { y: { field: 'ms', type: 'quantitative' } },
      })),
      ...[[true, 'bottom', -2], [false, 'top', 2]].map(([above, baseline, dy]) => ({
        data: { values: rules },
        transform: [{ filter: `${above ? '' : '!'}datum.above` }],
        mark: { type: 'text', align: 'right', baseline, dy, fontSize: 11, color: '#222222' },
        encoding: { y: { field: 'ms', type: 'quantitative' }, x: { value: PAUSE_CHART_WIDTH - 4 }, text: { field: 'label' } },
      })),
    ],
    resolve: { scale: { y: 'shared' } },
  };
}

/**
 * A forest plot (perf/lib/report/forest.js lays it out): a line per comparison, its factor a
 * point and its 95 % interval a bar on a log axis centred on 1, the margin's band around 1
 * shaded within each group, the groups on alternate pale stripes. Every text and legend item
 * sits where forest.js put it, in pixels, and the chart is not sized from its text
 * (autosize none, no label-overlap pass), so the SVG is the same whatever fonts a machine
 * has. width, height: the plot's; padding: the room around it; domain, ticks: of the factor
 * axis (its labels read "2×" on both sides of 1); lines: [{ mid (the line's middle, counted in
 * lines from the top), x, lo, hi (null on a group's heading line), colour, shape, size, width (the bar's), hollow, clip_lo,
 * clip_hi (an end past the axis: a triangle marks it) }]; stripes: [{ y0, y1 }] (pixels
 * across, lines down); bands: [{ y0, y1, lo, hi }]; texts: [{ px, py, text, size, colour,
 * align, bold }]; symbols: [{ px, py, shape, colour, size, hollow }].
 */
function forestPlotSpec({ description, width, height, padding, domain, ticks, lines, stripes, bands, texts, symbols }) {
  const y = { type: 'quantitative', scale: { domain: [0, lines.length], range: [0, height], nice: false, zero: false }, axis: null };
  const x = {
    type: 'quantitative',
    scale: { type: 'log', domain, nice: false, clamp: true },
    axis: {
      orient: 'top', values: ticks, title: null, grid: true, labelOverlap: false, labelBound: false, labelFlush: false,
      labelExpr: "datum.value == 1 ? '1' : (datum.value > 1 ? format(datum.value, '~r') : format(1 / datum.value, '~r')) + '×'",
    },
  };
  const px = (field) => ({ field, type: 'quantitative', scale: null });
  const raw = (field, type = 'nominal') => ({ field, type, scale: null });
  const rows = { data: { values: lines }, transform: [{ filter: 'isValid(datum.lo)' }] };
  const point = (hollow) => ({
    ...rows,
    transform: [...rows.transform, { filter: `${hollow ? '' : '!'}datum.hollow` }],
    mark: { type: 'point', filled: !hollow, opacity: 1, strokeWidth: 1.5, ...(hollow ? { fill: '#ffffff' } : {}) },
    encoding: { x: { ...x, field: 'x' }, y: { ...y, field: 'mid' }, color: raw('colour'), shape: raw('shape'), size: raw('size', 'quantitative') },
  });
  const clipMark = (end, shape) => ({
    ...rows,
    transform: [...rows.transform, { filter: `datum.clip_${end}` }, { calculate: String(end === 'lo' ? domain[0] : domain[1]), as: 'edge' }],
    mark: { type: 'point', shape, filled: true, size: 40, opacity: 1, aria: false },
    // Just outside the edge, where the clamped bar and point end: "it goes on this way".
    encoding: { x: { ...x, field: 'edge' }, xOffset: { value: end === 'lo' ? -8 : 8 }, y: { ...y, field: 'mid' }, color: raw('colour') },
  });
  const textLayer = (align, bold) => ({
    data: { values: texts },
    transform: [{ filter: `datum.align == '${align}' && ${bold ? '' : '!'}datum.bold` }],
    mark: { type: 'text', align, baseline: 'middle', aria: false, ...(bold ? { fontWeight: 'bold' } : {}) },
    encoding: { x: px('px'), y: px('py'), text: { field: 'text', type: 'nominal' }, size: raw('size', 'quantitative'), color: raw('colour') },
  });
  const symbolLayer = (hollow) => ({
    data: { values: symbols },
    transform: [{ filter: `${hollow ? '' : '!'}datum.hollow` }],
    mark: { type: 'point', filled: !hollow, opacity: 1, strokeWidth: 1.5, aria: false, ...(hollow ? { fill: '#ffffff' } : {}) },
    encoding: { x: px('px'), y: px('py'), color: raw('colour'), shape: raw('shape'), size: raw('size', 'quantitative') },
  });
  return {
    $schema: SCHEMA,
    description,
    config: { ...CONFIG, view: { stroke: null } },
    autosize: { type: 'none' },
    padding,
    width,
    height,
    layer: [
      {
        data: { values: stripes },
        mark: { type: 'rect', color: '#f2f2f2', aria: false },
        encoding: { x: px('x0'), x2: { field: 'x1' }, y: { ...y, field: 'y0' }, y2: { field: 'y1' } },
      },
      {
        data: { values: bands },
        mark: { type: 'rect', color: '#d9d9d9', opacity: 0.7, aria: false },
        encoding: { x: { ...x, field: 'lo' }, x2: { field: 'hi' }, y: { ...y, field: 'y0' }, y2: { field: 'y1' } },
      },
      {
        data: { values: bands },
        transform: [{ calculate: '1', as: 'one' }],
        mark: { type: 'rule', color: '#555555', strokeWidth: 1, aria: false },
        encoding: { x: { ...x, field: 'one' }, y: { ...y, field: 'y0' }, y2: { field: 'y1' } },
      },
      {
        ...rows,
        mark: { type: 'rule', aria: false },
        encoding: { x: { ...x, field: 'lo' }, x2: { field: 'hi' }, y: { ...y, field: 'mid' }, color: raw('colour'), strokeWidth: raw('width', 'quantitative') },
      },
      point(false),
      point(true),
      clipMark('lo', 'triangle-left'),
      clipMark('hi', 'triangle-right'),
      ...['left', 'right'].flatMap((align) => [textLayer(align, false), textLayer(align, true)]),
      symbolLayer(false),
      symbolLayer(true),
    ],
  };
}

module.exports = { NO_WINNER, PAUSE_BANDS, PAUSE_CHART_WIDTH, PAUSE_CHART_HEIGHT, timelineSpec, percentileSpec, probeSpec, metricBarsSpec, ratioSpec, seedSpec, rampSpec, waitingSpec, pauseTimelineSpec, forestPlotSpec };
