'use strict';
// The run's plan (perf/lib/plan/run_plan.js), resolved from what runScenarios is asked before
// anything starts: the servers (--references, --seeds, --target), the scenarios as run
// (--engine, --warmup), which server runs which, the trials and their order, the hosts, the
// pinning, what results.json records; every mistake a UsageError in one line; the plan frozen.

const assert = require('node:assert/strict');
const { descriptorsFor } = require('../../../perf/lib/hosts/fd_limits');
const { resolvePlan, UsageError } = require('../../../perf/lib/plan/run_plan');
const { plannedCalibration } = require('../../../perf/lib/plan/calibration');
const { seedPlan } = require('../../../perf/lib/plan/seeds');
const { RESULTS_ROOT } = require('../../../perf/lib/store/results_store');
const { loadServerDefinitions } = require('../../../perf/lib/hosts/server_process');
const { standinDefinitions, writeScenarioDir } = require('../../support/runner_helpers');
const { stepScenario } = require('../../../perf/lib/plan/ramps');
const { headline } = require('../../../perf/lib/plan/questions');
const { skippedLine } = require('../../../perf/lib/engines');
const { missingBackend } = require('../../../perf/lib/hosts/backends');

const scenariosDir = writeScenarioDir({
  tiny_closed: { description: 'keep-alive hello', kind: 'closed', concurrency: 4, requests: 40 },
  tiny_file: { description: 'a file', kind: 'closed', concurrency: 2, requests: 10, request: { path: '/lipsum100k.txt' } },
  tiny_open: { description: 'a connection per request, on a schedule', kind: 'open', connections: 20, rate: 100 },
});
const definitions = standinDefinitions({ a: {}, b: {} });
// Two stand-in servers and the scenarios above, unless a test says otherwise.
const asked = (options) => resolvePlan({ definitions, servers: ['a', 'b'], scenariosDir, ...options });
const names = (list) => list.map((s) => s.name);
const usage = (options, message) => assert.throws(() => asked(options), (err) => err instanceof UsageError && message.test(err.message));

describe('the run\'s plan: servers, scenarios, trials', () => {
  it('a quick run: node, em and async_http with their defaults (the sides of perf/questions.json\'s pairs), the headline questions\' subjects only; --tuned adds the tuned configurations to its ramps', () => {
    const plan = resolvePlan({ quick: true });
    assert.deepEqual(plan.servers, ['node', 'em', 'async_http']);
    assert.deepEqual(plan.runnable, ['node', 'em', 'async_http']);
    assert.deepEqual(plan.rampServers, ['node', 'em', 'async_http']);
    const subjects = [...new Set(headline().questions.map((q) => q.subject))];
    assert.deepEqual([...names(plan.scenarios), ...plan.ramps.map((r) => r.name)].sort(), subjects.sort(), 'without a budget: every subject, nothing else');
    assert.equal(plan.held, null, 'the held count is no headline question');
    // Each tuned configuration tunes its server on the runtimes it was measured on
    // (perf/servers.json): on today's, em's only; on history's, all three.
    assert.deepEqual(resolvePlan({ quick: true, tuned: true }).rampServers, ['node', 'em', 'async_http', 'em_tuned', 'async_http_tuned']);
    const history = ['node@node20', 'em@ruby31', 'async@ruby31'];
    const tuned = resolvePlan({ quick: true, tuned: true, servers: history });
    assert.deepEqual([tuned.servers, tuned.rampServers], [history, [...history, 'node_tuned', 'em_tuned@ruby31', 'async_tuned']]);
    assert.deepEqual(tuned.definitions['em_tuned@ruby31'].env, { RUBY_GC_HEAP_INIT_SLOTS: '600000', RUBY_GC_HEAP_FREE_SLOTS: '300000' }, 'with the settings measured on Ruby 3.1');
  });

  it('a quick run where today\'s Ruby is not built: the hand-written async (async_http\'s reference) stands in for async_http, which runs on Ruby 3.3 only; a full run installs it and compares async_http', () => {
    const runtimeMissing = (id) => (id.startsWith('ruby33') ? 'not installed' : null);
    const quick = resolvePlan({ quick: true, runtimeMissing });
    assert.deepEqual(quick.servers, ['node', 'em', 'async']);
    assert.deepEqual(quick.recorded.stand_ins, [{ server: 'async_http', by: 'async' }]);
    assert.deepEqual(resolvePlan({ quick: true, runtimeMissing: () => null }).recorded.stand_ins, []);
    assert.deepEqual(resolvePlan({ runtimeMissing }).servers, ['node', 'em', 'async_http', 'em_tuned', 'async_http_tuned']);
    assert.deepEqual(resolvePlan({ quick: true, runtimeMissing, servers: ['node', 'em'] }).recorded.stand_ins, [], 'servers named: no stand-in');
    assert.throws(() => resolvePlan({ servers: ['async_http@ruby31'] }), (err) => err instanceof UsageError && /^'async_http@ruby31': async_http runs on ruby33 only/.test(err.message));
  });

  it('the fd limit is raised for the ramps\' top steps too: the connections a new-connection ramp\'s top rate opens within its timeout', () => {
    const plan = resolvePlan({ servers: ['node'], ramps: ['hello_per_connection'], scenarios: ['sequential_6000'] });
    assert.equal(plan.descriptors.limits.need, descriptorsFor(40960 * 2));
  });

  it('a quick run\'s budget is the whole run\'s: the subjects ranked by the questions they likely decide per second, taken while they fit; the ramps\' share kept from the rounds\'; what was left recorded', () => {
    const sure = new Set(['keepalive_sustainable']);
    // The others unlikely enough that no cheap scenario outbids the sure ramp per second (a light
    // open loop's servers run together: its first look costs a third of three servers in turn).
    const plan = resolvePlan({ quick: true, budget: 200, decides: (q) => (sure.has(q.id) ? 1 : 0.02) });
    const { chosen, left, budget_s: budgetS } = plan.recorded.headline;
    assert.equal(budgetS, 200);
    assert.equal(chosen[0].name, 'hello_keepalive', 'the question it surely decides, per second, first');
    assert.ok(chosen.reduce((t, s) => t + s.cost_s, 0) <= 200 + chosen.length, 'what was chosen fits');
    assert.ok(left.length >= 1 && left.every((s) => s.cost_s > 0 && s.questions.length >= 1), 'what the budget left is named with its cost and questions');
    assert.deepEqual(plan.ramps.map((r) => r.name), chosen.filter((s) => s.kind === 'ramp').map((s) => s.name));
    assert.deepEqual(names(plan.scenarios), chosen.filter((s) => s.kind === 'scenario').map((s) => s.name), 'the scenarios in the order chosen');
    const rampsS = chosen.filter((s) => s.kind === 'ramp').reduce((t, s) => t + s.cost_s, 0);
    assert.ok(Math.abs(plan.rounds.budgetS - (200 - rampsS)) <= 1, 'the rounds get what the ramps leave');
    // The other way round: where the cheap scenarios decide and the ramp likely does not, they come first.
    const cheap = resolvePlan({ quick: true, budget: 60, decides: (q) => (sure.has(q.id) ? 0.01 : 1) });
    assert.ok(cheap.recorded.headline.left.some((s) => s.name === 'hello_keepalive'));
    assert.equal(resolvePlan({ quick: true, budget: 1 }).recorded.headline.chosen.length, 1, 'a budget too small for anything still measures the first');
    const elsewhere = resolvePlan({ quick: true, budget: 600, servers: ['node'], target: 'http://127.0.0.1:21999' });
    assert.deepEqual([elsewhere.ramps, elsewhere.recorded.headline.chosen.every((s) => s.kind === 'scenario')], [[], true], 'a server at --target: the headline scenarios, no ramps');
  });

  it('SERVER@RUNTIME: the same server on another runtime of perf/runtimes.json, named as asked; a runtime of another kind or unknown, one line', () => {
    const plan = resolvePlan({ servers: ['node', 'node@node20', 'em@ruby31'] });
    assert.deepEqual(Object.entries(plan.definitions).map(([name, d]) => [name, d.runtime, d.args[0]]), [['node', 'node24', 'node/server.js'], ['node@node20', 'node20', 'node/server.js'], ['em@ruby31', 'ruby31', 'ruby/em/server.rb']]);
    assert.throws(() => resolvePlan({ servers: ['node@ruby31'] }), (err) => err instanceof UsageError && err.message === "'node@ruby31': node runs on a node runtime, ruby31 is ruby");
    assert.throws(() => resolvePlan({ servers: ['em@ruby99'] }), (err) => err instanceof UsageError && /^unknown runtime 'ruby99' \(known: node20, /.test(err.message));
    assert.throws(() => resolvePlan({ servers: ['nginx@node24'] }), (err) => err instanceof UsageError && /server 'nginx' names no runtime/.test(err.message));
  });

  it('servers named, or --no-tuned: only those; --tuned adds the tuned configurations of the named ones', () => {
    assert.deepEqual(resolvePlan({ servers: ['node', 'em'] }).servers, ['node', 'em']);
    assert.deepEqual(resolvePlan({ tuned: false }).rampServers, ['node', 'em', 'async_http']);
    assert.deepEqual(resolvePlan({ servers: ['em@ruby31'], tuned: true }).servers, ['em@ruby31', 'em_tuned@ruby31']);
    assert.deepEqual(resolvePlan({ servers: ['em@ruby31'], tuned: true, quick: true }).rampServers, ['em@ruby31', 'em_tuned@ruby31']);
    assert.deepEqual(resolvePlan({ servers: ['node'], tuned: true }).servers, ['node'], 'node on Node 24 has no tuned configuration measured yet');
    assert.deepEqual(resolvePlan({ servers: ['em@ruby33'], tuned: true }).servers, ['em@ruby33'], 'nor em on Ruby 3.3 without YJIT');
  });

  it('by default: node, em and async_http on today\'s runtimes, tuned where a tuning was measured on them, every scenario, one trial, the built-in engine with lighter engines, pinned', () => {
    const plan = resolvePlan({});
    const all = ['node', 'em', 'async_http', 'em_tuned', 'async_http_tuned'];
    assert.deepEqual(Object.values(plan.definitions).map((d) => d.runtime), ['node24', 'ruby33_yjit', 'ruby33_yjit', 'ruby33_yjit', 'ruby33_yjit']);
    assert.deepEqual(plan.servers, all);
    assert.deepEqual(Object.keys(plan.definitions), all);
    assert.deepEqual(plan.rampServers, all);
    assert.deepEqual(plan.definitions.node, loadServerDefinitions().node);
    assert.equal(plan.trials, 1);
    assert.deepEqual(plan.engine, { name: 'autocannon', skipped: [], lighter: true });
    assert.deepEqual(plan.output, { dir: null, root: RESULTS_ROOT });
    assert.equal(plan.readyTimeoutMs, 20000);
    assert.deepEqual([plan.target, plan.link, plan.loadHosts, plan.seeds], [null, null, null, false]);
  });

  it('orders the trials outermost, each server in turn, only the servers with scenarios to run', () => {
    const plan = resolvePlan({ definitions: { ...definitions, files_only: { ...definitions.a, serves: ['files'] } }, servers: ['a', 'files_only', 'b'], scenarios: ['tiny_closed'], scenariosDir, repeat: 2 });
    assert.deepEqual(plan.runnable, ['a', 'b']);
    assert.deepEqual(plan.order.map((o) => `${o.trial}${o.server}`), ['1a', '1b', '2a', '2b']);
    assert.deepEqual(plan.skipped, [
      { server: 'files_only', scenario: 'tiny_closed', reason: 'needs hello; files_only serves files' },
      { server: 'files_only', scenario: null, reason: 'it serves none of the selected scenarios' },
    ]);
  });

  it('gives each server the scenarios it can serve, and skips a server that cannot run here, saying why', () => {
    const plan = resolvePlan({
      definitions: { ...definitions, hello_only: { ...definitions.a, serves: ['hello'] }, absent: { ...definitions.a, requires: ['no-such-program-xyz'], install_hint: 'apt-get install xyz' } },
      servers: ['hello_only', 'absent', 'a'],
      scenariosDir,
    });
    assert.deepEqual(names(plan.served.hello_only), ['tiny_closed', 'tiny_open']);
    assert.deepEqual(names(plan.served.a), ['tiny_closed', 'tiny_file', 'tiny_open']);
    assert.deepEqual(plan.served.absent, []);
    assert.deepEqual(plan.runnable, ['hello_only', 'a']);
    assert.deepEqual(plan.skipped, [
      { server: 'hello_only', scenario: 'tiny_file', reason: 'needs files; hello_only serves hello' },
      { server: 'absent', scenario: null, reason: 'no-such-program-xyz is not installed (apt-get install xyz)' },
    ]);
  });

  it('no server able to run is an error naming each server\'s reason', () => {
    const absent = { absent: { ...definitions.a, requires: ['no-such-program-xyz'] } };
    assert.throws(() => resolvePlan({ definitions: absent, servers: ['absent'], scenariosDir }), (err) => !(err instanceof UsageError) && err.message === 'no server can run: absent: no-such-program-xyz is not installed');
  });

  it('--references adds the servers that are references for the ones asked for, once', () => {
    const defs = { ...definitions, a_bare: { ...definitions.a, reference_for: 'a' }, both_bare: { ...definitions.a, reference_for: ['a', 'b'] }, b_bare: { ...definitions.a, reference_for: ['b'] } };
    assert.deepEqual(resolvePlan({ definitions: defs, servers: ['a'], references: true, scenariosDir }).servers, ['a', 'a_bare', 'both_bare']);
    assert.deepEqual(resolvePlan({ definitions: defs, servers: ['a', 'both_bare'], references: true, scenariosDir }).servers, ['a', 'both_bare', 'a_bare']);
    assert.deepEqual(resolvePlan({ definitions: defs, servers: ['a'], scenariosDir }).servers, ['a']);
    // The project's: the hand-written async is a reference for async_http, as async_bare is.
    const project = resolvePlan({ quick: true, references: true }).servers;
    assert.deepEqual(project.slice(0, 3), ['node', 'em', 'async_http']);
    for (const reference of ['node_bare', 'em_bare', 'async_bare', 'async']) assert.ok(project.includes(reference), reference);
  });

  it('--seeds: each seed study\'s servers, each on its seeds\' scenarios; the others skipped unsaid', () => {
    const seeds = seedPlan();
    const plan = resolvePlan({ seeds: true });
    assert.deepEqual(plan.servers, seeds.servers);
    for (const server of plan.runnable) assert.deepEqual(names(plan.served[server]).sort(), [...seeds.scenariosFor[server]].sort(), server);
    assert.deepEqual(names(plan.scenarios).sort(), [...new Set(Object.values(seeds.scenariosFor).flat())].sort());
    const unsaid = plan.skipped.filter((k) => k.unplanned);
    assert.ok(unsaid.length > 0 && unsaid.every((k) => k.reason === 'not one of its seeds\' scenarios (--seeds)' && !seeds.scenariosFor[k.server].includes(k.scenario)));
    assert.equal(plan.recorded.seeds, true);
  });

  it('--seeds chooses the servers and scenarios itself', () => {
    for (const asked of [{ servers: ['a'] }, { scenarios: ['tiny_closed'] }, { references: true }]) usage({ seeds: true, ...asked }, /^--seeds chooses the servers and scenarios itself/);
  });

  it('unknown servers, or none, are usage errors', () => {
    usage({ servers: ['a', 'nope', 'nix'] }, /^unknown servers 'nope', 'nix' \(known: a, b\)$/);
    usage({ servers: [] }, /^no servers selected$/);
  });
});

describe('the run\'s plan: trials, warm-up, engine', () => {
  it('--repeat: a whole number, 1 or more', () => {
    assert.equal(asked({ servers: ['a'], repeat: 3 }).order.length, 3);
    for (const repeat of [0, 1.5, '2']) usage({ repeat }, /^--repeat must be a whole number, 1 or more/);
  });

  it('--budget: paired rounds with the looks where two or more servers can be up side by side; recorded', () => {
    const { DEFAULT_LOOKS } = require('../../../perf/lib/method');
    const plan = asked({ budget: 90 });
    assert.deepEqual([plan.rounds, plan.unpaired, plan.trials], [{ budgetS: 90, looks: DEFAULT_LOOKS, random: Math.random }, null, 1]);
    const drawn = () => 0.5;
    assert.equal(asked({ budget: 90, random: drawn }).rounds.random, drawn, 'a test\'s own order of the rounds');
    assert.deepEqual([plan.recorded.design, plan.recorded.budget_s, plan.recorded.looks, plan.recorded.repeat], ['rounds', 90, DEFAULT_LOOKS, null]);
    // One server has nothing to pair with: 3 trials instead, and why.
    const one = asked({ servers: ['a'], budget: 90 });
    assert.deepEqual([one.rounds, one.unpaired, one.trials, one.recorded.design], [null, 'one server: nothing to pair', 3, 'trials']);
    for (const budget of [0, -5, 'soon']) usage({ budget }, /^--budget must be a time above 0/);
    usage({ budget: 90, repeat: 3 }, /^--budget measures in paired rounds .*--repeat runs a fixed number of trials: use one$/);
  });

  it('paired rounds: an open loop longer than 5 s of its schedule runs 5 s of it per round, its whole count recorded; trials run it whole', () => {
    const dir = writeScenarioDir({
      long_open: { description: '2000 at 20/s', kind: 'open', connections: 2000, rate: 20 },
      short_open: { description: '100 at 100/s', kind: 'open', connections: 100, rate: 100 },
      closed: { description: 'keep-alive', kind: 'closed', concurrency: 4, requests: 4000 },
    });
    const inRounds = asked({ budget: 90, scenariosDir: dir });
    const long = inRounds.scenarios.find((sc) => sc.name === 'long_open');
    assert.deepEqual([long.connections, long.rate, long.full_connections], [100, 20, 2000]);
    for (const server of ['a', 'b']) assert.equal(inRounds.served[server].find((sc) => sc.name === 'long_open'), long, 'each server runs the slice');
    assert.equal(inRounds.scenarios.find((sc) => sc.name === 'short_open').full_connections, undefined, 'within 5 s: whole');
    assert.equal(inRounds.scenarios.find((sc) => sc.name === 'closed').requests, 4000, 'a closed loop: whole');
    const inTrials = asked({ repeat: 3, scenariosDir: dir });
    assert.deepEqual([inTrials.scenarios.find((sc) => sc.name === 'long_open').connections, inTrials.scenarios.find((sc) => sc.name === 'long_open').full_connections], [2000, undefined]);
  });

  it('--warmup replaces every scenario\'s warm-up; without it each keeps its own', () => {
    assert.deepEqual(asked({ warmup: 0 }).scenarios.map((s) => s.warmup_s), [0, 0, 0]);
    const own = asked({ quick: true });
    assert.ok(own.scenarios.every((s) => s.warmup_s > 0));
    assert.equal(own.recorded.warmup, null);
    for (const warmup of [-1, 1e9, '2']) usage({ warmup }, /^--warmup must be a number of seconds from 0 \(none\) to/);
  });

  it('--engine wrk: the scenarios it can run faithfully run with it, the others are skipped with the reason; no lighter engines', () => {
    const dir = writeScenarioDir({ counted: { description: 'by count', kind: 'closed', concurrency: 2, requests: 10 }, timed: { description: 'by time', kind: 'closed', concurrency: 2, duration_s: 1 } });
    const plan = asked({ scenariosDir: dir, engine: 'wrk' });
    assert.deepEqual(plan.scenarios.map((s) => [s.name, s.engine]), [['timed', 'wrk']]);
    assert.deepEqual(plan.engine, { name: 'wrk', skipped: [{ engine: 'wrk', scenario: 'counted', reason: 'wrk stops after a duration (-d), not after a number of requests' }], lighter: false });
    assert.throws(() => asked({ scenariosDir: dir, engine: 'wrk', scenarios: ['counted'] }), (err) => err.usage === true && /^--engine wrk can run none of the selected scenarios/.test(err.message));
  });

  it('lighter engines only with the default engine, when not turned off', () => {
    assert.equal(asked({ lighterEngines: false }).engine.lighter, false);
    assert.equal(asked({ lighterEngines: true }).engine.lighter, true);
  });
});

describe('the run\'s plan: hosts, pinning, output, the record', () => {
  it('calibrates the host in every full run and a quick run of the defaults on this machine, not in a quick run of chosen scenarios, of stand-ins or elsewhere', () => {
    assert.equal(resolvePlan({ quick: true }).calibration.server, 'libevent');
    assert.deepEqual(resolvePlan({}).calibration, plannedCalibration());
    // A full run of chosen scenarios and ramps (how the archive's sustainable rates are made).
    assert.deepEqual(resolvePlan({ servers: ['node', 'em'], scenarios: ['long_conn_256'], ramps: ['hello_keepalive'] }).calibration, plannedCalibration());
    assert.deepEqual(resolvePlan({ scenarios: ['keepalive_400x100'] }).calibration, plannedCalibration());
    assert.equal(resolvePlan({ quick: true, scenarios: ['keepalive_400x100'] }).calibration, null);
    assert.equal(asked({}).calibration, null, 'stand-in scenarios');
    assert.equal(asked({ servers: ['a'], target: 'http://127.0.0.1:8123' }).calibration, null);
  });

  it('--target: one server, already running: its definition says where', () => {
    const plan = asked({ servers: ['elsewhere'], target: 'http://127.0.0.1:8123' });
    assert.equal(plan.target, 'http://127.0.0.1:8123');
    assert.deepEqual(plan.definitions, { elsewhere: { serves: null, description: 'already running at http://127.0.0.1:8123', remote: 'http://127.0.0.1:8123' } });
    assert.equal(asked({ servers: ['a'], target: 'http://127.0.0.1:8123' }).definitions.a.command, definitions.a.command, 'a known server keeps its definition');
    usage({ servers: ['a', 'b'], target: 'http://127.0.0.1:8123' }, /^--target benchmarks one server/);
    for (const target of ['127.0.0.1:8123', 'https://127.0.0.1:8123', 'http://127.0.0.1']) usage({ servers: ['a'], target }, /^--target takes http:\/\/HOST:PORT/);
    usage({ servers: ['a'], target: 'http://127.0.0.1:8123', link: '1mbit' }, /^--link runs servers it starts; it cannot be used with --target$/);
  });

  it('--link: a tc rate', () => {
    usage({ link: 'fast' }, /^--link takes a rate such as 54mbit/);
  });

  it('--load-hosts: only with --engine tsung, which needs them; hosts elsewhere need --target', () => {
    usage({ engine: 'tsung' }, /^--engine tsung runs its load on load hosts/);
    usage({ loadHosts: 'netns:2' }, /^--load-hosts is where --engine tsung runs its agents/);
    usage({ engine: 'tsung', loadHosts: 'netns:0' }, /^--load-hosts netns:N makes 1 to/);
    usage({ engine: 'tsung', loadHosts: 'h1,h2' }, /^load hosts on other machines need a server they can reach/);
    usage({ engine: 'tsung', loadHosts: 'netns:2', link: '1mbit' }, /^--load-hosts and --link both put the servers behind a network of their own/);
    usage({ engine: 'tsung', loadHosts: 'netns:2', servers: ['a'], target: 'http://127.0.0.1:8123' }, /^--load-hosts netns:N runs the servers it starts in a namespace of their own/);
    const plan = asked({ servers: ['a'], engine: 'tsung', loadHosts: 'h1,h2', target: 'http://10.0.0.1:8080' });
    assert.deepEqual(plan.loadHosts, { kind: 'ssh', hosts: ['h1', 'h2'] });
    assert.equal(plan.recorded.load_hosts, 'h1,h2');
  });

  it('--no-pin: pinning off, and why', () => {
    const plan = asked({ pin: false });
    assert.deepEqual(plan.pinning, { enabled: false, server_cpu: null, client_cpu: null, reason: 'turned off (--no-pin)' });
    assert.equal(plan.recorded.pin, false);
  });

  it('--out, the results root, the servers\' readiness deadline', () => {
    const plan = asked({ outDir: '/tmp/x', resultsRoot: '/tmp/root', readyTimeoutMs: 1500 });
    assert.deepEqual(plan.output, { dir: '/tmp/x', root: '/tmp/root' });
    assert.equal(plan.readyTimeoutMs, 1500);
  });

  it('records what was asked as results.json\'s environment.options, in its order', () => {
    const plan = asked({ scenarios: ['tiny_open', 'tiny_closed'], quick: true, repeat: 2, warmup: 0.5, pin: false, outDir: '/tmp/x' });
    assert.deepEqual(Object.entries(plan.recorded), [
      ['quick', true],
      ['servers', ['a', 'b']],
      ['scenarios', ['tiny_open', 'tiny_closed']],
      ['out', '/tmp/x'],
      ['pin', false],
      ['repeat', 2],
      ['design', 'trials'],
      ['budget_s', null],
      ['looks', null],
      ['target', null],
      ['link', null],
      ['load_hosts', null],
      ['seeds', false],
      ['engine', 'autocannon'],
      ['warmup', 0.5],
      ['margin', 0.1],
      ['lighter_engines', true],
      ['ramps', []],
      ['ramp_servers', []],
      ['slo', null],
      ['held', false],
      ['headline', null],
      ['stand_ins', []],
    ]);
  });

  it('--margin: how close two servers must be to be called the same, ±10 % unless asked', () => {
    assert.equal(asked({}).margin, 0.1);
    assert.deepEqual([asked({ margin: 0.05 }).margin, asked({ margin: 0.05 }).recorded.margin], [0.05, 0.05]);
    for (const margin of [0, -0.1]) usage({ margin }, /^--margin must be a percentage above 0/);
  });

  it('is frozen, all but the scenarios and definitions it holds (the engines\' and servers\' input)', () => {
    const plan = asked({ repeat: 2 });
    for (const part of [plan, plan.servers, plan.served, plan.served.a, plan.order, plan.order[0], plan.skipped, plan.engine, plan.pinning, plan.output, plan.recorded, plan.definitions]) assert.ok(Object.isFrozen(part));
    assert.throws(() => plan.order.push({ trial: 3, server: 'a' }), TypeError);
    assert.ok(!Object.isFrozen(plan.scenarios[0]) && !Object.isFrozen(plan.definitions.a));
    assert.equal(plan.served.a[0], plan.scenarios[0], 'one object per scenario');
    assert.ok(!Object.isFrozen(definitions), 'the caller\'s definitions are left alone');
  });
});

describe('the run\'s plan: ramps', () => {
  const rampNames = (plan) => plan.ramps.map((r) => r.name);

  it('every ramp in a run of the default scenarios (quick: the headline questions\', at their quick values, four searches each); none with --scenarios, another scenarios folder or --ramps none', () => {
    const full = resolvePlan({});
    assert.deepEqual(rampNames(full), ['hello_keepalive', 'hello_per_connection']);
    assert.deepEqual(full.rampOptions, { objective: { percentile: 'p99', ms: 10 }, repeat: 3 });
    assert.deepEqual([full.recorded.ramps, full.recorded.slo], [['hello_keepalive', 'hello_per_connection'], { percentile: 'p99', ms: 10 }]);
    const quick = resolvePlan({ quick: true });
    const keepalive = quick.ramps.find((r) => r.name === 'hello_keepalive');
    assert.deepEqual([rampNames(quick).sort(), keepalive.from_rps, keepalive.step_s, quick.rampOptions.repeat], [['hello_keepalive', 'hello_per_connection'], 1000, 0.5, 4]);
    assert.equal(full.ramps[1].from_rps, 20, 'the full ramp from the seed\'s 20 a second');
    assert.deepEqual(rampNames(resolvePlan({ scenarios: ['sequential_6000'] })), []);
    assert.deepEqual(rampNames(asked({})), []);
    assert.deepEqual(rampNames(resolvePlan({ ramps: [] })), []);
  });

  it('--ramps names them (quick values with --quick); --slo sets the objective', () => {
    const plan = asked({ quick: true, ramps: ['hello_per_connection'], slo: 'p999<=25ms' });
    assert.deepEqual(rampNames(plan), ['hello_per_connection']);
    assert.equal(plan.ramps[0].step_s, 0.5);
    const own = resolvePlan({ quick: true, ramps: ['hello_per_connection'] });
    assert.deepEqual([rampNames(own), own.recorded.headline.chosen.every((s) => s.kind === 'scenario')], [['hello_per_connection'], true], 'a quick run with --ramps: those, and the headline scenarios');
    assert.deepEqual(plan.rampOptions, { objective: { percentile: 'p999', ms: 25 }, repeat: 4 });
    assert.deepEqual(asked({ ramps: ['hello_per_connection'], slo: 'p90=5ms' }).rampOptions.objective, { percentile: 'p90', ms: 5 });
    assert.equal(asked({ quick: true, ramps: ['hello_per_connection'], rampRepeat: 1 }).rampOptions.repeat, 1, '--ramp-repeat');
  });

  it('a bad --slo, an unknown ramp, or ramps on servers elsewhere: one line, a usage error', () => {
    usage({ slo: 'p98=10ms' }, /--slo takes a percentile and a time, e.g. p99=10ms/);
    usage({ slo: 'p99=0ms' }, /--slo takes/);
    assert.throws(() => asked({ ramps: ['nope'] }), (err) => err.usage && /unknown ramp 'nope'/.test(err.message));
    usage({ servers: ['a'], ramps: ['hello_per_connection'], target: 'http://127.0.0.1:9' }, /--ramps runs on servers this machine starts \(and starts again when one exits\): not with --target/);
  });

  it('another --engine runs the ramps it can run faithfully, each step on it, and skips the others in a line; none it can run, when asked for: a usage error', () => {
    const plan = resolvePlan({ engine: 'httperf' });
    assert.deepEqual(rampNames(plan), ['hello_per_connection']);
    assert.equal(stepScenario(plan.ramps[0], 1000).engine, 'httperf', 'each step runs on httperf (engineFor honours it)');
    const skipped = plan.engine.skipped.filter((k) => k.ramp);
    assert.deepEqual(skipped.map((k) => [k.engine, k.scenario]), [['httperf', 'hello_keepalive']]);
    assert.equal(skippedLine(skipped[0]), `httperf: skips the ramp hello_keepalive (cannot run it faithfully: ${skipped[0].reason})`);
    assert.equal(stepScenario(resolvePlan({}).ramps[1], 1000).engine, undefined, 'the built-in engines choose for themselves');
    assert.throws(() => resolvePlan({ engine: 'wrk', scenarios: ['long_conn_256'], ramps: ['hello_per_connection'] }), (err) => err instanceof UsageError && /--engine wrk can run none of the ramps asked for \(hello_per_connection: wrk is closed-loop/.test(err.message));
  });
});

describe('the run\'s plan: the held-count search', () => {
  it('runs by default with the default scenarios (not in a quick run; --held there: its quick design); --held with any scenarios, --no-held never', () => {
    assert.deepEqual([resolvePlan({ quick: true, held: true }).held.from, resolvePlan({}).held.from], [250, 1000]);
    assert.equal(resolvePlan({ quick: true }).held, null, 'a quick run measures the headline questions only');
    assert.equal(asked({}).held, null, 'another scenarios folder chooses what runs');
    assert.deepEqual(asked({ held: true }).held.servers, ['a', 'b']);
    assert.equal(resolvePlan({ held: false }).held, null);
    assert.throws(() => resolvePlan({ held: true, servers: ['node'], target: 'http://127.0.0.1:21999' }), /--held runs on servers this machine starts/);
  });

  it('searches only the servers that serve /delay: a reference answering /hello alone is left out', () => {
    const plan = resolvePlan({ definitions: { ...definitions, hello_only: { ...definitions.a, serves: ['hello'] } }, servers: ['a', 'hello_only'], scenariosDir, held: true });
    assert.deepEqual(plan.held.servers, ['a']);
    assert.equal(resolvePlan({ definitions: { hello_only: { ...definitions.a, serves: ['hello'] } }, servers: ['hello_only'], scenariosDir, held: true }).held, null);
  });
});

describe('the run\'s plan: the backends of the /upstream and /db scenarios', () => {
  const backendDir = writeScenarioDir({
    calls_upstream: { description: 'a call to the upstream', kind: 'rate', connections: 4, rate: 100, requests: 100, request: { path: '/upstream?ms=5' }, baseline: 'same_wait' },
    same_wait: { description: 'the same wait on the timer', kind: 'rate', connections: 4, rate: 100, requests: 100, request: { path: '/delay?ms=5' } },
    reads_db: { description: 'a row from Redis', kind: 'rate', connections: 4, rate: 100, requests: 100, request: { path: '/db' } },
    tiny_closed: { description: 'keep-alive hello', kind: 'closed', concurrency: 4, requests: 40 },
  });
  const both = standinDefinitions({ a: {}, b: {} });
  for (const def of Object.values(both)) def.serves = ['hello', 'delay', 'upstream', 'db'];
  const plan = (options = {}) => resolvePlan({ definitions: both, servers: ['a', 'b'], scenariosDir: backendDir, ...options });
  const installed = !missingBackend('upstream') && !missingBackend('redis');

  it('starts every backend a server\'s routes call, in a fixed order, whatever scenarios are selected', function () {
    if (!installed) this.skip(); // scripts/setup.sh --backends installs them; the next tests cover their absence
    assert.deepEqual(plan().backends, { names: ['upstream', 'redis'], line: null });
    // A quick run's scenarios call no backend: its servers are still started as a full run's are.
    assert.deepEqual(plan({ scenarios: ['tiny_closed', 'same_wait'] }).backends, { names: ['upstream', 'redis'], line: null });
    const dbOnly = standinDefinitions({ a: {} });
    dbOnly.a.serves = ['hello', 'db'];
    assert.deepEqual(resolvePlan({ definitions: dbOnly, servers: ['a'], scenariosDir: backendDir, scenarios: ['tiny_closed'] }).backends.names, ['redis']);
  });

  it('a server that says nothing of its routes (a stand-in): only the backends the selected scenarios call', function () {
    if (!installed) this.skip();
    const silent = standinDefinitions({ a: {} });
    const p = (scenarios) => resolvePlan({ definitions: silent, servers: ['a'], scenariosDir: backendDir, scenarios }).backends;
    assert.deepEqual(p(['reads_db', 'tiny_closed']).names, ['redis']);
    assert.deepEqual(p(['tiny_closed', 'same_wait']), { names: [], line: null });
  });

  it('says in one line that the servers run without their backends when none of the selected scenarios needs them', () => {
    const p = plan({ scenarios: ['tiny_closed', 'same_wait'], backendsDown: 'redis-server exited (exit code 1)' });
    assert.deepEqual(p.backends.names, []);
    assert.match(p.backends.line, /^backends: upstream, redis not started \(the backends did not start: redis-server exited \(exit code 1\)\): the servers run without their clients, a set-up unlike runs with them$/);
    assert.deepEqual(names(p.served.a), ['tiny_closed', 'same_wait']);
  });

  it('leaves out, in one line, the scenarios whose backend did not start (or cannot run here)', () => {
    const p = plan({ backendsDown: 'redis-server exited (exit code 1)' });
    assert.deepEqual(p.backends.names, []);
    assert.match(p.backends.line, /^backends: calls_upstream, reads_db skipped \((?:.*)\)$/);
    assert.deepEqual(names(p.served.a), ['same_wait', 'tiny_closed']);
    const skipped = p.skipped.filter((k) => k.backend);
    assert.deepEqual(skipped.map((k) => `${k.server} ${k.scenario}`), ['a calls_upstream', 'a reads_db', 'b calls_upstream', 'b reads_db']);
    for (const k of skipped) assert.ok(k.reason.length > 0);
  });

  it('with --target, the server elsewhere cannot have been given this run\'s backends', () => {
    const p = resolvePlan({ definitions: both, servers: ['a'], scenariosDir: backendDir, target: 'http://127.0.0.1:9' });
    assert.deepEqual(p.backends.names, []);
    assert.match(p.backends.line, /--target: the server elsewhere was not started with this run's backends/);
  });

  it('marks each baseline with the scenario it is the baseline of, and refuses one that names itself or nothing', () => {
    const p = plan();
    assert.equal(p.scenarios.find((s) => s.name === 'same_wait').baseline_of, 'calls_upstream');
    assert.equal(p.scenarios.find((s) => s.name === 'calls_upstream').baseline, 'same_wait');
    const self = writeScenarioDir({ x: { description: 'x', kind: 'rate', connections: 1, rate: 10, requests: 10, baseline: 'x' } });
    assert.throws(() => resolvePlan({ definitions: both, servers: ['a'], scenariosDir: self }), /'baseline' names the scenario itself/);
    const none = writeScenarioDir({ x: { description: 'x', kind: 'rate', connections: 1, rate: 10, requests: 10, baseline: 'y' } });
    assert.throws(() => resolvePlan({ definitions: both, servers: ['a'], scenariosDir: none }), /'baseline' names 'y', which is not a scenario/);
  });
});
