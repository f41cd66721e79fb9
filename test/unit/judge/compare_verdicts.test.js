'use strict';
// Do two runs name the same winners? (perf/lib/judge/compare_verdicts.js, scripts/compare.sh
// --verdicts): an A/A pair of made-up runs, one whose winner flips, and the kinds of row.

const assert = require('node:assert/strict');
const path = require('node:path');
const { compareVerdicts } = require('../../../perf/lib/judge/compare_verdicts');
const { makeTrialRun } = require('../../support/make_trial_runs');
const { makeTmpDir } = require('../../support/runner_helpers');
const { compare } = require('../../support/compare_sh');

describe('compare.sh --verdicts: do two runs name the same winners?', function () {
  this.timeout(30000);
  const root = makeTmpDir('verdicts-');
  const A = makeTrialRun(path.join(root, 'A'), { seed: 1 });
  const C = makeTrialRun(path.join(root, 'C'), { seed: 3 });
  // em's keep-alive CPU per request 0.6× (node's 0.021 against 0.020): the winner flips to em.
  const flipped = makeTrialRun(path.join(root, 'F'), { seed: 4, scale: { 'em|keepalive_400x100|cpu_ms_per_request': 0.6 } });

  it('A/A: the same winners everywhere, exit 0', () => {
    const res = compare(['--verdicts', A, C]);
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /^Verdicts of A and B \(scenario × metric × pair of servers, 12 in both\): same winner \d+, opposite 0, /m);
    assert.match(res.stdout, /^ {2}same winner {2}sequential_6000 mean ms \(node vs em\): A node, B node$/m);
  });

  it('a winner that flips is named "opposite", exit 1', () => {
    const res = compare(['--verdicts', A, flipped]);
    assert.equal(res.status, 1, res.stdout);
    assert.match(res.stdout, /opposite 1,/);
    assert.match(res.stdout, /^ {2}opposite {5}keepalive_400x100 CPU ms\/req \(node vs em\): A node, B em$/m);
  });

  it('counts a verdict one run names and the other does not, and what neither could judge', () => {
    const doc = (winner, extra = {}) => [{ scenario: 's', metric: 'p50_ms', a: 'node', b: 'em', ratio: 0.5, ci95: [0.4, 0.6], significant: Boolean(winner), winner, ...extra }];
    assert.deepEqual(compareVerdicts(doc('node'), doc(null)).tally['only A'], 1);
    assert.deepEqual(compareVerdicts(doc(null), doc('em')).tally['only B'], 1);
    assert.deepEqual(compareVerdicts(doc(null), doc(null)).tally.neither, 1);
    assert.deepEqual(compareVerdicts(doc('node'), doc(null, { excluded: 'client-bound', ratio: null })).tally['not judged in one'], 1);
  });
});
