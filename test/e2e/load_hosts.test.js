'use strict';
// --engine tsung --load-hosts netns:2 end to end through the CLI (as root, with Tsung
// installed; skipped otherwise): both servers, the merged request count equal to the
// scenario's, each host's share and histogram, nothing left behind, also on Ctrl-C.
// A Tsung run costs about 10 s whatever its size (its Erlang nodes started over ssh, a second
// of start-up delay, and a poll for finished users every 5 s), so the runs here are few: the
// closed loop (each user a loop of keep-alive requests), the load only the CLI runs for real,
// on both servers one after the other from the same hosts. The open loop's real run from two
// hosts, with the same per-host checks, is test/unit/engines/tsung.test.js's.

const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { netnsHostsUnavailableReason } = require('../../perf/lib/hosts/load_hosts');
const { namespaceExists } = require('../../perf/lib/hosts/netns');
const { whyNotInstalled } = require('../../perf/lib/engines');
const { readResultsFile, schemaProblem } = require('../../perf/lib/store/results_doc');
const { makeTmpDir, watchCommand } = require('../support/runner_helpers');
const { assertRunFromTwoHosts } = require('../support/tsung_runs');

const CLI = 'perf/cli/run.js';

/** The namespaces the runner said it made (its "load hosts: … servers in network namespace …" line). */
function namespacesIn(stdout) {
  const line = /^load hosts: (.+); servers in network namespace (\S+) at /m.exec(stdout);
  if (!line) return [];
  return [...line[1].matchAll(/(evn-h\d+-\w+) at /g)].map((m) => m[1]).concat(line[2]);
}

function tsungProcesses() {
  return spawnSync('pgrep', ['-f', 'tsung_controller|-sname tsung[0-9]'], { encoding: 'utf8' }).stdout.trim();
}

describe('runner: --engine tsung --load-hosts netns:2', function () {
  this.timeout(240000);
  before(function () {
    if (netnsHostsUnavailableReason() || whyNotInstalled('tsung')) this.skip();
  });

  it('runs both servers from two hosts: merged counts as planned, each host\'s share and histogram, everything removed', async () => {
    const out = makeTmpDir('perf-tsung-');
    const run = watchCommand(process.execPath, [CLI, '--engine', 'tsung', '--load-hosts', 'netns:2', '--quick', '--repeat', '1', '--warmup', '0', '--servers', 'node,em', '--scenarios', 'keepalive_400x100', '--no-report', '--out', out]);
    const result = await run.exited;
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const doc = readResultsFile(path.join(out, 'results.json'));
    assert.equal(schemaProblem(doc), null);
    assert.equal(doc.environment.load_hosts.kind, 'netns');
    assert.equal(doc.environment.load_hosts.hosts.length, 2);
    assert.deepEqual(doc.runs.map((r) => r.server), ['node', 'em']);
    for (const r of doc.runs) {
      assert.equal(r.ok, true, r.failure);
      assert.equal(r.replies, 10000, `${r.server}: ${r.load_problems.join('; ')}`); // the quick size: 400 users × 25 requests
      assertRunFromTwoHosts(r, out);
    }
    assert.match(result.stdout, /keepalive_400x100 +10000\/10000 replies .* hosts \d+\/\d+ %/);
    const namespaces = namespacesIn(result.stdout);
    assert.equal(namespaces.length, 3, result.stdout);
    for (const ns of namespaces) assert.equal(namespaceExists(ns), false, ns);
    assert.equal(tsungProcesses(), '');
  });

  it('removes the hosts and stops Tsung on Ctrl-C', async () => {
    const out = makeTmpDir('perf-tsung-int-');
    // No warm-up: it is the built-in engine's, and only delays Tsung's start.
    const run = watchCommand(process.execPath, [CLI, '--engine', 'tsung', '--load-hosts', 'netns:2', '--repeat', '1', '--warmup', '0', '--servers', 'node', '--scenarios', 'long_conn_256', '--no-report', '--out', out]);
    await run.waitFor('stdout', /long_conn_256 +running/);
    // Tsung's agents are up once its controller has started them on the hosts.
    const deadline = Date.now() + 20000;
    while (!/-sname tsung[0-9]/.test(spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.notEqual(tsungProcesses(), '', 'no Tsung agent started');
    run.child.kill('SIGINT');
    const result = await run.exited;
    assert.equal(result.code, 130, result.stdout + result.stderr);
    const namespaces = namespacesIn(result.stdout);
    assert.equal(namespaces.length, 3, result.stdout);
    for (const ns of namespaces) assert.equal(namespaceExists(ns), false, ns);
    assert.equal(tsungProcesses(), '');
    const doc = readResultsFile(path.join(out, 'results.json'));
    assert.equal(doc.interrupted, true);
  });
});
