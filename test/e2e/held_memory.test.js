'use strict';
// The held-memory study against the project's servers (scripts/held_memory.sh): each held
// connection is one descriptor more on every server; the hand-written async server holds each
// in fibers of its own, em in none; Node in a socket handle. The table is printed and the JSON
// written. (Its pure parts: test/unit/studies/held_memory.test.js.)

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { makeTmpDir } = require('../support/runner_helpers');

const CLI = path.join(__dirname, '..', '..', 'perf', 'cli', 'held_memory.js');

describe('held memory: the study on the project servers', function () {
  this.timeout(120000);
  let out;
  let printed;
  let study;
  before(async () => {
    out = makeTmpDir('held-memory-');
    const ran = await new Promise((resolve) => {
      execFile(process.execPath, [CLI, '--servers', 'node,em,async', '--counts', '0,60,120', '--wait-ms', '1000', '--out', out], (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
    });
    printed = ran.stdout;
    assert.equal(ran.code, 0, `${ran.stdout}${ran.stderr}`);
    study = JSON.parse(fs.readFileSync(path.join(out, 'held_memory.json'), 'utf8'));
  });
  after(() => fs.rmSync(out, { recursive: true, force: true }));

  const per = (name) => study.servers.find((s) => s.name === name).per_held;

  it('every server: one descriptor a held connection, and resident memory that grows with them', () => {
    for (const name of ['node', 'em', 'async']) {
      assert.ok(Math.abs(per(name).fds - 1) < 0.02, `${name}: ${per(name).fds} descriptors a held connection`);
      assert.ok(per(name).rss_kb > 0, `${name}: ${per(name).rss_kb} kB a held connection`);
    }
  });

  it('the fibers that hold a request: the hand-written async server has its own per connection, em none', () => {
    assert.ok(per('async').fibers_alive >= 1, `async: ${per('async').fibers_alive} fibers a held connection`);
    assert.ok(Math.abs(per('em').fibers_alive) < 0.05, `em: ${per('em').fibers_alive} fibers a held connection`);
    assert.ok(per('async')['mappings_kb.stacks'] > 4, `async: ${per('async')['mappings_kb.stacks']} kB of stacks a held connection`);
  });

  it('Node holds each in a socket handle and a timer', () => {
    assert.ok(Math.abs(per('node')['resources.TCPSocketWrap'] - 1) < 0.02, JSON.stringify(per('node')));
    assert.ok(per('node')['resources.Timeout'] >= 0.98, JSON.stringify(per('node')));
  });

  it('prints the table, a row a server, and where it wrote the study', () => {
    assert.match(printed, /^Per held connection \(each a GET \/delay\?ms=1000 outstanding; the slope over 0, 60, 120 held/m);
    for (const name of ['node', 'em', 'async']) assert.match(printed, new RegExp(`^${name}\\s+(node|ruby) `, 'm'));
    assert.match(printed, /^held memory: .*held_memory\.json$/m);
  });
});
