'use strict';
// --target (a server already running, not started or measured) and --link (servers in a
// rate-limited network namespace; needs root, skipped otherwise), end to end through the CLI.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startServer } = require('../../perf/lib/hosts/server_process');
const { linkUnavailableReason, namespaceExists } = require('../../perf/lib/hosts/netns');
const { makeTmpDir, alive, smallerScenarioDir } = require('../support/runner_helpers');
const { PROJECT_ROOT } = require('../../perf/lib/project_root');

const CLI = path.join(PROJECT_ROOT, 'perf', 'cli', 'run.js');

/** Runs the CLI; onLine(line, child) sees each stdout line. Resolves { code, stdout, stderr }. */
function runCli(args, onLine = () => {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: PROJECT_ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      const before = stdout.length;
      stdout += chunk;
      stdout.slice(before).split('\n').forEach((line) => onLine(line, child));
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('runner: --target and --link', function () {
  this.timeout(120000);

  it('--target benchmarks a running server without starting, stopping or measuring it', async () => {
    const server = await startServer('node');
    const out = makeTmpDir('perf-target-');
    // 200 connections one after another, not the quick run's 2,000: the subject is the server
    // the runner did not start, not the count.
    const scenariosDir = smallerScenarioDir({ sequential_6000: { requests: 200 } });
    try {
      const result = await runCli(['--quick', '--repeat', '1', '--warmup', '0', '--no-lighter-engines', '--no-report', '--target', server.url, '--servers', 'node', '--scenarios-dir', scenariosDir, '--scenarios', 'sequential_6000', '--out', out]);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
      assert.equal(doc.environment.options.target, server.url);
      assert.equal(doc.runs.length, 1);
      const [run] = doc.runs;
      assert.equal(run.server, 'node');
      assert.equal(run.ok, true, run.failure);
      assert.equal(run.replies, 200);
      assert.equal(run.server_measured, false);
      assert.equal(run.server_cpu, null);
      assert.equal(run.server_peak_rss_mb, null);
      assert.ok(alive(server.pid), 'the runner stopped a server it did not start');
    } finally {
      await server.stop();
    }
  });

  it('--target with two servers, or a bad URL, is a usage error in one line', async () => {
    const cases = [['--target', 'http://127.0.0.1:9'], ['--target', 'ftp://x:1', '--servers', 'node'], ['--target', 'http://127.0.0.1:9', '--servers', 'node', '--link', '1mbit']];
    // The three started at once: each is a Node start that refuses its options, nothing more.
    const results = await Promise.all(cases.map((args) => runCli(['--quick', '--repeat', '1', '--no-lighter-engines', ...args])));
    for (const [i, args] of cases.entries()) {
      const result = results[i];
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, /^run_scenarios\.sh: --(target|link) [^\n]+\nusage: /, result.stderr);
    }
  });

  describe('--link, as root', () => {
    before(function () {
      if (linkUnavailableReason()) this.skip();
    });

    it('runs the server behind the rate-limited link and removes the namespace after', async () => {
      const out = makeTmpDir('perf-link-');
      let namespace = null;
      // 300 Mbit/s: 1,500 replies of 100 KiB take ~4 s to cross it (the quick run's 5,000, ~14 s;
      // at 100 Mbit/s, 41 s). The link, not the count, is the subject: the link full from the
      // first replies on, its ceiling is the same in 4 s as in 14.
      const scenariosDir = smallerScenarioDir({ bigfile_100k: { requests: 1500 } });
      const result = await runCli(['--quick', '--repeat', '1', '--warmup', '0', '--no-lighter-engines', '--no-report', '--link', '300mbit', '--servers', 'node', '--scenarios-dir', scenariosDir, '--scenarios', 'bigfile_100k', '--out', out], (line) => {
        const match = /^link: servers in network namespace (\S+)/.exec(line);
        if (match) namespace = match[1];
      });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
      assert.equal(doc.environment.link.rate, '300mbit');
      const [run] = doc.runs;
      assert.equal(run.ok, true, run.failure);
      assert.equal(run.replies, 1500);
      const bitsPerSecond = run.throughput_rps * 102400 * 8;
      // Replies cannot cross a 300 Mbit/s link faster than 300 Mbit/s (headers add a little).
      assert.ok(bitsPerSecond < 300e6 * 1.05, `${(bitsPerSecond / 1e6).toFixed(1)} Mbit/s of bodies`);
      // The link full toward the client: its ceiling, not the server's, so the run is not judged.
      assert.equal(run.link_bound, true, JSON.stringify(run.link_usage));
      assert.deepEqual([run.link_usage.rate_bits, run.link_usage.busiest], [300e6, 'to_client']);
      assert.ok(run.link_usage.busiest_pct >= 90 && run.link_usage.bytes_per_reply.to_client > 102400, JSON.stringify(run.link_usage));
      assert.ok(run.not_judged_because.some((r) => r.startsWith('link-bound: the link saturates first: it carried')), run.not_judged_because.join('; '));
      assert.ok(namespace);
      assert.equal(namespaceExists(namespace), false);
    });

    it('removes the namespace and stops the server on Ctrl-C', async () => {
      const out = makeTmpDir('perf-link-int-');
      let namespace = null;
      let serverPid = null;
      let interrupted = false;
      const result = await runCli(['--no-report', '--link', '1mbit', '--servers', 'node', '--scenarios', 'long_conn_256', '--out', out], (line, child) => {
        const ns = /^link: servers in network namespace (\S+)/.exec(line);
        if (ns) namespace = ns[1];
        const pid = /^node: pid (\d+)/.exec(line);
        if (pid) serverPid = Number(pid[1]);
        if (/running/.test(line) && !interrupted) {
          interrupted = true;
          child.kill('SIGINT');
        }
      });
      assert.equal(result.code, 130, result.stdout + result.stderr);
      assert.ok(namespace && serverPid);
      assert.equal(namespaceExists(namespace), false);
      assert.equal(alive(serverPid), false);
    });
  });
});
