'use strict';
// The command line: bad usage is one line plus usage and exit 2 (never a stack trace);
// --list; SIGTERM stops every child, keeps the finished runs and writes their summary; so does
// a second SIGINT, which stops at once.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { loadServerDefinitions } = require('../../perf/lib/hosts/server_process');
const { loadScenarios } = require('../../perf/lib/plan/scenarios');
const { loadRamps } = require('../../perf/lib/plan/ramps');
const { standinDefinitions, makeTmpDir, alive, watchCommand } = require('../support/runner_helpers');
const { PROJECT_ROOT } = require('../../perf/lib/project_root');

const CLI = path.join(PROJECT_ROOT, 'perf', 'cli', 'run.js');

function cli(args) {
  return spawnSync(process.execPath, [CLI, ...args], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 20000 });
}

describe('perf cli', function () {
  this.timeout(30000);

  for (const [args, message] of [
    [['--bogus'], /^run_scenarios\.sh: unknown option '--bogus'$/],
    [['--servers', 'lighttpd', '--out', '/nonexistent/x'], /^run_scenarios\.sh: unknown server 'lighttpd' \(known: node, em/],
    [['--scenarios', 'sequential_6000,nope'], /^run_scenarios\.sh: unknown scenario 'nope' \(known: /],
    [['--out'], /^run_scenarios\.sh: option '--out <dir>' argument missing$/],
    [['stray'], /^run_scenarios\.sh: too many arguments/],
    [['--servers', 'node,'], /^run_scenarios\.sh: option '--servers <list>' argument 'node,' is invalid\. must not hold an empty name/],
    [['--servers', 'node,,em'], /^run_scenarios\.sh: option '--servers <list>' argument 'node,,em' is invalid\. must not hold an empty name/],
    [['--scenarios', 'sequential_6000,'], /^run_scenarios\.sh: option '--scenarios <list>' argument 'sequential_6000,' is invalid\. must not hold an empty name/],
    [['--scenarios', ''], /^run_scenarios\.sh: option '--scenarios <list>' argument '' is invalid\. must not hold an empty name/],
    [['--seeds', '--servers', 'node'], /^run_scenarios\.sh: --seeds chooses the servers and scenarios itself \(perf\/seeds\.json\): leave out --servers, --scenarios and --references$/],
    [['--engine', 'tsung'], /^run_scenarios\.sh: --engine tsung runs its load on load hosts: add --load-hosts netns:N \(made on this machine\) or --load-hosts HOST,HOST,…/],
    [['--load-hosts', 'netns:2'], /^run_scenarios\.sh: --load-hosts is where --engine tsung runs its agents: add --engine tsung$/],
    [['--engine', 'tsung', '--load-hosts', 'netns:0'], /^run_scenarios\.sh: --load-hosts netns:N makes 1 to 8 load hosts on this machine \(got 'netns:0'\)$/],
    [['--engine', 'tsung', '--load-hosts', 'a,,b'], /^run_scenarios\.sh: --load-hosts takes host names separated by commas .*; '' is not a host name$/],
    [['--engine', 'tsung', '--load-hosts', 'h1,h1', '--target', 'http://10.0.0.1:8080', '--servers', 'x'], /^run_scenarios\.sh: --load-hosts names h1 twice$/],
    [['--engine', 'tsung', '--load-hosts', 'h1,h2'], /^run_scenarios\.sh: load hosts on other machines need a server they can reach: start it where they reach it and give --target/],
    [['--engine', 'tsung', '--load-hosts', 'netns:2', '--target', 'http://127.0.0.1:9', '--servers', 'x'], /^run_scenarios\.sh: --load-hosts netns:N runs the servers it starts in a namespace of their own/],
    [['--engine', 'tsung', '--load-hosts', 'netns:2', '--link', '1mbit'], /^run_scenarios\.sh: --load-hosts and --link both put the servers behind a network of their own: use one$/],
    [['--budget', 'soon'], /^run_scenarios\.sh: option '--budget <time>' argument 'soon' is invalid\. must be a time from 10 s to 24 h, e\.g\. 3min, 90s or 1h\.$/],
    [['--budget', '5min', '--repeat', '3'], /^run_scenarios\.sh: --budget measures in paired rounds until each comparison is decided; --repeat runs a fixed number of trials: use one$/],
  ]) {
    it(`${args.join(' ')}: one line, the usage, exit 2`, () => {
      const res = cli(args);
      assert.equal(res.status, 2, res.stderr);
      const lines = res.stderr.trim().split('\n');
      assert.match(lines[0], message);
      assert.match(lines[1], /^usage: run_scenarios\.sh \[--quick\]/);
      assert.equal(lines.length, 2);
      assert.equal(res.stdout, '');
    });
  }

  it('--scenarios-dir naming no folder: one line naming it, exit 2', () => {
    const res = cli(['--quick', '--scenarios-dir', '/nonexistent/x']);
    assert.equal(res.status, 2, res.stderr);
    assert.deepEqual(res.stderr.trim().split('\n'), ['run_scenarios.sh: cannot read the scenarios directory /nonexistent/x: ENOENT']);
  });

  it('--help prints the options and exits 0', () => {
    const res = cli(['--help']);
    assert.equal(res.status, 0);
    for (const opt of ['--quick', '--servers', '--scenarios', '--scenarios-dir', '--out', '--list', '--help']) assert.ok(res.stdout.includes(opt), opt);
  });

  it('--list names every scenario with its engine, the ramps with their rates, and the servers', () => {
    const res = cli(['--list']);
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /^\s+sequential_6000\s+sequential\s+6000 connections/m);
    assert.match(res.stdout, /^\s+keepalive_400x100\s+autocannon\s/m);
    assert.match(res.stdout, /^\s+hello_per_connection\s+20-40960\/s\s+GET \/hello/m);
    assert.match(res.stdout, /^\s+em\s+Ruby EventMachine/m);
    const expected = loadScenarios().length + loadRamps().length + Object.keys(loadServerDefinitions()).length;
    assert.equal((res.stdout.match(/^ {2}\S/gm) || []).length, expected);
  });

  it('SIGTERM: stops the server and the load, keeps finished runs, writes the summary, exits 143', async () => {
    const out = makeTmpDir();
    const pidfile = path.join(out, 'standin.pid');
    const serversFile = path.join(out, 'servers.json');
    fs.writeFileSync(serversFile, JSON.stringify(standinDefinitions({ standin: { STANDIN_PIDFILE: pidfile } })));
    const child = spawn(process.execPath, [CLI, '--quick', '--repeat', '1', '--no-lighter-engines', '--no-pin', '--servers-file', serversFile, '--servers', 'standin', '--warmup', '0', '--scenarios', 'concurrent_2000_100,concurrent_2000_20', '--out', out], { cwd: PROJECT_ROOT });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    await new Promise((resolve, reject) => {
      child.stdout.on('data', (c) => {
        stdout += c;
        if (/concurrent_2000_20\s+running/.test(stdout)) resolve();
      });
      exited.then(() => reject(new Error(`the runner exited early: ${stdout}${stderr}`)));
    });
    child.kill('SIGTERM');
    const { code } = await exited;
    assert.equal(code, 143, stderr);
    assert.match(stderr, /SIGTERM: stopping/);
    assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
    const doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    assert.equal(doc.interrupted, true);
    assert.deepEqual(doc.runs.map((r) => r.scenario), ['concurrent_2000_100']);
    assert.ok(fs.existsSync(path.join(out, 'summary.md')) && fs.existsSync(path.join(out, 'summary.csv')));
    assert.match(stdout, /concurrent_2000_100/);
    assert.equal(alive(Number(fs.readFileSync(pidfile, 'utf8'))), false, 'the server is still running');
  });

  it('two SIGINTs while a server starts: exit 130, results.json says interrupted and when it ended, the summary says no run finished', async () => {
    const tmp = makeTmpDir();
    const out = path.join(tmp, 'results');
    const pidfile = path.join(tmp, 'silent.pid');
    const serversFile = path.join(tmp, 'servers.json');
    // A server that never says it is ready: the runner is still starting it when the signals come.
    const silent = `require('fs').writeFileSync(${JSON.stringify(pidfile)}, String(process.pid)); setInterval(() => {}, 1000);`;
    fs.writeFileSync(serversFile, JSON.stringify({ silent: { command: process.execPath, args: ['-e', silent], cwd: '.', env: {}, ready: 'listening on http://' } }));
    const run = watchCommand(process.execPath, [CLI, '--quick', '--repeat', '1', '--no-lighter-engines', '--no-pin', '--servers-file', serversFile, '--servers', 'silent', '--scenarios', 'sequential_6000', '--out', out]);
    await run.waitFor('stdout', /^silent: starting/m);
    run.child.kill('SIGINT');
    await run.waitFor('stderr', /SIGINT: stopping/);
    run.child.kill('SIGINT');
    const { code, stdout, stderr } = await run.exited;
    assert.equal(code, 130, stderr);
    assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
    const doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    assert.equal(doc.interrupted, true);
    assert.equal(doc.error, null);
    assert.ok(Date.parse(doc.environment.finished_at) >= Date.parse(doc.environment.started_at), 'finished_at');
    assert.deepEqual(doc.runs, []);
    assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), /^No run finished\.$/m);
    assert.ok(fs.existsSync(path.join(out, 'summary.csv')));
    assert.match(stdout, /^No run finished\.$/m);
    assert.deepEqual(fs.readdirSync(out).sort(), ['results.json', 'samples', 'summary.csv', 'summary.md', 'summary.txt'], 'no reserve or temporary file left');
    if (fs.existsSync(pidfile)) assert.equal(alive(Number(fs.readFileSync(pidfile, 'utf8'))), false, 'the server is still running');
  });
});

describe('runtimes cli: a reader that closes the pipe', function () {
  this.timeout(60000);

  it('list | head -1: the first line read, the rest not written, exit 0 and nothing on stderr', async () => {
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'perf', 'cli', 'runtimes.js'), 'list'], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const first = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(String(d).split('\n')[0])));
    // As head does: it has its line, and closes the pipe.
    child.stdout.destroy();
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.match(first, /^node20 /);
    assert.deepEqual([code, stderr], [0, '']);
  });
});

