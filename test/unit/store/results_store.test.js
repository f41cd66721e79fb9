'use strict';
// Results folders: each run claims one of its own, also when two runs start at the same
// moment; latest is swapped in atomically; a folder holding another run's results is refused.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ResultsStore, createResultsDir, linkLatest } = require('../../../perf/lib/store/results_store');
const { standinDefinitions, makeTmpDir, runCommand } = require('../../support/runner_helpers');
const { PROJECT_ROOT } = require('../../../perf/lib/project_root');

const CLI = path.join(PROJECT_ROOT, 'perf', 'cli', 'run.js');
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

describe('perf results store', function () {
  this.timeout(60000);

  it('a default folder is new: the same second twice gives <stamp> and <stamp>-2', () => {
    const root = path.join(makeTmpDir(), 'results'); // made on the way
    const now = new Date('2026-01-02T03:04:05.678Z');
    const a = createResultsDir({ root, now });
    const b = createResultsDir({ root, now });
    assert.equal(a, path.join(root, '2026-01-02T03-04-05Z'));
    assert.equal(b, path.join(root, '2026-01-02T03-04-05Z-2'));
  });

  it('latest is swapped to the newest folder, leaving no temporary link', () => {
    const root = makeTmpDir();
    const [a, b] = ['a', 'b'].map((name) => fs.mkdirSync(path.join(root, name)) || path.join(root, name));
    linkLatest(a, root);
    linkLatest(b, root);
    assert.equal(fs.readlinkSync(path.join(root, 'latest')), 'b');
    assert.deepEqual(fs.readdirSync(root).sort(), ['a', 'b', 'latest']);
  });

  it('--out naming a folder that holds another run\'s results: refused in one line, the results untouched', async () => {
    const out = makeTmpDir();
    fs.writeFileSync(path.join(out, 'results.json'), '{"runs":[]}\n');
    assert.throws(() => new ResultsStore(out).init({}), new RegExp(`^Error: ${out} already holds the results of another run \\(results\\.json\\): name a new folder with --out, or remove that one$`));
    const r = await runCommand(process.execPath, [CLI, '--quick', '--repeat', '1', '--no-lighter-engines', '--no-pin', '--servers', 'node', '--scenarios', 'sequential_6000', '--out', out]);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(r.stderr.trim().split('\n'), [`run_scenarios.sh: error: ${out} already holds the results of another run (results.json): name a new folder with --out, or remove that one`]);
    assert.equal(fs.readFileSync(path.join(out, 'results.json'), 'utf8'), '{"runs":[]}\n');
    assert.deepEqual(fs.readdirSync(out), ['results.json']);
  });

  it('two runs started at the same moment: two folders, each with complete results; latest points at one', async () => {
    const tmp = makeTmpDir();
    const root = path.join(tmp, 'results');
    const serversFile = path.join(tmp, 'servers.json');
    fs.writeFileSync(serversFile, JSON.stringify(standinDefinitions({ standin: {} })));
    const args = [CLI, '--quick', '--repeat', '1', '--warmup', '0', '--no-lighter-engines', '--no-pin', '--no-report', '--servers-file', serversFile, '--servers', 'standin', '--scenarios', 'concurrent_2000_100', '--results-root', root];
    const runs = await Promise.all([runCommand(process.execPath, args), runCommand(process.execPath, args)]);
    const dirs = runs.map((r) => {
      assert.equal(r.code, 0, r.stderr);
      return r.stdout.match(/^results: (.*)$/m)[1];
    });
    assert.notEqual(dirs[0], dirs[1]);
    for (const dir of dirs) {
      assert.equal(path.dirname(dir), root);
      const doc = readJson(path.join(dir, 'results.json'));
      assert.equal(doc.environment.options.out, dir);
      assert.deepEqual(doc.runs.map((r) => [r.scenario, r.ok]), [['concurrent_2000_100', true]]);
      assert.equal(doc.interrupted, false);
      assert.ok(doc.environment.finished_at);
      assert.ok(fs.statSync(path.join(dir, doc.runs[0].samples_file)).size > 0);
      assert.deepEqual(fs.readdirSync(dir).sort(), ['results.json', 'samples', 'summary.csv', 'summary.md', 'summary.txt']);
    }
    assert.ok(dirs.includes(path.resolve(root, fs.readlinkSync(path.join(root, 'latest')))));
    assert.deepEqual(fs.readdirSync(root).filter((f) => f.startsWith('.')), [], 'no temporary link left');
  });
});
