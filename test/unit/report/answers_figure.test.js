'use strict';
// The README's forest plots of the answers across runs (perf/lib/report/answers_figure.js): one
// per pair of runtimes on their defaults that the archive answers, none for a pair it does not.

const assert = require('node:assert/strict');
const path = require('node:path');
const { answersFigures, answersForest } = require('../../../perf/lib/report/answers_figure');

const questions = [
  { id: 'memory', question: 'peak RSS', subject: 'keepalive_400x100', metric: 'peak_rss_mb', topic: 'Memory' },
  { id: 'cpu', question: 'server CPU per request', subject: 'long_conn_256', metric: 'cpu_ms_per_request', topic: 'Keep-alive requests' },
];
// As perf/lib/plan/questions.js eraPairs gives them: today's runtimes, then history's.
const pairOf = (a, b, label, era = 'today') => ({ a, b, label, era, names: { a, b } });
const pairs = [
  pairOf('node', 'em', 'defaults'),
  pairOf('node', 'async', 'defaults'),
  pairOf('em', 'async', 'defaults'),
  pairOf('node_tuned', 'em_tuned', 'both tuned'),
  pairOf('node', 'async', 'defaults', 'history'),
];
const record = { started_at: '2026-11-28T05:36:23Z', host: { cpu_model: 'AMD EPYC' } };
/** A pooled answer of one run: a ÷ b = ratio (lower is better), its interval ci, won by winner. */
const pooled = (ratio, ci, winner) => ({
  better: 'lower', ratio, ci95: ci, decision: 'winner', winner, k: 1, hosts: ['AMD EPYC'], i2: null, margin: 0.1,
  runs: [{ record, answer: { ratio, ci95: ci, log_se: 0.05, decision: 'winner', winner } }],
});
// The archive answers node vs em and em vs async (and the tuned pair), not node vs async.
const answered = { 'node vs em': pooled(2, [1.8, 2.2], 'em'), 'em vs async': pooled(0.5, [0.45, 0.55], 'em'), 'node_tuned vs em_tuned': pooled(1.5, [1.4, 1.6], 'em_tuned') };
const answers = { questions, pairs, pooledOf: (q, pair) => (q.id === 'memory' ? answered[`${pair.a} vs ${pair.b}`] || null : null) };

describe('answers figure: a forest plot per pair of runtimes on their defaults', () => {
  it('one per default pair the archive answers, each in its own file named by the pair, none for the tuned pair; of the first era it answers only', async () => {
    const figures = await answersFigures(answers);
    assert.deepEqual(figures.map((f) => path.basename(f.file)), ['answers_node_vs_em.svg', 'answers_em_vs_async.svg']);
    // History's node vs async is answered too, but today's pairs are the README's pictures.
    const withHistory = { ...answers, pooledOf: (q, pair) => (pair.era === 'history' && q.id === 'memory' ? pooled(2, [1.8, 2.2], 'async') : answers.pooledOf(q, pair)) };
    assert.deepEqual((await answersFigures(withHistory)).map((f) => path.basename(f.file)), ['answers_node_vs_em.svg', 'answers_em_vs_async.svg']);
    const onlyHistory = { ...answers, pooledOf: (q, pair) => (pair.era === 'history' && q.id === 'memory' ? pooled(2, [1.8, 2.2], 'async') : null) };
    assert.deepEqual((await answersFigures(onlyHistory)).map((f) => path.basename(f.file)), ['answers_node_vs_async.svg']);
    assert.match(figures[1].markdown, /^!\[Forest plot: em against async on each headline question[^\]]*\]\(docs\/answers_em_vs_async\.svg\)$/);
    for (const f of figures) assert.match(f.svg, /^<\?xml [^]*<svg [^]*<\/svg>\s*$/);
  });

  it('a pair\'s forest: the pooled line of each question it answers with an interval, its runs\' lines under it', () => {
    const input = answersForest(answers, pairs[2]);
    assert.deepEqual(input.rows.map((r) => [r.group, r.kind]), [['Memory', 'pooled'], ['Memory', 'run']]);
    assert.equal(input.rows[0].favours_b, 0.5, 'lower is better: a ÷ b is how many times b is better');
    assert.equal(answersForest(answers, pairs[1]), null, 'a pair no run answered');
  });

  it('too few runs to pool (judge/meta.js MIN_POOLED_RUNS): each run\'s own line, no pooled line', () => {
    const few = { ...pooled(2, [1.8, 2.2], 'em'), ratio: null, ci95: null, decision: 'few', winner: null };
    const input = answersForest({ questions, pooledOf: (q) => (q.id === 'memory' ? few : null) }, pairs[0]);
    assert.deepEqual(input.rows.map((r) => [r.group, r.kind, r.winner]), [['Memory', 'run', 'em']]);
  });
});
