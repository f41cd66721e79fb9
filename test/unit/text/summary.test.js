'use strict';
// The summary of a run (perf/lib/text/summary.js): the terminal's table (toText), summary.md
// (toMarkdown) and summary.csv (toCsv), each formatting results as read and judged (decodeResults,
// judgeResults): centres per server, the verdicts with their intervals, the engine a verdict
// came from, no p99 where too few requests lie above it.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { toText, toMarkdown, toCsv } = require('../../../perf/lib/text/summary');
const trials = require('../../../perf/lib/judge/verdicts');
const { comparisons } = require('../../../perf/lib/report/headline');
const { decodeResults } = require('../../../perf/lib/store/results_doc');
const { judgeResults } = require('../../../perf/lib/judge/judged');

/** A document as every output reads it: decoded, then judged. */
const read = (doc) => judgeResults(decodeResults(doc));
const { madeUpRun: run, trialRun, decoded: results, openLoopTrials } = require('../../support/made_up_results');

const { verdictEngines } = trials;

describe('trials: the summary table shows ratios with their intervals', () => {
  const { trialRun: run, decoded } = require('../../support/made_up_results');
  const runs = [1, 2, 3].flatMap((t) => [run('node', 'sequential', t, 1 + t / 50, 1000 - t), run('em', 'sequential', t, 2 + t / 50, 500 + t)]);

  it('terminal: centres, then the verdicts with intervals', () => {
    const text = toText(decoded(runs));
    assert.match(text, /^Each cell is the centre \(geometric mean\) of up to 3 trials/m);
    assert.match(text, /^Verdicts, node vs em: ratio = node ÷ em, 95 % confidence intervals over the trials/m);
    assert.match(text, /^sequential\s+mean ms\s+[\d.]+\s+[\d.]+\s+0\.\d+\s+\[0\.\d+–0\.\d+\]\s+node 1\.\d\d× faster \[[\d.]+–[\d.]+\]$/m);
    assert.match(text, /^\s+RSS MB\s+50\.0\s+50\.0\s+1\.000\s+\[1\.00–1\.00\]\s+same within ±10 % \[1\.00–1\.00\]$/m);
  });

  it('markdown and CSV carry the same', () => {
    const md = toMarkdown(decoded(runs));
    assert.match(md, /^\| scenario \| metric \| node \| em \| node\/em \| 95% CI \| verdict \|$/m);
    const csv = toCsv(decoded(runs)).trim().split('\n');
    const head = csv[0].split(',');
    assert.ok(head.includes('node_over_em_p99_ms') && head.includes('node_over_em_p99_ms_lo') && head.includes('node_trials'));
    // Cells may be quoted ("n too small (300 requests; p99 needs 10,000)").
    const cells = (line) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].filter((m) => m.index < line.length || m[1] !== '').map((m) => m[1].replace(/^"|"$/g, ''));
    const row = Object.fromEntries(head.map((h, i) => [h, cells(csv[1])[i]]));
    assert.equal(cells(csv[1]).length, head.length);
    assert.equal(row.node_trials, '3');
    assert.ok(Number(row.node_over_em_p50_ms_lo) < Number(row.node_over_em_p50_ms) && Number(row.node_over_em_p50_ms) < Number(row.node_over_em_p50_ms_hi));
  });

  it('paired rounds: the cells are centres of rounds, the intervals from the paired differences', () => {
    const paired = decoded(runs, { environment: { options: { design: 'rounds', looks: [5, 10, 20, 40] } } });
    for (const out of [toText(paired), toMarkdown(paired)]) {
      assert.match(out, /^Each cell is the centre \(geometric mean\) of up to 3 rounds/m);
      assert.match(out, /95 % confidence intervals from paired rounds \(Student t on the rounds' paired log differences, looked at after 5, 10, 20, 40 rounds at 98\.75 % each, Bonferroni\)/);
      assert.doesNotMatch(out, /Welch/);
    }
  });

  it('one trial: "1 trial: no interval"', () => {
    const text = toText(decoded([run('node', 's', 1, 1, 100), run('em', 's', 1, 2, 100)]));
    assert.match(text, /^One trial per server and scenario/m);
    assert.match(text, /no verdict \(node 2\.0× faster; 1 trial: no interval\)/);
    assert.match(text, /no verdict \(1\.0×; 1 trial: no interval\)/, 'the same throughput: no side named');
  });
});

describe('report: metrics the schedule sets are not judged', () => {
  it('the report, the terminal and summary.md say "set by the rate", never "≈ same (1.0×)" or a bold 1.0×', () => {
    const runs = openLoopTrials();
    const r = results(runs, trials.analyzeRuns(runs));
    const rps = comparisons(r).find((c) => c.metric === 'throughput_rps');
    assert.equal(rps.winner, null);
    assert.equal(rps.factor, null);
    for (const text of [toText(results(runs)), toMarkdown(results(runs))]) {
      const line = text.split('\n').find((l) => /req\/s/.test(l) && /set by the rate/.test(l));
      assert.ok(line, text);
      assert.doesNotMatch(line, /1\.0\d?×|≈ same|node|em /);
    }
  });
});

// The single rule of perf/lib/rule/compare.js (percentileResolved) in summary.md and summary.csv too.
const FIXTURE_RUNS = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'results_small', 'results.json'), 'utf8')).runs;

/** summary.csv as objects, one per scenario. */
function csvRows(text) {
  const [head, ...lines] = text.trim().split('\n');
  // Split on the commas outside quotes (the notes and verdicts hold some).
  const split = (line) => {
    const fields = [];
    const field = /("(?:[^"]|"")*"|[^,"]*)(,|$)/y;
    for (;;) {
      const m = field.exec(line);
      fields.push(m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]);
      if (m[2] === '') return fields;
    }
  };
  const names = split(head);
  return Object.fromEntries(lines.map((line) => {
    const fields = split(line);
    return [fields[0], Object.fromEntries(names.map((n, i) => [n, fields[i]]))];
  }));
}

describe('summary.md and summary.csv: no p99 where too few requests lie above it', () => {
  it('summary.md says "n too small" instead of the number', () => {
    const md = toMarkdown(results(FIXTURE_RUNS));
    // sequential_6000: 6,000 requests per server, 60 above the p99.
    const row = md.split('\n').find((l) => l.startsWith('| sequential_6000 |')).split('|').map((c) => c.trim());
    assert.deepEqual([row[3], row[7]], ['n too small', 'n too small'], md);
    assert.match(md, /^- p99 needs 10,000 requests \(100 above it\).*: node concurrent_2000_20, em concurrent_2000_20, node sequential_6000, em sequential_6000, node bigfile_100k, node slow_read, em slow_read, node short_conn_256, em short_conn_256\.$/m);
  });

  it('summary.csv leaves the value empty and says why in <server>_p99_note', () => {
    const rows = csvRows(toCsv(results(FIXTURE_RUNS)));
    const seq = rows.sequential_6000;
    assert.deepEqual([seq.node_p99_ms, seq.em_p99_ms], ['', '']);
    assert.equal(seq.node_p99_note, 'n too small (6,000 requests; p99 needs 10,000)');
    assert.ok(Number(seq.node_mean_ms) > 0, 'the other columns keep their numbers');
    // A failed server has no p99 and no note.
    assert.deepEqual([rows.bigfile_100k.em_ok, rows.bigfile_100k.em_p99_ms, rows.bigfile_100k.em_p99_note], ['false', '', '']);
    // Enough requests (10,000 in each trial): the number, and no note.
    const resolved = csvRows(toCsv(results(openLoopTrials({ replies: 10000 })))).concurrent_2000_20;
    assert.ok(Number(resolved.node_p99_ms) > 0);
    assert.equal(resolved.node_p99_note, '');
    assert.match(toMarkdown(results(openLoopTrials({ replies: 10000 }))), /^\| concurrent_2000_20 \| [\d.]+ \| [\d.]+ \|/m);
  });
});

describe('the engine that gave a verdict, in the terminal, summary.md and summary.csv', () => {
  it('names wrk where it ran a scenario again, and lists the runs it superseded for information only', () => {
    for (const [out, bullet] of [[toText(results(FIXTURE_RUNS)), '*'], [toMarkdown(results(FIXTURE_RUNS)), '-']]) {
      const lines = out.split('\n');
      assert.ok(lines.some((l) => /^\|? ?short_conn_256 \(verdict from wrk\)\s+\|?\s*[\d.]+/.test(l)), `the table row names wrk:\n${out}`);
      assert.ok(lines.some((l) => /^\|? ?short_conn_256 \(verdict from wrk\)\s+\|?\s*mean ms/.test(l)), `the verdicts name wrk:\n${out}`);
      assert.equal(lines.filter((l) => /short_conn_256/.test(l) && /client-bound \(load generator|close to client-bound|^. \w+ short_conn_256: not used for a verdict/.test(l)).length, 0, 'no warning against the verdict');
      const superseded = `superseded: wrk ran short_conn_256 again (the built-in load generator was the bottleneck); the verdict uses wrk's runs; kept for information`;
      assert.ok(lines.includes(`${bullet} node short_conn_256 (trials 1–3): ${superseded} (client-bound: the load generator used 97% of its core (90% or more); not server-bound: the server used 71.2% of its core (under 90%), so something else set the pace)`), out);
      assert.ok(lines.includes(`${bullet} em short_conn_256 (trials 1–3): ${superseded} (not server-bound: the server used 62.5% of its core (under 90%), so something else set the pace)`), out);
      assert.ok(!lines.some((l) => /^\|? ?sequential_6000 \(verdict/.test(l)), 'the built-in engine is not named');
    }
    const csv = csvRows(toCsv(results(FIXTURE_RUNS)));
    assert.deepEqual([csv.short_conn_256.verdict_engine, csv.sequential_6000.verdict_engine], ['wrk', '']);
  });

  it('names any other engine alike (httperf), also for a whole run with --engine', () => {
    const params = { name: 'sequential_6000', kind: 'closed', concurrency: 1, keep_alive: false, requests: 6000, engine: 'httperf' };
    const runs = ['node', 'em'].map((server, i) => run(server, 'sequential_6000', 1 + i, 100, { engine: 'httperf', params, replies: 6000 }));
    assert.match(toText(results(runs)), /^sequential_6000 \(verdict from httperf\)\s+[\d.]+/m);
    assert.match(toMarkdown(results(runs)), /^\| sequential_6000 \(verdict from httperf\) \| p50 ms \|/m);
    assert.deepEqual(verdictEngines(runs), { sequential_6000: 'httperf' });
  });
});

describe('summary: what else a run\'s summary says', () => {
  const REFERENCES = { node_bare: { reference_for: ['node'], reference_role: 'bare runtime' } };
  const threeTrials = (server, scenario, p50, rps, more = {}) => [1, 2, 3].map((t) => trialRun(server, scenario, t, p50 + t / 100, rps, more));

  it('a run stopped before any run finished: one line in each output, a bare CSV header', () => {
    const none = read({ runs: [] });
    assert.equal(toText(none), 'No run finished.\n');
    assert.equal(toMarkdown(none), 'No run finished.\n');
    assert.equal(toCsv(none), 'scenario,verdict_engine\n');
  });

  it('one server: its centres, no verdicts, no ratio columns', () => {
    const one = results(threeTrials('node', 's', 1, 800));
    assert.doesNotMatch(toText(one), /Verdicts/);
    assert.doesNotMatch(toMarkdown(one), /Verdicts/);
    assert.equal(toCsv(one).split('\n')[0], 'scenario,node_ok,node_mean_ms,node_p99_ms,node_rps,node_cpu_ms_per_request,node_errors,node_trials,node_p99_note,verdict_engine');
  });

  it('each server against its reference, as a factor of the reference\'s cost, with the answer where it is not a cost', () => {
    const runs = [...threeTrials('node', 's', 1.5, 800), ...threeTrials('node_bare', 's', 1, 800)];
    const r = read({ environment: { servers: REFERENCES }, runs });
    assert.match(toText(r), /^Overhead against references: how many times the reference's cost/m);
    assert.match(toText(r), /^s\s+node\s+node_bare\s+1\.49× \[1\.4\d–1\.5\d\]\s+n too small\s+1\.0× \[1\.00–1\.00\] same ±10 %\s+1\.49× \[1\.4\d–1\.5\d\]$/m);
    assert.match(toMarkdown(r), /^\| s \| node \| node_bare \(bare runtime\) \| 1\.49× \[1\.4\d–1\.5\d\] \| n too small \| 1\.0× \[1\.00–1\.00\] same ±10 % \| 1\.49× \[1\.4\d–1\.5\d\] \|$/m);
  });

  it('a failed server\'s cells say FAILED; every trial client-bound, slow clients\' probe, servers not run: each said under the tables', () => {
    const runs = [...threeTrials('node', 'slow_read', 1, 50, { client_bound: true, slow_clients: {} }), trialRun('em', 'slow_read', 1, 1, 50, { ok: false, failure: 'boom' })];
    const skipped = [{ server: 'nginx', scenario: null, reason: 'nginx is not installed' }, { server: 'em', scenario: 'upload', reason: 'serves hello only; see servers.json' }, { server: 'em', scenario: 'big_upload', reason: 'serves hello only; see servers.json' }, { server: 'apache', scenario: 'slow_read', reason: 'not a seed of it', unplanned: true }];
    const r = read({ environment: {}, runs, skipped });
    assert.match(toText(r), /^slow_read\s+[\d.]+\s+n too small\s+50\s+[\d.]+\s+FAILED\s*$/m);
    assert.match(toMarkdown(r), /^\| slow_read \| [\d.]+ \| n too small \| 50 \| [\d.]+ \| FAILED \| {2}\| {2}\| {2}\|$/m);
    for (const [out, bullet] of [[toText(r), '*'], [toMarkdown(r), '-']]) {
      const notes = out.split('\n').filter((l) => l.startsWith(`${bullet} `)).map((l) => l.slice(2));
      assert.ok(notes.includes('node slow_read: every finished trial was client-bound: its numbers describe the load generator; the load generator set the pace; re-run with a lighter engine, e.g. --engine wrk'), out);
      assert.ok(notes.includes('slow_* and big_upload rows show the fast probe\'s latency and rate, measured while the slow clients were active around it.'), out);
      assert.ok(notes.includes('nginx: not run: nginx is not installed'), out);
      assert.ok(notes.includes('em does not serve upload, big_upload (serves hello only): not run'), out);
      assert.ok(!notes.some((n) => n.includes('apache')), 'a scenario --seeds did not ask of a server is no news');
    }
  });
});

describe('perf summary table', () => {
  const run = (server, scenario, mean, extra = {}) => ({
    server,
    scenario,
    ok: true,
    failure: null,
    requests: 100,
    errors: { refused: 0, reset: 0, timeout: 0, other: 0 },
    latency_ms: { mean, p99: Math.round(mean * 3000) / 1000 },
    throughput_rps: 1234.5,
    server_cpu: { ms_per_request: 0.0421 },
    client_bound: false,
    ...extra,
  });
  const runs = [
    run('node', 'a', 4.3),
    run('em', 'a', 20.9),
    run('node', 'b', 2.4, { errors: { refused: 3, reset: 0, timeout: 0, other: 0 } }),
    { ...run('em', 'b', null), ok: false, failure: 'the server exited during the run (exit code 3)', latency_ms: null, server_cpu: null, throughput_rps: null },
  ];

  it('Markdown: one row per scenario, a column group per server, failures and errors noted', () => {
    const md = toMarkdown(results(runs));
    const lines = md.split('\n');
    assert.equal(lines[0], '| scenario | node mean ms | node p99 ms | node req/s | node CPU ms/req | em mean ms | em p99 ms | em req/s | em CPU ms/req |');
    assert.equal(lines[2], '| a | 4.30 | 12.9 | 1,235 | 0.042 | 20.9 | 62.7 | 1,235 | 0.042 |');
    assert.match(lines[3], /^\| b \| 2\.40 .* \| FAILED \|/);
    assert.match(md, /em b: FAILED: the server exited during the run/);
    assert.match(md, /node b: 3 of 100 requests failed \(refused 3\)/);
  });

  it('CSV and text carry the same rows', () => {
    const csv = toCsv(results(runs)).trim().split('\n');
    // (then the trials per server and the node/em ratios: test/unit/judge/verdicts.test.js)
    assert.ok(csv[0].startsWith('scenario,node_ok,node_mean_ms,node_p99_ms,node_rps,node_cpu_ms_per_request,node_errors,em_ok,em_mean_ms,em_p99_ms,em_rps,em_cpu_ms_per_request,em_errors,node_trials,em_trials,'), csv[0]);
    assert.ok(csv[1].startsWith('a,true,4.3,12.9,1234.5,0.0421,0,true,20.9,62.7,1234.5,0.0421,0,1,1,'), csv[1]);
    assert.equal(csv[2].split(',')[7], 'false');
    const text = toText(results(runs));
    assert.match(text, /node/);
    assert.match(text.split('\n')[2], /^a\s+4\.30\s+12\.9\s+1,235\s+0\.042\s+20\.9/);
  });
});
