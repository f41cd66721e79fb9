'use strict';
// The engines by name (perf/lib/engines/index.js): which one runs a scenario, --engine applied
// to the scenarios (kept, skipped with a reason, or refused as a usage error), the line that
// says a scenario was skipped, and whether an external engine's program is installed. Which
// built-in engine each seed scenario gets: test/unit/plan/scenarios.test.js.

const assert = require('node:assert/strict');
const { engineFor, rateClientBuilt, selectEngine, skippedLine, whyNotInstalled, ENGINE_CHOICES, DEFAULT_ENGINE } = require('../../../perf/lib/engines');
const { loadScenarios } = require('../../../perf/lib/plan/scenarios');

const scenario = (name) => loadScenarios({ names: [name] })[0];

describe('engines: which one runs a scenario', () => {
  it('the built-in engine for its kind', () => {
    assert.equal(engineFor({ name: 'a', kind: 'closed', keep_alive: true }), 'autocannon');
    assert.equal(engineFor({ name: 'b', kind: 'closed', keep_alive: false }), 'sequential');
    assert.equal(engineFor({ name: 'c', kind: 'open' }), 'open_loop');
    assert.equal(engineFor({ name: 'd', kind: 'slow_clients' }), 'slow_clients');
    assert.equal(engineFor({ name: 'e', kind: 'rate' }), rateClientBuilt() ? 'rate_client' : 'constant_rate', 'rate_client where it is built (test/unit/engines/rate_client.test.js)');
  });

  it('a constant request rate: no external engine here sends one, each says why', () => {
    const s = { name: 'r', kind: 'rate', request: { method: 'GET', path: '/hello', headers: {}, upload_bytes: null }, connections: 100, rate: 4000, requests: 8000 };
    const { skipped } = selectEngine([s, scenario('long_conn_256')], 'wrk');
    assert.match(skipped.find((k) => k.scenario === 'r').reason, /wrk is closed-loop: it cannot send requests on a schedule/);
    assert.match(selectEngine([s, scenario('index_500')], 'httperf').skipped.find((k) => k.scenario === 'r').reason, /httperf cannot send requests on a schedule over a pool/);
    assert.match(selectEngine([s, scenario('index_500')], 'tsung').skipped.find((k) => k.scenario === 'r').reason, /no constant request rate over a fixed pool/);
  });

  it('the engine --engine chose, when a scenario carries one', () => {
    assert.equal(engineFor({ name: 'a', kind: 'closed', keep_alive: true, engine: 'wrk' }), 'wrk');
  });

  it('a scenario no built-in engine can run: one line naming it', () => {
    assert.throws(() => engineFor({ name: 'odd', kind: 'batch' }), /^Error: no engine can run scenario 'odd'$/);
  });
});

describe('engines: --engine', () => {
  it('autocannon (the default, or not given): the scenarios as they are, none skipped', () => {
    const scenarios = [scenario('sequential_6000'), scenario('long_conn_256')];
    assert.equal(DEFAULT_ENGINE, 'autocannon');
    for (const engine of [undefined, 'autocannon']) {
      const picked = selectEngine(scenarios, engine);
      assert.equal(picked.scenarios, scenarios);
      assert.deepEqual(picked.skipped, []);
    }
  });

  it('an external engine: copies of the scenarios it can run, marked with it; the others skipped with its reason', () => {
    const scenarios = [scenario('long_conn_256'), scenario('sequential_6000')];
    const { scenarios: kept, skipped } = selectEngine(scenarios, 'wrk');
    assert.deepEqual(kept.map((s) => [s.name, s.engine]), [['long_conn_256', 'wrk']]);
    assert.equal(scenarios[0].engine, undefined, 'the scenario given is left as it was');
    assert.deepEqual(skipped, [{ engine: 'wrk', scenario: 'sequential_6000', reason: 'wrk stops after a duration (-d), not after a number of requests' }]);
    assert.equal(engineFor(kept[0]), 'wrk');
  });

  it('an engine it does not know, or one that can run none of the scenarios: a usage error', () => {
    assert.throws(() => selectEngine([], 'jmeter'), (err) => err.usage === true && err.message === `unknown engine 'jmeter' (known: ${ENGINE_CHOICES.join(', ')})`);
    assert.throws(
      () => selectEngine([scenario('sequential_6000')], 'wrk'),
      (err) => err.usage === true && err.message === '--engine wrk can run none of the selected scenarios (sequential_6000: wrk stops after a duration (-d), not after a number of requests)',
    );
  });

  it('the built-in engines by name are not choices of --engine', () => {
    assert.deepEqual(ENGINE_CHOICES, ['autocannon', 'httperf', 'wrk', 'tsung']);
    assert.throws(() => selectEngine([scenario('sequential_6000')], 'sequential'), (err) => err.usage === true);
  });

  it('a skipped scenario, in one line of the log', () => {
    assert.equal(skippedLine({ engine: 'wrk', scenario: 'sequential_6000', reason: 'why' }), 'wrk: skips sequential_6000 (cannot run it faithfully: why)');
  });
});

describe('engines: an external engine\'s program', () => {
  let saved;
  beforeEach(() => {
    saved = process.env.WRK_BIN;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.WRK_BIN;
    else process.env.WRK_BIN = saved;
  });

  it('installed: nothing to say; missing: how to install it', () => {
    process.env.WRK_BIN = process.execPath; // a program that exists
    assert.equal(whyNotInstalled('wrk'), null);
    process.env.WRK_BIN = '/nonexistent/wrk';
    assert.match(whyNotInstalled('wrk'), /^wrk not found at \/nonexistent\/wrk \(from \$WRK_BIN\); install it with: apt-get install wrk/);
  });
});
