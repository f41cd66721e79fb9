'use strict';
// A quick run's terminal (perf/lib/text/questions.js): one line per headline question
// (perf/questions.json), from made-up trials whose answers are known, and what its budget left.

const assert = require('node:assert/strict');
const { headlineLines } = require('../../../perf/lib/text/questions');
const { terminalText } = require('../../../perf/lib/text/answers');
const { headline } = require('../../../perf/lib/plan/questions');
const { trialRun, decoded } = require('../../support/made_up_results');

/** Three trials of node and em in a scenario; each side's values from a (trial → fields) function. */
function trials(scenario, node, em) {
  return [1, 2, 3].flatMap((t) => [trialRun('node', scenario, t, ...node(t)), trialRun('em', scenario, t, ...em(t))]);
}

describe('text: a quick run answers the headline questions, a line each', () => {
  // em twice as fast on a new connection per request; the keep-alive sessions too noisy to say.
  const runs = [
    ...trials('short_conn_256', (t) => [2 + t / 100, 1000 - t], (t) => [1 + t / 100, 2000 + t]),
    ...trials('keepalive_400x100', (t) => [[1, 1.6, 0.7][t - 1], [1000, 700, 1400][t - 1]], (t) => [[1.3, 0.8, 1.1][t - 1], [800, 1300, 1000][t - 1]]),
  ];
  const left = [{ name: 'hello_per_connection', kind: 'ramp', questions: ['per_connection_sustainable'], cost_s: 77 }];
  const options = { headline: { budget_s: 165, chosen: [], left } };
  const results = decoded(runs, { environment: { options } });

  it('every question once, in the file\'s order: a winner with its factor and interval, the undecided with theirs, what was not measured and why', () => {
    const lines = headlineLines(results);
    const { questions } = headline();
    assert.equal(lines[0], 'The headline questions, node vs em (each runtime\'s defaults; 95 % intervals of the factor):');
    assert.equal(lines.length, 1 + questions.length + 2, lines.join('\n'));
    const line = (id) => {
      const q = questions.find((x) => x.id === id);
      return lines.find((l) => l.trim().startsWith(`${q.topic}, ${q.question}`));
    };
    assert.match(line('per_connection_throughput'), /em 2\.01× more req\/s \[2\.00–2\.01\]$/);
    assert.match(line('keepalive_throughput'), /undecided: node [\d.]+–[\d.]+× as good$/);
    assert.match(line('memory'), /the same within ±10 % /);
    assert.match(line('per_connection_sustainable'), /not measured: the budget bought the others first \(its ramp hello_per_connection about 1 min 17 s more\)$/);
    assert.match(line('seed_002_sequential'), /not measured in this run$/);
    assert.equal(lines[lines.length - 2], 'These intervals are this run\'s own noise, not the next run\'s: the archive has fewer than 3 full runs of these comparisons on these runtimes to say how much runs differ.');
    assert.equal(lines[lines.length - 1], 'Not measured in this budget: hello_per_connection; scripts/run_scenarios.sh --quick --budget 5min measures them too, a full run (no --quick) everything.');
  });

  it('where the archive knows how much full runs differ, the answer across runs beside the run\'s own: wider, and judged again', () => {
    const asked = [];
    // A between-run sd of 0.3 on the log scale, from 30 runs, for the new-connection throughput only.
    const spreadOf = (answer) => {
      asked.push(answer.subject);
      return answer.subject === 'short_conn_256' && answer.metric === 'throughput_rps' ? { tau2: 0.09, k: 30 } : null;
    };
    const lines = headlineLines(results, '', spreadOf);
    const q = headline().questions.find((x) => x.id === 'per_connection_throughput');
    const line = lines.find((l) => l.trim().startsWith(`${q.topic}, ${q.question}`));
    // 2.01 × exp(±t₂₉ × 0.3), t₂₉ = 2.05: 1.09–3.71, still em's.
    assert.match(line, /em 2\.01× more req\/s \[2\.00–2\.01\] · across runs: em 2\.01× more req\/s \[1\.09–3\.71\]$/);
    assert.ok(asked.includes('keepalive_400x100'));
    assert.match(lines.find((l) => l.startsWith('"Across runs"')), /\(τ² from 30 runs\): where the answer the runs scatter around likely lies/);
    // An answer the spread leaves on 1 is undecided across runs, whatever the run said.
    const slim = headlineLines(results, '', (answer) => (answer.subject === 'short_conn_256' && answer.metric === 'throughput_rps' ? { tau2: 0.25, k: 3 } : null));
    assert.match(slim.find((l) => l.trim().startsWith(`${q.topic}, ${q.question}`)), /· across runs: undecided: node 0\.06–4\.29× as good$/);
  });

  it('the terminal of a quick run is those lines and where the rest is; any other run keeps its per-scenario answers', () => {
    const text = terminalText(results);
    assert.ok(text.startsWith('The headline questions, node vs em'), text);
    assert.doesNotMatch(text, /^Answers, node vs em/m);
    assert.match(text, /\n\nTables, every verdict with its interval, the ramps' searches(, and \d+ warnings?)?: summary\.txt and summary\.md, beside results\.json\.\n$/);
    assert.deepEqual(headlineLines(decoded(runs)), []);
    assert.ok(terminalText(decoded(runs)).startsWith('Answers, node vs em'));
  });

  it('three runtimes: a block per pair, node vs em first, each answered from its own two sides', () => {
    // async as fast as em on a new connection per request, so node vs async reads as node vs em.
    const three = [...runs, ...[1, 2, 3].map((t) => trialRun('async', 'short_conn_256', t, 1 + t / 100, 2000 + t))];
    const lines = headlineLines(decoded(three, { environment: { options } }));
    const titles = lines.filter((l) => l.startsWith('The headline questions'));
    assert.deepEqual(titles, ['node vs em', 'node vs async', 'em vs async'].map((p) => `The headline questions, ${p} (each runtime's defaults; 95 % intervals of the factor):`));
    const block = (title) => lines.slice(lines.indexOf(titles.find((x) => x.includes(title))) + 1).find((l) => l.includes('throughput of 256 clients'));
    assert.match(block('node vs async'), /async 2\.01× more req\/s \[2\.00–2\.01\]$/);
    assert.match(block('em vs async'), /the same within ±10 % /);
    // keepalive_400x100 has no async run: its questions say so for async's pairs.
    assert.match(lines.slice(lines.indexOf(titles[1])).find((l) => l.includes('throughput of 400 sessions')), /no comparison \(a side did not run it\)$/);
  });
});
