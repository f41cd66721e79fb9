'use strict';
// What scripts/compare.sh prints (perf/lib/text/compare_format.js): each run in a line, the
// changes from A to B as an aligned table with their regressions, and whether two runs name the
// same winners; on made-up runs and results.

const assert = require('node:assert/strict');
const { KINDS } = require('../../../perf/lib/judge/compare_verdicts');
const path = require('node:path');
const { formatComparison, describeRun, formatVerdictAgreement } = require('../../../perf/lib/text/compare_format');

/** A decoded run as compare reads it: its folder, environment and runs (their trials). */
const runOf = (dir, environment = {}, trials = [1, 2, 3]) => ({ dir: path.resolve(dir), environment, runs: trials.map((trial) => ({ server: 'node', scenario: 's', trial })) });

/** A row of compare_runs.js compareRuns. */
const row = (over) => ({ server: 'node', scenario: 's', metric: 'mean_ms', a: 1.5, b: 1.2, n_a: 3, n_b: 3, ratio: 0.8, ci95: [0.75, 0.86], significant: true, worse: 0.8, regression: false, no_verdict: null, verdict: 'better', ...over });

describe('compare format: each run in a line', () => {
  it('its folder (relative to here), commit (+changes), start, trials and --quick', () => {
    const env = { project_commit: '0123456789abcdef', project_dirty: true, started_at: '2026-01-02T03:04:05Z', options: { quick: true } };
    assert.equal(describeRun('A', runOf(path.join('results', 'one'), env)), `A: ${path.join('results', 'one')} (commit 01234567+changes, started 2026-01-02T03:04:05Z, 3 trials, --quick)`);
    assert.equal(describeRun('B', runOf('.', { project_commit: '0123456789abcdef', options: { quick: false } }, [null])), 'B: . (commit 01234567, 1 trial)');
  });
});

describe('compare format: the changes from A to B', () => {
  const A = runOf('A', { cpu_model: 'X', options: { quick: true } });
  const B = runOf('B', { cpu_model: 'Y', options: { quick: true } });

  it('the runs, how to read the table, what differs between their machines, then the table', () => {
    const lines = formatComparison(A, B, { rows: [row()], regressions: [], only: [], noVerdicts: [], thresholdPct: 10 });
    assert.deepEqual(lines.slice(0, 2), ['A: A (3 trials, --quick)', 'B: B (3 trials, --quick)']);
    assert.match(lines[2], /^Change from A to B = B ÷ A, with its 95% confidence interval .*a regression is significantly worse by more than 10% \(for req\/s: A ÷ B\)\. Failed, client-bound, not judged and superseded trials are left out\.$/);
    assert.equal(lines[3], 'note: A and B differ: cpu_model: "X" in A, "Y" in B');
    assert.equal(lines[4], '');
    assert.match(lines[5], /^server\s+scenario\s+metric\s+A\s+B\s+change\s+95% CI\s+verdict$/);
    assert.match(lines[6], /^node\s+s\s+mean ms\s+1\.50\s+1\.20\s+-20%\s+\[-25%, -14%\]\s+better$/);
  });

  it('says each difference between the environments: a field as recorded, --quick and CPU pinning in words', () => {
    const a = runOf('A', { kernel: '6.1', options: { quick: true }, pinning: { enabled: true } });
    const b = runOf('B', { kernel: '6.8', options: { quick: false }, pinning: { enabled: false } });
    const notes = formatComparison(a, b, { rows: [], regressions: [], only: [], noVerdicts: [], thresholdPct: 10 }).filter((l) => l.startsWith('note:'));
    assert.deepEqual(notes, ['note: A and B differ: kernel: "6.1" in A, "6.8" in B', 'note: A and B differ: --quick: yes in A, no in B (the loads differ)', 'note: A and B differ: CPU pinning: on in A, off in B']);
  });

  it('names a server and scenario on their first row only; values in their metric\'s unit; a pair not compared in one row', () => {
    const rows = [
      row({ metric: 'throughput_rps', a: 95.4, b: 19011.2, ratio: 1.0123, ci95: [0.99, 1.03], significant: false, verdict: 'no-change' }),
      row({ metric: 'p99_ms', a: 3, b: 6, ratio: null, ci95: null, no_verdict: 'n too small', verdict: 'no-verdict' }),
      row({ scenario: 't', metric: null, a: null, b: null, ratio: null, ci95: null, verdict: 'not-compared', not_compared: { why: 'client-bound', side: 'B' } }),
    ];
    const lines = formatComparison(A, B, { rows, regressions: [], only: [], noVerdicts: [{ kind: 'n too small', note: 'its own note' }], thresholdPct: 10 });
    const table = lines.slice(lines.findIndex((l) => l.startsWith('server')) + 1);
    assert.match(table[0], /^node\s+s\s+req\/s\s+95\s+19,011\s+\+1\.2%\s+\[-1\.0%, \+3\.0%\]\s+no significant change$/);
    assert.match(table[1], /^\s+p99 ms\s+3\.00\s+6\.00\s+–\s+no verdict \(n too small\)$/);
    assert.match(table[2], /^node\s+t\s+\(all\)\s+–\s+–\s+–\s+not compared: every B trial client-bound$/);
    assert.deepEqual(table.slice(3, 6), ['', 'note: no verdict (n too small): fewer than 100 requests above the percentile in A\'s or B\'s trials, so it is their slowest few', '']);
    assert.equal(lines[lines.length - 1], 'no significant regression beyond 10% (2 of 3 rows could not be judged: see the verdict column)');
  });

  it('each verdict code in its words, the threshold where it takes one; why a pair was not compared; the notes under the table', () => {
    const said = (over, thresholdPct = 10) => formatComparison(A, B, { rows: [row(over)], regressions: [], only: [], noVerdicts: [], thresholdPct }).find((l) => l.startsWith('node')).split(/\s{2,}/).pop();
    assert.equal(said({ verdict: 'regression' }, 5), 'REGRESSION (worse by more than 5%)');
    assert.equal(said({ verdict: 'worse-within' }, 5), 'worse, within 5%');
    assert.equal(said({ verdict: 'no-interval', single: 'both', ci95: null }), '1 trial each: no interval, not judged');
    assert.equal(said({ verdict: 'no-interval', single: 'A', ci95: null }), 'A has 1 trial: no interval, not judged');
    assert.equal(said({ verdict: 'zero', ci95: null }), 'a trial measured 0 (below the resolution): not judged');
    assert.equal(said({ verdict: 'not-measured', ci95: null }), 'not measured');
    const notCompared = (why) => said({ metric: null, verdict: 'not-compared', not_compared: why, ci95: null });
    assert.equal(notCompared({ why: 'load-differs' }), 'not compared: the load differs (scenario parameters, e.g. --quick in one run only)');
    assert.equal(notCompared({ why: 'no-run', side: 'A' }), 'not compared: no run in A');
    assert.equal(notCompared({ why: 'not-judged', side: 'B', reasons: ['disturbed', 'not-server-bound'] }), 'not compared: every B trial not judged (disturbed, not server-bound)');
    assert.equal(notCompared({ why: 'failed', side: 'B' }), 'not compared: every B trial failed');
    const notes = formatComparison(A, B, { rows: [], regressions: [], only: [{ server: 'em', scenario: 'u', side: 'B' }], noVerdicts: [{ kind: 'set by the rate', note: null }, { kind: 'below the resolution', note: 'CPU ticks of 10 ms' }], thresholdPct: 10 }).filter((l) => l.startsWith('note:'));
    assert.deepEqual(notes.slice(1), ['note: em u: only in B; not compared', 'note: no verdict (set by the rate): the schedule fixes the throughput of open-loop and slow-client scenarios whatever the server does', 'note: no verdict (below the resolution): CPU ticks of 10 ms']);
  });

  it('the regressions beyond the threshold, each with its change and interval; or none', () => {
    const worse = row({ ratio: 1.3, ci95: [1.2, 1.41], worse: 1.3, regression: true, verdict: 'regression' });
    const two = formatComparison(A, B, { rows: [worse, { ...worse, scenario: 't' }], regressions: [worse, { ...worse, scenario: 't' }], only: [], noVerdicts: [], thresholdPct: 5 });
    assert.deepEqual(two.slice(-3), ['2 significant regressions beyond 5%:', '  node s mean ms: +30% [+20%, +41%]', '  node t mean ms: +30% [+20%, +41%]']);
    const one = formatComparison(A, B, { rows: [worse], regressions: [worse], only: [], noVerdicts: [], thresholdPct: 5 });
    assert.equal(one[one.length - 2], '1 significant regression beyond 5%:');
    assert.equal(formatComparison(A, B, { rows: [row()], regressions: [], only: [], noVerdicts: [], thresholdPct: 10 }).pop(), 'no significant regression beyond 10%');
  });
});

describe('compare format: do two runs give the same answers?', () => {
  const agreement = (rows) => ({ rows, tally: Object.fromEntries(KINDS.map((k) => [k, rows.filter((r) => r.kind === k).length])) });
  const verdict = (kind, winnerA, winnerB, metric = 'p50_ms') => ({ scenario: 's', metric, a: 'node', b: 'em', winnerA, winnerB, kind });

  it('the tally of every kind, then each row where a run named a winner', () => {
    const lines = formatVerdictAgreement(agreement([verdict('same_winner', 'node', 'node'), verdict('only_b', null, 'em', 'throughput_rps'), verdict('neither', null, null, 'mean_ms')]));
    assert.deepEqual(lines, [
      'Verdicts of A and B (scenario × metric × pair of servers, 3 in both): same winner 1, opposite 0, both same 0, same vs clear winner 0, same vs close winner 0, only A 0, only B 1, neither 1, not judged in one 0.',
      '',
      'Where a winner was named:',
      '  same winner  s p50 ms (node vs em): A node, B node',
      '  only B       s req/s (node vs em): A –, B em',
    ]);
  });

  it('the tally alone where neither run named one', () => {
    assert.equal(formatVerdictAgreement(agreement([verdict('neither', null, null)])).length, 1);
  });
});
