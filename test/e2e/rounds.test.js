'use strict';
// Paired rounds with stand-in servers (perf/lib/run/rounds.js): every server started once and
// up throughout, each round running every server once in a random order, each scenario
// measured to its first look and on to later looks only while a comparison is undecided and
// the budget allows; the comparisons paired by round, what the budget bought in results.json.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { runScenarios } = require('../../perf/lib/run/runner');
const { REPLACED_ROUNDS } = require('../../perf/lib/run/rounds');
const { usableForVerdict } = require('../../perf/lib/rule/compare');
const { SHARED_LOAD_PCT } = require('../../perf/lib/method');
const { reasonCode } = require('../../perf/lib/store/reasons');
const { schemaProblem, loadResults } = require('../../perf/lib/store/results_doc');
const { judgeResults } = require('../../perf/lib/judge/judged');
const { DEFAULT_LOOKS } = require('../../perf/lib/method');
const { standinDefinitions, makeTmpDir, writeScenarioDir } = require('../support/runner_helpers');

const SCENARIOS = {
  tiny_closed: { description: 'keep-alive hello', kind: 'closed', concurrency: 4, requests: 40 },
  // Light enough that each server's CPU beside the other's stays well under SHARED_LOAD_PCT on a
  // busy machine too (at 50 a second a stand-in once used 10.3 % of a core over the 0.2 s run).
  tiny_open: { description: 'a connection per request', kind: 'open', rate: 25, connections: 10 },
};

describe('rounds: both servers up, the load alternating between them', function () {
  this.timeout(120000);
  const scenariosDir = writeScenarioDir(SCENARIOS);
  const out = makeTmpDir('rounds-');
  const lines = [];
  let doc;
  let results;
  // Fisher–Yates over two servers draws once a round: below 0.5 it swaps them (b first).
  let draws = 0;
  const random = () => (draws++ % 2 === 0 ? 0 : 0.99);

  const pidsFile = path.join(out, 'a.pids');

  before(async () => {
    await runScenarios({ definitions: standinDefinitions({ a: { STANDIN_PIDS_FILE: pidsFile }, b: {} }), servers: ['a', 'b'], scenariosDir, outDir: out, pin: false, budget: 10, warmup: 0, lighterEngines: false, random, log: (l) => lines.push(l) });
    doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    results = loadResults(out);
  });

  it('starts and checks each server before the first round, starts it afresh for each visit of a scenario, stops it after the last', () => {
    assert.deepEqual(lines.filter((l) => / starting| stopped$/.test(l)).map((l) => l.split(' (')[0]), ['a: starting', 'b: starting', 'a: stopped', 'b: stopped']);
    // One start for the contract check, one per visit (a line each), a new process each time, none left.
    const pids = fs.readFileSync(pidsFile, 'utf8').trim().split('\n').map(Number);
    // A visit: a stretch of one scenario's runs (going on at once with a scenario keeps its servers).
    const visits = doc.runs.filter((r, i) => i === 0 || doc.runs[i - 1].scenario !== r.scenario).length;
    assert.ok(visits >= 2);
    assert.equal(new Set(pids).size, 1 + visits);
    for (const pid of pids) assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' });
    assert.equal(doc.environment.options.design, 'rounds');
    assert.equal(doc.environment.options.budget_s, 10);
    assert.deepEqual(doc.environment.options.looks, DEFAULT_LOOKS);
    assert.equal(schemaProblem(doc), null, 'results.json matches its schema');
  });

  it('runs each scenario in rounds, every server once per round, to a look; rounds numbered as trials', () => {
    for (const scenario of Object.keys(SCENARIOS)) {
      const runs = doc.runs.filter((r) => r.scenario === scenario);
      const rounds = Math.max(...runs.map((r) => r.trial));
      // A look, plus a round for each one a side could not use (replaced, up to REPLACED_ROUNDS).
      const look = Math.max(...DEFAULT_LOOKS.filter((n) => n <= rounds));
      const unusable = new Set(runs.filter((r) => !usableForVerdict(r)).map((r) => r.trial)).size;
      assert.ok(rounds - look <= Math.min(REPLACED_ROUNDS, unusable), `${scenario}: ${rounds} rounds, not a look (${unusable} rounds not usable)`);
      for (let round = 1; round <= rounds; round++) {
        // Each round holds one run of each server, back to back.
        const i = runs.findIndex((r) => r.trial === round);
        assert.deepEqual(runs.slice(i, i + 2).map((r) => r.server).sort(), ['a', 'b'], `${scenario} round ${round}`);
      }
    }
    // One scenario's rounds all come before the next's (the first look), in the plan's order.
    assert.equal(doc.runs[0].scenario, 'tiny_closed');
  });

  it('puts the servers in each round in the order random() draws for it (its randomness: the unit test of shuffled)', () => {
    // Rounds in the order they ran, as results.json keeps them; a together round records its
    // runs in its drawn order. The test's random() swaps two servers every other draw.
    const rounds = [];
    for (const r of doc.runs) {
      const last = rounds[rounds.length - 1];
      if (last && last.scenario === r.scenario && last.trial === r.trial) last.servers.push(r.server);
      else rounds.push({ scenario: r.scenario, trial: r.trial, servers: [r.server] });
    }
    assert.ok(rounds.length >= 10);
    assert.deepEqual(rounds.map((r) => r.servers.join()), rounds.map((r, i) => (i % 2 === 0 ? 'b,a' : 'a,b')));
  });

  it('runs a light open loop on both servers at the same time, each run measuring the other\'s CPU', () => {
    const at = (r) => Date.parse(r.started_at);
    for (let round = 1; round <= 5; round++) {
      const [x, y] = doc.runs.filter((r) => r.scenario === 'tiny_open' && r.trial === round);
      assert.deepEqual(x.beside.map((b) => b.server), [y.server]);
      assert.deepEqual(y.beside.map((b) => b.server), [x.server]);
      for (const r of [x, y]) assert.ok(r.judged && r.beside[0].cpu_pct <= SHARED_LOAD_PCT, JSON.stringify(r.beside));
      // Measured together: each run started before the other ended.
      assert.ok(Math.abs(at(x) - at(y)) < 1000 * Math.min(x.duration_s, y.duration_s), `round ${round}: ${x.started_at}, ${y.started_at}`);
      // A closed loop saturates its server: one after the other.
      const [c, d] = doc.runs.filter((r) => r.scenario === 'tiny_closed' && r.trial === round);
      assert.ok(!('beside' in c) && !('beside' in d));
      assert.ok(at(d) >= at(c) + 1000 * c.duration_s, `tiny_closed round ${round} overlaps`);
    }
  });

  it('judges each comparison on the rounds paired, and says so', () => {
    const judged = judgeResults(results).comparisons.filter((c) => c.decision);
    assert.ok(judged.length > 0);
    for (const c of judged) {
      assert.equal(c.method, 'paired');
      assert.ok(DEFAULT_LOOKS.includes(c.rounds), JSON.stringify(c));
    }
  });

  it('records what the budget bought, and the plan line says it before the first round', () => {
    assert.equal(doc.rounds_budget.budget_s, 10);
    assert.ok(doc.rounds_budget.spent_s > 0);
    const plan = lines.find((l) => /^plan: paired rounds of a, b/.test(l));
    assert.match(plan, /a budget of 10 s: the first look \(5 rounds each\) should take about/);
    assert.ok(lines.indexOf(plan) < lines.findIndex((l) => / starting/.test(l)));
    // A line per scenario and look: its rounds, what is decided, the budget spent.
    assert.ok(lines.some((l) => /^tiny_closed +\d+ rounds: \d+ of \d+ decided/.test(l)), lines.join('\n'));
    assert.equal(results.environment.options.design, 'rounds');
  });
});

describe('rounds: a server too busy to share the core', function () {
  this.timeout(120000);
  const scenariosDir = writeScenarioDir({ tiny_open: SCENARIOS.tiny_open });
  const out = makeTmpDir('rounds-shared-');
  const lines = [];
  let runs;

  before(async () => {
    // b spends 5 ms of CPU on each of 50 requests a second: 25 % of its core.
    await runScenarios({ definitions: standinDefinitions({ a: {}, b: { STANDIN_BUSY_MS: '5' } }), servers: ['a', 'b'], scenariosDir, outDir: out, pin: false, budget: 10, warmup: 0, lighterEngines: false, log: (l) => lines.push(l) });
    runs = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')).runs;
  });

  it('leaves the round it shared unjudged, says so, and takes the servers one after the other from then on', () => {
    // Round 1 ran together: a's run, beside b's heavy load, is not judged; b's, beside a's light one, is.
    const a1 = runs.find((r) => r.server === 'a' && r.trial === 1);
    const b1 = runs.find((r) => r.server === 'b' && r.trial === 1);
    assert.ok(a1.beside[0].cpu_pct > SHARED_LOAD_PCT && b1.beside[0].cpu_pct <= SHARED_LOAD_PCT, JSON.stringify([a1.beside, b1.beside]));
    assert.deepEqual(a1.not_judged_because.map(reasonCode), ['shared']);
    assert.ok(b1.judged);
    assert.ok(lines.some((l) => /^tiny_open: one server after the other from round 2 \(measured beside b, whose load used [\d.]+% of the servers' core/.test(l)), lines.join('\n'));
    const later = runs.filter((r) => r.trial > 1);
    assert.ok(later.length >= 8 && later.every((r) => !('beside' in r)));
    // The shared round is replaced: the first look still has its five usable rounds.
    assert.equal(Math.max(...runs.map((r) => r.trial)), DEFAULT_LOOKS[0] + 1);
  });
});

describe('rounds: a lighter engine that takes over warms the servers up with its own exchange', function () {
  this.timeout(120000);

  it('switches after the first built-in run that shows it, warms the first wrk round with wrk, and no other', async function () {
    if (require('node:child_process').spawnSync('sh', ['-c', 'command -v wrk']).status !== 0) this.skip(); // scripts/setup.sh installs it
    // Two clients whose every reply waits 25 ms: the built-in engine's run is not server-bound, so wrk takes over.
    // A warm-up of 0.25 s: wrk's slices are whole seconds, so each of its warm-ups is one slice,
    // the cap (4 × 0.25 s) reached after it (at 0.5 s, two: 2 s before each of its first runs).
    const scenariosDir = writeScenarioDir({ held_1s: { description: 'held back', kind: 'closed', concurrency: 2, duration_s: 1, warmup_s: 0.25, request: { path: '/delay?ms=25' } } });
    const out = makeTmpDir('rounds-lighter-');
    const lines = [];
    await runScenarios({ definitions: standinDefinitions({ a: {}, b: {} }), servers: ['a', 'b'], scenariosDir, outDir: out, pin: false, budget: 5, log: (l) => lines.push(l) });
    const { runs } = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    assert.ok(lines.includes("held_1s: the verdict uses wrk's runs (the built-in load generator was the bottleneck)"), lines.join('\n'));
    // One built-in run showed it: the round's other server was not run with the built-in engine.
    const builtIn = runs.filter((r) => r.engine === 'autocannon');
    assert.equal(builtIn.length, 1, builtIn.map((r) => `${r.server} ${r.trial}`).join(', '));
    const warmed = runs.filter((r) => (r.warmup || {}).seconds > 0).map((r) => `${r.server} ${r.engine} ${r.trial} ${r.warmup.engine}`).sort();
    assert.deepEqual(warmed, [`${builtIn[0].server} autocannon 1 autocannon`, 'a wrk 1 wrk', 'b wrk 1 wrk'].sort());
    assert.ok(runs.filter((r) => r.engine === 'wrk').length >= 2 * DEFAULT_LOOKS[0]);
  });
});
