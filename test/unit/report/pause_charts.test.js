'use strict';
// The charts of a run's or ramp step's requests over time with the server's pauses
// (perf/lib/report/pause_charts.js): which requests are drawn when there are too many (the
// slowest), the pauses as bands, the rules, which steps and runs get a chart.

const assert = require('node:assert/strict');
const pc = require('../../../perf/lib/report/pause_charts');
const { ROLE } = require('../../../perf/lib/measure/samples');
const { causeText } = require('../../../perf/lib/text/runtime');
const { decoded, trialRun } = require('../../support/made_up_results');

/** Samples as readSamples gives them, of [t_ms, ms, status?, role?] rows. */
function samplesOf(rows) {
  const n = rows.length;
  const s = { n, t: new Float64Array(n), ms: new Float64Array(n), status: new Uint16Array(n), role: new Uint8Array(n) };
  rows.forEach(([t, ms, status = 200, role = ROLE.main], i) => { s.t[i] = t; s.ms[i] = ms; s.status[i] = status; s.role[i] = role; });
  return s;
}

/** n requests over spanMs, each 1 + (i × 7919 mod n) / 100 ms: every latency once, in no order. */
function spread(n, spanMs = 2000) {
  return samplesOf(Array.from({ length: n }, (_, i) => [(i / n) * spanMs, 1 + ((i * 7919) % n) / 100]));
}

const OBJECTIVE = { percentile: 'p99', ms: 10 };
const PAUSES = [
  { kind: 'gc', gc: 'major', from_ms: 100, to_ms: 112 },
  { kind: 'gc', gc: 'minor', from_ms: 300, to_ms: 301.2 },
  { kind: 'gc', gc: 'other', from_ms: 500, to_ms: 501 },
  { kind: 'stall', from_ms: 700, to_ms: 707 },
];
const RUNTIME = {
  runtime: 'node', complete: true, heartbeat_ms: 10, gc_position: 'exact',
  gc: { collections: 40, minor: 38, major: 2, time_ms: 30, longest_ms: 12, share_pct: 1.5 },
  loop: { stall_ms: 5, stalls: 1, stalled_ms: 7, longest_stall_ms: 7, late_p99_ms: 2 },
  allocations: { unit: 'bytes', total: 1e7, per_request: 1520 },
  tail: { p99: { at_ms: 101, median_ms: 151, slow: 300, gc: { in_flight_pct: 97, all_in_flight_pct: 12, without_ms: 4.1, explained_pct: 93 }, stalls: { in_flight_pct: 20, all_in_flight_pct: 3, without_ms: 36, explained_pct: 10 }, coincided: 'gc' } },
  pauses: PAUSES,
};

describe('report: pause charts, the requests drawn', () => {
  it('above MAX_DOTS requests keeps the slowest, in time order, and says from what time up', () => {
    const s = spread(30000);
    const drawn = pc.slowestRequests(s, () => true);
    assert.equal(pc.MAX_DOTS, 20000);
    assert.deepEqual([drawn.index.length, drawn.total, drawn.answered], [20000, 30000, 30000]);
    const kept = new Set(drawn.index);
    const slowestLeftOut = Math.max(...Array.from({ length: s.n }, (_, i) => i).filter((i) => !kept.has(i)).map((i) => s.ms[i]));
    assert.ok(drawn.index.every((i) => s.ms[i] >= drawn.thresholdMs), 'every one drawn is at or above the threshold');
    assert.ok(slowestLeftOut <= drawn.thresholdMs, `a request left out (${slowestLeftOut} ms) is slower than one drawn (${drawn.thresholdMs} ms)`);
    assert.equal(drawn.thresholdMs, 1 + 10000 / 100, 'the 20,000 slowest of 1–300.99 ms start at 101 ms');
    assert.ok(drawn.index.every((i, k) => k === 0 || s.t[i] >= s.t[drawn.index[k - 1]]), 'in time order');
  });

  it('keeps ties at the threshold only as far as there is room, and everything under the limit', () => {
    const s = samplesOf([[0, 5], [1, 3], [2, 3], [3, 3], [4, 1], [5, 9, 0]]);
    const drawn = pc.slowestRequests(s, () => true, 3);
    assert.deepEqual(drawn.index, [0, 1, 5], '9 ms (failed), 5 ms, then one of the 3 ms ones');
    assert.deepEqual([drawn.total, drawn.answered, drawn.thresholdMs], [6, 5, 3]);
    assert.equal(pc.slowestRequests(s, () => true).thresholdMs, null);
  });

  it('draws the fast probe of a slow-client run, else every request but the slow clients\'', () => {
    const withProbe = samplesOf([[0, 1, 200, ROLE.probe], [1, 900, 200, ROLE.slow], [2, 1, 200, ROLE.main]]);
    assert.deepEqual([0, 1, 2].filter(pc.latencyKeep(withProbe)), [0]);
    const plain = samplesOf([[0, 1], [1, 900, 200, ROLE.slow]]);
    assert.deepEqual([0, 1].filter(pc.latencyKeep(plain)), [0]);
  });

  it('draws crowded dots once a spot, every failed request always', () => {
    const values = [{ t_s: 0, ms: 1, ok: true }, { t_s: 0.0001, ms: 1.001, ok: true }, { t_s: 0.0001, ms: 1, ok: false }, { t_s: 1, ms: 100, ok: true }];
    assert.deepEqual(pc.onePerCell(values, 2), [values[0], values[2], values[3]]);
  });
});

describe('report: pause charts, the pauses and the rules', () => {
  it('a band per pause, by kind, clipped to the chart and at least MIN_BAND_PX wide', () => {
    const rows = pc.pauseRows([{ kind: 'gc', gc: 'minor', from_ms: -5, to_ms: 1 }, ...PAUSES, { kind: 'stall', from_ms: 2500, to_ms: 2600 }], 2, 0.004);
    assert.deepEqual(rows.map((r) => [r.band, r.x0_s, r.x1_s]), [
      ['minor or other GC', 0, 0.004],
      ['major GC', 0.1, 0.112],
      ['minor or other GC', 0.3, 0.304],
      ['minor or other GC', 0.5, 0.504],
      ['loop stall', 0.7, 0.707],
    ], 'the pause after the chart left out');
    assert.deepEqual([rows[1].from_ms, rows[1].to_ms], [100, 112], 'its times as recorded, for the CSV');
  });

  it('the objective a solid rule, the run\'s own percentile dashed only where its replies resolve it', () => {
    assert.deepEqual(pc.ruleRows(OBJECTIVE, 12.4, 20000, 'step').rules, [
      { kind: 'objective', ms: 10, label: 'objective p99 ≤ 10 ms', above: false },
      { kind: 'measured', ms: 12.4, label: 'this step\'s p99: 12.4 ms', above: true },
    ], 'close lines: the lower label goes under its line');
    assert.equal(pc.ruleRows(OBJECTIVE, 40, 20000, 'step').rules[0].above, true);
    const few = pc.ruleRows(OBJECTIVE, 12.4, 3000, 'step');
    assert.deepEqual(few.rules.map((r) => r.kind), ['objective']);
    assert.equal(few.unresolved, 'No line for the step\'s p99: n too small (3,000 requests; p99 needs 10,000).');
  });

  it('the chart: bands, rules, the tail\'s cause under the title, and the downsampling said in the caption', () => {
    const chart = pc.pauseChart({ name: 'x', server: 'node', title: 'node, hello at 30,000/s (search 1, step 3)', headline: 'Failed: p99 12.4 ms over 10 ms.', samples: spread(30000), runtime: RUNTIME, objective: OBJECTIVE, measuredMs: 12.4, what: 'step' });
    assert.equal(chart.kind, 'pauses');
    assert.deepEqual(chart.servers, ['node']);
    const [bands, dots, crosses, solid, dashed] = chart.spec.layer;
    assert.deepEqual(bands.data.values.map((b) => b.band).sort(), ['loop stall', 'major GC', 'minor or other GC', 'minor or other GC']);
    assert.deepEqual(bands.encoding.fill.scale.domain, ['major GC', 'minor or other GC', 'loop stall'], 'every kind in the legend, in its colour');
    assert.equal(new Set(bands.encoding.fill.scale.range).size, 3);
    assert.equal(bands.data.values[0].band, 'loop stall', 'stalls drawn first, the GC over them');
    assert.equal(dots.mark.type, 'square');
    assert.equal(crosses.mark.shape, 'cross');
    assert.deepEqual([solid.mark.type, solid.data.values.find((r) => r.kind === 'objective').ms], ['rule', 10]);
    assert.deepEqual(dashed.mark.strokeDash, [5, 3]);
    const subtitle = chart.spec.title.subtitle.join(' ');
    assert.ok(subtitle.startsWith(`Failed: p99 12.4 ms over 10 ms. p99: ${causeText(RUNTIME, 'p99')}.`), subtitle);
    assert.match(subtitle, /Shaded: the GC's work of 1 ms or more \(1 major, 2 minor or other\) and the loop's stalls of 5 ms or more \(1\), each at least 2 px wide\./);
    assert.match(subtitle, /Only the 20,000 slowest of 30,000 requests are drawn \(every one of 101 ms or more\)/);
    assert.match(chart.caption, /the 20,000 slowest of its 30,000 requests \(every one of 101 ms or more; the faster ones are left out/);
    assert.deepEqual(chart.drawn.slowest, 20000);
    assert.ok(chart.drawn.dots <= 20000 && chart.drawn.dots === dots.data.values.length);
    assert.deepEqual(Object.keys(chart.rows[0]), ['what', 'band', 'from_ms', 'to_ms']);
    assert.equal(chart.rows.filter((r) => r.what === 'request').length, chart.drawn.dots);
  });

  it('without runtime events: no bands, and says why', () => {
    const chart = pc.pauseChart({ name: 'x', server: 'nginx', title: 'nginx', samples: spread(100), runtime: null, objective: OBJECTIVE });
    assert.deepEqual(chart.spec.layer[0].data.values, []);
    assert.match(chart.spec.title.subtitle.join(' '), /No runtime events: the server records none, so no pauses are shaded\. Every request drawn/);
  });
});

describe('report: pause charts, which steps and runs', () => {
  const step = (rate, failure, file = null) => ({ rate, failure, samples_file: file, runtime: null });
  const ramps = {
    objective: OBJECTIVE,
    ramps: [{
      name: 'hello',
      servers: {
        em: { searches: [{ saturated: true, failing_rps: 200, steps: [step(100, null), step(200, 'p99 12 ms over 10 ms', 'samples/f1.csv.gz'), step(200, '3 errors', 'samples/f2.csv.gz'), step(150, null)] }] },
        node: { searches: [{ saturated: true, failing_rps: 400, steps: [step(400, 'p99 30 ms over 10 ms')] }, { saturated: true, failing_rps: 400, steps: [step(400, 'schedule not kept (300 of 400/s)', 'samples/node_400.csv.gz')] }, { saturated: false, failing_rps: null, steps: [step(800, 'x', 'samples/open.csv.gz')] }] },
      },
    }],
  };

  it('of each search that saturated, the step that decided it (the last at its failing rate), where it kept its samples', () => {
    const steps = pc.failedSteps(ramps, ['node', 'em']);
    assert.deepEqual(steps.map((s) => [s.server, s.search, s.step, s.entry.rate, s.entry.samples_file]), [
      ['node', 2, 1, 400, 'samples/node_400.csv.gz'],
      ['em', 1, 3, 200, 'samples/f2.csv.gz'],
    ]);
    assert.deepEqual(pc.failedSteps(null, ['node']), []);
  });

  it('--timeline: each server\'s last usable trial with samples, else its last finished one', () => {
    const runs = [
      trialRun('node', 'hello', 1, 1, 100), trialRun('node', 'hello', 2, 1, 100), trialRun('node', 'hello', 3, 1, 100, { samples: null }),
      trialRun('em', 'hello', 1, 2, 50, { client_bound: true }), trialRun('em', 'hello', 2, 2, 50, { client_bound: true }),
      trialRun('em', 'hello', 3, 2, 50, { ok: false, failure: 'server exited' }),
    ];
    const picked = pc.timelineRuns(decoded(runs), 'hello', (r) => r.samples !== null);
    assert.deepEqual(picked.map((p) => [p.server, p.run.trial]), [['node', 2], ['em', 2]]);
  });
});
