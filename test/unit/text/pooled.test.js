'use strict';
// The answers across runs in words (perf/lib/text/pooled.js): a winner with its interval in its
// own favour, the same within the margin, undecided, "depends on the machine" naming each host's
// answer, not judged; what each rests on; the README's block of short cells, docs/answers.md,
// and the markers.

const assert = require('node:assert/strict');
const { poolArchive, hostOf, nextRunCheck } = require('../../../perf/lib/judge/meta');
const pooled = require('../../../perf/lib/text/pooled');
const { record, around } = require('../../support/made_up_archive');

const one = (records) => poolArchive(records)[0];

describe('pooled answers in words', () => {
  it('why a run\'s answer is not judged: a stored reason as it is, an answer short of the first look in words', () => {
    assert.equal(pooled.notJudgedWords({ code: 'short_of_first_look', rounds: 2 }), '2 rounds, short of the first look');
    assert.equal(pooled.notJudgedWords('set by the rate'), 'set by the rate');
    assert.equal(pooled.notJudgedWords(null), null);
  });

  it('names the winner with its factor and its interval in its own favour', () => {
    // node ÷ em req/s about 0.56: em serves 1.79× node's requests.
    const p = one(around('AMD EPYC', [0.56, 0.56, 0.56]));
    assert.equal(pooled.answerWords(p), 'em 1.79× more req/s [1.68–1.90]');
    assert.equal(pooled.basisWords(p), '3 runs, 1 host, I² 0 %');
  });

  it('reads "lower is better" metrics from the winner\'s side too', () => {
    const p = one(around('AMD EPYC', [2, 2, 2], 0.05, { subject: 'bigfile_100k', metric: 'mean_ms', better: 'lower' }));
    assert.match(pooled.answerWords(p), /^em 2.0× faster mean \[1\.8\d–2\.1\d\]$/);
  });

  it('says "the same" only within the margin, and undecided with the interval of a\'s factor', () => {
    assert.match(pooled.answerWords(one(around('EPYC', [1.0, 1.01, 0.99], 0.02))), /^the same within ±10 % \[0\.9\d–1\.0\d\]$/);
    assert.match(pooled.answerWords(one(around('EPYC', [0.7, 1.4, 1.0], 0.3))), /^undecided: node 0\.\d\d–\d+\.\d+× as good$/);
  });

  it('lists fewer than three runs each with its own answer and its day, said to be not pooled, each winner by its name', () => {
    const two = one([...around('EPYC', [0.56], 0.05, { day: '2026-11-27' }), ...around('EPYC', [1.0], 0.3, { day: '2026-11-29' })]);
    assert.equal(pooled.answerWords(two), 'em 1.79× more req/s [1.70–1.88] (2026-11-27); undecided: node 0.74–1.35× as good (2026-11-29)');
    assert.equal(pooled.basisWords(two), '2 runs (not pooled), 1 host');
    const single = one(around('EPYC', [0.56], 0.05, { day: '2026-11-27' }));
    assert.equal(`${pooled.answerWords(single)} · ${pooled.basisWords(single)}`, 'em 1.79× more req/s [1.70–1.88] (2026-11-27) · 1 run, 1 host');
    // In the README's table the servers are named without their runtimes, each run's winner too.
    const labelled = one(around('EPYC', [0.56, 0.6], 0.05, { a: 'node@node24', b: 'em@ruby33_yjit' }));
    assert.match(pooled.answerWords(pooled.byServerName(labelled)), /^em 1\.79× more req\/s \[1\.70–1\.88\] \(2026-11-27\); em 1\.67× more req\/s \[1\.5\d–1\.7\d\]/);
  });

  it('says "depends on the machine" with each host\'s answer', () => {
    const p = one([...around('AMD EPYC', [0.66, 0.68, 0.65]), ...around('Intel Xeon', [1.2, 1.22, 1.19])]);
    assert.equal(pooled.answerWords(p), 'depends on the machine: em 1.51× on 3 runs of AMD EPYC, node 1.2× on 3 runs of Intel Xeon');
    assert.equal(pooled.basisWords(p).split(', ').slice(0, 2).join(', '), '6 runs, 2 hosts');
  });

  it('says a comparison no run could judge was not judged, and why the latest could not', () => {
    const p = one([record('a', 'EPYC', null, null), record('b', 'EPYC', null, null)]);
    assert.equal(pooled.answerWords(p), 'not judged in any of 2 runs');
    assert.equal(pooled.basisWords(p), '2 runs, none judged (the latest: below the resolution)');
  });

  it('counts the runs measured before a change to their server or method: left out beside current ones, history without them', () => {
    const records = around('EPYC', [0.56, 0.56]);
    records[1].stale = { [records[1].answers[0].key]: true };
    assert.equal(pooled.basisWords(one(records)), '1 run, 1 host, 1 earlier run, before a change to its server or method, not pooled');
    records[0].stale = { [records[0].answers[0].key]: true };
    assert.match(pooled.basisWords(one(records)), /^2 runs \(not pooled\), 1 host, all measured before a change to its server or method \(history\)$/);
  });

  it('says an answer in a short cell: the factor and its interval only, then the runs and hosts, "history" for runs before a change', () => {
    const p = one(around('AMD EPYC', [0.56, 0.57, 0.55]));
    assert.match(pooled.shortAnswer(p), /^em 1\.\d+× \[[\d.]+–[\d.]+\]$/);
    assert.equal(pooled.shortBasis(p), '3 runs, 1 host');
    assert.match(pooled.shortBasis(p, { i2: true }), /^3 runs, 1 host, I² \d+ %$/);
    const depends = one([...around('AMD EPYC', [0.66, 0.68, 0.65]), ...around('Intel Xeon', [1.2, 1.22, 1.19])]);
    assert.equal(pooled.shortAnswer(depends), 'depends on the host: em 1.51×, node 1.2×');
    assert.equal(pooled.shortAnswer(one([record('a', 'EPYC', null, null)])), 'not judged');
    const records = around('EPYC', [0.56, 0.56]);
    records[1].stale = { [records[1].answers[0].key]: true };
    assert.equal(pooled.shortBasis(one(records)), '1 run, 1 host, +1 earlier');
    records[0].stale = { [records[0].answers[0].key]: true };
    const few = one(records);
    assert.match(pooled.shortAnswer(few), /^em 1\.\d+× \[[\d.]+–[\d.]+\]; em 1\.\d+× \[[\d.]+–[\d.]+\]$/);
    assert.equal(pooled.shortBasis(few), '2 runs, 1 host, history');
    assert.match(pooled.HISTORY_LEGEND, /^"history": measured before a change to its server or method/);
  });

  // Pairs as perf/lib/plan/questions.js eraPairs gives them: each side SERVER@RUNTIME.
  const ON = { node: 'node24', em: 'ruby33_yjit', async: 'ruby33_yjit', node_tuned: 'node24', em_tuned: 'ruby33_yjit', async_tuned: 'ruby33_yjit' };
  const pairOf = (a, b, label, era = 'today', on = ON) => ({ a: `${a}@${on[a]}`, b: `${b}@${on[b]}`, label, era, names: { a, b } });
  const runtimeLabelOf = (id) => ({ node24: 'Node 24', ruby33_yjit: 'Ruby 3.3 + YJIT', node20: 'Node 20', ruby31: 'Ruby 3.1' })[id];

  it('writes the README\'s block: for each era of runtimes, a row per headline question, a column per pair some run measured, each answer with what it rests on', () => {
    const sides = { a: 'node@node24', b: 'em@ruby33_yjit' };
    const records = [...around('AMD EPYC', [0.56, 0.56], 0.05, { day: '2026-11-27', ...sides }), ...around('Intel Xeon', [0.6], 0.05, { day: '2026-11-28', ...sides })];
    const answers = poolArchive(records);
    const questions = [
      { id: 'q1', topic: 'A new connection per request', question: 'throughput', subject: 'short_conn_256', metric: 'throughput_rps' },
      { id: 'q2', question: 'Never measured', subject: 'nowhere', metric: 'throughput_rps' },
    ];
    const history = { node: 'node20', em: 'ruby31' };
    const pairs = [pairOf('node', 'em', 'defaults'), pairOf('node_tuned', 'em_tuned', 'both tuned'), pairOf('node', 'em', 'defaults', 'history', history)];
    const pooledOf = (q, pair) => answers.find((p) => p.subject === q.subject && p.metric === q.metric && p.a === pair.a && p.b === pair.b) || null;
    const lines = pooled.readmeBlock({ questions, pairs, records, hostOf, pooledOf, runtimeLabelOf, claimOf: () => null, images: ['![answers](docs/answers_node_vs_em.svg)'] });
    // The legend first, once: what a cell's words mean.
    assert.match(lines[0], /^Each cell: the winner, how many times better/);
    assert.equal(lines.filter((l) => l.includes('measured before a change to its server or method')).length, 1);
    assert.equal(lines[2], "**Today's runtimes: Node 24 and Ruby 3.3 + YJIT.** Pooled over 3 full runs (2026-11-27 to 2026-11-28) on 2 hosts.");
    // No run measured the tuned pair: no column for it; the servers by name, the heading names their runtimes.
    assert.equal(lines[4], '| question | defaults: node vs em |');
    // A cell: the factor and its interval, then the runs and hosts.
    assert.match(lines[6], /^\| A new connection per request: throughput \| em 1\.\d+× \[[\d.]+–[\d.]+\] · 3 runs, 2 hosts \|$/);
    assert.equal(lines[7], '| Never measured | not measured |');
    // History's era, which no run measured: said so, with the command that makes one.
    assert.deepEqual(lines.slice(9, 11), ['**History: Node 20 and Ruby 3.1.**', 'No full run of them is in the archive yet: `scripts/run_scenarios.sh` makes one (it installs them first).']);
    assert.equal(lines[lines.length - 1], '![answers](docs/answers_node_vs_em.svg)');
    assert.match(pooled.readmeBlock({ questions, pairs, records: [], hostOf, pooledOf, runtimeLabelOf, claimOf: () => null })[0], /^No full run is in the archive yet/);
  });

  it('splits the README\'s block into a table per label where more than three pairs were measured', () => {
    const sides = [['node', 'em'], ['node', 'async'], ['em', 'async'], ['node_tuned', 'em_tuned'], ['node_tuned', 'async_tuned'], ['em_tuned', 'async_tuned']];
    const pairs = sides.map(([a, b]) => pairOf(a, b, a.endsWith('_tuned') ? 'both tuned' : 'defaults'));
    const records = pairs.flatMap(({ a, b }) => around('AMD EPYC', [0.56, 0.56], 0.05, { a, b }));
    const answers = poolArchive(records);
    const questions = [{ id: 'q1', topic: 'A new connection per request', question: 'throughput', subject: 'short_conn_256', metric: 'throughput_rps' }];
    const pooledOf = (q, pair) => answers.find((p) => p.subject === q.subject && p.metric === q.metric && p.a === pair.a && p.b === pair.b) || null;
    const lines = pooled.readmeBlock({ questions, pairs, records, hostOf, pooledOf, runtimeLabelOf, claimOf: () => null });
    const heads = lines.filter((l) => l.startsWith('| question'));
    assert.deepEqual(heads, [
      '| question | defaults: node vs em | defaults: node vs async | defaults: em vs async |',
      '| question | both tuned: node_tuned vs em_tuned | both tuned: node_tuned vs async_tuned | both tuned: em_tuned vs async_tuned |',
    ]);
    // Two pairs measured: one table, as a reader of two columns expects.
    const two = pooled.readmeBlock({ questions, pairs: [pairs[0], pairs[3]], records, hostOf, pooledOf, runtimeLabelOf, claimOf: () => null });
    assert.deepEqual(two.filter((l) => l.startsWith('| question')), ['| question | defaults: node vs em | both tuned: node_tuned vs em_tuned |']);
  });

  it('says each host\'s calibration beside its runs, where they measured one', () => {
    const records = around('AMD EPYC', [0.56, 0.56, 0.56]);
    records[0].calibration = { server: 'libevent', cpu_ms_per_request: 0.0121 };
    records[2].calibration = { server: 'libevent', cpu_ms_per_request: 0.0125 };
    const lines = pooled.answersDocument({ pooled: poolArchive(records), records, hostOf });
    assert.ok(lines.some((l) => /^Pooled over 3 full runs .* on 1 host \(AMD EPYC: 3, calibration 0\.0121–0\.0125 ms CPU\/req\)/.test(l)));
  });

  it('writes docs/answers.md: a list of the pairs, then a table per pair with every comparison', () => {
    const records = around('AMD EPYC', [0.56, 0.56, 0.56]);
    const lines = pooled.answersDocument({ pooled: poolArchive(records), records, hostOf });
    assert.equal(lines[0], '# Answers across runs');
    assert.ok(lines.includes('- [node vs em](#node-vs-em)'));
    assert.ok(lines.includes('## node vs em'));
    assert.ok(lines.some((l) => /^\| short_conn_256 \| req\/s \| em 1\.79× more req\/s \[[\d.]+–[\d.]+\] \| 3 runs, 1 host, I² \d+ % \|$/.test(l)));
    assert.match(pooled.answersDocument({ pooled: [], records: [], hostOf }).pop(), /^No full run is in the archive yet/);
    // With each run set against the others: how many answers lie beyond, with τ² and without.
    const checked = pooled.answersDocument({ pooled: poolArchive(records), records, hostOf, nextRun: nextRunCheck(poolArchive(records)) });
    assert.ok(checked.includes('Each current run\'s answer set against the pool of the other runs of its comparison: 0 of 3 (0.0 %) beyond their 95 % across runs (the between-run τ² added, as a quick run\'s "across runs" interval adds it; about 5 % expected), 0 of 3 (0.0 %) beyond each run\'s own noise alone.'), checked.join('\n'));
    assert.equal(pooled.nextRunWords({ n: 0, beyond: 0, beyondOwn: 0 }), null);
  });

  it('replaces what lies between a block\'s markers, and refuses a document without them', () => {
    const doc = 'intro\n<!-- answers:begin: generated -->\nold\nlines\n<!-- answers:end -->\nafter\n';
    assert.equal(pooled.withBlock(doc, 'answers', ['new']), 'intro\n<!-- answers:begin: generated -->\nnew\n<!-- answers:end -->\nafter\n');
    assert.throws(() => pooled.withBlock('no markers', 'answers', ['x']), /no <!-- answers:begin --> … <!-- answers:end --> markers/);
  });
});
