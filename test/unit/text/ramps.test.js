'use strict';
// The ramps in words (perf/lib/text/ramps.js): a line per search, and the end's block.

const assert = require('node:assert/strict');
const { searchLine, serverText, rampLines } = require('../../../perf/lib/text/ramps');
const { rampTuning } = require('../../../perf/lib/judge/tuning');

/** Results with these ramps as the judge gives them (their servers' rates and comparisons as written here), with what tuning does to each (judge/ramps.js judgeRamps). */
const judged = (ramps, servers = {}) => ({ ramps: { ...ramps, ramps: ramps.ramps.map((r) => ({ ...r, tuning: rampTuning(r, servers) })) } });

const SLO = { percentile: 'p99', ms: 10 };

describe('ramps in words', () => {
  it('a search: where it failed and why; at least, where the client or the highest rate stopped it; none held', () => {
    const failed = { sustainable_rps: 3900, failing_rps: 4100, saturated: true, limited: null, steps: [{ rate: 4100, failure: 'p99 12.3 ms over 10 ms' }] };
    assert.equal(searchLine('hello', 'node', failed, SLO, { i: 1, repeat: 3 }), 'hello  node  sustains 3,900/s at p99 ≤ 10 ms (search 1 of 3); fails at 4,100/s: p99 12.3 ms over 10 ms');
    const dropped = { ...failed, steps: [{ rate: 4100, failure: 'p99 1020 ms over 10 ms', listen_overflows: 37 }] };
    assert.equal(searchLine('hello', 'em', dropped, SLO), 'hello  em    sustains 3,900/s at p99 ≤ 10 ms; fails at 4,100/s: p99 1020 ms over 10 ms; the kernel dropped 37 connection attempts at its full accept queue (each a reply 1 s late or more: the client\'s SYN sent again)');
    assert.equal(searchLine('hello', 'em', { ...failed, steps: [{ ...dropped.steps[0], listen_overflows: 0 }] }, SLO), 'hello  em    sustains 3,900/s at p99 ≤ 10 ms; fails at 4,100/s: p99 1020 ms over 10 ms', 'none dropped: nothing said');
    const limited = { sustainable_rps: 8000, failing_rps: null, saturated: false, limited: 'the load generator was the bottleneck (96 % of its core)', estimate_rps: 12600, steps: [] };
    assert.equal(searchLine('hello', 'em', limited, SLO), 'hello  em    sustains at least 8,000/s at p99 ≤ 10 ms; no higher measured: the load generator was the bottleneck (96 % of its core); about 12,600/s by the utilization law (an estimate)');
    const top = { sustainable_rps: 40960, failing_rps: null, saturated: false, limited: null, steps: [] };
    assert.match(searchLine('hello', 'em', top, SLO), /sustains at least 40,960\/s at p99 ≤ 10 ms: the highest rate offered$/);
    const none = { sustainable_rps: null, failing_rps: 20, saturated: true, limited: null, steps: [{ rate: 20, failure: '3 errors' }] };
    assert.equal(searchLine('hello', 'em', none, SLO), 'hello  em    held p99 ≤ 10 ms at no rate offered: 3 errors');
    // The load hosts short of the first rate already: the server neither held nor failed.
    const unmeasured = { sustainable_rps: null, failing_rps: null, saturated: false, limited: 'the load hosts started 1125 requests a second of the 1280 offered', incomplete: null, steps: [{ rate: 1280, failure: null, limited: 'the load hosts started 1125 requests a second of the 1280 offered' }] };
    assert.equal(searchLine('hello', 'node', unmeasured, SLO), 'hello  node  measured at no rate: the load hosts started 1125 requests a second of the 1280 offered');
    assert.equal(serverText({ searches: [unmeasured], sustainable_rps: { n: 0, centre: null, ci95: null } }), 'not measured: the load hosts started 1125 requests a second of the 1280 offered');
    assert.equal(serverText({ searches: [none], sustainable_rps: { n: 0, centre: null, ci95: null } }), 'no rate held');
  });

  it('an approximated search: the rate held half the time, from where its steps started, how many held and reversed', () => {
    const steps = [{ rate: 16000, failure: null }, { rate: 32000, failure: 'p99 40 ms over 10 ms' }, { rate: 22627, failure: null }, { rate: 26909, failure: 'p99 30 ms over 10 ms' }, { rate: 24675, failure: null }];
    const approximated = { sustainable_rps: 25768, failing_rps: 26909, saturated: true, limited: null, incomplete: null, approximation: { start_rps: 22627, steps: 3, reversals: 2 }, steps };
    assert.equal(searchLine('hello', 'node', approximated, SLO, { i: 2, repeat: 3 }), 'hello  node  sustains 25,768/s at p99 ≤ 10 ms half the time (search 2 of 3): 3 steps from 22,627/s, 2 held, 2 reversals');
  });

  it('a search whose highest pass failed its confirming step says so; one whose failing steps the machine disturbed even when repeated, too; its steps counted by how their loop pauses were judged', () => {
    const unconfirmed = { sustainable_rps: 3900, unconfirmed_rps: 4000, confirmed: false, failing_rps: 4100, saturated: true, limited: null, steps: [{ rate: 4100, failure: 'p99 12.3 ms over 10 ms' }, { rate: 4000, confirming: true, failure: 'p99 10.4 ms over 10 ms' }] };
    assert.equal(searchLine('hello', 'node', unconfirmed, SLO), 'hello  node  sustains 3,900/s at p99 ≤ 10 ms; fails at 4,100/s: p99 12.3 ms over 10 ms; held 4,000/s once, not on its confirming step (p99 10.4 ms over 10 ms)');
    const never = { sustainable_rps: null, unconfirmed_rps: 1000, confirmed: false, failing_rps: 2000, saturated: true, limited: null, steps: [{ rate: 1000, failure: null }, { rate: 2000, failure: 'p99 30 ms over 10 ms' }, { rate: 1000, confirming: true, failure: 'p99 11 ms over 10 ms' }] };
    assert.equal(searchLine('hello', 'em', never, SLO), 'hello  em    held p99 ≤ 10 ms at no rate twice; held 1,000/s once, not on its confirming step (p99 11 ms over 10 ms)');
    const disturbed = { sustainable_rps: 3900, failing_rps: 4100, saturated: true, limited: null, steps: [{ rate: 4100, failure: 'p99 40 ms over 10 ms', disturbed: true, repeated: true, steal_pct: 31 }, { rate: 4100, failure: 'p99 35 ms over 10 ms', disturbed: true, steal_pct: 22.5, foreign_cpu_pct: 1.5 }] };
    assert.equal(searchLine('hello', 'node', disturbed, SLO), 'hello  node  sustains 3,900/s at p99 ≤ 10 ms; fails at 4,100/s: p99 35 ms over 10 ms; 1 failing step disturbed on its repeat too (at 4,100/s: steal 22.5 %, other processes 1.5 % of a core)');
    const win = (w) => ({ rate: 4000, failure: null, window: { long_pauses: 0, periods: 0, from_ms: null, to_ms: null, ...w } });
    const paused = { sustainable_rps: 3900, failing_rps: 4100, saturated: true, limited: null, steps: [win({ long_pauses: 3, periods: 2, from_ms: 100, to_ms: 6100 }), win({ long_pauses: 3, periods: 2, from_ms: 0, to_ms: 6000 }), win({ long_pauses: 1, pauses_decide: false }), win({ long_pauses: 2, pauses_decide: true }), win({ long_pauses: 4 }), win({}), { rate: 4100, failure: 'p99 12.3 ms over 10 ms' }] };
    assert.equal(searchLine('hello', 'em', paused, SLO), 'hello  em    sustains 3,900/s at p99 ≤ 10 ms; fails at 4,100/s: p99 12.3 ms over 10 ms; 2 steps judged over whole periods between loop pauses of 10 ms or more (one every ~3.0 s); 2 steps with one or two such pauses and no whole period, judged whole (1 of them because their pauses could not turn their verdict); 1 step with such pauses in no period, judged whole');
  });

  it('the end: each server\'s rate with its interval, then the answer; nothing without ramps', () => {
    const doc = {
      objective: SLO,
      repeat: 3,
      interrupted: false,
      ramps: [{
        name: 'hello',
        servers: { node: { searches: [{ saturated: true }], sustainable_rps: { n: 3, centre: 4000, ci95: [3600, 4400] } }, em: { searches: [{ saturated: true }], sustainable_rps: { n: 3, centre: 7800, ci95: [7400, 8200] } } },
        comparisons: [{ a: 'node', b: 'em', ratio: 0.513, ci95: [0.45, 0.58], decision: 'winner', winner: 'em', factor: 1.95, margin: 0.1, method: 'welch', note: null }],
      }],
    };
    assert.deepEqual(rampLines({ ramps: doc }), [
      '',
      'Sustainable throughput (p99 ≤ 10 ms, no errors, the schedule kept; 3 searches per server, 95 % intervals):',
      '  hello  node  4,000/s [3,600–4,400]',
      '  hello  em    7,800/s [7,400–8,200]',
      '  hello  em sustains 1.95× node\'s rate [1.72–2.22]',
    ]);
    assert.deepEqual(rampLines({ ramps: null }), []);
    assert.equal(rampLines({ ramps: { ...doc, repeat: 1 } })[1], 'Sustainable throughput (p99 ≤ 10 ms, no errors, the schedule kept; one search per server, its bracket):', 'no interval promised from one search');
  });

  it('with both runtimes tuned too: whether the defaults\' difference remains, is gone or reverses once both are tuned', () => {
    const DEFS = { node: {}, em: {}, node_tuned: { tuned_of: 'node' }, em_tuned: { tuned_of: 'em' } };
    const s = (centre) => ({ searches: [], sustainable_rps: { n: 3, centre, ci95: [centre * 0.9, centre * 1.1] } });
    const c = (a, b, decision, winner, factor, ci95) => ({ a, b, decision, winner, factor, ci95, ratio: 1, margin: 0.1 });
    const ramp = (tunedCmp) => ({ name: 'hello', servers: { node: s(36000), em: s(14000), node_tuned: s(37000), em_tuned: s(35000) }, comparisons: [c('node', 'em', 'winner', 'node', 2.4, [1.6, 3.7]), tunedCmp] });
    const doc = (tunedCmp) => ({ objective: SLO, repeat: 3, interrupted: false, ramps: [ramp(tunedCmp)] });
    const last = (tunedCmp) => rampLines(judged(doc(tunedCmp), DEFS)).pop();
    assert.equal(last(c('node_tuned', 'em_tuned', 'same', null, null, [0.95, 1.08])), "  hello  node vs em: node's lead belongs to the defaults: gone once both are tuned (node 2.4× [1.60–3.70] with the defaults, the same within the margin tuned)");
    assert.equal(last(c('node_tuned', 'em_tuned', 'winner', 'node_tuned', 1.3, [1.1, 1.5])), "  hello  node vs em: node's lead remains once both are tuned (node 2.4× [1.60–3.70] with the defaults, node 1.3× [1.10–1.50] tuned)");
    assert.equal(last(c('node_tuned', 'em_tuned', 'winner', 'em_tuned', 1.25, [0.7, 0.9])), '  hello  node vs em: reversed once both are tuned: em leads (node 2.4× [1.60–3.70] with the defaults, em 1.25× [1.11–1.43] tuned)');
    assert.equal(last(c('node_tuned', 'em_tuned', 'undecided', null, null, [0.8, 1.4])), '  hello  node vs em: what tuning both does is undecided (node 2.4× [1.60–3.70] with the defaults, undecided tuned)');
    // Without the tuned pair's searches, no such line.
    assert.equal(rampLines(judged({ ...doc(null), ramps: [{ ...ramp(null), servers: { node: s(1), em: s(1) }, comparisons: [] }] }, DEFS)).length, 4);
  });

  it('three runtimes: a line for each pair whose tuned pair was searched, named, in the pairs\' order', () => {
    const DEFS = { node: {}, em: {}, async: {}, node_tuned: { tuned_of: 'node' }, em_tuned: { tuned_of: 'em' }, async_tuned: { tuned_of: 'async' } };
    const s = (centre) => ({ searches: [], sustainable_rps: { n: 3, centre, ci95: [centre * 0.9, centre * 1.1] } });
    const c = (a, b, decision, winner, factor, ci95) => ({ a, b, decision, winner, factor, ci95, ratio: 1, margin: 0.1 });
    const servers = { node: s(36000), em: s(14000), async: s(9000), node_tuned: s(37000), em_tuned: s(35000), async_tuned: s(20000) };
    const comparisons = [
      c('node', 'em', 'winner', 'node', 2.4, [1.6, 3.7]), c('node', 'async', 'winner', 'node', 4, [3, 5]), c('em', 'async', 'winner', 'em', 1.5, [1.2, 1.9]),
      c('node_tuned', 'em_tuned', 'same', null, null, [0.95, 1.08]), c('em_tuned', 'async_tuned', 'winner', 'em_tuned', 1.7, [1.4, 2.1]),
    ];
    const doc = { objective: SLO, repeat: 3, interrupted: false, ramps: [{ name: 'hello', servers, comparisons }] };
    const lines = rampLines(judged(doc, DEFS)).filter((l) => / vs [a-z_]+: /.test(l));
    assert.deepEqual(lines, [
      "  hello  node vs em: node's lead belongs to the defaults: gone once both are tuned (node 2.4× [1.60–3.70] with the defaults, the same within the margin tuned)",
      '  hello  node vs async: what tuning both does is undecided (node 4.0× [3.00–5.00] with the defaults, not judged tuned)',
      "  hello  em vs async: em's lead remains once both are tuned (em 1.5× [1.20–1.90] with the defaults, em 1.7× [1.40–2.10] tuned)",
    ]);
  });

  it('where a server saturated: the rate it served beside the utilization law\'s estimate', () => {
    const sat = { sustainable_rps: 7200, failing_rps: 7600, saturated: true, limited: null, incomplete: null, bracket: [7200, 7600], served_rps: 7230, estimate_rps: 14200, steps: [{ rate: 7600, failure: 'p99 22 ms over 10 ms' }] };
    assert.equal(searchLine('hello', 'node', sat, SLO), 'hello  node  sustains 7,200/s at p99 ≤ 10 ms; fails at 7,600/s: p99 22 ms over 10 ms; served at most 7,230/s, the utilization law from its CPU per request says 14,200/s, 1.96× that');
    assert.equal(serverText({ searches: [sat, sat], sustainable_rps: { n: 2, centre: 7200, ci95: [7000, 7400] } }), '7,200/s [7,000–7,400] (served at most 7,230/s, the utilization law from its CPU per request says 14,200/s, 1.96× that)');
  });

  it('an incomplete search: said, and not counted; one search: its bracket, said to be that', () => {
    const cut = { sustainable_rps: 5000, failing_rps: null, saturated: false, limited: null, incomplete: 'interrupted', steps: [] };
    assert.equal(searchLine('hello', 'node', cut, SLO), 'hello  node  search incomplete, not counted: interrupted (held 5,000/s so far)');
    const one = { sustainable_rps: 6400, failing_rps: 6700, saturated: true, limited: null, incomplete: null, bracket: [6400, 6700], steps: [] };
    assert.equal(serverText({ searches: [one, cut], sustainable_rps: { n: 1, centre: 6400, ci95: null } }), '6,400/s (one search: held 6,400/s, failed at 6,700/s; --ramp-repeat 3 gives an interval) (1 incomplete search not counted)');
  });
});
