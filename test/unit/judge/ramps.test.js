'use strict';
// The ramps judged (perf/lib/judge/ramps.js): each server's sustainable rate over its searches,
// and two servers compared search by search under the project's rule, from what a run recorded.

const assert = require('node:assert/strict');
const { judgeRamps, compareServers, serverSummary } = require('../../../perf/lib/judge/ramps');
const { noteWords } = require('../../../perf/lib/text/verdict_notes');

const search = (sustainable, saturated = true, limited = null) => ({ sustainable_rps: sustainable, failing_rps: saturated ? sustainable * 1.05 : null, saturated, limited, incomplete: null, bracket: [sustainable, sustainable * 1.05] });

describe('ramps judged', () => {
  it('a run\'s ramps judged from their searches alone: each server\'s rate, every pair compared in the order the run lists them', () => {
    const doc = { objective: { percentile: 'p99', ms: 10 }, repeat: 3, interrupted: false, ramps: [{ name: 'hello_keepalive', servers: { node: { searches: [search(4000), search(4200), search(3900)] }, em: { searches: [search(7600), search(8000), search(7700)] } } }] };
    const [ramp] = judgeRamps(doc, {}, 0.1).ramps;
    assert.equal(ramp.servers.node.sustainable_rps.n, 3);
    assert.deepEqual(ramp.comparisons.map((c) => [c.a, c.b, c.winner]), [['node', 'em', 'em']]);
    assert.deepEqual(ramp.tuning, []);
    assert.equal(judgeRamps(null, {}, 0.1), null, 'a run without ramps');
    assert.equal(doc.ramps[0].comparisons, undefined, 'what the run recorded is left as it was');
  });

  it('compares the sustainable rates search by search (paired): a winner, the same within the margin, undecided', () => {
    const per = (values) => ({ searches: values.map((v) => search(v)) });
    const [win] = compareServers([['node', 'em']], { node: per([4000, 4200, 3900]), em: per([7600, 8000, 7700]) }, 0.1);
    assert.deepEqual([win.decision, win.winner], ['winner', 'em']);
    assert.equal(win.method, 'paired_searches');
    assert.ok(win.factor > 1.8 && win.factor < 2.1);
    const [same] = compareServers([['node', 'em']], { node: per([4000, 4010, 3990]), em: per([4005, 3995, 4000]) }, 0.1);
    assert.deepEqual([same.decision, same.winner], ['same', null]);
    const [open] = compareServers([['node', 'em']], { node: per([3000, 5000, 4000]), em: per([4000, 4600, 3500]) }, 0.1);
    assert.equal(open.decision, 'undecided');
  });

  it('a side that never saturated is at least its rate: shown the faster, never the slower or the same', () => {
    const sat = { searches: [search(4000), search(4100), search(3900)] };
    const atLeast = { searches: [search(8000, false, 'client-bound'), search(8000, false, 'client-bound'), search(8000, false, 'client-bound')] };
    const [faster] = compareServers([['node', 'em']], { node: sat, em: atLeast }, 0.1);
    assert.deepEqual([faster.decision, faster.winner], ['winner', 'em']);
    const [slower] = compareServers([['node', 'em']], { node: { searches: [search(12000), search(12100), search(11900)] }, em: atLeast }, 0.1);
    assert.deepEqual([slower.decision, slower.winner], [null, null]);
    assert.equal(noteWords(slower.note), 'em never saturated (client-bound)', 'why, from its searches');
    const byLink = { searches: [search(9000, false, 'the link saturates first: …'), search(9100, false, 'the link saturates first: …')] };
    assert.equal(noteWords(compareServers([['node', 'em']], { node: byLink, em: byLink }, 0.1)[0].note), 'node and em never saturated (the link saturates first: …)');
    const once = { searches: [search(9000, false, 'the link saturates first: …')] };
    assert.deepEqual(compareServers([['node', 'em']], { node: once, em: once }, 0.1)[0].note, { code: 'never_saturated', servers: ['node', 'em'], why: ['the link saturates first: …'] }, 'one search each: why it says nothing, before how few searches');
    const [unclear] = compareServers([['node', 'em']], { node: { searches: [search(9000), search(3000), search(6000)] }, em: atLeast }, 0.1);
    assert.deepEqual([unclear.decision, unclear.note], ['undecided', null], 'undecided stays undecided, not "never saturated"');
    const [both] = compareServers([['node', 'em']], { node: atLeast, em: atLeast }, 0.1);
    assert.equal(both.decision, null, 'both held the highest rate: not "the same"');
  });

  it('judges nothing from fewer than three pairs of complete searches: two give t on one degree of freedom', () => {
    const per = (values) => ({ searches: values.map((v) => (v === null ? { ...search(1000), incomplete: 'stopped', sustainable_rps: null } : search(v))) });
    const [two] = compareServers([['node', 'em']], { node: per([4000, 4200, null]), em: per([7600, 8000, 7700]) }, 0.1);
    assert.deepEqual([two.decision, two.ci95, two.note], [null, null, { code: 'few_searches', pairs: 2, min: 3 }]);
    assert.equal(noteWords(two.note), '2 pairs of complete searches with a sustainable rate, fewer than 3: no interval');
    const [three] = compareServers([['node', 'em']], { node: per([4000, 4200, 3900]), em: per([7600, 8000, 7700]) }, 0.1);
    assert.equal(three.decision, 'winner');
  });

  it('pairs each search with the other server\'s made beside it: what the machine did to both cancels (the full run\'s keep-alive ramp)', () => {
    const per = (values) => ({ searches: values.map((v) => search(v)) });
    // node 18,221-33,417/s, em 8,354-19,027/s: each side alone spans ×1.8-2.3, their ratio 1.7-2.2.
    const [c] = compareServers([['node', 'em']], { node: per([18221, 32000, 33417]), em: per([8354, 19027, 17448]) }, 0.1);
    assert.deepEqual([c.decision, c.winner], ['winner', 'node']);
    assert.ok(c.ci95[0] > 1.2 && c.ci95[1] < 3, `interval ${c.ci95}`);
    // The same rates unpaired (the second server's searches in another order) are undecided.
    const [shuffled] = compareServers([['node', 'em']], { node: per([18221, 32000, 33417]), em: per([19027, 17448, 8354]) }, 0.1);
    assert.equal(shuffled.decision, 'undecided');
  });

  it('keeps its 95 % coverage by simulation: three side-by-side searches, common noise of 30 %, own noise of 8 %, each rate rounded down to a 5 % step', () => {
    const { mulberry32, seededNormals } = require('../../support/seeded_random');
    const normal = seededNormals(2026);
    const uniform = mulberry32(11);
    const truth = 1.5;
    const found = (rate) => {
      // A bisection stops somewhere in a 5 % bracket below the edge.
      const lo = rate / (1 + 0.05 * uniform());
      return { sustainable_rps: lo, saturated: true, incomplete: null, bracket: [lo, lo * 1.05] };
    };
    let covered = 0;
    const runs = 2000;
    for (let k = 0; k < runs; k++) {
      const node = [];
      const em = [];
      for (let s = 0; s < 3; s++) {
        const common = Math.exp(0.3 * normal());
        node.push(found(15000 * truth * common * Math.exp(0.08 * normal())));
        em.push(found(15000 * common * Math.exp(0.08 * normal())));
      }
      const [c] = compareServers([['node', 'em']], { node: { searches: node }, em: { searches: em } }, 0.1);
      if (c.ci95[0] <= truth && truth <= c.ci95[1]) covered += 1;
    }
    assert.ok(covered / runs >= 0.93, `covered ${covered} of ${runs}`);
  });

  it('searches that agree to the last step are known to their bracket, not exactly: no zero-width interval', () => {
    const same = (v) => ({ searches: [search(v), search(v), search(v)] });
    const [c] = compareServers([['node', 'em']], { node: same(4000), em: same(8000) }, 0.1);
    assert.ok(c.ci95[1] / c.ci95[0] > 1.03, `interval ${c.ci95}`);
    assert.deepEqual([c.decision, c.winner], ['winner', 'em']);
    const { ci95 } = serverSummary([search(4000), search(4000), search(4000)]).sustainable_rps;
    assert.ok(ci95[0] < 4000 && ci95[1] > 4000 * 1.02, `interval ${ci95}`);
  });

  it('an incomplete search (Ctrl-C, out of steps) is kept, not counted', () => {
    const cut = { ...search(9000), incomplete: 'interrupted' };
    const summary = serverSummary([search(4000), search(4100), cut]);
    assert.equal(summary.searches.length, 3);
    assert.equal(summary.sustainable_rps.n, 2);
    assert.ok(summary.sustainable_rps.centre < 4100);
    const [c] = compareServers([['node', 'em']], { node: { searches: [search(4000), cut] }, em: { searches: [search(5000), search(5100)] } }, 0.1);
    assert.match(noteWords(c.note), /^1 pair of complete searches with a sustainable rate, fewer than 3: no interval$/);
  });

  it('fewer than three searches with a rate on a side: no interval, said so', () => {
    const [c] = compareServers([['node', 'em']], { node: { searches: [search(4000)] }, em: { searches: [search(5000), search(5100)] } }, 0.1);
    assert.deepEqual([c.decision, c.ci95], [null, null]);
    assert.match(noteWords(c.note), /^1 pair of complete searches with a sustainable rate, fewer than 3: no interval$/);
  });
});
