'use strict';
// The runner on a disk that fills or is read-only, for real (a small tmpfs; needs root, skipped
// otherwise): one line naming the path and the system's cause, a non-zero exit, and
// results.json recording how the run ended whenever it can be written at all.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { standinDefinitions, makeTmpDir, mountTmpfs, runCommand, alive } = require('../support/runner_helpers');
const { PROJECT_ROOT } = require('../../perf/lib/project_root');

const CLI = path.join(PROJECT_ROOT, 'perf', 'cli', 'run.js');

/** A servers file with one stand-in server, 'standin', with env. */
function serversFile(env = {}) {
  const file = path.join(makeTmpDir(), 'servers.json');
  fs.writeFileSync(file, JSON.stringify(standinDefinitions({ standin: env })));
  return file;
}

function runCli(args, env) {
  return runCommand(process.execPath, [CLI, '--quick', '--repeat', '1', '--no-lighter-engines', '--no-pin', '--servers-file', serversFile(env), '--servers', 'standin', ...args], { timeoutMs: 60000 });
}

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const stderrLines = (r) => r.stderr.trim().split('\n');

describe('perf runner: a full or read-only disk', function () {
  this.timeout(60000);
  let disk = null;

  /** Mounts a tmpfs for this test, or skips it, saying why in its title. */
  function mount(context, sizeKb, options) {
    disk = mountTmpfs(sizeKb, options);
    if (disk.skip) {
      context.test.title += ` (skipped: ${disk.skip})`;
      context.skip();
    }
    return disk.dir;
  }

  afterEach(() => {
    if (disk && disk.unmount) disk.unmount();
    disk = null;
  });

  it('the disk fills while the report is written: the results are complete, one line says so, exit 1', async function () {
    // Room for the results (about 100 KiB with the reserve), not for the report (about 500 KiB).
    const out = path.join(mount(this, 256), 'out');
    const r = await runCli(['--scenarios', 'concurrent_2000_100', '--out', out]);
    assert.equal(r.code, 1, r.stderr);
    const lines = stderrLines(r);
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], new RegExp(`^run_scenarios\\.sh: report not written in ${out}: ENOSPC \\(no space left on device\\); results\\.json is intact: npm run report -- ${out} builds`));
    const doc = readJson(path.join(out, 'results.json'));
    assert.deepEqual([doc.interrupted, doc.error, doc.runs.length, doc.runs[0].ok], [false, null, 1, true]);
    assert.ok(doc.environment.finished_at);
    assert.ok(fs.existsSync(path.join(out, doc.runs[0].samples_file)));
    assert.ok(fs.existsSync(path.join(out, 'summary.md')));
  });

  it('the disk fills mid-run: one line names the file and ENOSPC; results.json records the error and the end; exit 1', async function () {
    const dir = mount(this, 2048);
    const out = path.join(dir, 'out');
    const pidfile = path.join(makeTmpDir(), 'standin.pid');
    // The stand-in fills the disk on its 20th GET /hello: inside concurrent_2000_100 (its
    // warm-up), after the contract check, so that run's samples are the first write to fail.
    const env = { STANDIN_FILL_AT: '20', STANDIN_FILL_FILE: path.join(dir, 'filler'), STANDIN_PIDFILE: pidfile };
    const r = await runCli(['--scenarios', 'concurrent_2000_100,sequential_6000', '--out', out], env);
    assert.equal(r.code, 1, r.stderr);
    const samples = path.join(out, 'samples', 'standin__concurrent_2000_100__t1.csv.gz');
    const lines = stderrLines(r);
    assert.equal(lines.length, 1, r.stderr);
    assert.equal(lines[0], `run_scenarios.sh: stopped: cannot write ${samples}: ENOSPC (no space left on device); free some space or choose another --out; report.html not built`);
    const doc = readJson(path.join(out, 'results.json'));
    assert.equal(doc.interrupted, false);
    assert.equal(doc.error, `cannot write ${samples}: ENOSPC (no space left on device); free some space or choose another --out`);
    assert.ok(doc.environment.finished_at);
    // The measured run is kept (without its samples); the next scenario never ran.
    assert.deepEqual(doc.runs.map((run) => [run.scenario, run.ok, run.samples_file]), [['concurrent_2000_100', true, null]]);
    assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), /\| concurrent_2000_100 \|/);
    assert.match(r.stdout, /^concurrent_2000_100 /m, 'the summary is printed');
    assert.equal(alive(Number(fs.readFileSync(pidfile, 'utf8'))), false);
  });

  it('--out on a read-only disk: one line names the folder and EROFS (not ENOENT), exit 1', async function () {
    const dir = mount(this, 64, { readOnly: true });
    const cases = [
      [['--out', path.join(dir, 'a', 'b')], `create ${path.join(dir, 'a')}`],
      [['--out', dir], `write ${path.join(dir, 'results.json')}`],
      [['--results-root', path.join(dir, 'results')], `create ${path.join(dir, 'results')}`], // the default folder's parent
    ];
    for (const [args, what] of cases) {
      const r = await runCli(['--scenarios', 'concurrent_2000_100', ...args]);
      assert.equal(r.code, 1, r.stderr);
      assert.deepEqual(stderrLines(r), [`run_scenarios.sh: error: cannot ${what}: EROFS (read-only file system); choose a writable folder with --out`]);
    }
  });
});
