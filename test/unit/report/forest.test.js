'use strict';
// The forest plots (perf/lib/report/forest.js): stored comparisons and ramp comparisons turned
// into rows the right way round, each row's point drawn on its winner's side of 1 in its
// colour (grey where nothing is decided), comparisons without an interval left out, a long
// forest cut between groups on one axis, the pairs a run answers, and a standalone SVG that
// comes out byte for byte the same whatever the fonts.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const forest = require('../../../perf/lib/report/forest');
const { renderSvg } = require('../../../perf/lib/report/render');
const { serverStyle, DECISION_COLOURS } = require('../../../perf/lib/report/style');
const { timelineSpec } = require('../../../perf/lib/report/chart_specs');
const { makeTmpDir } = require('../../support/runner_helpers');

/** A stored comparison of node (a) and em (b), as results.json keeps it; over: what it found. */
const stored = (scenario, metric, better, ratio, ci95, decision, winner, over = {}) => ({
  scenario, metric, a: 'node', b: 'em', better, value_a: ratio, value_b: 1, ratio, ci95, decision, winner, margin: 0.1, excluded: null, no_verdict: null, note: null, ...over,
});

const COMPARISONS = [
  // em answers in half node's time: em better.
  stored('short_conn_256', 'p50_ms', 'lower', 2, [1.8, 2.2], 'winner', 'em'),
  // node serves 1.5× em's req/s: node better.
  stored('short_conn_256', 'throughput_rps', 'higher', 1.5, [1.3, 1.7], 'winner', 'node'),
  stored('short_conn_256', 'cpu_ms_per_request', 'lower', 1.02, [0.97, 1.06], 'same', null),
  stored('short_conn_256', 'mean_ms', 'lower', 1.1, [0.8, 1.5], 'undecided', null),
  // Not judged, and one trial: no interval, nothing to draw.
  stored('short_conn_256', 'p99_ms', 'lower', null, null, undefined, null, { no_verdict: 'n too small' }),
  stored('sequential_6000', 'p50_ms', 'lower', 1.3, null, undefined, null, { note: '1 trial: no interval' }),
];

/** The symbols vega draws for a spec's rows (not its legend): { x (px in the plot), colour, hollow, datum }. */
async function drawnPoints(spec) {
  const [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  await view.runAsync();
  const out = [];
  const walk = (node) => {
    if (!node) return;
    if (node.marktype === 'symbol' && node.role === 'mark') {
      for (const item of node.items) if (item.datum && item.datum.mid !== undefined && item.datum.x === item.datum.x && !('edge' in item.datum)) out.push({ x: item.x, colour: item.stroke || item.fill, hollow: item.fill === '#ffffff', datum: item.datum });
    }
    for (const child of node.items || []) walk(child);
  };
  walk(view.scenegraph().root);
  view.finalize();
  return out;
}

describe('forest plots: rows from a run\'s comparisons', () => {
  const rows = forest.comparisonRows(COMPARISONS, { a: 'node', b: 'em', run: '2026-11-27 AMD EPYC' });
  const row = (label) => rows.find((r) => r.label === label);

  it('turns lower-is-better ratios (a ÷ b) into favours_b as they are, higher-is-better ones upside down', () => {
    assert.deepEqual(row('p50'), { group: 'short_conn_256', label: 'p50', kind: 'run', run: '2026-11-27 AMD EPYC', favours_b: 2, ci: [1.8, 2.2], decision: 'winner', winner: 'em', note: null });
    assert.equal(row('req/s').favours_b, 1 / 1.5);
    assert.deepEqual(row('req/s').ci, [1 / 1.7, 1 / 1.3]);
    assert.equal(row('req/s').winner, 'node');
  });

  it('leaves out comparisons with no interval (not judged, one trial): the answers list them in words', () => {
    assert.deepEqual(rows.map((r) => `${r.group} ${r.label}`), ['short_conn_256 p50', 'short_conn_256 req/s', 'short_conn_256 CPU/req', 'short_conn_256 mean']);
  });

  it('reads a comparison stored the other way round (em vs node) as the pair asked for', () => {
    const flipped = { ...COMPARISONS[0], a: 'em', b: 'node', ratio: 0.5, ci95: [1 / 2.2, 1 / 1.8] };
    const [r] = forest.comparisonRows([flipped], { a: 'node', b: 'em' });
    assert.equal(r.favours_b, 2);
    assert.deepEqual(r.ci.map((x) => x.toFixed(6)), ['1.800000', '2.200000']);
    assert.deepEqual(forest.comparisonRows(COMPARISONS, { a: 'node', b: 'nginx' }), [], 'another pair: none');
  });

  it('turns a ramp\'s comparison (a\'s sustainable rate ÷ b\'s, higher is better) into a line of its ramp', () => {
    const ramps = { ramps: [{ name: 'hello_keepalive', comparisons: [
      { a: 'node', b: 'em', ratio: 2.38, ci95: [1.55, 3.66], decision: 'winner', winner: 'node' },
      { a: 'node_tuned', b: 'em_tuned', ratio: 0.7, ci95: [0.3, 1.7], decision: 'undecided', winner: null },
    ] }] };
    const [r, ...more] = forest.rampRows(ramps, { a: 'node', b: 'em', run: null });
    assert.deepEqual(more, []);
    assert.deepEqual({ ...r, favours_b: +r.favours_b.toFixed(4) }, { group: 'hello_keepalive', label: 'sustainable rate', kind: 'run', run: null, favours_b: 0.4202, ci: [1 / 3.66, 1 / 1.55], decision: 'winner', winner: 'node', note: null });
    assert.deepEqual(forest.rampRows(null, { a: 'node', b: 'em' }), []);
  });
});

describe('forest plots: what is drawn', function () {
  this.timeout(30000);
  const input = { title: 'node vs em', a: 'node', b: 'em', margin: 0.1, rows: forest.comparisonRows(COMPARISONS, { a: 'node', b: 'em' }) };

  it('puts em\'s lower latency on em\'s side (right of 1) and node\'s higher req/s on node\'s (left), each in its server\'s colour', async () => {
    const spec = forest.forestSpec(input);
    const centre = spec.width / 2; // the axis is symmetric about 1 on a log scale
    const points = await drawnPoints(spec);
    const at = (label) => points.find((p) => p.datum.x === input.rows.find((r) => r.label === label).favours_b);
    assert.ok(at('p50').x > centre + 20, `em's p50 win at ${at('p50').x} px, 1 at ${centre}`);
    assert.equal(at('p50').colour, serverStyle('em').colour);
    assert.ok(at('req/s').x < centre - 20, `node's req/s win at ${at('req/s').x} px, 1 at ${centre}`);
    assert.equal(at('req/s').colour, serverStyle('node').colour);
    const texts = JSON.stringify(spec.layer.flatMap((l) => (l.data && l.data.values) || []).map((v) => v.text).filter(Boolean));
    assert.match(texts, /"← node better".*"em better →"/, 'the directions, node\'s to the left');
    assert.match(texts, /"em 2\.0× \[1\.80–2\.20\]"/);
    assert.match(texts, /"node 1\.5× \[1\.30–1\.70\]"/);
  });

  it('draws "same" in the dark neutral and undecided in light grey, hollow; a winner filled', async () => {
    const points = await drawnPoints(forest.forestSpec(input));
    const byDecision = (label) => points.find((p) => p.datum.x === input.rows.find((r) => r.label === label).favours_b);
    assert.deepEqual([byDecision('CPU/req').colour, byDecision('CPU/req').hollow], [DECISION_COLOURS.same, false]);
    assert.deepEqual([byDecision('mean').colour, byDecision('mean').hollow], [DECISION_COLOURS.undecided, true]);
    assert.equal(byDecision('p50').hollow, false);
    assert.notEqual(DECISION_COLOURS.same, DECISION_COLOURS.undecided);
    for (const server of ['node', 'em', 'node_tuned', 'em_tuned']) assert.ok(!Object.values(DECISION_COLOURS).includes(serverStyle(server).colour), `${server} is no grey`);
  });

  it('draws a pooled line big and the runs beside it small, labelled by run, under it', async () => {
    const pooled = { group: 'keep-alive /hello', label: 'req/s', kind: 'pooled', run: null, favours_b: 0.6, ci: [0.5, 0.7], decision: 'winner', winner: 'node', note: 'I² 40 % · 3 runs, 2 hosts' };
    const run = (name, f) => ({ ...pooled, kind: 'run', run: name, favours_b: f, ci: [f * 0.8, f * 1.2], note: null });
    const rows = [run('2026-11-27 AMD EPYC', 0.55), pooled, run('2026-11-28 Intel Xeon', 0.65)];
    const spec = forest.forestSpec({ title: 'pooled', a: 'node', b: 'em', margin: 0.1, rows });
    const points = (await drawnPoints(spec)).sort((p, q) => p.datum.mid - q.datum.mid);
    assert.deepEqual(points.map((p) => [p.datum.x, p.datum.size]), [[0.6, 80], [0.55, 30], [0.65, 30]], 'the pooled line first, its runs under it, smaller');
    const texts = spec.layer.flatMap((l) => (l.data && l.data.values) || []).map((v) => v.text).filter(Boolean);
    assert.ok(texts.includes('2026-11-27 AMD EPYC') && texts.includes('2026-11-28 Intel Xeon'));
    assert.ok(texts.includes('node 1.67× [1.43–2.00] · I² 40 % · 3 runs, 2 hosts'), texts.join('\n'));
  });

  it('marks an interval past the axis\'s reach (20×) with a triangle at the edge', () => {
    const far = { ...input, rows: [
      { group: 'slow_read', label: 'p50', kind: 'run', run: null, favours_b: 1 / 47, ci: [1 / 51, 1 / 44], decision: 'winner', winner: 'node', note: null },
      { group: 'slow_read', label: 'p99', kind: 'run', run: null, favours_b: 3, ci: [0.9, 30], decision: 'undecided', winner: null, note: null },
    ] };
    const lines = forest.forestSpec(far).layer.find((l) => l.data.values.some((v) => v.mid !== undefined)).data.values;
    assert.deepEqual(lines.filter((l) => l.lo).map((l) => [l.clip_lo, l.clip_hi]), [[true, false], [false, true]]);
  });

  it('cuts a long forest between groups into parts on one axis', () => {
    const groups = ['s1', 's2', 's3', 's4'];
    const rows = groups.flatMap((g, i) => ['p50', 'req/s', 'RSS'].map((label) => ({ group: g, label, kind: 'run', run: null, favours_b: 1.2 + i, ci: [1.1 + i, 1.3 + i], decision: 'winner', winner: 'em', note: null })));
    const parts = forest.forestSpecs({ ...input, rows }, { maxLines: 10 });
    assert.deepEqual(parts.map((p) => [...new Set(p.rows.map((r) => r.group))]), [['s1', 's2'], ['s3', 's4']]);
    const domain = (p) => p.spec.layer.find((l) => l.encoding.x && l.encoding.x.scale && l.encoding.x.scale.type === 'log').encoding.x.scale.domain;
    assert.deepEqual(domain(parts[0]), domain(parts[1]));
    assert.deepEqual(domain(parts[0]), [1 / 5, 5], 'the reach of all rows (4.3×), not of the first part\'s');
    assert.equal(forest.forestSpecs({ ...input, rows }).length, 1);
  });

  it('refuses an input that breaks the shape, saying what is wrong', () => {
    const good = input.rows[0];
    const bad = (row, re) => assert.throws(() => forest.forestSpec({ ...input, rows: [row] }), (e) => e instanceof TypeError && re.test(e.message));
    bad({ ...good, favours_b: 0.5 }, /em wins but favours_b is 0\.5 \(> 1 means em is better\)/);
    bad({ ...good, decision: 'maybe' }, /decision must be one of winner, same, undecided, depends/);
    bad({ ...good, ci: [2.2, 1.8] }, /ci must be \[lo, hi\]/);
    bad({ ...good, decision: 'same' }, /a same row names no winner/);
    assert.throws(() => forest.forestSpec({ ...input, margin: undefined }), /margin must be a positive number/);
  });
});

describe('forest plots: the pairs a run answers', () => {
  it('node vs em first, then the tuned pair and each runtime against its tuned self, from the ramps too', () => {
    const definitions = { node: {}, em: {}, node_tuned: { tuned_of: 'node' }, em_tuned: { tuned_of: 'em' } };
    const ramp = (a, b, ratio) => ({ a, b, ratio, ci95: [ratio * 0.9, ratio * 1.1], decision: 'winner', winner: ratio > 1 ? a : b });
    const results = {
      servers: ['em', 'node'], definitions, environment: { started_at: '2026-11-27T11:54:46Z', cpu_model: 'AMD EPYC 7B13' },
      comparisons: COMPARISONS.map((c) => ({ ...c, margin: 0.2 })),
      ramps: { ramps: [{ name: 'hello_keepalive', servers: { node: {}, em: {}, node_tuned: {}, em_tuned: {} }, comparisons: [ramp('node', 'em', 2), ramp('node_tuned', 'em_tuned', 0.5), ramp('em', 'em_tuned', 0.6)] }] },
    };
    const forests = forest.runForests(results);
    assert.deepEqual(forests.map((f) => [f.a, f.b, f.rows.length]), [['node', 'em', 5], ['node_tuned', 'em_tuned', 1], ['em', 'em_tuned', 1]], 'node vs node_tuned compared nothing: no forest');
    assert.equal(forests[0].margin, 0.2, 'the run\'s margin');
    assert.equal(forests[0].rows[0].run, '2026-11-27 AMD EPYC 7B13');
  });
});

describe('forest plots: the standalone SVG', function () {
  this.timeout(30000);
  const dir = makeTmpDir('forest-');
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const input = { title: 'node vs em across runs', a: 'node', b: 'em', margin: 0.1, rows: forest.comparisonRows(COMPARISONS, { a: 'node', b: 'em' }) };

  it('is the same, byte for byte, for the same input: after other charts, and whatever the fonts measure', async () => {
    const file = path.join(dir, 'forest.svg');
    const first = await forest.writeForestSvg(file, input);
    assert.equal(fs.readFileSync(file, 'utf8'), first);
    assert.match(first, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg [^>]*role="img"/);
    // Other charts in between (vega counts clip paths across a process).
    await renderSvg(timelineSpec({ scenario: 's', servers: ['node'], mode: 'points', binMs: 100, values: [{ server: 'node', t_s: 0, ms: 1, ok: true }] }));
    assert.equal(await forest.forestSvg(input), first);
    // Text measured as if another font were installed, twice as wide.
    const vega = await import('vega');
    const installed = vega.textMetrics.width;
    vega.textMetrics.width = (item, text) => 2 * installed(item, text);
    try {
      assert.equal(await forest.forestSvg(input), first);
    } finally {
      vega.textMetrics.width = installed;
    }
    assert.doesNotMatch(first, / id="/, 'no ids');
  });
});
