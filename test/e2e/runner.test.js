'use strict';
// runScenarios() with stand-in servers: a server that dies mid-scenario, one that breaks the
// contract, an interrupted run, one ended at once, the slow-client fields; every file written whole.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { runScenarios, finishLiveRuns } = require('../../perf/lib/run/runner');
const { summarizeRun } = require('../../perf/lib/studies/run_summary');
const { parseSamplesCsv } = require('../../perf/lib/measure/samples');
const { standinDefinitions, makeTmpDir, writeScenarioDir, alive } = require('../support/runner_helpers');

const SCENARIOS = {
  tiny_closed: { description: 'keep-alive', kind: 'closed', concurrency: 4, requests: 40 },
  tiny_open: { description: 'open loop', kind: 'open', connections: 20, rate: 100 },
  tiny_slow: {
    description: 'slow readers',
    kind: 'slow_clients',
    probe: { rate: 20, duration_s: 1.5 },
    slow: { mode: 'read', request: { path: '/data/random-1m.bin' }, clients: 2, bytes_per_s: 131072, start_s: 0.3, active_s: 0.8 },
  },
};

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function noTempFiles(dir) {
  const all = [...fs.readdirSync(dir), ...fs.readdirSync(path.join(dir, 'samples'))];
  assert.deepEqual(all.filter((f) => f.endsWith('.tmp') || f === '.reserve'), []);
}

describe('perf runner: runScenarios with stand-in servers', function () {
  this.timeout(60000);
  const scenariosDir = writeScenarioDir(SCENARIOS);
  const quiet = { log: () => {}, pin: false, scenariosDir, warmup: 0, lighterEngines: false }; // warm-ups: test/e2e/judging.test.js

  it('a server that dies mid-scenario: that run fails with the reason, the rest of it is not run, the next server runs', async () => {
    const out = makeTmpDir();
    const pidfile = path.join(out, 'dies.pid');
    // The contract check sends 4 GET /hello; the stand-in exits on the 30th, inside tiny_closed.
    const definitions = standinDefinitions({ dies: { STANDIN_EXIT_AFTER: '30', STANDIN_PIDFILE: pidfile }, good: {} });
    const result = await runScenarios({ ...quiet, definitions, servers: ['dies', 'good'], scenarios: ['tiny_closed', 'tiny_open'], outDir: out });
    const runs = readJson(path.join(out, 'results.json')).runs;
    assert.deepEqual(runs.map((r) => `${r.server}/${r.scenario}/${r.ok}`), ['dies/tiny_closed/false', 'dies/tiny_open/false', 'good/tiny_closed/true', 'good/tiny_open/true']);
    assert.match(runs[0].failure, /^the server exited during the run \(exit code 3\)/);
    assert.match(runs[1].failure, /^not run: the server exited during tiny_closed/);
    assert.equal(result.interrupted, false);
    assert.equal(alive(Number(fs.readFileSync(pidfile, 'utf8'))), false);
    summarizeRun(result.decoded);
    assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), /dies tiny_closed: FAILED: the server exited/);
    noTempFiles(out);
  });

  it('a server that fails the contract is not benchmarked, and the reason says why', async () => {
    const out = makeTmpDir();
    const definitions = standinDefinitions({ bad: { STANDIN_HELLO_BODY: 'hello world' } });
    await runScenarios({ ...quiet, definitions, servers: ['bad'], scenarios: ['tiny_open'], outDir: out });
    const [run] = readJson(path.join(out, 'results.json')).runs;
    assert.equal(run.ok, false);
    assert.match(run.failure, /contract check: GET \/hello answered "hello world" \(expected "asdfghjkl;"\)/);
    assert.equal(run.samples_file, null);
    assert.deepEqual(fs.readdirSync(path.join(out, 'samples')), []);
  });

  it('a server that never starts: every run records why', async () => {
    const out = makeTmpDir();
    const definitions = { broken: { command: process.execPath, args: ['-e', 'console.error("boom: no config"); process.exit(2)'], cwd: '.', env: {}, ready: 'listening on http://' } };
    await runScenarios({ ...quiet, definitions, servers: ['broken'], scenarios: ['tiny_open', 'tiny_closed'], outDir: out });
    const runs = readJson(path.join(out, 'results.json')).runs;
    assert.equal(runs.length, 2);
    for (const r of runs) assert.match(r.failure, /the server did not start: server 'broken' exited before it was ready \(exit code 2\): boom: no config/);
  });

  it('interrupted: keeps the finished runs, closes results.json for its summary, leaves no server running', async () => {
    const out = makeTmpDir();
    const pidfile = path.join(out, 'standin.pid');
    const definitions = standinDefinitions({ standin: { STANDIN_PIDFILE: pidfile } });
    const controller = new AbortController();
    const status = (text) => {
      if (text && /tiny_open\s+running/.test(text)) controller.abort();
    };
    const result = await runScenarios({ ...quiet, definitions, servers: ['standin'], scenarios: ['tiny_closed', 'tiny_open'], outDir: out, signal: controller.signal, status });
    assert.equal(result.interrupted, true);
    const doc = readJson(path.join(out, 'results.json'));
    assert.equal(doc.interrupted, true);
    assert.deepEqual(doc.runs.map((r) => r.scenario), ['tiny_closed']);
    assert.ok(doc.runs[0].ok);
    summarizeRun(result.decoded);
    assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), /\| tiny_closed \|/);
    assert.equal(alive(Number(fs.readFileSync(pidfile, 'utf8'))), false);
    noTempFiles(out);
  });

  it('ended at once while a server starts (a second Ctrl-C): recorded as interrupted, with when it ended; nothing written after', async () => {
    const out = makeTmpDir();
    const pidfile = path.join(out, 'silent.pid');
    const silent = `require('fs').writeFileSync(${JSON.stringify(pidfile)}, String(process.pid)); setInterval(() => {}, 1000);`;
    const definitions = { silent: { command: process.execPath, args: ['-e', silent], cwd: '.', env: {}, ready: 'listening on http://' } };
    const controller = new AbortController();
    let ended = null;
    const log = (line) => {
      if (!/^silent: starting/.test(line)) return;
      controller.abort(); // the first Ctrl-C…
      [ended] = finishLiveRuns(); // …and the second, as perf/cli/run.js does them
    };
    const result = await runScenarios({ ...quiet, definitions, servers: ['silent'], scenarios: ['tiny_open'], outDir: out, signal: controller.signal, log, readyTimeoutMs: 1500 });
    assert.equal(result, ended, 'the run resolves what finishLiveRuns recorded');
    const doc = readJson(path.join(out, 'results.json'));
    assert.equal(doc.interrupted, true);
    assert.equal(doc.error, null);
    assert.ok(doc.environment.finished_at);
    assert.deepEqual(doc.runs, [], 'the start that failed later is not recorded after the end');
    summarizeRun(ended.decoded);
    assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), /^No run finished\.$/m);
    assert.equal(alive(Number(fs.readFileSync(pidfile, 'utf8'))), false);
    noTempFiles(out);
  });

  it('slow clients: the probe is the result; slow transfers, their periods and phases are recorded', async () => {
    const out = makeTmpDir();
    await runScenarios({ ...quiet, definitions: standinDefinitions({ standin: {} }), servers: ['standin'], scenarios: ['tiny_slow'], outDir: out });
    const [run] = readJson(path.join(out, 'results.json')).runs;
    assert.equal(run.ok, true, run.failure);
    assert.equal(run.engine, 'slow_clients');
    assert.equal(run.requests, 30);
    assert.equal(run.replies, 30);
    assert.equal(run.slow_clients.mode, 'read');
    assert.equal(run.slow_clients.active_periods.length, 2);
    for (const p of run.slow_clients.active_periods) {
      assert.deepEqual(Object.keys(p).sort(), ['bytes', 'client', 'end_ms', 'outcome', 'start_ms', 'status']);
      assert.ok(p.start_ms >= 290 && p.end_ms <= 1200);
    }
    assert.deepEqual(Object.keys(run.probe_by_phase), ['before', 'during', 'after']);
    const rows = parseSamplesCsv(zlib.gunzipSync(fs.readFileSync(path.join(out, run.samples_file))).toString());
    assert.equal(rows.filter((r) => r.role === 'probe').length, 30);
    assert.equal(rows.filter((r) => r.role === 'slow').length, 2);
  });
});
