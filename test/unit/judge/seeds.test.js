'use strict';
// The seed studies' comparisons (perf/seeds.json, perf/lib/judge/seeds.js): what --seeds runs, and
// each published ratio against made-up runs whose answer is known: a pair that wins as
// published (holds), one reversed, one with no significant difference, one whose load
// generator was the bottleneck (not judged), one server in two scenarios, and pairs not run.

const assert = require('node:assert/strict');
const { seedPlan, seedRows, seedsRun, seedsMarkdown, foundText, holdsText, SEEDS } = require('../../../perf/lib/judge/seeds');
const { analyzeRuns } = require('../../../perf/lib/judge/verdicts');

const CLOSED = { kind: 'closed', concurrency: 32, keep_alive: true, requests: 10000 };

/** Three judged trials of a server in a scenario at about rps req/s (± spread). */
function trials(server, scenario, rps, { spread = 0.01, clientBound = false } = {}) {
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
    server_cpu: { ms_per_request: 0.05, resolution_ms: 0.0005 },
    client_bound: clientBound,
    not_judged_because: clientBound ? ['client-bound: the load generator used 97% of its core (90% or more)'] : [],
    superseded_by: null,
    params: { name: scenario, ...CLOSED },
  }));
}

describe('seeds: what --seeds runs', () => {
  it('runs each seed\'s servers on their seeds\' scenarios only', () => {
    const { servers, scenariosFor } = seedPlan();
    assert.deepEqual([...servers].sort(), ['apache', 'em', 'libevent', 'libevent_rw', 'libevhtp', 'nginx', 'node']);
    assert.deepEqual([...scenariosFor.libevent].sort(), ['bigfile_100k', 'keepalive_400x100', 'long_conn_256', 'short_conn_256']);
    assert.deepEqual(scenariosFor.apache, ['index_500']);
    assert.deepEqual([...scenariosFor.node].sort(), ['index_500', 'sequential_6000']);
  });

  it('keeps every seed\'s published figures and reads their ratio in the metric\'s direction', () => {
    assert.deepEqual([...new Set(SEEDS.map((s) => s.seed))], ['000', '001', '002', '003', '004']);
    const rows = seedRows({ runs: [], comparisons: [] });
    assert.equal(rows.find((r) => r.seed === '000').published.factor.toFixed(2), '1.85');
    assert.equal(rows.find((r) => r.seed === '002').published.factor.toFixed(2), '4.86'); // 20.9 ÷ 4.3 ms: lower is better
    assert.ok(rows.every((r) => r.comparison === null && holdsText(r) === 'not run'));
  });
});

describe('seeds: published against found', () => {
  const runs = [
    ...trials('libevhtp', 'keepalive_400x100', 40000),
    ...trials('libevent', 'keepalive_400x100', 20000), // 2× as published (1.85×): holds
    ...trials('apache', 'index_500', 2000),
    ...trials('node', 'index_500', 2600), // Node ahead: reversed
    ...trials('libevent', 'bigfile_100k', 5000, { spread: 0.2 }),
    ...trials('libevent_rw', 'bigfile_100k', 5050, { spread: 0.2 }), // no significant difference
    ...trials('nginx', 'long_conn_256', 30000, { clientBound: true }),
    ...trials('nginx', 'short_conn_256', 20000), // long side client-bound: not judged
    ...trials('libevent', 'long_conn_256', 60000),
    ...trials('libevent', 'short_conn_256', 40000), // one server, two scenarios: 1.5×, holds
  ];
  const results = { runs, comparisons: analyzeRuns(runs).comparisons };
  const rows = seedRows(results);
  const row = (seed, title) => rows.find((r) => r.seed === seed && r.title.startsWith(title));

  it('holds where the published side wins significantly, with this machine\'s factor and interval', () => {
    const r = row('000', 'libevhtp');
    assert.equal(r.holds, true);
    assert.match(foundText(r), /^2\.0× \[1\.9\d–2\.0\d\]$/);
    assert.equal(holdsText(r), 'holds');
  });

  it('says reversed where the other side wins, and gives the factor of the published side (below 1)', () => {
    const r = row('001', 'Apache');
    assert.equal(r.holds, false);
    assert.equal(holdsText(r), 'reversed');
    assert.match(foundText(r), /^0\.77× /);
  });

  it('does not hold without a significant difference', () => {
    const r = row('003', 'sendfile');
    assert.equal(r.holds, false);
    assert.equal(holdsText(r), 'does not hold (no significant difference)');
  });

  it('judges nothing from runs whose load generator set the pace, and says so', () => {
    const r = row('004', 'nginx');
    assert.equal(r.holds, null);
    assert.match(holdsText(r), /^not judged \(long_conn_256 client-bound in all 3 trials/);
  });

  it('compares one server in two scenarios by the same rule (long against short connections)', () => {
    const r = row('004', 'libevent (ahttpd.ev), long');
    assert.equal(r.holds, true);
    assert.match(foundText(r), /^1\.5× /);
  });

  it('lists only the seeds whose pair ran, and what cannot run here once each', () => {
    const ran = seedsRun(results);
    assert.deepEqual(ran.map((r) => r.seed), ['000', '001', '003', '004', '004', '004']);
    const md = seedsMarkdown(ran);
    assert.match(md, /^\| seed \| comparison \| published \| ratio × \| here × \| conclusion \|$/m);
    assert.match(md, /^\| 000 \| libevhtp against libevent's evhttp \| .* \| 1\.85× \| 2\.0× \[[\d.–]+\] \| holds \|$/m);
    assert.equal((md.match(/IncludeOS/g) || []).length, 1);
    assert.match(md, /^- 003: Curly with epoll: never written/m);
  });
});
