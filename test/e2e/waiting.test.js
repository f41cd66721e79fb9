'use strict';
// Waiting requests end to end, on both real servers over real sockets: a small run
// of a few hundred connections each holding a GET /delay reports its latency above the wait,
// in results.json and at the end of the terminal; a run at a deliberately low fd limit says in
// one line which scenarios it cannot hold, records the limit, and runs the rest.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { runScenarios } = require('../../perf/lib/run/runner');
const { schemaProblem } = require('../../perf/lib/store/results_doc');
const { makeTmpDir, writeScenarioDir, runCommand } = require('../support/runner_helpers');
const { summarizeRun } = require('../../perf/lib/studies/run_summary');
const { PROJECT_ROOT } = require('../../perf/lib/project_root');

describe('waiting requests: a few hundred held on both servers', function () {
  this.timeout(60000);
  // 300 keep-alive connections, each request waiting 100 ms, 3,000 a second: about 300 at once.
  const scenariosDir = writeScenarioDir({
    wait_small: { description: '300 connections holding GET /delay?ms=100', kind: 'rate', connections: 300, rate: 3000, requests: 3000, warmup_s: 0, request: { path: '/delay?ms=100' } },
  });
  const out = makeTmpDir('perf-waiting-');
  const lines = [];
  let result;
  let doc;

  before(async () => {
    const ended = await runScenarios({ servers: ['node', 'em'], scenariosDir, scenarios: ['wait_small'], repeat: 1, lighterEngines: false, outDir: out, pin: false, log: (l) => lines.push(l) });
    result = summarizeRun(ended.decoded); // judged once, as the run CLI does
    doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
  });

  it('records each run\'s latency above the wait: p50 and p99 less the 100 ms asked for, none below the wait by more than a timer\'s millisecond', () => {
    assert.equal(schemaProblem(doc), null);
    for (const server of ['node', 'em']) {
      const run = doc.runs.find((r) => r.server === server);
      assert.equal(run.ok, true, run.failure);
      assert.equal(run.replies, 3000);
      const w = run.above_wait_ms;
      assert.equal(w.wait_ms, 100);
      assert.ok(Math.abs(w.p50 - (run.latency_ms.p50 - 100)) < 1e-6 && Math.abs(w.p99 - (run.latency_ms.p99 - 100)) < 1e-6, JSON.stringify(w));
      assert.ok(w.p50 > -2 && w.p99 >= w.p50, JSON.stringify(w));
    }
  });

  it('sums the waiting runs and ends the terminal with them', () => {
    const s = result.results.waiting.scenarios.find((x) => x.scenario === 'wait_small');
    assert.deepEqual([s.kind, s.wait_ms, s.held], ['rate', 100, 300]);
    for (const server of ['node', 'em']) assert.equal(s.servers[server].runs, 1);
    assert.match(result.summaryText, /^Waiting requests \(GET \/delay\?ms=N held by many connections/m);
    assert.match(result.summaryText, /^ {2}wait_small\s+300 held, N = 100 ms: node (p50 [+−][\d.]+ ms, p99 [+−][\d.]+ ms, \d+ errors|not judged)/m);
    assert.ok(doc.environment.fd_limits.servers.node.soft >= 364 && doc.environment.fd_limits.servers.em.soft >= 364, JSON.stringify(doc.environment.fd_limits));
  });
});

describe('waiting requests: the held-count search at --quick\'s size', function () {
  this.timeout(90000);

  it('searches both servers from 250 to 1,000 held, in three steps at most each, and says each in a line', async () => {
    const scenariosDir = writeScenarioDir({ wait_tiny: { description: '20 connections holding GET /delay?ms=50', kind: 'rate', connections: 20, rate: 400, requests: 200, warmup_s: 0, request: { path: '/delay?ms=50' } } });
    const out = makeTmpDir('perf-held-');
    const lines = [];
    await runScenarios({ servers: ['node', 'em'], scenariosDir, scenarios: ['wait_tiny'], repeat: 1, quick: true, held: true, lighterEngines: false, outDir: out, pin: false, log: (l) => lines.push(l) });
    const doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    assert.equal(schemaProblem(doc), null);
    assert.ok(lines.some((l) => l.startsWith('held: the most waiting requests each server holds')), lines.join('\n'));
    for (const server of ['node', 'em']) {
      const search = doc.held.servers[server];
      assert.ok(search && search.steps.length >= 1 && search.steps.length <= 3, `${server}: ${JSON.stringify(search && search.steps.map((st) => st.held))}`);
      assert.ok(search.steps.every((st) => st.held >= 250 && st.held <= 1000 && typeof st.p99_ms === 'number'), JSON.stringify(search.steps));
      assert.ok(search.held === null || (search.held >= 250 && search.held <= 1000), `${server} held ${search.held}`);
    }
  });
});

describe('waiting requests: a run at a low fd limit', function () {
  this.timeout(60000);
  const out = makeTmpDir('perf-fdlimit-');
  let result;
  let doc;

  before(async () => {
    // As root the runner would raise a limit prlimit set; --nofile holds it where it is.
    result = await runCommand('prlimit', ['--nofile=256:256', process.execPath, path.join(PROJECT_ROOT, 'perf', 'cli', 'run.js'), '--quick', '--nofile', '256', '--repeat', '1', '--warmup', '0', '--no-lighter-engines', '--no-report', '--servers', 'node,em', '--scenarios', 'concurrent_2000_20,wait_keepalive_1000,wait_keepalive_10000', '--out', out], { timeoutMs: 50000 });
    doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
  });

  it('says in one line which scenarios the limit cannot hold, runs the rest, and exits 0', () => {
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    const said = result.stdout.split('\n').filter((l) => /fd limit/.test(l));
    assert.deepEqual(said, ['fd limit 256 < 10,064 descriptors for 10,000 connections: as --nofile set it; wait_keepalive_1000, wait_keepalive_10000 skipped']);
    assert.deepEqual([...new Set(doc.runs.map((r) => r.scenario))], ['concurrent_2000_20']);
    assert.ok(doc.runs.every((r) => r.ok), JSON.stringify(doc.runs.map((r) => r.failure)));
  });

  it('records the limits and the scenarios skipped for them', () => {
    assert.equal(schemaProblem(doc), null);
    const lg = doc.environment.fd_limits.load_generator;
    assert.deepEqual([lg.soft, lg.hard, lg.fixed, lg.need], [256, 256, true, 10064]);
    for (const server of ['node', 'em']) assert.equal(doc.environment.fd_limits.servers[server].soft, 256);
    const skipped = doc.skipped.filter((k) => k.fd_limit);
    assert.deepEqual(skipped.map((k) => `${k.server} ${k.scenario}`).sort(), ['em wait_keepalive_1000', 'em wait_keepalive_10000', 'node wait_keepalive_1000', 'node wait_keepalive_10000']);
    assert.match(skipped[0].reason, /^fd limit 256 < \d+ descriptors for \d+ connections$/);
  });
});
