'use strict';
// Repeated trials with stand-in servers: the interleaving (trial outermost: A B A B …), the trial
// fields and sample files, the short contract check after the first trial, the verdicts in
// results.json; servers that serve less (scenarios skipped, contract checked only for what they
// serve), servers that cannot run here, readiness by port; the command line's --repeat and
// --references.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { runScenarios } = require('../../perf/lib/run/runner');
const { schemaProblem } = require('../../perf/lib/store/results_doc');
const { loadServerDefinitions } = require('../../perf/lib/hosts/server_process');
const { findSamplesFile, readSamples } = require('../../perf/lib/measure/samples');
const { standinDefinitions, makeTmpDir, writeScenarioDir, runCommand, judgedOf, STANDIN } = require('../support/runner_helpers');
const { summarizeRun } = require('../../perf/lib/studies/run_summary');
const { PROJECT_ROOT } = require('../../perf/lib/project_root');

const SCENARIOS = {
  tiny_closed: { description: 'keep-alive hello', kind: 'closed', concurrency: 4, requests: 40 },
  tiny_file: { description: 'a file', kind: 'closed', concurrency: 2, requests: 10, request: { path: '/lipsum100k.txt' } },
};
const CLI = path.join(PROJECT_ROOT, 'perf', 'cli', 'run.js');

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

describe('trials: the runner repeats and interleaves', function () {
  this.timeout(60000);
  const scenariosDir = writeScenarioDir(SCENARIOS);
  const out = makeTmpDir('trials-');
  const lines = [];
  let doc;

  before(async () => {
    // No runs again with a lighter engine: the subject is the interleaving (perf_judging tests those).
    const ended = await runScenarios({ definitions: standinDefinitions({ a: {}, b: {} }), servers: ['a', 'b'], scenariosDir, outDir: out, pin: false, repeat: 3, warmup: 0, lighterEngines: false, log: (l) => lines.push(l) });
    summarizeRun(ended.decoded); // the summaries, as the run CLI writes them
    doc = readJson(path.join(out, 'results.json'));
  });

  it('runs trial 1 of every server, then trial 2 …: A B A B A B, each server started afresh', () => {
    assert.deepEqual(doc.runs.map((r) => `${r.trial}${r.server}:${r.scenario}`), [1, 2, 3].flatMap((t) => ['a', 'b'].flatMap((s) => [`${t}${s}:tiny_closed`, `${t}${s}:tiny_file`])));
    assert.deepEqual(lines.filter((l) => / starting/.test(l)).map((l) => l.split(' (')[0] + l.match(/\(trial \d\/3\)/)[0]), [1, 2, 3].flatMap((t) => ['a', 'b'].map((s) => `${s}: starting(trial ${t}/3)`)));
    const pids = lines.map((l) => /: pid (\d+) listening/.exec(l)).filter(Boolean).map((m) => m[1]);
    assert.equal(new Set(pids).size, 6, 'a new process per server and trial');
    assert.equal(doc.environment.options.repeat, 3);
    assert.equal(schemaProblem(doc), null, 'results.json matches its schema');
  });

  it('checks the whole contract on the first trial, a short check on later ones', () => {
    const checks = lines.filter((l) => /checking the contract/.test(l));
    assert.deepEqual(checks.map((l) => / \(short check\)$/.test(l)), [false, false, true, true, true, true]);
  });

  it('says how long it expects to take before it starts', () => {
    const i = lines.findIndex((l) => /^plan: 3 trials × 2 servers \(a, b\), 12 runs; expected to take about \d+ s$/.test(l));
    assert.ok(i >= 0 && i < lines.findIndex((l) => / starting/.test(l)), lines.join('\n'));
  });

  it('keeps every trial: trial numbers, one samples file each, readable by the report', async () => {
    const files = doc.runs.map((r) => r.samples_file);
    assert.equal(new Set(files).size, files.length);
    for (const r of doc.runs) {
      assert.equal(r.ok, true, r.failure);
      assert.equal(r.samples_file, `samples/${r.server}__${r.scenario}__t${r.trial}.csv.gz`);
    }
    const run = doc.runs.find((r) => r.server === 'b' && r.trial === 2 && r.scenario === 'tiny_closed');
    const samples = await readSamples(findSamplesFile(out, run));
    assert.equal(samples.n, run.requests);
  });

  it('adds aggregates and comparisons over the trials', () => {
    // A run of 40 requests can leave the load generator at 90 % of its core (client-bound), or
    // late on a machine busy with the other tests of its lane: such a trial is left out, as it
    // must be, with its reason. The trials each aggregate uses are the judged ones; every other
    // one is a trial not judged, the client-bound among them.
    const runsOf = (server, scenario) => doc.runs.filter((r) => r.server === server && r.scenario === scenario);
    const judgedTrials = (server, scenario) => runsOf(server, scenario).filter((r) => r.judged).map((r) => r.trial);
    // What the runner measured, judged as every reader judges it.
    assert.equal(doc.comparisons, undefined, 'results.json holds what was measured, nothing judged');
    const { aggregates, comparisons } = judgedOf(out);
    assert.equal(aggregates.length, 4);
    for (const a of aggregates) {
      const runs = runsOf(a.server, a.scenario);
      const judged = judgedTrials(a.server, a.scenario);
      assert.deepEqual(a.used_trials, judged);
      assert.deepEqual([...a.used_trials, ...a.not_judged_trials].sort(), [1, 2, 3]);
      assert.ok(a.client_bound_trials.every((t) => a.not_judged_trials.includes(t)), JSON.stringify(a));
      for (const r of runs.filter((x) => !x.judged)) assert.ok(r.not_judged_because.length > 0, `trial ${r.trial}: left out, and why`);
      if (judged.length < 2) continue;
      assert.equal(a.metrics.p50_ms.n, judged.length);
      assert.ok(a.metrics.p50_ms.ci95[0] <= a.metrics.p50_ms.centre && a.metrics.p50_ms.centre <= a.metrics.p50_ms.ci95[1]);
    }
    assert.equal(comparisons.length, 2 * 6);
    // (CPU per request of these tiny runs can be 0 at /proc's 10 ms resolution: no log, left out;
    // their p99 rests on too few requests for a verdict: left out too.)
    // Memory, which the pace does not set, from every finished trial left out only for its pace
    // (here: client-bound); the other metrics from the judged ones.
    const paceOnly = (why) => /^(client-bound|not server-bound|disturbed|shared core):/.test(why);
    const memoryTrials = (server, scenario) => doc.runs.filter((r) => r.server === server && r.scenario === scenario && r.ok && r.not_judged_because.every(paceOnly));
    const trialsFor = (c, server) => (c.metric === 'peak_rss_mb' ? memoryTrials(server, c.scenario) : judgedTrials(server, c.scenario)).length;
    for (const c of comparisons.filter((x) => !['cpu_ms_per_request', 'p99_ms'].includes(x.metric) && !x.excluded)) {
      assert.deepEqual([c.a, c.b, c.n_a, c.n_b], ['a', 'b', trialsFor(c, 'a'), trialsFor(c, 'b')]);
      assert.ok(['lower', 'higher'].includes(c.better));
      if (Math.min(c.n_a, c.n_b) < 2) {
        assert.equal(c.ci95, null, 'one trial: no interval');
        continue;
      }
      assert.equal(typeof c.significant, 'boolean');
      assert.ok(c.ci95[0] <= c.ratio && c.ratio <= c.ci95[1]);
    }
    assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), /^\| tiny_closed \| p99 ms \|/m);
  });
});

describe('references: servers that serve less, servers that cannot run here, readiness by port', function () {
  this.timeout(60000);
  const scenariosDir = writeScenarioDir(SCENARIOS);
  const out = makeTmpDir('refs-');
  const pidfile = path.join(out, 'byport.pid');
  const lines = [];
  let doc;

  before(async () => {
    const definitions = {
      ...standinDefinitions({ a: {} }),
      // The real bare Node server: answers /hello only (404 for /): it must pass its contract check.
      node_bare: loadServerDefinitions().node_bare,
      // No ready line is awaited: ready once the port accepts; started through a shell that execs.
      byport: {
        description: 'stand-in, ready by port', command: 'bash', args: ['-c', 'exec "$0" "$@"', process.execPath, STANDIN, '--host', '{host}', '--port', '{port}'],
        cwd: '.', env: { STANDIN_PIDFILE: pidfile }, ready: { port: true }, serves: ['hello'],
      },
      absent: { description: 'needs a program that is not installed', command: 'no-such-program-xyz', args: [], requires: ['no-such-program-xyz'], install_hint: 'setup installs it', ready: 'x' },
    };
    await runScenarios({ definitions, servers: ['a', 'node_bare', 'byport', 'absent'], scenariosDir, outDir: out, pin: false, warmup: 0, lighterEngines: false, log: (l) => lines.push(l) });
    doc = readJson(path.join(out, 'results.json'));
  });

  it('a server that cannot run here is skipped in one line', () => {
    assert.deepEqual(lines.filter((l) => l.startsWith('absent:')), ['absent: skipped: no-such-program-xyz is not installed (setup installs it)']);
    assert.ok(!doc.runs.some((r) => r.server === 'absent'));
  });

  it('scenarios a server cannot serve are skipped with a line, and recorded', () => {
    assert.ok(lines.includes('node_bare: skips tiny_file (needs files; node_bare serves hello)'), lines.join('\n'));
    assert.deepEqual(doc.runs.map((r) => `${r.server}:${r.scenario}:${r.ok}`), ['a:tiny_closed:true', 'a:tiny_file:true', 'node_bare:tiny_closed:true', 'byport:tiny_closed:true']);
    assert.deepEqual(doc.skipped.map((k) => `${k.server}:${k.scenario}`), ['node_bare:tiny_file', 'byport:tiny_file', 'absent:null']);
    assert.ok(!judgedOf(out).comparisons.some((c) => c.scenario === 'tiny_file'));
  });

  it('readiness by port: the process measured is the server itself (the shell exec\'d it)', () => {
    const logged = lines.map((l) => /^byport: pid (\d+) listening/.exec(l)).find(Boolean);
    assert.ok(logged, lines.join('\n'));
    assert.equal(fs.readFileSync(pidfile, 'utf8'), logged[1]);
    const run = doc.runs.find((r) => r.server === 'byport');
    assert.ok(run.server_peak_rss_mb > 20, `${run.server_peak_rss_mb} MB: node's, not a shell's`);
  });
});

describe('trials: the command line', function () {
  this.timeout(60000);

  // Each bad value's command line at once: a Node start each, not one after the other.
  const refusals = (option, values) => Promise.all(values.map((bad) => runCommand(process.execPath, [CLI, option, bad], { timeoutMs: 20000 })));

  it('--repeat must be a whole number: one line, the usage, exit 2', async () => {
    for (const res of await refusals('--repeat', ['0', 'two', '1.5'])) {
      assert.equal(res.code, 2, res.stderr);
      const err = res.stderr.trim().split('\n');
      assert.match(err[0], /^run_scenarios\.sh: option '--repeat <n>' argument '.*' is invalid\. must be a whole number, 1 or more\.$/);
      assert.equal(err.length, 2);
    }
  });

  it('--margin is a percentage above 0 and at most 50: else one line, the usage, exit 2', async () => {
    for (const res of await refusals('--margin', ['0', 'ten', '60', '-5'])) {
      assert.equal(res.code, 2, res.stderr);
      const err = res.stderr.trim().split('\n');
      assert.match(err[0], /^run_scenarios\.sh: option '--margin <percent>' argument '.*' is invalid\. must be a percentage above 0 and at most 50\.$/);
      assert.equal(err.length, 2);
    }
  });

  it('--references adds the reference servers; --repeat 2 prints verdicts and overheads with intervals', () => {
    const out = makeTmpDir('trials-cli-');
    const serversFile = path.join(out, 'servers.json');
    const defs = standinDefinitions({ own: {}, other: {}, own_bare: {} });
    defs.own_bare.reference_for = ['own'];
    defs.own_bare.reference_role = 'bare runtime';
    defs.own_bare.serves = ['hello'];
    fs.writeFileSync(serversFile, JSON.stringify(defs));
    const res = spawnSync(process.execPath, [CLI, '--quick', '--repeat', '2', '--margin', '20', '--warmup', '0', '--no-lighter-engines', '--no-pin', '--no-report', '--servers-file', serversFile, '--servers', 'own,other', '--references', '--scenarios', 'concurrent_2000_100', '--out', out], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 50000 });
    assert.equal(res.status, 0, res.stdout + res.stderr);
    const doc = readJson(path.join(out, 'results.json'));
    assert.deepEqual(doc.environment.options.servers, ['own', 'other', 'own_bare']);
    assert.equal(doc.environment.options.margin, 0.2);
    assert.ok(judgedOf(out).comparisons.every((c) => c.margin === 0.2), 'every comparison decided with the margin asked for');
    assert.deepEqual(doc.runs.map((r) => `${r.trial}${r.server}`), ['1own', '1other', '1own_bare', '2own', '2other', '2own_bare']);
    const table = fs.readFileSync(path.join(out, 'summary.txt'), 'utf8');
    assert.match(table, /^Verdicts, own vs other: ratio = own ÷ other, 95 % confidence intervals over the trials/m);
    assert.match(table, /^concurrent_2000_100\s+mean ms(\s+[\d.]+){3}\s+\[[\d.]+–[\d.]+\]\s+(undecided|same within|own|other)/m);
    assert.match(res.stdout, /^Answers, own vs other/m);
    assert.match(res.stdout, /^Overhead against references/m);
    assert.match(res.stdout, /^concurrent_2000_100\s+own\s+own_bare\s+[\d.]+× \[[\d.]+–[\d.]+\]/m);
  });
});
