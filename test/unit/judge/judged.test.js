'use strict';
// A results document as every output reads it (perf/lib/judge/judged.js judgeResults over
// perf/lib/store/results_doc.js decodeResults), on made-up documents: stored verdicts used as
// stored (older ones brought up to today's limits), every comparison with its answer, judged on
// reading where the document has none; the pair, the overheads and the memory slopes; and what
// follows from the verdicts, as data for text and the report: which runs count, the pair's
// comparisons the way round it is asked, each p99's resolution.

const assert = require('node:assert/strict');
const { decodeResults } = require('../../../perf/lib/store/results_doc');
const { judgeResults } = require('../../../perf/lib/judge/judged');
const { analyzeRuns } = require('../../../perf/lib/judge/verdicts');
const { verdictWords } = require('../../../perf/lib/text/verdict_words');
const { trialRun, openLoopTrials } = require('../../support/made_up_results');

const judged = (doc, where) => judgeResults(decodeResults(doc, where));

describe('results as judged on reading (judgeResults)', () => {
  // Three trials a side, em's p50 twice node's.
  const runs = [1, 2, 3].flatMap((t) => [trialRun('node', 's', t, 1 + t / 100, 1000), trialRun('em', 's', t, 2 + t / 100, 500)]);
  const p50Of = (results) => results.comparisons.find((c) => c.metric === 'p50_ms');

  it('a document without verdicts is judged on reading, by the runner\'s rule', () => {
    const decoded = judged({ environment: {}, runs });
    assert.deepEqual(decoded.comparisons.map(({ answer: _answer, ...c }) => c), analyzeRuns(runs).comparisons);
    assert.deepEqual(decoded.aggregates, analyzeRuns(runs).aggregates);
    // Stored comparisons without their aggregates are no stored verdicts either.
    assert.equal(p50Of(judged({ runs, comparisons: [] })).winner, 'node');
  });

  it('a document without verdicts is judged with the margin its run asked for (--margin)', () => {
    const decoded = judged({ environment: { options: { margin: 0.3 } }, runs });
    assert.ok(decoded.comparisons.every((c) => c.margin === 0.3));
    assert.equal(judged({ environment: {}, runs }).comparisons[0].margin, 0.1);
  });

  it('stored verdicts are used as stored, not decided again', () => {
    const { comparisons, aggregates } = analyzeRuns(runs);
    // As if another run had found node's p50 only 1.1× better, within the interval: undecided.
    const stored = comparisons.map((c) => (c.metric === 'p50_ms' ? { ...c, ratio: 1 / 1.1, ci95: [0.8, 1.05], significant: false, winner: null, decision: 'undecided', more_measuring: 3 } : c));
    const c = p50Of(judged({ runs, comparisons: stored, aggregates }));
    assert.deepEqual([c.ratio, c.ci95, c.winner, c.answer.kind, verdictWords(c)], [1 / 1.1, [0.8, 1.05], null, 'undecided', 'undecided: node 1.1× faster [0.95–1.25]; about 3× the measuring would decide']);
    // A file written before decisions were stored gets one, with the default margin.
    const older = { ...stored.find((x) => x.metric === 'p50_ms') };
    for (const field of ['decision', 'margin', 'more_measuring']) delete older[field];
    const upgraded = p50Of(judged({ runs, comparisons: [older], aggregates }));
    assert.deepEqual([upgraded.decision, upgraded.margin, upgraded.answer.kind], ['undecided', 0.1, 'undecided']);
    assert.ok(upgraded.more_measuring > 1);
  });

  it('each comparison carries its answer (in words: text/verdict_words.js), and names a winner only where its answer is one', () => {
    const { comparisons, aggregates } = analyzeRuns(runs);
    const claims = comparisons.map((c) => (c.metric === 'p50_ms' ? { ...c, significant: false, decision: 'undecided', winner: 'node' } : c.metric === 'mean_ms' ? { ...c, winner: undefined } : c));
    const decoded = judged({ runs, comparisons: claims, aggregates });
    assert.equal(p50Of(decoded).winner, null, 'a winner stored beside an answer that is none');
    const mean = decoded.comparisons.find((c) => c.metric === 'mean_ms');
    assert.deepEqual([mean.winner, mean.answer.kind, mean.answer.lead], ['node', 'winner', 'node']);
    assert.match(verdictWords(mean), /^node 1\.9\d× faster \[1\.\d\d–2\.\d\d\]$/);
  });

  it('an older file (no no_verdict) is brought up to today\'s limits; a newer one is read as it says', () => {
    const open = openLoopTrials();
    const { comparisons, aggregates } = analyzeRuns(open);
    const older = comparisons.map(({ no_verdict: _noVerdict, ...c }) => (c.metric === 'throughput_rps' ? { ...c, ratio: 1.0001, ci95: [1.00005, 1.00015], significant: true, winner: 'node', decision: 'winner' } : c));
    const rps = judged({ runs: open, comparisons: older, aggregates }).comparisons.find((c) => c.metric === 'throughput_rps');
    assert.deepEqual([rps.no_verdict, rps.ratio, rps.winner, rps.decision, verdictWords(rps)], ['set by the rate', null, null, null, 'set by the rate']);
    const newer = older.map((c) => ({ ...c, no_verdict: null }));
    const kept = judged({ runs: open, comparisons: newer, aggregates }).comparisons.find((c) => c.metric === 'throughput_rps');
    assert.deepEqual([kept.no_verdict, kept.winner], [null, 'node'], 'a file that has no_verdict decided it');
  });

  it('beyond the headline questions, a winner only where the false-discovery control keeps it; the headline questions as judged', () => {
    const runs = ['short_conn_256', 'x'].flatMap((scenario) => [1, 2, 3].flatMap((t) => [trialRun('node', scenario, t, 1, 1000), trialRun('em', scenario, t, 1, 1000)]));
    const stored = (scenario, metric, ci95, decision) => ({ scenario, metric, a: 'node', b: 'em', better: metric === 'throughput_rps' ? 'higher' : 'lower', ratio: Math.sqrt(ci95[0] * ci95[1]), ci95, decision, winner: decision === 'winner' ? 'node' : null, margin: 0.1, method: 'paired', rounds: 5, no_verdict: null, excluded: null, note: null });
    const comparisons = [
      stored('short_conn_256', 'throughput_rps', [1.01, 1.5], 'winner'),
      stored('x', 'throughput_rps', [1.01, 1.5], 'winner'),
      ...['mean_ms', 'p50_ms', 'cpu_ms_per_request', 'peak_rss_mb'].map((metric) => stored('x', metric, [0.7, 1.4], 'undecided')),
    ];
    const results = judged({ runs, comparisons, aggregates: [] });
    const of = (scenario, metric) => results.comparisons.find((c) => c.scenario === scenario && c.metric === metric);
    assert.deepEqual([of('short_conn_256', 'throughput_rps').decision, of('short_conn_256', 'throughput_rps').winner], ['winner', 'node']);
    assert.deepEqual([of('x', 'throughput_rps').decision, of('x', 'throughput_rps').winner], ['undecided', null]);
    assert.match(verdictWords(of('x', 'throughput_rps')), /^undecided: node [\d.]+× more req\/s \[1\.01–1\.50\], a winner at 95 % alone, not kept with false discoveries held at 5 % over the run$/);
    assert.deepEqual(results.falseDiscoveries, { tested: 5, winners: 1, kept: 0, expected_false: 0 });
  });

  it('the pair, the overheads against references, the document\'s parts passed on', () => {
    const doc = { environment: { servers: { node_bare: { reference_for: ['node'] } } }, runs: [trialRun('node_bare', 't', 1, 1, 10), ...runs, trialRun('node', 't', 1, 1, 10)], skipped: [{ server: 'em', scenario: 't', reason: 'x' }], interrupted: 1 };
    const decoded = judged(doc, { dir: '/r', file: '/r/results.json' });
    assert.deepEqual([decoded.servers, decoded.scenarios, decoded.trials, decoded.pair], [['node_bare', 'node', 'em'], ['t', 's'], 3, ['node', 'em']]);
    assert.deepEqual([decoded.dir, decoded.file, decoded.interrupted, decoded.error, decoded.doc, decoded.definitions, decoded.skipped], ['/r', '/r/results.json', true, null, doc, doc.environment.servers, doc.skipped]);
    assert.deepEqual(decoded.overheads.map((o) => [o.scenario, o.server, o.reference]), [['t', 'node', 'node_bare']]);
    const references = judged({ environment: doc.environment, runs: doc.runs.filter((r) => r.server !== 'em') });
    assert.equal(references.pair, null, 'one server and its reference: no pair (their overhead says it)');
    const bare = judged({ runs: [{ server: 'node', scenario: 's', trial: 'x' }] });
    assert.deepEqual([bare.environment, bare.definitions, bare.skipped, bare.trials, bare.pair, bare.interrupted], [{}, {}, [], 1, null, false]);
  });

  it('marks each run: whether a verdict may use it, whether another engine superseded it, its failed requests, the tails its replies resolve', () => {
    const marked = judged({ runs: [
      trialRun('node', 's', 1, 1, 1000, { replies: 20000, errors: { refused: 2, reset: 1, timeout: 0, other: 0 } }),
      trialRun('node', 's', 2, 1, 1000, { client_bound: true, not_judged_because: ['client-bound'] }),
      trialRun('em', 's', 1, 1, 1000, { replies: 200000, superseded_by: 'wrk' }),
      { ...trialRun('em', 's', 2, 1, 1000), ok: false, failure: 'exit 1' },
    ] }).runs;
    assert.deepEqual(marked.map((r) => [r.usable, r.superseded, r.error_count, r.p99_resolved, r.p999_resolved]), [
      [true, false, 3, true, false],
      [false, false, 0, false, false],
      [true, true, 0, true, true],
      [false, false, 0, false, false],
    ]);
  });

  it('the pair\'s comparisons the way round it is asked, and each server\'s p99 resolution per scenario', () => {
    // em's runs first: the comparisons are stored em vs node, the pair is node vs em.
    const emFirst = [...runs].sort((x, y) => (x.server === 'em' ? -1 : 1) - (y.server === 'em' ? -1 : 1));
    const r = judged({ runs: emFirst });
    assert.deepEqual([r.comparisons[0].a, r.pair], ['em', ['node', 'em']]);
    const p50 = r.pairComparisons.find((c) => c.metric === 'p50_ms');
    const stored = p50Of(r);
    assert.deepEqual([p50.a, p50.b, p50.ratio, p50.ci95, p50.answer], ['node', 'em', 1 / stored.ratio, [1 / stored.ci95[1], 1 / stored.ci95[0]], stored.answer]);
    assert.equal(r.pairComparisons.length, r.comparisons.length);
    assert.deepEqual([r.tunedPair, r.tunedComparisons, r.tuning], [null, [], []]);
    // 100 replies a trial resolve no p99; an older file's aggregates without fewest_replies: its finished runs'.
    assert.deepEqual(r.tails.map((t) => [t.server, t.scenario, t.replies, t.p99_resolved]), [['em', 's', 100, false], ['node', 's', 100, false]]);
    const { comparisons, aggregates } = analyzeRuns(runs.map((x) => ({ ...x, replies: 20000 })));
    const older = judged({ runs: runs.map((x) => ({ ...x, replies: 20000 })), comparisons, aggregates: aggregates.map(({ fewest_replies: _n, ...a }) => a) });
    assert.deepEqual(older.tails.map((t) => [t.replies, t.p99_resolved]), [[20000, true], [20000, true]]);
  });

  it('what tuning both does to each answer a winner was named in, with the defaults and both tuned', () => {
    const servers = { node: {}, em: {}, node_tuned: { tuned_of: 'node' }, em_tuned: { tuned_of: 'em' } };
    const tunedRuns = [1, 2, 3].flatMap((t) => [trialRun('node_tuned', 's', t, 1 + t / 100, 1000), trialRun('em_tuned', 's', t, 1.5 + t / 100, 700)]);
    const r = judged({ environment: { servers }, runs: [...runs, ...tunedRuns] });
    assert.deepEqual([r.pair, r.tunedPair], [['node', 'em'], ['node_tuned', 'em_tuned']]);
    assert.ok(r.tunedComparisons.every((c) => c.a === 'node_tuned' && c.b === 'em_tuned'));
    const p50 = r.tuning.find((t) => t.metric === 'p50_ms');
    assert.deepEqual([p50.scenario, p50.effect, p50.defaults.kind, p50.defaults.lead, p50.tuned.lead], ['s', 'remains', 'winner', 'node', 'node'], 'the tuned winner named by its base server');
  });

  it('gives stored memory slopes of older files their at_most_kb', () => {
    const slope = { kb_per_connection: 12.8, ci95: [-10.4, 35.9], n: 3, base_mb: 40, connections: [250, 500] };
    const r = judged({ runs, held: { bound_ms: 10, servers: { em: { held: 354, memory: slope } } }, waiting: { bound_ms: 10, scenarios: [], memory: { em: { runs: null, search: slope } } } });
    assert.deepEqual([r.held.servers.em.memory.at_most_kb, r.waiting.memory.em.search.at_most_kb, r.waiting.memory.em.runs], [35.9, 35.9, null]);
  });
});
