'use strict';
// The soak (perf/lib/studies/soak.js): the memory verdict at its bounds, and short soaks of a
// real stand-in server: mixed requests (one of them a 404), idle and hostile connections, RSS
// sampled, a server that dies, and an early stop. The command line (scripts/soak.sh) on the project's servers:
// test/e2e/soak.test.js.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { soakServer, memoryBounded } = require('../../../perf/lib/studies/soak');
const { startStandin, makeTmpDir } = require('../../support/runner_helpers');

describe('soak: the memory verdict', () => {
  it('RSS after the load at most 50 % above the warmed-up baseline', () => {
    assert.equal(memoryBounded({ baseline_mb: 100, final_mb: 150 }), true);
    assert.equal(memoryBounded({ baseline_mb: 100, final_mb: 150.1 }), false);
  });

  it('or 32 MB above it, for a small server', () => {
    assert.equal(memoryBounded({ baseline_mb: 40, final_mb: 72 }), true);
    assert.equal(memoryBounded({ baseline_mb: 40, final_mb: 72.1 }), false);
  });

  it('no reading after the load: not bounded', () => {
    assert.equal(memoryBounded({ baseline_mb: 40, final_mb: null }), false);
  });
});

describe('soak: a short soak of the stand-in server', function () {
  this.timeout(30000);
  let server;
  let peers;
  before(async () => {
    peers = path.join(makeTmpDir('soak-peers-'), 'peers');
    server = await startStandin({ STANDIN_PEERS_FILE: peers });
  });
  after(() => server && server.stop());
  // The stand-in writes a line per connection it accepted (the file appears with the first).
  const connectionsSoFar = () => (fs.existsSync(peers) ? fs.readFileSync(peers, 'utf8').split('\n').filter(Boolean).length : 0);

  it('mixed load beside idle and hostile connections, its memory measured', async () => {
    const progress = [];
    const before = connectionsSoFar();
    const r = await soakServer({ pid: server.pid, port: server.port, seconds: 2, connections: 2, idleConnections: 200, onProgress: (elapsed, rss) => progress.push([elapsed, rss]) });
    assert.ok(r.requests > 0, JSON.stringify(r));
    assert.equal(r.errors, 0);
    // One request in six is GET /no/such/page.
    assert.ok(r.non_2xx > 0 && r.non_2xx < r.requests / 3, JSON.stringify(r));
    assert.ok(r.baseline_mb > 0 && r.peak_mb >= r.baseline_mb, JSON.stringify(r));
    assert.ok(Math.abs(r.growth_mb - (r.final_mb - r.baseline_mb)) <= 0.1 + 1e-9, JSON.stringify(r));
    assert.ok(progress.length >= 1 && progress.every(([elapsed, rss]) => elapsed > 0 && rss > 0), JSON.stringify(progress));
    // The idle connections, the load's, and hostile clients every quarter of a second (ten each).
    const opened = connectionsSoFar() - before;
    assert.ok(opened >= 200 + 2 + 40, `the server saw ${opened} connections`);
  });

  it('a server that dies during the soak: the requests that failed are errors', async () => {
    const dying = await startStandin({ STANDIN_EXIT_AFTER: '100' });
    try {
      const r = await soakServer({ pid: dying.pid, port: dying.port, seconds: 2, connections: 2, idleConnections: 5 });
      assert.ok(r.errors > 0, JSON.stringify(r));
    } finally {
      await dying.stop();
    }
  });

  it('stopped early (signal): the load ends and what it found so far is reported', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    const t0 = Date.now();
    const r = await soakServer({ pid: server.pid, port: server.port, seconds: 60, connections: 2, idleConnections: 5, signal: controller.signal });
    assert.ok(Date.now() - t0 < 15000, `took ${Date.now() - t0} ms`);
    assert.ok(r.requests > 0 && r.final_mb > 0, JSON.stringify(r));
  });
});
