'use strict';
// Which runs a verdict may use (perf/lib/run/bottleneck.js), and the warm-up before every run:
// the /proc/stat accounting on a synthetic pair of snapshots; a closed loop that cannot
// saturate its server (a stand-in whose replies wait 25 ms) flagged not server-bound and left
// out of the verdicts on times, rates and CPU (its memory still compared); the warm-up on the same server, not counted, and --warmup.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { spawnSync } = require('node:child_process');
const { SERVER_BOUND_PCT } = require('../../perf/lib/method');
const { runScenarios } = require('../../perf/lib/run/runner');
const { parseSamplesCsv } = require('../../perf/lib/measure/samples');
const { standinDefinitions, makeTmpDir, writeScenarioDir, runCommand, judgedOf } = require('../support/runner_helpers');
const { noteWords } = require('../../perf/lib/text/verdict_notes');
const { PROJECT_ROOT } = require('../../perf/lib/project_root');

describe('judging runs: a closed loop that cannot saturate its server', function () {
  this.timeout(60000);
  // Two clients whose every reply waits 25 ms: the server idles most of the time.
  const scenariosDir = writeScenarioDir({ held_back: { description: 'held back', kind: 'closed', concurrency: 2, duration_s: 1.5, warmup_s: 0, request: { path: '/delay?ms=25' } } });
  const out = makeTmpDir('judging-');
  let doc;

  before(async () => {
    await runScenarios({ definitions: standinDefinitions({ a: {}, b: {} }), servers: ['a', 'b'], scenariosDir, outDir: out, pin: false, log: () => {} });
    doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
  });

  it('records the server\'s share of its core and the machine\'s CPU, and flags the run not server-bound', () => {
    assert.equal(doc.runs.length, 2);
    for (const r of doc.runs) {
      assert.equal(r.ok, true, r.failure);
      assert.ok(r.server_cpu_pct >= 0 && r.server_cpu_pct < SERVER_BOUND_PCT, `${r.server_cpu_pct}%`);
      assert.equal(r.server_bound, false);
      assert.equal(r.judged, false);
      assert.ok(r.not_judged_because.some((why) => /^not server-bound: the server used [\d.]+% of its core/.test(why)), r.not_judged_because.join('; '));
      assert.deepEqual(Object.keys(r.machine_cpu), ['wall_s', 'busy_pct', 'irq_pct', 'steal_pct', 'foreign_cpu_pct', 'resolution_pct']);
      assert.ok(r.machine_cpu.wall_s >= 1.5);
      assert.equal(typeof r.disturbed, 'boolean');
      assert.deepEqual(r.warmup, { seconds: 0, requests: 0 });
    }
  });

  it('is not used for a verdict on a time, a rate or CPU: those comparisons are excluded, with the reason; its memory, which the pace does not set, is compared', () => {
    const judged = judgedOf(out);
    for (const a of judged.aggregates) assert.deepEqual([a.basis, a.used_trials, a.metrics.peak_rss_mb.n], ['not-judged', [], 1]);
    assert.equal(judged.comparisons.length, 6);
    for (const c of judged.comparisons.filter((x) => x.metric !== 'peak_rss_mb')) {
      assert.equal(c.excluded, 'not-judged');
      assert.match(noteWords(c.note), /^a not judged \((.*, )?not server-bound(, .*)?\)/);
    }
    const memory = judged.comparisons.find((x) => x.metric === 'peak_rss_mb');
    assert.deepEqual([memory.excluded, memory.n_a, memory.n_b], [null, 1, 1]);
    assert.ok(memory.value_a > 0 && memory.value_b > 0);
  });
});

describe('judging runs: wrk runs again what the built-in load generator could not judge', function () {
  this.timeout(60000);

  it('runs the scenario again with wrk, keeps both runs, and judges from wrk\'s alone', async function () {
    if (spawnSync('sh', ['-c', 'command -v wrk']).status !== 0) this.skip(); // scripts/setup.sh installs it
    // A closed loop that stops after whole seconds, which wrk can run; its server is held back.
    const scenariosDir = writeScenarioDir({ held_1s: { description: 'held back', kind: 'closed', concurrency: 2, duration_s: 1, warmup_s: 0, request: { path: '/delay?ms=25' } } });
    const out = makeTmpDir('judging-wrk-');
    const lines = [];
    await runScenarios({ definitions: standinDefinitions({ a: {} }), servers: ['a'], scenariosDir, outDir: out, pin: false, log: (l) => lines.push(l) });
    const doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    assert.ok(lines.includes('wrk: runs held_1s again: the built-in load generator was the bottleneck'), lines.join('\n'));
    assert.deepEqual(doc.runs.map((r) => `${r.engine}:${r.ok}:${r.server_bound}`), ['autocannon:true:false', 'wrk:true:false']);
    assert.ok(doc.runs[0].not_judged_because.some((why) => /^superseded: wrk ran held_1s again/.test(why)));
    assert.deepEqual(doc.verdict_engines, { held_1s: 'wrk' });
    assert.equal(doc.runs[0].superseded_by, 'wrk');
    const [agg] = judgedOf(out).aggregates;
    assert.deepEqual([agg.trials, agg.used_trials], [1, []], 'the superseded run is not one of the trials');
  });

  it('runs a scenario bounded by a count of requests for the time the built-in runs took, and says so', async function () {
    if (spawnSync('sh', ['-c', 'command -v wrk']).status !== 0) this.skip(); // scripts/setup.sh installs it
    // 60 requests on 2 connections, 25 ms each: about 0.75 s, so wrk runs 1 s.
    const scenariosDir = writeScenarioDir({ held_count: { description: 'held back', kind: 'closed', concurrency: 2, requests: 60, warmup_s: 0, request: { path: '/delay?ms=25' } } });
    const out = makeTmpDir('judging-wrk-count-');
    const lines = [];
    await runScenarios({ definitions: standinDefinitions({ a: {} }), servers: ['a'], scenariosDir, outDir: out, pin: false, log: (l) => lines.push(l) });
    const doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    const why = 'the built-in load generator was the bottleneck; wrk stops after a duration, so it runs for 1 s, the time the built-in runs took, instead of 60 requests';
    assert.ok(lines.includes(`wrk: runs held_count again: ${why}`), lines.join('\n'));
    assert.deepEqual(doc.runs.map((r) => `${r.engine}:${r.ok}:${r.params.requests}:${r.params.duration_s}`), ['autocannon:true:60:null', 'wrk:true:null:1']);
    assert.deepEqual([doc.verdict_engines, doc.verdict_engine_reasons], [{ held_count: 'wrk' }, { held_count: why }]);
  });
});

describe('judging runs: one client at a time is judged from the engine with the shorter cycle', function () {
  this.timeout(60000);

  it('runs it again with httperf, keeps both, and leaves the superseded runs out of the trials', async function () {
    if (spawnSync('sh', ['-c', 'command -v httperf']).status !== 0) this.skip(); // scripts/setup.sh installs it
    const scenariosDir = writeScenarioDir({ one_at_a_time: { description: 'sequential', kind: 'closed', concurrency: 1, keep_alive: false, requests: 300, warmup_s: 0 } });
    const out = makeTmpDir('judging-httperf-');
    const lines = [];
    await runScenarios({ definitions: standinDefinitions({ a: {}, b: {} }), servers: ['a', 'b'], scenariosDir, outDir: out, pin: false, repeat: 2, log: (l) => lines.push(l) });
    const doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    assert.ok(lines.includes("httperf: runs one_at_a_time again: one client at a time: the load generator's own time per request is part of every figure"), lines.join('\n'));
    assert.deepEqual(doc.runs.map((r) => `${r.trial}${r.server}:${r.engine}`), ['1a:sequential', '1b:sequential', '2a:sequential', '2b:sequential', '1a:httperf', '1b:httperf', '2a:httperf', '2b:httperf']);
    const chosen = doc.verdict_engines.one_at_a_time;
    assert.ok(['httperf', 'sequential'].includes(chosen));
    assert.match(doc.verdict_engine_reasons.one_at_a_time, /^httperf's cycle per request is (not )?shorter than sequential's on every server \(a [\d.]+ vs [\d.]+, b [\d.]+ vs [\d.]+ ms\)$/);
    for (const r of doc.runs) assert.equal(r.superseded_by ?? null, r.engine === chosen ? null : chosen, `${r.server} ${r.engine}`);
    for (const a of judgedOf(out).aggregates) assert.equal(a.trials, 2, 'two trials per server, of the chosen engine');
  });
});

describe('warm-up before every run', function () {
  this.timeout(60000);
  const scenariosDir = writeScenarioDir({
    warm_closed: { description: 'keep-alive', kind: 'closed', concurrency: 4, requests: 40, warmup_s: 0.5 },
    warm_open: { description: 'open loop', kind: 'open', connections: 10, rate: 50, warmup_s: 0.2 },
    warm_slow: {
      description: 'slow readers',
      kind: 'slow_clients',
      warmup_s: 0.25,
      probe: { rate: 20, duration_s: 1 },
      slow: { mode: 'read', clients: 1, bytes_per_s: 131072, start_s: 0.2, active_s: 0.5 },
    },
  });
  const defaults = { definitions: standinDefinitions({ standin: {} }), servers: ['standin'], scenariosDir, pin: false, lighterEngines: false, log: () => {} };

  it('runs on the same server at the scenario\'s concurrency or rate, for warmup_s; only the measured requests count', async () => {
    const out = makeTmpDir('warmup-');
    await runScenarios({ ...defaults, outDir: out });
    const runs = Object.fromEntries(JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')).runs.map((r) => [r.scenario, r]));
    const closed = runs.warm_closed;
    assert.equal(closed.ok, true, closed.failure);
    assert.equal(closed.params.warmup_s, 0.5);
    assert.ok(closed.warmup.seconds >= 0.5 && closed.warmup.requests > 0, JSON.stringify(closed.warmup));
    assert.equal(closed.requests, 40);
    const rows = parseSamplesCsv(zlib.gunzipSync(fs.readFileSync(path.join(out, closed.samples_file))).toString());
    assert.equal(rows.length, 40, 'the samples hold the measured requests only');
    assert.ok(rows.every((r) => r.t_ms >= 0));
    // Open loop: the scenario's rate for warmup_s, 50/s × 0.2 s.
    assert.equal(runs.warm_open.warmup.requests, 10);
    assert.equal(runs.warm_open.requests, 10);
    // Slow clients: the probe alone, 20/s × 0.25 s.
    assert.equal(runs.warm_slow.warmup.requests, 5);
    assert.equal(runs.warm_slow.slow_clients.transfers, 1);
  });

  it('goes through the engine that measures: httperf\'s count-bound run again and again until warmup_s has passed', async function () {
    if (spawnSync('sh', ['-c', 'command -v httperf']).status !== 0) this.skip(); // scripts/setup.sh installs it
    const out = makeTmpDir('warmup-httperf-');
    const dir = writeScenarioDir({ warm_httperf: { description: 'one at a time', kind: 'closed', concurrency: 1, keep_alive: false, requests: 50, warmup_s: 0.3 } });
    await runScenarios({ ...defaults, scenariosDir: dir, engine: 'httperf', outDir: out });
    const [run] = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')).runs;
    assert.equal(run.ok, true, run.failure);
    assert.equal(run.engine, 'httperf');
    assert.equal(run.warmup.engine, 'httperf');
    assert.ok(run.warmup.seconds >= 0.3, JSON.stringify(run.warmup));
    assert.ok(run.warmup.requests > 50 && run.warmup.requests % 50 === 0, `whole runs of 50, more than one: ${JSON.stringify(run.warmup)}`);
    assert.equal(run.requests, 50);
  });

  it('--warmup 0 (the runner option) turns it off for every scenario, and is recorded', async () => {
    const out = makeTmpDir('warmup-off-');
    await runScenarios({ ...defaults, scenarios: ['warm_closed'], outDir: out, warmup: 0 });
    const doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    assert.equal(doc.environment.options.warmup, 0);
    assert.deepEqual(doc.runs[0].warmup, { seconds: 0, requests: 0 });
    assert.equal(doc.runs[0].params.warmup_s, 0);
  });

  it('--warmup on the command line: a number of seconds within bounds, else one line and the usage', async () => {
    // Each bad value's command line at once: a Node start each, not one after the other.
    const results = await Promise.all(['abc', '601', '1e3'].map((bad) => runCommand(process.execPath, [path.join(PROJECT_ROOT, 'perf', 'cli', 'run.js'), '--warmup', bad], { timeoutMs: 20000 })));
    for (const res of results) {
      assert.equal(res.code, 2, res.stderr);
      const lines = res.stderr.trim().split('\n');
      assert.match(lines[0], /^run_scenarios\.sh: option '--warmup <seconds>' argument '.*' is invalid\. must be a number of seconds from 0 \(none\) to 600\.$/);
      assert.equal(lines.length, 2);
    }
  });
});
