'use strict';
// A cross-check's comparison as the terminal and crosscheck.md show it
// (perf/lib/text/crosscheck_format.js): the table with its numbered notes, the legend, the
// servers' verdicts by engine, what each engine's latency is, the runs; and the document in
// words as crosscheck.json stores it; on a made-up report in the form
// perf/lib/judge/crosscheck.js buildReport gives (verdicts, notes and agreements as codes, no
// labels, the built-in engines' latency unsaid).

const assert = require('node:assert/strict');
const { crosscheckWords, toText, toMarkdown } = require('../../../perf/lib/text/crosscheck_format');

const side = (centre, n = 3) => ({ centre, n });

/** A report of autocannon against httperf on node's sequential_6000, three trials each. */
function report(over = {}) {
  return {
    engines: ['autocannon', 'httperf'],
    repeat: 3,
    quick: true,
    rows: [
      { server: 'node', scenario: 'sequential_6000', metric: 'throughput_rps', a: side(1000), b: side(1020.4, 2), ratio: 1.0204, ci95: [0.9812, 1.0611], verdict: 'agree', notes: [] },
      { server: 'node', scenario: 'sequential_6000', metric: 'mean_ms', a: side(0.31), b: side(0.3), ratio: 0.9677, ci95: [0.8, 1.2], verdict: 'agree (resolution)', notes: ['httperf_reply_time', 'sequential_from_open'] },
      { server: 'node', scenario: 'sequential_6000', metric: 'p99_ms', a: side(1.2), b: side(null, 0), ratio: null, ci95: null, verdict: 'n/a', notes: [{ code: 'not_measured_by', engine: 'httperf' }, 'httperf_reply_time'] },
      { server: 'node', scenario: 'keepalive_400x100', metric: null, verdict: 'no_data', notes: [{ code: 'ok_trials', trials: { autocannon: 3, httperf: 0 } }] },
    ],
    tally: { agree: 1, 'agree (resolution)': 1 },
    groups: [{ server: 'node', scenario: 'sequential_6000', engine_runs: { autocannon: 'sequential', httperf: 'httperf' }, commands: { autocannon: null, httperf: 'httperf --num-conns 2000' }, latency_basis: { autocannon: null, httperf: 'connection time' } }],
    server_verdicts: [],
    skipped: [],
    failures: [],
    interrupted: false,
    margin: 0.1,
    ...over,
  };
}

describe('crosscheck format: the terminal', () => {
  it('the table: each engine\'s centre (with n where a trial is missing), the ratio and interval, the verdict, note numbers', () => {
    const lines = toText(report()).split('\n');
    assert.match(lines[0], /^server\s+scenario\s+metric\s+autocannon\s+httperf\s+httperf\/autocannon\s+95% CI\s+verdict\s+notes$/);
    assert.match(lines[1], /^node\s+sequential_6000\s+req\/s\s+1,000\s+1,020 \(n=2\)\s+1\.020\s+\[0\.981, 1\.061\]\s+agree within ±10 %$/);
    assert.match(lines[2], /^node\s+sequential_6000\s+mean ms\s+0\.31\s+0\.3\s+0\.968\s+\[0\.800, 1\.200\]\s+agree within ±10 % \(resolution\)\s+1,2$/);
    assert.match(lines[3], /^node\s+sequential_6000\s+p99 ms\s+1\.20\s+– \(n=0\)\s+–\s+–\s+n\/a\s+3,1$/);
    assert.match(lines[4], /^node\s+keepalive_400x100\s+–\s+no data\s+4$/);
  });

  it('the tally, the legend, every note once and numbered in order of first use, the engines\' latencies and the runs', () => {
    const text = toText(report());
    assert.match(text, /^comparable rows: agree within ±10 % 1, agree within ±10 % \(resolution\) 1$/m);
    assert.match(text, /^Verdict: agree within ±10 % = the whole interval lies within the margin/m);
    assert.match(toText(report({ margin: 0.4 })), /^comparable rows: agree within ±40 % 1, agree within ±40 % \(resolution\) 1$/m, 'in words at the margin they were decided at');
    assert.match(text, /^autocannon vs httperf: 3 trials each \(--quick: counts ÷20\), engines interleaved\./m);
    assert.match(text, /^autocannon here means the built-in engines/m);
    assert.match(text, /\nnotes:\n {2}1\. httperf: reply time = response \+ transfer \(mean only\); 0\.1 ms steps\n {2}2\. sequential: counted from opening the connection\n {2}3\. httperf does not measure it\n {2}4\. ok trials: autocannon 3, httperf 0\n/);
    assert.match(text, /\nlatency, by engine:\n {2}sequential: sequential engine: from opening the connection \(connect included\) to the last byte of the reply; exact, every reply\n {2}httperf: connection time\n/);
    assert.match(text, /\nruns:\n {2}node sequential_6000: autocannon = sequential; httperf = httperf \(httperf --num-conns 2000\)\n$/);
    assert.doesNotMatch(text, /skipped:|failed runs|INTERRUPTED|Server verdicts/);
    assert.equal(toText(report({ tally: {} })).split('\n').find((l) => l.startsWith('comparable rows')), 'comparable rows: none');
  });

  it('what was skipped or failed, and an interrupted cross-check, at the end', () => {
    const text = toText(report({ skipped: [{ scenario: 'slow_read', engine: 'httperf', reason: 'no slow clients' }], failures: ['node sequential_6000 httperf trial 2: exit 1'], interrupted: true }));
    assert.match(text, /\nskipped:\n {2}slow_read: httperf cannot run it faithfully \(no slow clients\)\n\nfailed runs \(left out\):\n {2}node sequential_6000 httperf trial 2: exit 1\n\nINTERRUPTED: the comparison covers the trials that finished\.\n$/);
  });

  it('the servers\' verdicts by engine: each engine\'s ratio and interval, whether they agree and overlap', () => {
    const verdicts = [
      { scenario: 'sequential_6000', metric: 'throughput_rps', ratio: 'node / em', engines: { autocannon: { ratio: 2.01, ci95: [1.9, 2.1] }, httperf: { ratio: 1.95, ci95: [1.8, 2.05] } }, agreement: 'both_same', intervals_overlap: true },
      { scenario: 'sequential_6000', metric: 'mean_ms', ratio: 'node / em', engines: { autocannon: { ratio: 0.5, ci95: null }, httperf: null }, agreement: 'cannot_tell', intervals_overlap: null },
    ];
    const text = toText(report({ server_verdicts: verdicts }));
    assert.match(text, /^Server verdicts by engine \(ratio node \/ em; each engine's answer: a winner, the same within the margin, or undecided; "same winner" and "both the same" agree, "opposite" and "contradict" do not\):$/m);
    assert.match(text, /^scenario\s+metric\s+autocannon: node \/ em \[95% CI\]\s+httperf: node \/ em \[95% CI\]\s+verdicts\s+CIs overlap$/m);
    assert.match(text, /^sequential_6000\s+req\/s\s+2\.010 \[1\.900, 2\.100\]\s+1\.950 \[1\.800, 2\.050\]\s+both the same within ±10 %\s+yes$/m);
    assert.match(text, /^sequential_6000\s+mean ms\s+0\.500 –\s+–\s+cannot tell\s+–$/m);
  });
});

describe('crosscheck format: crosscheck.md', () => {
  it('a title, the table with its alignment (a | in a cell escaped), the legend as a list, the notes numbered', () => {
    const md = toMarkdown(report());
    const lines = md.split('\n');
    assert.equal(lines[0], '# Cross-check: autocannon vs httperf');
    assert.equal(lines[2], '| server | scenario | metric | autocannon | httperf | httperf/autocannon | 95% CI | verdict | notes |');
    assert.equal(lines[3], '| --- | --- | --- | ---: | ---: | ---: | --- | --- | --- |');
    assert.equal(lines[4], '| node | sequential_6000 | req/s | 1,000 | 1,020 (n=2) | 1.020 | [0.981, 1.061] | agree within ±10 % |  |');
    assert.match(md, /^- autocannon vs httperf: 3 trials each/m);
    assert.match(md, /^## Notes\n\n1\. httperf: reply time = response \+ transfer \(mean only\); 0\.1 ms steps\n2\. sequential: counted from opening the connection\n/m);
    assert.match(md, /^## Runs\n\n- node sequential_6000: autocannon = sequential; httperf = httperf \(httperf --num-conns 2000\)$/m);
    assert.doesNotMatch(md, /## Server verdicts|## Skipped|## Failed|Interrupted/);
    const [first] = report().rows;
    assert.match(toMarkdown(report({ rows: [{ ...first, server: 'no|de' }] })), /^\| no\\\|de \| sequential_6000 \| req\/s \| 1,000 \|/m, 'a | in a cell does not end it');
  });

  it('the servers\' verdicts, skipped scenarios, failed runs and an interruption get their own parts', () => {
    const verdicts = [{ scenario: 's', metric: 'throughput_rps', ratio: 'node / em', engines: { autocannon: { ratio: 2, ci95: [1.9, 2.1] }, httperf: { ratio: 1, ci95: [0.9, 1.1] } }, agreement: 'only_first', intervals_overlap: false }];
    const md = toMarkdown(report({ server_verdicts: verdicts, skipped: [{ scenario: 'slow_read', engine: 'httperf', reason: 'no slow clients' }], failures: ['a failure'], interrupted: true }));
    assert.match(md, /^## Server verdicts by engine\n\nRatio node \/ em; each engine's answer: /m);
    assert.match(md, /^\| s \| req\/s \| 2\.000 \[1\.900, 2\.100\] \| 1\.000 \[0\.900, 1\.100\] \| only autocannon decided \| no \|$/m);
    assert.match(md, /\n## Skipped\n\n- slow_read: httperf cannot run it faithfully \(no slow clients\)\n\n## Failed runs \(left out\)\n\n- a failure\n\n\*\*Interrupted:\*\* the comparison covers the trials that finished\.\n$/);
  });
});

describe('crosscheck format: crosscheck.json', () => {
  it('the document in words: each label, verdict and note, the tally\'s keys, each agreement and each engine\'s latency as the text gives them; the margin is in them', () => {
    const verdicts = [
      { scenario: 's', metric: 'throughput_rps', ratio: 'node / em', engines: {}, agreement: 'same_vs_clear', intervals_overlap: false },
      { scenario: 's', metric: 'mean_ms', ratio: 'node / em', engines: {}, agreement: 'only_second', intervals_overlap: true },
    ];
    const doc = crosscheckWords(report({ server_verdicts: verdicts }));
    assert.deepEqual(doc.rows.map((r) => r.verdict), ['agree within ±10 %', 'agree within ±10 % (resolution)', 'n/a', 'no data']);
    assert.deepEqual(doc.rows.map((r) => r.label), ['req/s', 'mean ms', 'p99 ms', null]);
    assert.deepEqual(doc.rows[2].notes, ['httperf does not measure it', 'httperf: reply time = response + transfer (mean only); 0.1 ms steps']);
    assert.deepEqual(doc.groups[0].latency_basis, { autocannon: 'sequential engine: from opening the connection (connect included) to the last byte of the reply; exact, every reply', httperf: 'connection time' });
    assert.deepEqual(doc.server_verdicts.map((v) => v.label), ['req/s', 'mean ms']);
    assert.deepEqual(doc.tally, { 'agree within ±10 %': 1, 'agree within ±10 % (resolution)': 1 });
    assert.deepEqual(doc.server_verdicts.map((v) => v.agreement), ['contradict: one a clear winner, the other the same', 'only httperf decided']);
    assert.ok(!('margin' in doc));
    assert.deepEqual(Object.keys(doc.rows[0]), ['server', 'scenario', 'metric', 'label', 'a', 'b', 'ratio', 'ci95', 'verdict', 'notes'], 'each field where it was, the label after the metric');
    assert.deepEqual(Object.keys(doc.server_verdicts[0]), ['scenario', 'metric', 'label', 'ratio', 'engines', 'agreement', 'intervals_overlap']);
  });
});
