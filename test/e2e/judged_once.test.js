'use strict';
// One document between the stages: a run records what it measured and nothing judged, and each
// reader judges it once. The run CLI (perf/cli/run.js) is one reader, whose summaries, terminal,
// report and archive share its judged results; `npm run report` is another. The judge's entry
// points are counted in the process (test/support/count_judge.js).

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { standinDefinitions, makeTmpDir, writeScenarioDir } = require('../support/runner_helpers');
const { PROJECT_ROOT } = require('../../perf/lib/project_root');

const COUNT = path.join(PROJECT_ROOT, 'test', 'support', 'count_judge.js');

function counted(script, args, dir) {
  const file = path.join(dir, `calls-${path.basename(script, '.js')}.json`);
  const res = spawnSync(process.execPath, ['-r', COUNT, path.join(PROJECT_ROOT, script), ...args], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 90000, env: { ...process.env, JUDGE_CALLS_FILE: file } });
  assert.equal(res.status, 0, res.stdout + res.stderr);
  return { calls: JSON.parse(fs.readFileSync(file, 'utf8')), stdout: res.stdout };
}

describe('a run judged once per reader', function () {
  this.timeout(120000);
  const dir = makeTmpDir('judged-once-');
  const out = path.join(dir, 'out');
  const serversFile = path.join(dir, 'servers.json');
  const scenariosDir = writeScenarioDir({ tiny: { description: 'keep-alive hello', kind: 'closed', concurrency: 2, requests: 200, warmup_s: 0 } });
  fs.writeFileSync(serversFile, JSON.stringify(standinDefinitions({ a: {}, b: {} })));

  it('the run CLI: results.json holds no verdict; its summaries, terminal and report come from one judging', () => {
    const { calls, stdout } = counted('perf/cli/run.js', ['--servers-file', serversFile, '--servers', 'a,b', '--scenarios-dir', scenariosDir, '--repeat', '2', '--warmup', '0', '--no-lighter-engines', '--no-pin', '--out', out], dir);
    assert.deepEqual(calls, { judgeResults: 1, analyzeRuns: 1, compareServers: 1 }, 'one judging, whose analysis is the verdicts');
    const doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    for (const judged of ['comparisons', 'aggregates', 'waiting', 'backends']) assert.equal(doc[judged], undefined, `results.json has no ${judged}`);
    assert.equal(doc.runs.length, 4);
    for (const file of ['summary.txt', 'summary.md', 'summary.csv', 'report.html']) assert.ok(fs.existsSync(path.join(out, file)), file);
    assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), /^\| tiny \|/m);
    assert.match(stdout, /^report: {2}.*report\.html \(open it in a browser\)$/m);
  });

  it('the report CLI, another reader: one judging of its own', () => {
    const { calls } = counted('perf/cli/report.js', [out], dir);
    assert.deepEqual(calls, { judgeResults: 1, analyzeRuns: 1, compareServers: 1 });
  });

  it('paired rounds: the looks read the verdict rule, not the judge; the run is judged once', () => {
    const roundsOut = path.join(dir, 'rounds-out');
    const { calls } = counted('perf/cli/run.js', ['--servers-file', serversFile, '--servers', 'a,b', '--scenarios-dir', scenariosDir, '--budget', '10s', '--ramps', 'none', '--no-held', '--warmup', '0', '--no-lighter-engines', '--no-pin', '--out', roundsOut], dir);
    const doc = JSON.parse(fs.readFileSync(path.join(roundsOut, 'results.json'), 'utf8'));
    assert.ok(doc.runs.length >= 10, `the first look's 5 rounds of each server, not ${doc.runs.length} runs`);
    assert.equal(calls.judgeResults, 1);
    assert.equal(calls.analyzeRuns, 1);
    // Each visit's look (at least the first) and the judging's own.
    assert.ok(calls.compareServers >= 2, `the looks used the rule: ${JSON.stringify(calls)}`);
  });
});
