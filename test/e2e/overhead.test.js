'use strict';
// scripts/overhead.sh for real, with tiny settings (2 rounds of 1 s, one pair): the progress,
// the table and overhead.json have their shape, ratios are finite and their intervals bracket
// them. No assertion on how fast anything is.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { runCommand, makeTmpDir } = require('../support/runner_helpers');
const { CLIENT_BOUND_PCT } = require('../../perf/lib/method');
const { PROJECT_ROOT } = require('../../perf/lib/project_root');
const { loadServerDefinitions } = require('../../perf/lib/hosts/server_process');

const SCRIPT = path.join(PROJECT_ROOT, 'scripts', 'overhead.sh');

function assertBracketed(metric, what) {
  for (const side of ['project', 'bare']) {
    const s = metric[side];
    assert.equal(s.n, 2, `${what} ${side}: two rounds`);
    assert.ok(Number.isFinite(s.centre) && s.centre > 0, `${what} ${side} centre ${s.centre}`);
    assert.ok(s.ci95[0] <= s.centre && s.centre <= s.ci95[1], `${what} ${side}: ${s.ci95} brackets ${s.centre}`);
  }
  const r = metric.ratio;
  assert.ok(Number.isFinite(r.value) && r.value > 0, `${what} ratio ${r.value}`);
  assert.ok(r.ci95.every(Number.isFinite) && r.ci95[0] <= r.value && r.value <= r.ci95[1], `${what}: ${r.ci95} brackets ${r.value}`);
  assert.equal(typeof r.significant, 'boolean');
}

describe('scripts/overhead.sh --rounds 2 --seconds 1 --pairs node:node_bare', function () {
  this.timeout(120000);
  const out = makeTmpDir('overhead-');
  let result;
  let doc;

  before(async () => {
    result = await runCommand('bash', [SCRIPT, '--rounds', '2', '--seconds', '1', '--pairs', 'node:node_bare', '--out', out], { timeoutMs: 100000 });
    doc = JSON.parse(fs.readFileSync(path.join(out, 'overhead.json'), 'utf8'));
  });

  it('shows its progress and prints the table', () => {
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    for (let i = 1; i <= 8; i++) assert.match(result.stdout, new RegExp(`^\\[${i}/8\\] round [12] `, 'm'));
    assert.match(result.stdout, /^pair\s+mode\s+CPU µs\/req\s+bare µs\/req\s+CPU ÷ bare \[95% CI\]\s+req\/s\s+bare req\/s\s+req\/s ÷ bare \[95% CI\]\s+socket errors$/m);
    const ratio = '[\\d.]+× \\[[\\d.]+–[\\d.]+\\]';
    for (const mode of ['keep-alive', 'close']) {
      assert.match(result.stdout, new RegExp(`^node:node_bare\\s+${mode}\\s+[\\d.,]+\\s+[\\d.,]+\\s+${ratio}\\s+[\\d,]+\\s+[\\d,]+\\s+${ratio}( \\*)?\\s+\\d+ / \\d+$`, 'm'));
    }
    assert.match(result.stdout, new RegExp(`^overhead: .*${path.basename(out)}/overhead\\.json$`, 'm'));
  });

  it('writes overhead.json: a row per mode with finite ratios inside their intervals', () => {
    assert.equal(doc.kind, 'overhead');
    assert.equal(doc.interrupted, false);
    assert.deepEqual(doc.settings.pairs, ['node:node_bare']);
    assert.equal(doc.settings.rounds, 2);
    assert.ok(doc.environment.project_commit === null || /^[0-9a-f]{40}$/.test(doc.environment.project_commit));
    // What each server ran on, as results.json records it.
    const runtime = loadServerDefinitions().node.runtime;
    assert.deepEqual(doc.servers, { node: { runtime }, node_bare: { runtime: loadServerDefinitions().node_bare.runtime } });
    assert.ok(doc.environment.runtimes[runtime], JSON.stringify(doc.environment.runtimes));
    assert.deepEqual(doc.rows.map((r) => r.mode), ['keep-alive', 'close']);
    for (const row of doc.rows) {
      assert.equal(row.project, 'node');
      assert.equal(row.bare, 'node_bare');
      assertBracketed(row.cpu_us_per_request, `${row.mode} CPU`);
      assertBracketed(row.requests_per_sec, `${row.mode} req/s`);
      for (const side of ['project', 'bare']) assert.ok(Number.isInteger(row.socket_errors[side]) && row.socket_errors[side] >= 0);
    }
    assert.deepEqual(doc.table.slice(0, 3), result.stdout.split('\n').filter((l) => /^(pair {2}|node:node_bare )/.test(l)));
  });

  it('interleaves the servers, alternating which goes first', () => {
    assert.equal(doc.measurements.length, 8);
    const firsts = [1, 2].map((round) => doc.measurements.find((m) => m.round === round && m.mode === 'keep-alive').server);
    assert.deepEqual(firsts, ['node', 'node_bare']);
    for (const m of doc.measurements) {
      assert.ok(m.requests > 0 && m.server_cpu_s >= 0, JSON.stringify(m));
      // wrk's CPU share, and the judge's word on it: whether wrk was the bottleneck.
      assert.equal(m.client_bound, m.client_cpu_pct >= CLIENT_BOUND_PCT, JSON.stringify(m));
    }
  });

  it('refuses a bad pair with one line and the usage (exit 2)', async () => {
    const bad = await runCommand('node', [path.join(PROJECT_ROOT, 'perf', 'cli', 'overhead.js'), '--pairs', 'em:no_such_server']);
    assert.equal(bad.code, 2);
    assert.deepEqual(bad.stderr.trim().split('\n').map((l) => l.split(':')[0]), ['overhead.sh', 'usage']);
    assert.match(bad.stderr, /unknown server 'no_such_server'/);
  });
});
