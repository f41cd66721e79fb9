'use strict';
// The seed studies' comparisons (perf/seeds.json, perf/lib/judge/seeds.js; what --seeds runs:
// test/unit/plan/seeds.test.js): each published claim judged against its own number with made-up runs whose answer is known:
// confirmed, reversed, gone (the same within the margin), undecided, still wins by less (one
// server in two scenarios), not judged (the load generator was the bottleneck), and pairs not
// run; and the rows in words (perf/lib/text/seeds.js). The rule itself, every outcome:
// test/unit/rule/answer.test.js.

const assert = require('node:assert/strict');
const { seedRows, seedsRun, SEEDS } = require('../../../perf/lib/judge/seeds');
const { seedsMarkdown, foundText, outcomeText } = require('../../../perf/lib/text/seeds');
const { withAnswer } = require('../../../perf/lib/rule/metrics');
const { analyzeRuns } = require('../../../perf/lib/judge/verdicts');

const CLOSED = { kind: 'closed', concurrency: 32, keep_alive: true, requests: 10000 };

/** Three judged trials of a server in a scenario at about rps req/s (± spread). */
function trials(server, scenario, rps, { spread = 0.01, clientBound = false, cpuMs = 0.05 } = {}) {
  return [1 - spread, 1, 1 + spread].map((f, i) => ({
    server,
    scenario,
    trial: i + 1,
    engine: 'autocannon',
    ok: true,
    replies: 20000,
    requests: 20000,
    throughput_rps: rps * f,
    latency_ms: { mean: 1000 / (rps * f) },
    server_cpu: { ms_per_request: cpuMs * f, resolution_ms: 0.0005 },
    client_bound: clientBound,
    not_judged_because: clientBound ? ['client-bound: the load generator used 97% of its core (90% or more)'] : [],
    superseded_by: null,
    params: { name: scenario, ...CLOSED },
  }));
}

describe('seeds: the published figures', () => {
  it('keeps every seed\'s published figures and reads their ratio in the metric\'s direction', () => {
    assert.deepEqual([...new Set(SEEDS.map((s) => s.seed))], ['000', '001', '002', '003', '004']);
    const rows = seedRows({ runs: [], comparisons: [] });
    assert.equal(rows.find((r) => r.seed === '000').published.factor.toFixed(2), '1.85');
    assert.equal(rows.find((r) => r.seed === '002').published.factor.toFixed(2), '4.86'); // 20.9 ÷ 4.3 ms: lower is better
    assert.ok(rows.every((r) => r.comparison === null && r.outcome === null && outcomeText(r) === 'not run'));
  });
});

describe('seeds: published against found', () => {
  const runs = [
    ...trials('libevhtp', 'keepalive_400x100', 37000),
    ...trials('libevent', 'keepalive_400x100', 20000), // 1.85× as published: confirmed
    ...trials('apache', 'index_500', 2000),
    ...trials('node', 'index_500', 2600), // Node ahead: reversed
    ...trials('node', 'sequential_6000', 5000),
    ...trials('em', 'sequential_6000', 5000), // within ±10 % of each other: gone
    ...trials('libevent', 'bigfile_100k', 5000, { spread: 0.2 }),
    ...trials('libevent_rw', 'bigfile_100k', 5050, { spread: 0.2 }), // holds 1 and 1.51: undecided
    ...trials('nginx', 'long_conn_256', 30000, { clientBound: true, cpuMs: 0.041 }),
    ...trials('nginx', 'short_conn_256', 20000), // long side client-bound: not judged; estimated from CPU/req 1.22×
    ...trials('libevent', 'long_conn_256', 60000),
    ...trials('libevent', 'short_conn_256', 40000), // one server, two scenarios: 1.5×, published 1.62×: by less
  ];
  // As judged.js gives them: each comparison with its answer.
  const results = { runs, comparisons: analyzeRuns(runs).comparisons.map(withAnswer) };
  const rows = seedRows(results);
  const row = (seed, title) => rows.find((r) => r.seed === seed && r.title.startsWith(title));

  it('confirmed where the published side wins and the interval holds the published factor', () => {
    const r = row('000', 'libevhtp');
    assert.equal(r.outcome, 'confirmed');
    assert.match(foundText(r), /^1\.85× \[1\.8\d–1\.8\d\]$/);
    assert.equal(outcomeText(r), 'confirmed');
  });

  it('reversed where the other side wins, with the factor of the published side (below 1)', () => {
    const r = row('001', 'Apache');
    assert.equal(r.outcome, 'reversed');
    assert.equal(outcomeText(r), 'reversed: node wins here');
    assert.match(foundText(r), /^0\.77× /);
  });

  it('gone where the interval lies within the margin: the same here, said with the margin', () => {
    const r = row('002', 'Node against EventMachine');
    assert.equal(r.outcome, 'gone');
    assert.equal(outcomeText(r), 'gone: the same within ±10 %');
  });

  it('undecided where the interval holds both 1 and the published factor: never "does not hold"', () => {
    const r = row('003', 'sendfile');
    assert.equal(r.outcome, 'undecided');
    assert.equal(outcomeText(r), 'undecided');
  });

  it('judges nothing from runs whose load generator set the pace, and says so; estimates from CPU per request (the utilization law), marked so', () => {
    const r = row('004', 'nginx');
    assert.equal(r.outcome, null);
    assert.match(outcomeText(r), /^estimated: confirmed \(measured, not judged: long_conn_256 client-bound in all 3 trials/);
    assert.match(foundText(r), /^≈1\.22× \[1\.\d+–1\.\d+\] \(estimated from CPU\/req\)$/);
    assert.ok(r.estimate.ci[0] < 1.22 && r.estimate.ci[1] > 1.22);
    assert.equal(row('000', 'libevhtp').estimate, null, 'nothing estimated where the measurement answered');
    const alone = seedRows({ runs: runs.filter((x) => !(x.server === 'nginx' && x.scenario === 'short_conn_256')), comparisons: [] }).find((x) => x.seed === '004' && x.title.startsWith('nginx'));
    assert.equal(alone.estimate, null, 'nothing to estimate without both sides');
  });

  it('compares one server in two scenarios by the same rule: still wins, by less than published', () => {
    const r = row('004', 'libevent (ahttpd.ev), long');
    assert.equal(r.outcome, 'less');
    assert.equal(outcomeText(r), 'long_conn_256 still wins, by less');
    assert.match(foundText(r), /^1\.5× /);
  });

  it('lists only the seeds whose pair ran, and what cannot run here once each', () => {
    const ran = seedsRun(results);
    assert.deepEqual(ran.map((r) => r.seed), ['000', '001', '002', '003', '004', '004', '004']);
    const md = seedsMarkdown(ran);
    assert.match(md, /^\| seed \| comparison \| published \| ratio × \| here × \| conclusion \|$/m);
    assert.match(md, /^\| 000 \| libevhtp against libevent's evhttp \| .* \| 1\.85× \| 1\.85× \[[\d.–]+\] \| confirmed \|$/m);
    assert.equal((md.match(/IncludeOS/g) || []).length, 1);
    assert.match(md, /^- 003: Curly with epoll: never written/m);
  });
});

describe('seeds: a claim as a question of the project\'s pair', () => {
  it('gives seed 002\'s claim as node\'s factor over em on its scenario and metric', () => {
    const claim = require('../../../perf/lib/judge/seeds').seedClaim('002');
    assert.deepEqual({ ...claim, factor: Math.round(claim.factor * 100) / 100 }, { seed: '002', claim: 'Node answers 4.9× faster', subject: 'sequential_6000', metric: 'throughput_rps', a: 'node', b: 'em', winner: 'node', factor: 4.86 });
  });

  it('gives none for a seed of one server in two scenarios, or one that does not exist', () => {
    const { seedClaim } = require('../../../perf/lib/judge/seeds');
    assert.equal(seedClaim('nope'), null);
    for (const s of SEEDS.filter((x) => x.here.server)) assert.equal(seedClaim(s.seed), null);
  });
});
