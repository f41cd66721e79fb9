'use strict';
// The verdict rule on known runs (perf/lib/rule/compare.js): what the paired rounds' looks and the
// judge both read. Paired rounds compared by round; the looks decide what the judge will; which
// runs a comparison weighs.

const assert = require('node:assert/strict');
const { compareServers, scheduledRate } = require('../../../perf/lib/rule/compare');
const { status } = require('../../../perf/lib/rule/group_sequential');
const { analyzeRuns, findComparison } = require('../../../perf/lib/judge/verdicts');
const { DEFAULT_LOOKS } = require('../../../perf/lib/method');
const { noteWords } = require('../../../perf/lib/text/verdict_notes');
const { trialRun: run } = require('../../support/made_up_results');
const { seededNormals } = require('../../support/seeded_random');

const SERVERS = ['node', 'em'];
/** The comparisons of node and em in scenario s as paired rounds at the default looks. */
const paired = (runs) => compareServers(runs, { servers: SERVERS, scenarios: ['s'], looks: DEFAULT_LOOKS });
const close = (x, y, eps = 1e-9) => Math.abs(x - y) < eps * Math.max(1, Math.abs(y));

describe('paired rounds: comparisons from the rounds both servers ran (looks)', () => {
  // Rounds in which the machine's state moves both sides together (a common factor) and node
  // is 1.5× faster: unpaired, the common factor would widen the interval; paired, it cancels.
  const noise = Array.from({ length: 40 }, seededNormals(7));
  const own = (t) => 1 + 0.01 * ((t % 3) - 1); // each round's own difference: −1 %, 0, +1 %
  const rounds = (n, gap) => Array.from({ length: n }, (_, i) => i + 1).flatMap((t) => {
    const machine = Math.exp(0.8 * noise[t - 1]);
    return [run('node', 's', t, machine, 1000 / machine), run('em', 's', t, machine * gap * own(t), 1000 / (machine * gap))];
  });

  it('pairs runs by round: a gap far larger than the rounds\' common swings is a winner at the first look', () => {
    const comparisons = paired(rounds(5, 1.5));
    const c = findComparison(comparisons, 's', 'p50_ms', 'node', 'em');
    assert.deepEqual([c.method, c.rounds, c.decision, c.winner], ['paired', 5, 'winner', 'node']);
    assert.ok(c.ci95[0] > 0.6 && c.ci95[1] < 0.7, JSON.stringify(c.ci95));
    // The same runs as trials (Welch) cannot tell: the swings land in the interval.
    const welch = findComparison(compareServers(rounds(5, 1.5), { servers: SERVERS, scenarios: ['s'] }), 's', 'p50_ms', 'node', 'em');
    assert.deepEqual([welch.method, welch.decision], ['welch', 'undecided']);
  });

  it('the interval is the last look\'s: rounds past it wait for the next look', () => {
    const c = findComparison(paired(rounds(9, 1.02)), 's', 'p50_ms', 'node', 'em');
    assert.equal(c.rounds, 5);
    const pairs = [1, 2, 3, 4, 5].map((t) => [1, 1.02 * own(t)]);
    const s = status(pairs, { looks: DEFAULT_LOOKS });
    assert.ok(close(c.ci95[0], s.ci[0]) && close(c.ci95[1], s.ci[1]));
    assert.equal(c.decision, s.decision);
  });

  it('equal servers within a tight spread: the same within the margin', () => {
    const c = findComparison(paired(rounds(10, 1.0)), 's', 'p50_ms', 'node', 'em');
    assert.deepEqual([c.decision, c.winner, c.rounds], ['same', null, 10]);
  });

  it('a round one side could not use is left out of the pairs; short of the first look: undecided, and why', () => {
    const runs = rounds(5, 1.5).map((r) => (r.server === 'em' && r.trial === 3 ? { ...r, client_bound: true, not_judged_because: ['client-bound: made up'] } : r));
    const c = findComparison(paired(runs), 's', 'p50_ms', 'node', 'em');
    assert.deepEqual([c.decision, c.rounds], ['undecided', 4]);
    assert.match(noteWords(c.note), /4 paired rounds, short of the first look \(5\): no answer yet/);
    assert.ok(c.more_measuring > 0);
  });

  it('memory from every round a side was left out of only for its pace (not server-bound, disturbed); never from a failed run', () => {
    // node ~110 MB, em ~45 MB; every em round and node's rounds 2-5 not server-bound (the pace
    // set elsewhere), node's round 4 also disturbed, em's round 5 failed.
    const rss = (r) => (r.server === 'node' ? 110 + r.trial : 45 - r.trial / 10);
    const paced = (r) => {
      const base = { ...r, server_peak_rss_mb: rss(r) };
      if (r.server === 'em' && r.trial === 5) return { ...base, ok: false, failure: 'made up', not_judged_because: ['failed: made up'] };
      if (r.server === 'node' && r.trial === 1) return base;
      const why = ['not server-bound: made up', ...(r.server === 'node' && r.trial === 4 ? ['disturbed: made up'] : [])];
      return { ...base, server_bound: false, not_judged_because: why };
    };
    const comparisons = paired(rounds(5, 1.5).map(paced));
    const memory = findComparison(comparisons, 's', 'peak_rss_mb', 'node', 'em');
    assert.equal(memory.rounds, 4, 'rounds 1-4: em\'s failed fifth is no pair');
    assert.deepEqual([memory.n_a, memory.n_b], [5, 4]);
    assert.equal(memory.decision, 'undecided', 'four pairs: short of the first look');
    assert.match(noteWords(memory.note), /4 paired rounds, short of the first look/);
    // Time and CPU: no round both sides could use.
    const p50 = findComparison(comparisons, 's', 'p50_ms', 'node', 'em');
    assert.equal(p50.excluded, 'not-judged');
  });

  it('memory decided from rounds left out for their pace, at the first look', () => {
    const paced = (r) => ({ ...r, server_peak_rss_mb: r.server === 'node' ? 110 + r.trial : 45 - r.trial / 10, server_bound: false, not_judged_because: ['not server-bound: made up'] });
    const memory = findComparison(paired(rounds(5, 1.5).map(paced)), 's', 'peak_rss_mb', 'node', 'em');
    assert.deepEqual([memory.rounds, memory.decision, memory.winner], [5, 'winner', 'em']);
  });

  it('one usable round or none: no interval, and what made the other rounds unusable', () => {
    const unusable = (r) => (r.trial === 1 ? r : r.server === 'em' ? { ...r, client_bound: true, not_judged_because: ['client-bound: made up'] } : { ...r, server_bound: false, not_judged_because: ['not server-bound: made up'] });
    const c = findComparison(paired(rounds(5, 1.5).map(unusable)), 's', 'p50_ms', 'node', 'em');
    assert.deepEqual([c.decision, c.ci95, c.rounds], [null, null, 1]);
    assert.equal(noteWords(c.note), '1 round in which both sides could be used (the others: not server-bound, client-bound): no interval');
  });
});

describe('the verdict rule: which runs, which pairs, the same answers for the looks and the judge', () => {
  const three = ['node', 'em', 'async'];
  const runs = [1, 2, 3, 4, 5].flatMap((t) => three.map((server, i) => run(server, 's', t, 1 + i / 2 + t / 100, 1000 / (1 + i / 2))));

  it('the looks\' comparisons are the judge\'s: every pair, every metric, the same numbers', () => {
    const looks = compareServers(runs, { servers: three, scenarios: ['s'], looks: DEFAULT_LOOKS });
    assert.deepEqual(looks, analyzeRuns(runs, { servers: three, scenarios: ['s'], looks: DEFAULT_LOOKS }).comparisons);
    assert.deepEqual([...new Set(looks.map((c) => `${c.a}/${c.b}`))], ['node/em', 'node/async', 'em/async']);
    assert.equal(findComparison(looks, 's', 'p50_ms', 'node', 'async').winner, 'node');
  });

  it('a run another engine superseded is left out; a server without a run of the scenario gives no comparison', () => {
    const superseded = runs.map((r) => (r.server === 'em' && r.trial === 2 ? { ...r, superseded_by: 'wrk' } : r));
    const c = findComparison(compareServers(superseded, { servers: SERVERS, scenarios: ['s'], looks: DEFAULT_LOOKS }), 's', 'p50_ms', 'node', 'em');
    assert.equal(c.n_b, 4);
    assert.deepEqual(compareServers(runs.filter((r) => r.server !== 'em'), { servers: SERVERS, scenarios: ['s'], looks: DEFAULT_LOOKS }), []);
  });

  it('the rate an open loop\'s schedule sets, the probe\'s for slow clients, none for a closed loop', () => {
    assert.equal(scheduledRate({ kind: 'open', rate: 20 }), 20);
    assert.equal(scheduledRate({ kind: 'slow_clients', probe: { rate: 50 } }), 50);
    assert.equal(scheduledRate({ kind: 'closed', concurrency: 32 }), null);
  });
});
