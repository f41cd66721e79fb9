'use strict';
// Forest plots: the answers at a glance. A line per comparison of two servers, a and b: the
// factor by which one is better as a point on a log axis centred on 1 (a better to the left,
// b to the right), its 95 % interval a bar, the margin within which both count as the same a
// band around 1, and the point in the winner's colour, or grey where nothing was decided.
// The input is plain data, so that one run's answers (runForests, for the report) and answers
// pooled over many runs (with each run's line beside its pooled one) draw alike:
//
//   { title, a, b, margin, rows: [{ group, label, kind: 'pooled' | 'run', run (a run's name, or
//     null), favours_b (> 1: b better by that factor; < 1: a better by 1/x), ci: [lo, hi] (the
//     same way round), decision: 'winner' | 'same' | 'undecided' | 'depends' (runs disagree by
//     machine), winner (a, b or null), note (null, or a few words after the answer) }] }
//
// forestSpec(input) makes the Vega-Lite spec (chart_specs.js forestPlotSpec draws it),
// forestSvg(input) and writeForestSvg(file, input) a standalone SVG that is the same, byte for
// byte, for the same input on any machine: every text is placed here, with widths estimated
// without the fonts.

const fs = require('node:fs');
const { forestPlotSpec } = require('./chart_specs');
const { renderSvg } = require('./render');
const { serverStyle, orderServers, DECISION_COLOURS } = require('./style');
const { measureWithoutFont, wrapText } = require('./text_metrics');
const { METRICS } = require('../rule/metrics');
const { METRIC_WORDS } = require('../text/metric_words');
const { DEFAULT_MARGIN } = require('../method');
const { marginText, fmtFactor, fmtInterval } = require('../text/format');
const { runtimePairs } = require('../judge/verdicts');
const { tunedPair, comparedPairs } = require('../judge/tuning');

const KINDS = ['pooled', 'run'];
const DECISIONS = ['winner', 'same', 'undecided', 'depends'];
/** A ramp's comparison, as a line: its question. */
const RAMP_LABEL = 'sustainable rate';

/** The plot's width and a line's height (px): a plot with its labels fits a 390 px phone at about 0.8. */
const PLOT_WIDTH = 210;
const LINE_PX = 17;
/** The room either side of the plot, between it and the labels: an interval past the axis's reach ends there in a triangle. */
const EDGE_PX = 16;
/**
 * The axis's reach either way, and its ticks, by the factor the data needs: the smallest that
 * holds every interval, 20× at most (an interval reaching further ends in a triangle at the edge,
 * its numbers beside it): a 47× gap must not squeeze the 1.1× ones into a hair.
 */
const REACH = [
  [1.25, [1.1, 1.25]],
  [1.5, [1.2, 1.5]],
  [2, [1.5, 2]],
  [3, [1.5, 2, 3]],
  [5, [2, 3, 5]],
  [10, [2, 5, 10]],
  [20, [2, 5, 10, 20]],
];

const TEXT = '#222222';
const MUTED = '#555555';
const SIZES = { title: 15, text: 12, small: 11 };

/** Throws a TypeError naming what is wrong with a forest's input; returns it when it is usable. */
function checkForestInput(input) {
  const fail = (what) => { throw new TypeError(`forest plot: ${what}`); };
  if (!input || typeof input !== 'object') fail('no input');
  const { a, b, margin, rows } = input;
  if (typeof a !== 'string' || typeof b !== 'string' || !a || !b || a === b) fail(`a and b must be two server names (a: ${a}, b: ${b})`);
  if (!(Number.isFinite(margin) && margin > 0)) fail(`margin must be a positive number (0.1 for ±10 %), not ${margin}`);
  if (!Array.isArray(rows)) fail('rows must be an array');
  rows.forEach((r, i) => {
    const at = `row ${i} (${r && r.group} · ${r && r.label})`;
    if (!r || typeof r.group !== 'string' || typeof r.label !== 'string') fail(`row ${i}: group and label must be strings`);
    if (!KINDS.includes(r.kind)) fail(`${at}: kind must be one of ${KINDS.join(', ')}, not ${r.kind}`);
    if (r.kind === 'run' && r.run !== null && typeof r.run !== 'string') fail(`${at}: run must be a string or null`);
    if (!(Number.isFinite(r.favours_b) && r.favours_b > 0)) fail(`${at}: favours_b must be a positive number, not ${r.favours_b}`);
    if (!Array.isArray(r.ci) || r.ci.length !== 2 || !r.ci.every((x) => Number.isFinite(x) && x > 0) || r.ci[0] > r.ci[1]) fail(`${at}: ci must be [lo, hi] with 0 < lo <= hi`);
    if (!DECISIONS.includes(r.decision)) fail(`${at}: decision must be one of ${DECISIONS.join(', ')}, not ${r.decision}`);
    if (r.decision === 'winner') {
      // The orientation is the caller's to apply: a winner on the wrong side of 1 is a mistake in it.
      if (r.winner !== a && r.winner !== b) fail(`${at}: a winner must be ${a} or ${b}, not ${r.winner}`);
      if ((r.winner === b) !== (r.favours_b > 1)) fail(`${at}: ${r.winner} wins but favours_b is ${r.favours_b} (> 1 means ${b} is better)`);
    } else if (r.winner !== null && r.winner !== undefined) fail(`${at}: a ${r.decision} row names no winner`);
    if (r.note !== null && r.note !== undefined && typeof r.note !== 'string') fail(`${at}: note must be a string or null`);
  });
  return input;
}

/** How a line's point looks: the winner's colour, else a grey, and a shape per decision. */
function look(decision, winner) {
  if (decision === 'winner') return { colour: serverStyle(winner).colour, shape: 'circle', hollow: false };
  if (decision === 'same') return { colour: DECISION_COLOURS.same, shape: 'diamond', hollow: false };
  if (decision === 'depends') return { colour: DECISION_COLOURS.depends, shape: 'square', hollow: true };
  return { colour: DECISION_COLOURS.undecided, shape: 'circle', hollow: true };
}

/** The answer beside a line: "em 1.79× [1.66–1.93]", "same within ±10 %", "undecided". */
function answerText(row, { b, margin }) {
  let text;
  if (row.decision === 'winner') {
    const forB = row.winner === b;
    text = `${row.winner} ${fmtFactor(forB ? row.favours_b : 1 / row.favours_b)} ${fmtInterval(forB ? row.ci : [1 / row.ci[1], 1 / row.ci[0]])}`;
  } else if (row.decision === 'same') text = `same within ${marginText(margin)}`;
  else if (row.decision === 'depends') text = 'depends on the machine';
  else text = 'undecided';
  return row.note ? `${text} · ${row.note}` : text;
}

/**
 * The rows as drawn, top to bottom: groups in the order they first appear, each a heading and
 * its questions in the order they first appear, a question's pooled line first and its runs'
 * lines under it. A run's line beside a pooled one is secondary: smaller, labelled by its run.
 */
function arrange(rows) {
  const groups = [];
  for (const row of rows) {
    let g = groups.find((x) => x.name === row.group);
    if (!g) groups.push((g = { name: row.group, questions: [] }));
    let q = g.questions.find((x) => x.label === row.label);
    if (!q) g.questions.push((q = { label: row.label, rows: [] }));
    q.rows.push(row);
  }
  return groups.map((g) => ({
    name: g.name,
    rows: g.questions.flatMap((q) => {
      const pooled = q.rows.some((r) => r.kind === 'pooled');
      return [...q.rows.filter((r) => r.kind === 'pooled'), ...q.rows.filter((r) => r.kind !== 'pooled')]
        .map((r) => ({ row: r, secondary: pooled && r.kind === 'run' }));
    }),
  }));
}

/** A line's label: its question, or, beside a pooled line, its run; and its size. */
const labelOf = ({ row, secondary }) => (secondary ? row.run || 'a run' : row.label);
const labelSize = ({ secondary }) => (secondary ? SIZES.small : SIZES.text);

/**
 * The room (px) left of the plot, for the labels, and in all, for the arranged groups: the
 * parts of one forest share them, so that side by side they line up.
 */
function columns(groups, { b, margin }) {
  const lines = groups.flatMap((g) => g.rows);
  const labelsPx = Math.max(30, ...lines.map((l) => measureWithoutFont(labelOf(l), labelSize(l)))) + EDGE_PX + 4;
  const answersPx = Math.max(0, ...lines.map((l) => measureWithoutFont(answerText(l.row, { b, margin }), SIZES.small))) + EDGE_PX + 6;
  const headingsPx = Math.max(0, ...groups.map((g) => measureWithoutFont(g.name, SIZES.text, true)));
  return { labelsPx, totalPx: Math.max(labelsPx + PLOT_WIDTH + answersPx, headingsPx + 8, 360) };
}

/** The axis's reach and ticks for the rows (REACH): [domain, ticks]. */
function axisFor(rows, margin) {
  const need = Math.max(1 + margin, ...rows.flatMap((r) => [r.favours_b, 1 / r.favours_b, r.ci[1], 1 / r.ci[0]])) * 1.05;
  const [reach, ticks] = REACH.find(([d]) => d >= need) || REACH[REACH.length - 1];
  return [[1 / reach, reach], [...[...ticks].reverse().map((t) => 1 / t), 1, ...ticks]];
}

/** Lines of text no wider than px, measured without the fonts (the layout must not depend on them). */
function wrapped(text, px, size, bold = false) {
  return wrapText(text, px, size, bold, measureWithoutFont);
}

/** The groups in `parts` runs of about as many lines each, cut between groups. */
function splitGroups(groups, parts) {
  const size = (g) => 1 + g.rows.length;
  const total = groups.reduce((n, g) => n + size(g), 0);
  const out = [[]];
  let done = 0;
  for (const g of groups) {
    // A new part once this one holds its share, or would overshoot it by more than half a group.
    const share = (total * out.length) / parts;
    if (out[out.length - 1].length && out.length < parts && done + size(g) / 2 > share) out.push([]);
    out[out.length - 1].push(g);
    done += size(g);
  }
  return out;
}

/**
 * The Vega-Lite specs of a forest plot cut into parts of at most maxLines lines (a group's
 * heading and its rows), between groups, on one axis, so that the parts read side by side on a
 * wide screen and one under the other on a phone: [{ spec, rows (the part's input rows) }].
 */
function forestSpecs(input, { maxLines = Infinity } = {}) {
  checkForestInput(input);
  const groups = arrange(input.rows);
  const lines = groups.reduce((n, g) => n + 1 + g.rows.length, 0);
  const axis = axisFor(input.rows, input.margin);
  const depends = input.rows.some((r) => r.decision === 'depends');
  const room = columns(groups, input);
  return splitGroups(groups, Math.max(1, Math.ceil(lines / maxLines))).map((part) => ({
    spec: layout(input, part, { axis, depends, room }),
    rows: part.flatMap((g) => g.rows.map((x) => x.row)),
  }));
}

/**
 * The Vega-Lite spec of a forest plot (the input as described at the top of this file; checked
 * first: a TypeError says what is wrong).
 */
function forestSpec(input) {
  return forestSpecs(input)[0].spec;
}

/**
 * The spec of the arranged groups of an input, on the given axis ([domain, ticks]); depends:
 * whether the legend has the 'depends' entry; room: columns(). Every text is placed here, in
 * pixels around the plot.
 */
function layout({ title, a, b, margin }, groups, { axis: [domain, ticks], depends, room: { labelsPx, totalPx } }) {
  const rows = groups.flatMap((g) => g.rows.map((x) => x.row));
  // Down the plot: a heading line per group, then its rows; y counts lines.
  const lines = [];
  const texts = [];
  const stripes = [];
  const bands = [];
  const answers = [];
  groups.forEach((g, gi) => {
    const first = lines.length;
    lines.push({ mid: first + 0.5, x: null, lo: null, hi: null });
    texts.push({ kind: 'heading', line: first, text: g.name, size: SIZES.text, bold: true, colour: TEXT });
    for (const line of g.rows) {
      const { row, secondary } = line;
      const i = lines.length;
      const l = look(row.decision, row.winner);
      lines.push({
        mid: i + 0.5, x: row.favours_b, lo: row.ci[0], hi: row.ci[1], ...l,
        size: secondary ? 30 : 80, width: secondary ? 1.5 : 2.5, clip_lo: row.ci[0] < domain[0], clip_hi: row.ci[1] > domain[1],
      });
      texts.push({ kind: 'label', line: i, text: labelOf(line), size: labelSize(line), bold: false, colour: secondary ? MUTED : TEXT });
      answers.push({ line: i, text: answerText(row, { b, margin }), size: SIZES.small });
    }
    bands.push({ y0: first + 1, y1: lines.length, lo: 1 / (1 + margin), hi: 1 + margin });
    if (gi % 2 === 1) stripes.push({ y0: first, y1: lines.length });
  });

  const left = -labelsPx;

  // Above the plot, top down: title, what the marks mean, the legend, the directions, the axis.
  const top = [];
  let y = 0;
  for (const line of wrapped(title || `${a} vs ${b}`, totalPx, SIZES.title, true)) {
    top.push({ text: line, px: left, y: y + 10, size: SIZES.title, bold: true, colour: TEXT, align: 'left' });
    y += 20;
  }
  const explain = `Each line one comparison: the point says how many times better, the bar its 95\u00a0% interval (log scale); the grey band around 1: the same within ${marginText(margin).replace(' ', '\u00a0')}.`;
  for (const line of wrapped(explain, totalPx, SIZES.text)) {
    top.push({ text: line, px: left, y: y + 8, size: SIZES.text, bold: false, colour: MUTED, align: 'left' });
    y += 16;
  }
  y += 6;
  const legend = [
    { text: `${a} better`, ...look('winner', a) },
    { text: `${b} better`, ...look('winner', b) },
    { text: `same within ${marginText(margin)}`, ...look('same') },
    { text: 'undecided', ...look('undecided') },
    ...(depends ? [{ text: 'depends on the machine', ...look('depends') }] : []),
  ];
  const symbols = [];
  let x = left;
  for (const item of legend) {
    const itemPx = 14 + measureWithoutFont(item.text, SIZES.text) + 16;
    if (x > left && x + itemPx > left + totalPx) {
      x = left;
      y += 20;
    }
    symbols.push({ px: x + 5, y: y + 10, shape: item.shape, colour: item.colour, hollow: item.hollow, size: 70 });
    top.push({ text: item.text, px: x + 14, y: y + 10, size: SIZES.text, bold: false, colour: TEXT, align: 'left' });
    x += itemPx;
  }
  y += 26;
  // Each direction over its half of the axis; long names on a line each, so that they never meet.
  const toA = `← ${a} better`;
  const toB = `${b} better →`;
  top.push({ text: toA, px: 0, y: y + 8, size: SIZES.text, bold: true, colour: TEXT, align: 'left' });
  if (measureWithoutFont(toA, SIZES.text, true) + measureWithoutFont(toB, SIZES.text, true) + 12 > PLOT_WIDTH) y += 18;
  top.push({ text: toB, px: PLOT_WIDTH, y: y + 8, size: SIZES.text, bold: true, colour: TEXT, align: 'right' });
  y += 18 + 24; // the directions, then the axis's ticks and labels
  const margins = { top: y + 4, left: labelsPx + 6, right: totalPx - labelsPx - PLOT_WIDTH + 6, bottom: 8 };

  const height = lines.length * LINE_PX;
  const atLine = (line) => (line + 0.5) * LINE_PX;
  return forestPlotSpec({
    description: `${title || `${a} vs ${b}`}: a forest plot of ${rows.length} comparison${rows.length === 1 ? '' : 's'}, each the factor by which one server is better with its 95 % interval on a log axis, ${a} better left of 1, ${b} better right of it, the same within ${marginText(margin)} in the grey band.`,
    width: PLOT_WIDTH,
    height,
    padding: margins,
    domain,
    ticks,
    lines,
    stripes: stripes.map((s) => ({ ...s, x0: left - 4, x1: totalPx + left + 2 })),
    bands,
    texts: [
      ...top.map((t) => ({ ...t, py: t.y - margins.top })),
      ...texts.map((t) => (t.kind === 'heading'
        ? { ...t, px: left, py: atLine(t.line), align: 'left' }
        : { ...t, px: -EDGE_PX, py: atLine(t.line), align: 'right' })),
      ...answers.map((t) => ({ ...t, px: PLOT_WIDTH + EDGE_PX, py: atLine(t.line), bold: false, colour: TEXT, align: 'left' })),
    ].map(({ text, px, py, size, bold, colour, align }) => ({ text, px, py, size, bold, colour, align })),
    symbols: symbols.map(({ y: sy, ...s }) => ({ ...s, py: sy - margins.top })),
  });
}

/** A stored comparison the way round of the pair (a, b), or null when it compares other servers. */
function orientedAs(c, a, b) {
  if (c.a === a && c.b === b) return c;
  if (c.a !== b || c.b !== a) return null;
  const flip = Array.isArray(c.ci95) ? [1 / c.ci95[1], 1 / c.ci95[0]] : c.ci95;
  return { ...c, a, b, ratio: Number.isFinite(c.ratio) ? 1 / c.ratio : c.ratio, ci95: flip };
}

/**
 * One run's comparisons of a and b as rows (results.json comparisons[], as decoded): favours_b
 * is the ratio (value_a / value_b) where lower is better, its inverse where higher is; a
 * comparison with no interval (not judged, a single trial) is left out: the answers list it.
 */
function comparisonRows(comparisons, { a, b, run = null }) {
  const rows = [];
  for (const stored of comparisons) {
    const c = orientedAs(stored, a, b);
    if (!c || !Array.isArray(c.ci95) || !DECISIONS.includes(c.decision)) continue;
    const lower = (c.better || METRICS[c.metric].better) === 'lower';
    rows.push({
      group: c.scenario,
      label: METRIC_WORDS[c.metric] ? METRIC_WORDS[c.metric].short : c.metric,
      kind: 'run',
      run,
      favours_b: lower ? c.ratio : 1 / c.ratio,
      ci: lower ? [c.ci95[0], c.ci95[1]] : [1 / c.ci95[1], 1 / c.ci95[0]],
      decision: c.decision,
      winner: c.decision === 'winner' ? c.winner : null,
      note: null,
    });
  }
  return rows;
}

/**
 * One run's ramp comparisons of a and b as rows (results.json ramps.ramps[].comparisons[]: ratio
 * a's sustainable rate ÷ b's, higher is better), grouped by the ramp's name.
 */
function rampRows(ramps, { a, b, run = null }) {
  const rows = [];
  for (const ramp of (ramps && ramps.ramps) || []) {
    for (const stored of ramp.comparisons || []) {
      const c = orientedAs(stored, a, b);
      if (!c || !Array.isArray(c.ci95) || !DECISIONS.includes(c.decision)) continue;
      rows.push({
        group: ramp.name, label: RAMP_LABEL, kind: 'run', run, favours_b: 1 / c.ratio, ci: [1 / c.ci95[1], 1 / c.ci95[0]],
        decision: c.decision, winner: c.decision === 'winner' ? c.winner : null, note: null,
      });
    }
  }
  return rows;
}

/** A run's name in a forest beside others: the day it started and its CPU ("2026-11-27 AMD EPYC 7B13"). */
function runLabel(results) {
  const env = results.environment || {};
  return [env.started_at ? String(env.started_at).slice(0, 10) : null, env.cpu_model || null].filter(Boolean).join(' ') || null;
}

/**
 * One run's forests, one per pair it answers (perf/lib/judge/tuning.js): each pair of runtimes
 * (node vs em first), then, where tuned configurations ran (in the scenarios or only in the
 * ramps), each such pair both tuned and each runtime against its tuned self. A pair with no comparison that has an interval has none.
 */
function runForests(results) {
  const rampServers = ((results.ramps && results.ramps.ramps) || []).flatMap((r) => Object.keys(r.servers));
  const servers = orderServers([...results.servers, ...rampServers]);
  const definitions = results.definitions || {};
  const pairs = tunedPair(servers, definitions) ? comparedPairs(servers, definitions) : runtimePairs(servers, definitions);
  const stored = results.comparisons.find((c) => Number.isFinite(c.margin));
  const margin = stored ? stored.margin : DEFAULT_MARGIN;
  const run = runLabel(results);
  return pairs
    .map(([a, b]) => ({ title: `${a} vs ${b}: who is better, by how much`, a, b, margin, rows: [...comparisonRows(results.comparisons, { a, b, run }), ...rampRows(results.ramps, { a, b, run })] }))
    .filter((f) => f.rows.length);
}

/**
 * The forest plot of `input` as a standalone SVG file's text. The same input gives the same
 * bytes on any machine: no ids drawn from a counter, no text measured with the installed fonts.
 */
async function forestSvg(input) {
  const { svg } = await renderSvg(forestSpec(input), { id: 'forest' });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${svg}\n`;
}

/** Writes forestSvg(input) to `file`; resolves to the text written. */
async function writeForestSvg(file, input) {
  const text = await forestSvg(input);
  fs.writeFileSync(file, text);
  return text;
}

module.exports = { forestSpec, forestSpecs, checkForestInput, comparisonRows, rampRows, runForests, forestSvg, writeForestSvg };
