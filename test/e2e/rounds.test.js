'use strict';
// Paired rounds with stand-in servers (perf/lib/run/rounds.js): every server started once and
// up throughout, each round running every server once in a random order, each scenario
// measured to its first look and on to later looks only while a comparison is undecided and
// the budget allows; the comparisons paired by round, what the budget bought in results.json.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { runScenarios } = require('../../perf/lib/run/runner');
const { schemaProblem, loadResults } = require('../../perf/lib/store/results_doc');
const { DEFAULT_LOOKS } = require('../../perf/lib/judge/sequential');
const { standinDefinitions, makeTmpDir, writeScenarioDir } = require('../support/runner_helpers');

const SCENARIOS = {
  tiny_closed: { description: 'keep-alive hello', kind: 'closed', concurrency: 4, requests: 40 },
  tiny_open: { description: 'a connection per request', kind: 'open', rate: 200, connections: 20 },
};

describe('rounds: both servers up, the load alternating between them', function () {
  this.timeout(120000);
  const scenariosDir = writeScenarioDir(SCENARIOS);
  const out = makeTmpDir('rounds-');
  const lines = [];
  let doc;
  let results;

  before(async () => {
    await runScenarios({ definitions: standinDefinitions({ a: {}, b: {} }), servers: ['a', 'b'], scenariosDir, outDir: out, pin: false, budget: 10, warmup: 0, lighterEngines: false, log: (l) => lines.push(l) });
    doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    results = loadResults(out);
  });

  it('starts each server once, before the first round, and stops it after the last', () => {
    assert.deepEqual(lines.filter((l) => / starting| stopped$/.test(l)).map((l) => l.split(' (')[0]), ['a: starting', 'b: starting', 'a: stopped', 'b: stopped']);
    assert.equal(doc.environment.options.design, 'rounds');
    assert.equal(doc.environment.options.budget_s, 10);
    assert.deepEqual(doc.environment.options.looks, DEFAULT_LOOKS);
    assert.equal(schemaProblem(doc), null, 'results.json matches its schema');
  });

  it('runs each scenario in rounds, every server once per round, to a look; rounds numbered as trials', () => {
    for (const scenario of Object.keys(SCENARIOS)) {
      const runs = doc.runs.filter((r) => r.scenario === scenario);
      const rounds = Math.max(...runs.map((r) => r.trial));
      assert.ok(DEFAULT_LOOKS.includes(rounds), `${scenario}: ${rounds} rounds, not a look`);
      for (let round = 1; round <= rounds; round++) {
        // Each round holds one run of each server, back to back.
        const i = runs.findIndex((r) => r.trial === round);
        assert.deepEqual(runs.slice(i, i + 2).map((r) => r.server).sort(), ['a', 'b'], `${scenario} round ${round}`);
      }
    }
    // One scenario's rounds all come before the next's (the first look), in the plan's order.
    assert.equal(doc.runs[0].scenario, 'tiny_closed');
  });

  it('puts the servers in a random order each round', () => {
    const firsts = new Set();
    for (const scenario of Object.keys(SCENARIOS)) {
      const runs = doc.runs.filter((r) => r.scenario === scenario);
      for (let round = 1; round <= 5; round++) firsts.add(runs.find((r) => r.trial === round).server);
    }
    // Ten rounds with a fair coin: both orders, unless a 1 in 512 chance.
    assert.deepEqual([...firsts].sort(), ['a', 'b']);
  });

  it('judges each comparison on the rounds paired, and says so', () => {
    const judged = doc.comparisons.filter((c) => c.decision);
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
