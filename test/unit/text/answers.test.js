'use strict';
// The answer block the terminal ends with (perf/lib/text/answers.js): a line per scenario with
// what the pair's comparisons decided, and how many were decided, from made-up trials whose
// answers are known.

const assert = require('node:assert/strict');
const { answerLines, scenarioLine, decidedShare, terminalText } = require('../../../perf/lib/text/answers');
const { trialRun, decoded, openLoopTrials } = require('../../support/made_up_results');

/** Three trials of node and em in a scenario; each side's values from a (trial → fields) function. */
function trials(scenario, node, em) {
  return [1, 2, 3].flatMap((t) => [trialRun('node', scenario, t, ...node(t)), trialRun('em', scenario, t, ...em(t))]);
}

describe('text: the answers, one line per scenario', () => {
  // em twice as fast, half the CPU; memory alike to the byte: winners and one "same". A hundred
  // replies a trial resolve no p99: not judged.
  const clear = trials('short_conn_256', (t) => [2 + t / 100, 1000 - t], (t) => [1 + t / 100, 2000 + t]);
  // Wide, overlapping trials: nothing decided.
  const noisy = trials('keepalive_400x100', (t) => [[1, 1.6, 0.7][t - 1], [1000, 700, 1400][t - 1]], (t) => [[1.3, 0.8, 1.1][t - 1], [800, 1300, 1000][t - 1]]);
  const results = decoded([...clear, ...noisy, ...openLoopTrials()]);

  it('the winner with each metric it won, its factor and interval; the same within the margin; the undecided', () => {
    assert.equal(scenarioLine(results, 'short_conn_256'), 'em 1.98× faster mean [1.94–2.02], 1.98× faster p50 [1.94–2.02], 2.01× more req/s [2.00–2.01], 1.98× less CPU/req [1.94–2.02]; RSS same ±10 %; not judged: p99 (n too small)');
    assert.equal(scenarioLine(results, 'keepalive_400x100'), 'RSS same ±10 %; mean, p50, req/s, CPU/req undecided; not judged: p99 (n too small)');
  });

  // A wait of `wait` ms: em adds 1 ms to it, node 2.
  const waitedTrials = (wait) => trials('wait_small', (t) => [wait + 2 + t / 100, 1000 - t], (t) => [wait + 1 + t / 100, 2000 + t]).map((r) => ({ ...r, latency_ms: { ...r.latency_ms, mean: r.latency_ms.p50 }, above_wait_ms: { wait_ms: wait, p50: r.latency_ms.p50 - wait, p99: r.latency_ms.p99 - wait } }));

  it('a scenario whose requests wait on the server\'s timer: its latencies are above the wait, and the line says so', () => {
    // 25 ms of wait: whole, 26 against 27 ms would be "the same"; above the wait, 1 against 2.
    const line = scenarioLine(decoded(waitedTrials(25)), 'wait_small');
    assert.match(line, /^em 1\.9\d× faster mean \[[\d.]+–[\d.]+\], 1\.9\d× faster p50/, line);
    assert.match(line, /; latencies above the 25 ms wait$/);
  });

  it('a percentile above a long wait comes from buckets too coarse for a millisecond or two: not judged', () => {
    // At 251-252 ms the histogram's buckets are 0.128 ms wide: 13 % of em's 1 ms above the wait
    // (the mean is exact and still judged).
    const line = scenarioLine(decoded(waitedTrials(250)), 'wait_small');
    assert.match(line, /^em 1\.9\d× faster mean \[[\d.]+–[\d.]+\],/, line);
    assert.match(line, /not judged: p50 \(below the resolution\)/, line);
  });

  it('with both runtimes tuned too: a block for the tuned pair, then what tuning both does to each winner named', () => {
    const DEFS = { node: {}, em: {}, node_tuned: { tuned_of: 'node' }, em_tuned: { tuned_of: 'em' } };
    // Defaults: em twice node's speed. Tuned: em_tuned and node_tuned alike.
    const tunedTrials = [1, 2, 3].flatMap((t) => [trialRun('node_tuned', 'short_conn_256', t, 1 + t / 100, 2000 + [1, -1, 0][t - 1]), trialRun('em_tuned', 'short_conn_256', t, 1 + t / 100, 2000 + [-1, 1, 0][t - 1])]);
    const both = decoded([...clear, ...tunedTrials], { environment: { servers: DEFS, options: { servers: ['node', 'em', 'node_tuned', 'em_tuned'] } } });
    assert.deepEqual(both.tunedPair, ['node_tuned', 'em_tuned']);
    const lines = answerLines(both);
    assert.equal(lines[0], 'Answers, node vs em (95 % intervals of the factor):');
    assert.equal(lines[3], 'Answers, both tuned, node_tuned vs em_tuned (95 % intervals of the factor):');
    assert.match(lines[4], /^ {2}short_conn_256 {2}mean, p50, req\/s, CPU\/req, RSS same ±10 %/);
    assert.equal(lines[6], 'What tuning both does to each winner named (node and em with their defaults against node_tuned and em_tuned):');
    assert.match(lines[7], /^ {2}short_conn_256 {2}mean {4}em's lead belongs to the defaults: gone once both are tuned \(em 1\.98× \[1\.94–2\.02\] with the defaults, the same within the margin tuned\)$/);
    assert.equal(decoded(clear).tunedPair, null);
  });

  it('says what was not judged and why, grouped by reason', () => {
    assert.match(scenarioLine(results, 'concurrent_2000_20'), /; not judged: p99 \(n too small\), req\/s \(set by the rate\)$/);
  });

  it('counts the decided comparisons among those that could be judged', () => {
    const share = decidedShare(results);
    // short_conn_256: 5 decided; keepalive: RSS decided, 4 undecided; the open loop: 4 decided.
    assert.deepEqual(share, { decided: 5 + 1 + 4, judgeable: 5 + 5 + 4, undecided: 4 });
  });

  it('a block: the heading, a line per scenario in run order, and the share decided', () => {
    const lines = answerLines(results);
    assert.equal(lines[0], 'Answers, node vs em (95 % intervals of the factor):');
    assert.deepEqual(lines.slice(1, 4).map((l) => l.trim().split(/\s+/)[0]), ['short_conn_256', 'keepalive_400x100', 'concurrent_2000_20']);
    assert.equal(lines[4], 'Decided 10 of 14 comparisons (71 %); undecided 4.');
    assert.deepEqual(answerLines(decoded(trials('s', (t) => [1, 100 + t], (t) => [1, 100 + t]).filter((r) => r.server === 'node'))), []);
  });

  it('the terminal: the answers, then where the tables and the warnings are; without a pair, the whole table', () => {
    const text = terminalText(results);
    assert.ok(text.startsWith('Answers, node vs em'));
    assert.match(text, /\n\nTables, every verdict with its interval: summary\.txt and summary\.md, beside results\.json\.\n$/);
    assert.doesNotMatch(text, /─/, 'no table');
    const failed = decoded([...clear, { ...clear[0], trial: 4, ok: false, failure: 'crashed' }]);
    assert.match(terminalText(failed), /, and 1 warning: summary\.txt/);
    const alone = decoded(clear.filter((r) => r.server === 'node'));
    assert.match(terminalText(alone), /^\s+─+ node ─+\n/);
  });

  it('one trial a side has no interval: not judged, "1 trial: no interval", neither decided nor undecided', () => {
    const one = decoded([trialRun('node', 's', 1, 1, 1000), trialRun('em', 's', 1, 2, 500)]);
    assert.match(scenarioLine(one, 's'), /^not judged: mean, p50, req\/s, CPU\/req, RSS \(1 trial: no interval\), p99 \(n too small\)$/);
    assert.deepEqual(decidedShare(one), { decided: 0, judgeable: 0, undecided: 0 });
  });
});
