'use strict';
// False discoveries among many verdicts (perf/lib/judge/multiplicity.js): Benjamini–Hochberg on
// its paper's own example, a p-value that agrees with the interval it comes from, the headline
// questions left as judged, and the false-discovery rate held by simulation where chance alone
// names winners.

const assert = require('node:assert/strict');
const multiplicity = require('../../../perf/lib/judge/multiplicity');
const { pairedInterval, lookLevel } = require('../../../perf/lib/rule/group_sequential');
const { logStandardError } = require('../../../perf/lib/judge/meta');
const { decide } = require('../../../perf/lib/rule/answer');
const { seededNormals } = require('../../support/seeded_random');

describe('multiplicity: winners held to the false-discovery rate', () => {
  it('Benjamini–Hochberg keeps the four smallest of the paper\'s fifteen p-values at 5 %', () => {
    // Benjamini & Hochberg (1995), section 4: fifteen p-values, four discoveries at q = 0.05.
    const ps = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.324, 0.4262, 0.5719, 0.6528, 0.759, 1];
    assert.deepEqual(multiplicity.benjaminiHochberg(ps, 0.05), ps.map((_, i) => i < 4));
    // The order of the input does not matter.
    const shuffled = [ps[9], ps[3], ps[0], ps[14], ps[1], ps[2]];
    assert.deepEqual(multiplicity.benjaminiHochberg(shuffled, 0.05), [false, true, true, false, true, true]);
  });

  it('a comparison\'s p-value is below 5 % exactly where its interval at the looks\' level excludes 1', () => {
    const looks = [5, 10, 20, 40];
    const z = seededNormals(5);
    for (let i = 0; i < 200; i++) {
      const { ratio, ci } = pairedInterval(Array.from({ length: 5 }, () => 0.08 + 0.1 * z()), lookLevel(looks));
      const c = { ratio, ci95: ci, method: 'paired', rounds: 5 };
      const t = multiplicity.comparisonTest(c, looks);
      assert.ok(Math.abs(t.se - logStandardError(c, { looks })) < 1e-12);
      const p = multiplicity.pValue(t.y, t.se, t.df, t.tests);
      assert.equal(p < 0.05, ci[0] > 1 || ci[1] < 1, `p ${p}, [${ci}]`);
    }
  });

  it('leaves the headline questions as judged, demotes the winners it does not keep, and counts them', () => {
    const items = [
      { id: 'headline', decision: 'winner', winner: 'a', factor: 1.1, y: 0.09, se: 0.045 },
      { id: 'clear', decision: 'winner', winner: 'a', factor: 3, y: 1.1, se: 0.1 },
      { id: 'edge', decision: 'winner', winner: 'b', factor: 1.1, y: -0.095, se: 0.048 },
      { id: 'same', decision: 'same', y: 0.01, se: 0.02 },
      ...Array.from({ length: 8 }, (_, i) => ({ id: `null${i}`, decision: 'undecided', y: 0.01 * i, se: 0.1 })),
      { id: 'unjudged', decision: null },
    ];
    const { items: out, summary } = multiplicity.controlFalseDiscoveries(items, { confirmatory: (x) => x.id === 'headline', test: (x) => ({ y: x.y, se: x.se, df: null, tests: 1 }) });
    const byId = Object.fromEntries(out.map((x) => [x.id, x]));
    assert.equal(byId.headline.decision, 'winner');
    assert.equal(byId.clear.decision, 'winner');
    assert.deepEqual([byId.edge.decision, byId.edge.winner, byId.edge.factor, byId.edge.fdr], ['undecided', null, 1.1, { kept: false, q: multiplicity.FDR }]);
    assert.equal(byId.same.decision, 'same');
    assert.deepEqual(summary, { tested: 11, winners: 2, kept: 1, expected_false: 0.05 });
  });

  it('the headline questions are the questions of perf/questions.json between its pairs', () => {
    assert.equal(multiplicity.isHeadline('keepalive_400x100', 'throughput_rps', 'node', 'em'), true);
    assert.equal(multiplicity.isHeadline('keepalive_400x100', 'throughput_rps', 'em', 'node'), true);
    assert.equal(multiplicity.isHeadline('keepalive_400x100', 'throughput_rps', 'node', 'node_tuned'), false);
    assert.equal(multiplicity.isHeadline('keepalive_400x100', 'mean_ms', 'node', 'em'), false);
  });

  it('holds the share of false winners near 5 % where chance alone names many (simulated runs of 300 comparisons)', () => {
    // 240 comparisons with no difference and 60 with a real one (a log ratio of 0.15), each from
    // 5 paired rounds of sd 0.1, its interval and answer as the judge makes them.
    const z = seededNormals(2025);
    let falseShareSum = 0;
    let uncontrolledFalse = 0;
    let uncontrolledShareSum = 0;
    const reps = 60;
    for (let r = 0; r < reps; r++) {
      const items = [];
      for (let i = 0; i < 300; i++) {
        const truth = i < 240 ? 0 : 0.15;
        const { ratio, ci } = pairedInterval(Array.from({ length: 5 }, () => truth + 0.1 * z()), 0.95);
        const decision = decide(ci, 0.1);
        items.push({ truth, ratio, ci95: ci, decision, method: 'paired', rounds: 5 });
      }
      const winners = items.filter((x) => x.decision === 'winner');
      uncontrolledFalse += winners.filter((x) => x.truth === 0).length;
      uncontrolledShareSum += winners.filter((x) => x.truth === 0).length / winners.length;
      const { items: out } = multiplicity.controlFalseDiscoveries(items, { confirmatory: () => false, test: (x) => multiplicity.comparisonTest(x, null) });
      const kept = out.filter((x) => x.decision === 'winner');
      falseShareSum += kept.length ? kept.filter((x) => x.truth === 0).length / kept.length : 0;
    }
    const fdr = falseShareSum / reps;
    assert.ok(fdr <= 0.06, `false discovery rate ${fdr}`);
    // Without the control, chance names about 4 % of the 240 as winners ("the same" takes some):
    // about one winner in six false.
    assert.ok(uncontrolledFalse / reps > 4, `${uncontrolledFalse / reps} false winners a run without it`);
    assert.ok(uncontrolledShareSum / reps > 0.1, `false discovery rate without it ${uncontrolledShareSum / reps}`);
  });
});
