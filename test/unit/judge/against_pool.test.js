'use strict';
// A run set against the answer pooled over the archive (perf/lib/judge/meta.js againstPool), and
// in words (perf/lib/text/pooled.js againstLines): how a quick run is checked against the full
// runs, never contradicting them.

const assert = require('node:assert/strict');
const { againstPool, poolArchive } = require('../../../perf/lib/judge/meta');
const { againstLines } = require('../../../perf/lib/text/pooled');
const { record } = require('../../support/made_up_archive');

// Three full runs: node 2× em's req/s, tight: a clear winner.
const [pooled] = poolArchive([record('r1', 'EPYC', 2, [1.8, 2.2]), record('r2', 'EPYC', 2.1, [1.9, 2.3]), record('r3', 'EPYC', 1.9, [1.7, 2.1])]);
const run = (decision, winner, ratio, ci) => ({ subject: 'short_conn_256', metric: 'throughput_rps', a: 'node', b: 'em', better: 'higher', decision, winner, factor: ratio >= 1 ? ratio : 1 / ratio, ratio, ci95: ci, margin: 0.1, not_judged: null });

describe('a run against the pooled answer', () => {
  it('the pool names node, clearly: a run naming node agrees, em contradicts, "the same" contradicts, undecided does not', () => {
    assert.equal(pooled.decision, 'winner');
    assert.deepEqual(againstPool(pooled, run('winner', 'node', 1.6, [1.3, 1.9])), { relation: 'same_winner', contradicts: false });
    assert.deepEqual(againstPool(pooled, run('winner', 'em', 0.7, [0.6, 0.8])), { relation: 'opposite', contradicts: true });
    assert.deepEqual(againstPool(pooled, run('same', null, 1.0, [0.95, 1.05])), { relation: 'same_vs_clear', contradicts: true });
    assert.deepEqual(againstPool(pooled, run('undecided', null, 1.3, [0.8, 2.1])), { relation: 'only_first', contradicts: false });
  });

  it('nothing to set against: a run not judged, a pool without an interval', () => {
    assert.equal(againstPool(pooled, run(null, null, null, null)), null);
    assert.equal(againstPool(pooled, null), null);
    const [none] = poolArchive([record('r1', 'EPYC', null, null)]);
    assert.equal(againstPool(none, run('winner', 'node', 1.6, [1.3, 1.9])), null);
  });

  it('in words: the pool and what it rests on, each run beside it, contradictions named and counted', () => {
    const question = { topic: 'A new connection per request', question: 'throughput of 256 clients' };
    const rows = [{ question, pooled, runs: [
      { dir: 'q1', answer: run('winner', 'node', 1.6, [1.3, 1.9]), against: againstPool(pooled, run('winner', 'node', 1.6, [1.3, 1.9])) },
      { dir: 'q2', answer: run('winner', 'em', 0.7, [0.6, 0.8]), against: againstPool(pooled, run('winner', 'em', 0.7, [0.6, 0.8])) },
      { dir: 'q3', answer: null, against: null },
    ] }];
    const lines = againstLines(rows);
    assert.match(lines[0], /^A new connection per request, throughput of 256 clients: the full runs: node 2\.\d+× more req\/s \[[\d.]+–[\d.]+\] · 3 runs, 1 host, I² \d+ %$/);
    assert.equal(lines[1], '  q1  node 1.6× more req/s [1.30–1.90]  [same winner]');
    assert.match(lines[2], /^ {2}q2 {2}em 1\.43× more req\/s \[1\.25–1\.67\] {2}\[CONTRADICTS: opposite\]$/);
    assert.equal(lines[3], '  q3  not measured');
    assert.equal(lines[4], '1 contradiction of the full runs\' answers.');
  });
});
