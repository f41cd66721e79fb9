'use strict';
// What a waiting request costs (perf/lib/judge/held.js): memory per connection, the slope of
// peak RSS against connections held, with an interval that covers at its level (checked by
// simulation); the held-count search (capacity.js's search over held counts, with the objective
// p99 ≤ wait + bound) against simulated servers of known limits; the waiting runs' summary.

const assert = require('node:assert/strict');
const { memorySlope, memoryResolved, analyzeWaiting, heldMemory, judgeHeld } = require('../../../perf/lib/judge/held');
const { heldObjective, ABOVE_WAIT_BOUND_MS } = require('../../../perf/lib/method');
const { searchCapacity } = require('../../../perf/lib/run/capacity');
const { HELD_SEARCH } = require('../../../perf/lib/plan/held');
const { heldSummary } = require('../../../perf/lib/run/held');
const { seededNormals, mulberry32 } = require('../../support/seeded_random');

describe('waiting: memory per connection (the slope of RSS against connections held)', () => {
  it('is the least-squares slope in KB per connection, its interval from Student t on n − 2', () => {
    // 50 MB at no connection, 2 KB (2/1024 MB) per connection, exactly: a zero-width interval.
    const exact = [1000, 5000, 10000].map((x) => ({ x, y: 50 + (2 / 1024) * x }));
    const s = memorySlope(exact);
    assert.equal(s.kb_per_connection, 2);
    assert.deepEqual(s.ci95, [2, 2]);
    assert.deepEqual([s.n, s.base_mb, s.connections], [3, 50, [1000, 10000]]);
    // Three points, residuals +1, −2, +1 MB (their fit is exact to the slope): se = √(6 ÷ 1 ÷ Sxx).
    const noisy = memorySlope([{ x: 0, y: 1 }, { x: 1000, y: 48 }, { x: 2000, y: 101 }]);
    const se = Math.sqrt(6 / 2e6);
    assert.ok(Math.abs(noisy.kb_per_connection - 0.05 * 1024) < 1e-6);
    assert.ok(Math.abs((noisy.ci95[1] - noisy.ci95[0]) / 2 - 12.706 * se * 1024) < 0.01 * 1024 * se, JSON.stringify(noisy));
  });

  it('says where it is below the resolution of the measurement: its interval reaching 0, at most its upper bound (never below 0)', () => {
    const exact = memorySlope([1000, 5000, 10000].map((x) => ({ x, y: 50 + (2 / 1024) * x })));
    assert.equal(exact.at_most_kb, null, 'an interval above 0: the slope is the figure');
    const crossing = memorySlope([{ x: 250, y: 40 }, { x: 500, y: 52 }, { x: 1000, y: 41 }]);
    assert.ok(crossing.ci95[0] < 0 && crossing.ci95[1] > 0, JSON.stringify(crossing));
    assert.equal(crossing.at_most_kb, crossing.ci95[1]);
    const falling = memorySlope([{ x: 250, y: 60 }, { x: 500, y: 50.1 }, { x: 1000, y: 30 }]);
    assert.ok(falling.ci95[1] < 0, JSON.stringify(falling));
    assert.equal(falling.at_most_kb, 0);
  });

  it('gives the slopes of files written before at_most_kb theirs, on reading', () => {
    const older = ({ ci95 }) => ({ kb_per_connection: (ci95[0] + ci95[1]) / 2, ci95, n: 3, base_mb: 40, connections: [250, 1000] });
    const held = { bound_ms: 10, servers: { em: { held: 354, memory: older({ ci95: [-10.4, 35.9] }) }, node: { held: null, memory: null } } };
    const waiting = { bound_ms: 10, scenarios: [], memory: { em: { runs: older({ ci95: [11.6, 14.2] }), search: older({ ci95: [-10.4, 35.9] }) } } };
    const r = memoryResolved(held, waiting);
    assert.equal(r.held.servers.em.memory.at_most_kb, 35.9);
    assert.equal(r.held.servers.em.held, 354);
    assert.equal(r.held.servers.node.memory, null);
    assert.deepEqual([r.waiting.memory.em.runs.at_most_kb, r.waiting.memory.em.search.at_most_kb], [null, 35.9]);
    assert.deepEqual(memoryResolved(null, null), { held: null, waiting: null });
  });

  it('needs three points at two counts or more', () => {
    assert.equal(memorySlope([{ x: 1000, y: 50 }, { x: 2000, y: 52 }]), null);
    assert.equal(memorySlope([1, 2, 3].map((i) => ({ x: 1000, y: 50 + i }))), null);
    assert.equal(memorySlope([{ x: 1000, y: 50 }, { x: 2000, y: null }, { x: 4000, y: 58 }]), null, 'a run without its RSS is no point');
  });

  it('covers the true slope in about 95 % of 2,000 simulated runs (5 rounds at 1k, 5k, 10k, RSS noise 3 MB)', () => {
    const normal = seededNormals(23);
    const trueKb = 2.5;
    let covered = 0;
    const trials = 2000;
    for (let t = 0; t < trials; t++) {
      const points = [];
      for (const x of [1000, 5000, 10000]) for (let r = 0; r < 5; r++) points.push({ x, y: 40 + (trueKb / 1024) * x + 3 * normal() });
      const s = memorySlope(points);
      if (s.ci95[0] <= trueKb && trueKb <= s.ci95[1]) covered += 1;
    }
    // Binomial(2000, 0.95): 95 % ± 1 point is over 4 standard deviations.
    assert.ok(covered >= 0.94 * trials && covered <= 0.96 * trials, `covered ${covered} of ${trials}`);
  });
});

describe('waiting: the held-count search', () => {
  const design = HELD_SEARCH.full;
  const objective = heldObjective(design.wait_ms);

  /**
   * A simulated server that holds `limit` waiting requests: below it p99 − wait grows as
   * 2 ms ÷ (1 − held ÷ limit) with 15 % noise (the bound of 10 ms reached at 80 % of the
   * limit), at and past it errors (connections refused at its cap); RSS 40 MB + kb per
   * connection. Returns measure(held) and the counts offered.
   */
  function simulated({ limit, kb = 3, seed = 1 }) {
    const normal = seededNormals(seed);
    const uniform = mulberry32(seed + 1);
    const offered = [];
    const measure = async (level) => {
      const held = Math.round(level);
      offered.push(held);
      const rss = 40 + (kb / 1024) * held + 0.5 * normal();
      if (held >= limit) return { offered_rps: held, achieved_rps: held, p99_ms: design.wait_ms + 50, errors: held - limit + 1, held, peak_rss_mb: rss };
      const over = (2 / (1 - held / limit)) * Math.exp(0.15 * normal());
      return { offered_rps: held, achieved_rps: held * (1 - 0.01 * uniform()), p99_ms: design.wait_ms + over, errors: 0, held, peak_rss_mb: rss };
    };
    return { measure, offered };
  }

  it('finds the most held at p99 ≤ wait + bound within the design\'s precision, in at most its steps, and the memory slope from the steps held', async () => {
    assert.deepEqual(objective, { percentile: 'p99', ms: design.wait_ms + ABOVE_WAIT_BOUND_MS });
    // p99 − wait = 10 ms at 80 % of the limit: 4,800 of 6,000.
    const edge = 6000 * 0.8;
    let within = 0;
    const runs = 100;
    for (let seed = 1; seed <= runs; seed++) {
      const { measure, offered } = simulated({ limit: 6000, seed: seed * 104729 });
      const found = heldSummary(await searchCapacity(measure, { from: design.from, to: design.to, objective, precision: design.precision, maxSteps: design.max_steps }));
      assert.ok(offered.length <= design.max_steps, `${offered.length} steps`);
      assert.equal(found.saturated || Boolean(found.incomplete), true);
      if (found.held !== null && found.held <= edge * 1.1 && found.held >= edge / (1 + design.precision) / 1.1) within += 1;
      const memory = heldMemory(found.steps);
      if (memory) assert.ok(Math.abs(memory.kb_per_connection - 3) < 1, JSON.stringify(memory));
    }
    assert.ok(within >= 0.9 * runs, `${within} of ${runs} within the bracket's precision of the edge`);
  });

  it('says "at least" where no count failed up to the most offered, and never counts a count the load generator could not offer', async () => {
    const { measure } = simulated({ limit: 1e9 });
    const all = heldSummary(await searchCapacity(measure, { from: 1000, to: 4000, objective, precision: 0.25, maxSteps: 9 }));
    assert.deepEqual([all.held, all.saturated, all.failing], [4000, false, null]);
    const limitedAt = async (level) => (level >= 2000 ? { offered_rps: level, achieved_rps: level, errors: 0, limited: 'the load generator was the bottleneck (95 % of its core)' } : measure(level));
    const lim = heldSummary(await searchCapacity(limitedAt, { from: 1000, to: 16000, objective, precision: 0.25, maxSteps: 9 }));
    assert.equal(lim.saturated, false);
    assert.match(lim.limited, /load generator/);
    assert.ok(lim.held >= 1000 && lim.held < 2000, String(lim.held));
  });
});

describe('waiting: what the runs that wait say', () => {
  const run = (server, scenario, kind, connections, p99, rss, extra = {}) => ({
    server,
    scenario,
    ok: true,
    judged: true,
    not_judged_because: [],
    errors: { refused: 0, reset: 0, timeout: 0, other: 0 },
    params: { kind, connections, rate: connections, requests: connections * 4, request: { path: '/delay?ms=1000' } },
    above_wait_ms: { wait_ms: 1000, p50: 1, p99 },
    server_peak_rss_mb: rss,
    ...extra,
  });
  const usable = (r) => r.ok && r.not_judged_because.length === 0;

  it('gives each scenario\'s medians above the wait over the usable runs, and a server\'s slope over its keep-alive runs without an error, judged or not', () => {
    const runs = [];
    for (const [n, scenario] of [[1000, 'wait_keepalive_1000'], [5000, 'wait_keepalive_5000'], [10000, 'wait_keepalive_10000']]) {
      for (const p99 of [2, 3, 4]) runs.push(run('node', scenario, 'rate', n, p99, 30 + n * (4 / 1024) + p99 / 10), run('em', scenario, 'rate', n, p99 * 2, 20 + n * (1 / 1024) + p99 / 10));
    }
    // Not judged: left out of the medians, kept for memory (on the line); with errors: out of both.
    runs.push(run('node', 'wait_keepalive_1000', 'rate', 1000, 900, 30 + 1000 * (4 / 1024) + 0.3, { not_judged_because: ['client late: …'] }));
    runs.push(run('node', 'wait_keepalive_5000', 'rate', 5000, 3, 999, { errors: { refused: 0, reset: 12, timeout: 0, other: 0 } }));
    runs.push(run('node', 'hello', 'rate', 1000, 1, 1, { params: { kind: 'rate', request: { path: '/hello' } }, above_wait_ms: undefined }));
    const w = analyzeWaiting(runs, null, usable);
    assert.deepEqual(w.scenarios.map((s) => s.scenario), ['wait_keepalive_1000', 'wait_keepalive_5000', 'wait_keepalive_10000']);
    const first = w.scenarios[0];
    assert.deepEqual([first.held, first.wait_ms, first.servers.node.p99, first.servers.node.runs, first.servers.node.judged_runs, first.servers.em.p99], [1000, 1000, 3, 4, 3, 6]);
    assert.deepEqual([w.memory.node.runs.n, w.memory.em.runs.n], [10, 9]);
    assert.ok(Math.abs(w.memory.node.runs.kb_per_connection - 4) < 0.01, JSON.stringify(w.memory.node.runs));
    assert.ok(Math.abs(w.memory.em.runs.kb_per_connection - 1) < 0.01);
    assert.equal(w.memory.node.search, null);
  });
});

describe('waiting: the quick held-count search', () => {
  const design = HELD_SEARCH.quick;
  const objective = heldObjective(design.wait_ms);
  const step = (held, overMs) => ({ offered_rps: held, achieved_rps: held, p99_ms: design.wait_ms + overMs, errors: 0, held, peak_rss_mb: 40 + held / 1024 });

  it('is its three doubling steps when every count holds, the slope from them', async () => {
    const offered = [];
    const found = heldSummary(await searchCapacity(async (h) => (offered.push(h), step(h, 2)), { from: design.from, to: design.to, objective, precision: design.precision, maxSteps: design.max_steps, confirmations: design.confirmations }));
    assert.deepEqual(offered, [250, 500, 1000]);
    assert.deepEqual([found.held, found.saturated, found.incomplete], [1000, false, null]);
    assert.equal(found.memory, undefined, 'the run records the steps; memory per connection is the judge\'s');
    assert.equal(heldMemory(found.steps).kb_per_connection, 1);
    assert.equal(judgeHeld({ servers: { em: found } }).servers.em.memory.kb_per_connection, 1, 'judged from the steps');
    assert.equal(judgeHeld({ servers: { em: { ...found, memory: null } } }).servers.em.memory, null, 'a slope an earlier file stored stays as it is');
  });

  it('fails a count on one step over the bound, then bisects within its bound in steps', async () => {
    const offered = [];
    const search = (over) => searchCapacity(async (h) => (offered.push(Math.round(h)), step(h, over(h))), { from: design.from, to: design.to, objective, precision: design.precision, maxSteps: design.max_steps, confirmations: design.confirmations });
    const found = heldSummary(await search((h) => (h >= 500 ? 15 : 2)));
    assert.deepEqual(offered, [250, 500, 354]);
    assert.deepEqual([found.held, found.failing, found.saturated, found.incomplete], [354, 500, true, null]);
    offered.length = 0;
    const out = heldSummary(await search((h) => (h >= 700 ? 15 : 2)));
    assert.deepEqual(offered, [250, 500, 1000]);
    assert.deepEqual([out.held, out.failing], [500, 1000]);
    assert.match(out.incomplete, /^out of steps \(3\)/, 'a fourth step would have bisected 500-1,000');
  });
});
