'use strict';
// What the external engines share (perf/lib/engines/external.js): finding the program, quoting
// a command line, a tool's complaint, running it (its own CPU, killed when abandoned, its whole
// process group), and httperf and wrk end to end through the runner: a real wrk run against
// the Node server, and a missing engine, which fails its runs with one line saying how to
// install it while the runner goes on.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { findBinary, whichSync, runEngineProcess, clientCpuPct, EngineUnavailable, shellQuote, firstComplaint } = require('../../../perf/lib/engines/external');
const { allowedCpus } = require('../../../perf/lib/hosts/pinning');
const { buildReport } = require('../../../perf/lib/report');
const { makeTmpDir, alive, runCommand } = require('../../support/runner_helpers');
const { PROJECT_ROOT } = require('../../../perf/lib/project_root');

const CLI = path.join(PROJECT_ROOT, 'perf', 'cli', 'run.js');

function runCli(args, env = {}) {
  return runCommand(process.execPath, [CLI, ...args], { env, timeoutMs: 60000 });
}

describe('external engines: binary, process, CPU', () => {
  it('a missing binary is one line that says how to install it', () => {
    const empty = makeTmpDir('no-tools-');
    assert.throws(
      () => findBinary({ name: 'httperf', envVar: 'HTTPERF_BIN', env: { PATH: empty } }),
      (err) => err instanceof EngineUnavailable && err.message === 'httperf is not installed (not on PATH); install it with: apt-get install httperf (or scripts/setup.sh --engines)',
    );
    assert.throws(
      () => findBinary({ name: 'wrk', envVar: 'WRK_BIN', env: { WRK_BIN: '/nonexistent/wrk', PATH: process.env.PATH } }),
      /^Error: wrk not found at \/nonexistent\/wrk \(from \$WRK_BIN\); install it with: apt-get install wrk/,
    );
    assert.equal(findBinary({ name: 'node', envVar: 'X_NODE_BIN', env: { X_NODE_BIN: process.execPath } }), process.execPath);
  });

  it('measures the engine\'s own CPU, on the load generator\'s CPUs', async () => {
    // A child that burns a bounded amount of CPU (no timing assumptions: just some work).
    const work = 'let x = 0; for (let i = 0; i < 3e8; i++) x += i % 7; process.stdout.write(String(x > 0))';
    const r = await runEngineProcess({ bin: process.execPath, args: ['-e', work] });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'true');
    assert.ok(r.cpu.user_s > 0, JSON.stringify(r.cpu));
    assert.deepEqual(r.cpus, allowedCpus());
    assert.match(r.argv[0], /taskset$/);
    assert.ok(clientCpuPct(r.cpu, r.wallMs) > 0);
  });

  it('kills the engine at once when the run is abandoned', async () => {
    const controller = new AbortController();
    const pending = runEngineProcess({ bin: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], signal: controller.signal });
    setImmediate(() => controller.abort());
    const err = await pending.then(() => null, (e) => e);
    assert.ok(err && err.aborted, String(err));
    assert.equal(alive(err.pid), false);
  });

  it('quotes a command line for pasting into a shell', () => {
    assert.equal(shellQuote(['wrk', '-H', 'Connection: close', 'http://127.0.0.1:8080/hello']), "wrk -H 'Connection: close' http://127.0.0.1:8080/hello");
  });

  it('quotes a quote, and leaves the characters a shell reads as they are alone', () => {
    assert.equal(shellQuote(["it's", 'a=b,c@d%e+f', '$HOME', '']), "'it'\\''s' a=b,c@d%e+f '$HOME' ''");
  });

  it('finds a program on PATH: the first executable file of that name', () => {
    const [first, second] = [makeTmpDir('which-a-'), makeTmpDir('which-b-')];
    fs.writeFileSync(path.join(first, 'tool'), 'not executable', { mode: 0o644 });
    fs.mkdirSync(path.join(first, 'dir-tool'));
    fs.writeFileSync(path.join(second, 'tool'), '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(second, 'dir-tool'), '#!/bin/sh\n', { mode: 0o755 });
    const PATH = ['', first, second].join(path.delimiter);
    assert.equal(whichSync('tool', PATH), path.join(second, 'tool'));
    assert.equal(whichSync('dir-tool', PATH), path.join(second, 'dir-tool'));
    assert.equal(whichSync('nothing', PATH), null);
    assert.equal(findBinary({ name: 'tool', envVar: 'X_TOOL_BIN', env: { PATH } }), path.join(second, 'tool'));
    assert.throws(() => findBinary({ name: 'tool', envVar: 'X_TOOL_BIN', env: { X_TOOL_BIN: path.join(first, 'tool'), PATH } }), /^Error: tool not found at .*\/tool \(from \$X_TOOL_BIN\)/);
  });

  it('the share of a core: none when no CPU was measured or no time passed', () => {
    assert.equal(clientCpuPct(null, 1000), null);
    assert.equal(clientCpuPct({ user_s: 1, system_s: 0 }, 0), null);
    assert.equal(clientCpuPct({ user_s: 0.3, system_s: 0.2 }, 1000), 50);
  });

  it("a tool's complaint: the first line of stderr, else of stdout, skipping the lines that are not one", () => {
    assert.equal(firstComplaint('\n  wrk: bad url\nmore\n', 'out'), 'wrk: bad url');
    assert.equal(firstComplaint('', '\nhttperf: connection refused\n'), 'httperf: connection refused');
    assert.equal(firstComplaint('Running 1s test\nunable to connect', '', [/^Running/]), 'unable to connect');
    assert.equal(firstComplaint('', ''), '');
  });

  it('runs the engine without taskset when asked, and says when it cannot start it', async () => {
    const r = await runEngineProcess({ bin: process.execPath, args: ['-e', 'process.stdout.write("ran")'], useTaskset: false });
    assert.deepEqual([r.argv[0], r.stdout, r.code], [process.execPath, 'ran', 0]);
    await assert.rejects(runEngineProcess({ bin: '/nonexistent/engine', args: [], useTaskset: false }), /^Error: cannot start engine: spawn \/nonexistent\/engine ENOENT$/);
  });

  it('abandoned before it started: not started at all', async () => {
    const started = [];
    await assert.rejects(runEngineProcess({ bin: process.execPath, args: ['-e', ''], signal: AbortSignal.abort(), onSpawn: (pid) => started.push(pid) }), (err) => err.aborted === true);
    assert.deepEqual(started, []);
  });

  it('an engine in a process group of its own is killed whole: what it started goes with it', async () => {
    const pidFile = path.join(makeTmpDir('engine-group-'), 'pid');
    const controller = new AbortController();
    // A launcher that leaves its real process behind, as tsung's script does.
    const pending = runEngineProcess({ bin: '/bin/sh', args: ['-c', `sleep 30 & echo $! > ${pidFile}; wait`], signal: controller.signal, ownGroup: true });
    while (!fs.existsSync(pidFile) || !fs.readFileSync(pidFile, 'utf8').trim()) await new Promise((resolve) => setTimeout(resolve, 10));
    const left = Number(fs.readFileSync(pidFile, 'utf8'));
    controller.abort();
    await assert.rejects(pending, (err) => err.aborted === true);
    // SIGKILL is queued to the whole group at once, but a process dies only when next scheduled:
    // on a busy machine that takes a moment. Wait for it, bounded (a child left behind stays).
    const deadline = Date.now() + 2000;
    while (alive(left) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(alive(left), false, `the launcher's child ${left} still runs`);
  });
});

describe('external engines through the runner (Node server, --quick)', function () {
  this.timeout(90000);

  it('--engine wrk: runs what it can, skips the rest with a line, records the engine\'s numbers', async () => {
    const out = makeTmpDir('engine-wrk-');
    const r = await runCli(['--engine', 'wrk', '--quick', '--repeat', '1', '--warmup', '0', '--servers', 'node', '--scenarios', 'long_conn_256,sequential_6000', '--out', out, '--no-report']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^wrk: skips sequential_6000 \(cannot run it faithfully: wrk stops after a duration \(-d\), not after a number of requests\)$/m);
    const doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    assert.equal(doc.environment.options.engine, 'wrk');
    assert.deepEqual(doc.engine_skipped.map((k) => k.scenario), ['sequential_6000']);
    assert.equal(doc.runs.length, 1);
    const run = doc.runs[0];
    assert.equal(run.engine, 'wrk');
    assert.equal(run.ok, true, run.failure);
    assert.match(run.engine_command, /^wrk -t 1 -c 256 -d 1s --latency --timeout 10s http:\/\/127\.0\.0\.1:\d+\/hello$/);
    assert.ok(run.replies > 0 && run.requests >= run.replies);
    assert.ok(run.throughput_rps > 0);
    for (const k of ['mean', 'p50', 'p90', 'p99', 'max']) assert.equal(typeof run.latency_ms[k], 'number', k);
    assert.equal(run.latency_ms.min, null);
    assert.equal(run.samples, null);
    assert.equal(run.samples_file, null);
    assert.equal(typeof run.client_cpu_pct, 'number');
    assert.equal(typeof run.server_cpu.ms_per_request, 'number');
    assert.match(run.latency_basis, /coordinated-omission/);
    // The report builds from runs without samples.
    const report = await buildReport(out, { log: () => {} });
    assert.ok(fs.existsSync(report.reportPath));
  });

  it('a missing engine fails each of its runs with one line, and the runner goes on', async () => {
    const out = makeTmpDir('engine-missing-');
    const r = await runCli(['--engine', 'httperf', '--quick', '--repeat', '1', '--warmup', '0', '--servers', 'node', '--scenarios', 'sequential_6000,concurrent_3000_200', '--out', out, '--no-report'], { HTTPERF_BIN: '/nonexistent/httperf' });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const failed = r.stdout.split('\n').filter((l) => /^node\s+\S+\s+FAILED: /.test(l));
    assert.equal(failed.length, 2, r.stdout);
    for (const line of failed) {
      assert.match(line, /FAILED: the load generator failed: httperf not found at \/nonexistent\/httperf \(from \$HTTPERF_BIN\); install it with: apt-get install httperf \(or scripts\/setup\.sh --engines\), or point \$HTTPERF_BIN at it$/);
    }
    const doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    assert.deepEqual(doc.runs.map((x) => [x.scenario, x.engine, x.ok]), [['sequential_6000', 'httperf', false], ['concurrent_3000_200', 'httperf', false]]);
  });
});
