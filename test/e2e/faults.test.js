'use strict';
// The runner facing servers that go wrong in ways a user cannot see coming: a port someone else
// holds, a server that never says it is ready, a server that hangs mid-scenario. Each is recorded
// with its reason, the runner goes on, and no process is left behind.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { runScenarios } = require('../../perf/lib/run/runner');
const { loadServerDefinitions } = require('../../perf/lib/hosts/server_process');
const { standinDefinitions, makeTmpDir, writeScenarioDir, alive } = require('../support/runner_helpers');

const scenariosDir = writeScenarioDir({
  tiny_open: { description: 'open loop', kind: 'open', connections: 20, rate: 50, timeout_s: 1 },
  tiny_closed: { description: 'keep-alive', kind: 'closed', concurrency: 2, requests: 10, timeout_s: 1 },
});
// No warm-ups: the subject is the faults (warm-ups: test/e2e/judging.test.js).
const quiet = { log: () => {}, pin: false, scenariosDir, scenarios: ['tiny_open', 'tiny_closed'], warmup: 0, lighterEngines: false };
const runsOf = (out) => JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')).runs;

describe('perf runner: faults', function () {
  this.timeout(60000);

  it('a port someone else holds: the server fails to start, one line says why, the next server runs', async () => {
    const blocker = net.createServer();
    await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address();
    const node = loadServerDefinitions().node;
    const definitions = { ...standinDefinitions({ good: {} }), busy: { ...node, args: ['node/server.js', '--host', '{host}', '--port', String(port)] } };
    const out = makeTmpDir();
    try {
      await runScenarios({ ...quiet, definitions, servers: ['busy', 'good'], outDir: out });
    } finally {
      blocker.close();
    }
    const runs = runsOf(out);
    assert.deepEqual(runs.map((r) => `${r.server}/${r.ok}`), ['busy/false', 'busy/false', 'good/true', 'good/true']);
    assert.match(runs[0].failure, new RegExp(`the server did not start: .*cannot listen on 127\\.0\\.0\\.1:${port}: EADDRINUSE`));
  });

  it('a server that never prints its ready line: stopped after the deadline, recorded, nothing left running', async () => {
    const out = makeTmpDir();
    const pidfile = path.join(out, 'silent.pid');
    const silent = `require('fs').writeFileSync(${JSON.stringify(pidfile)}, String(process.pid)); setInterval(() => {}, 1000);`;
    const definitions = { silent: { command: process.execPath, args: ['-e', silent], cwd: '.', env: {}, ready: 'listening on http://' } };
    await runScenarios({ ...quiet, definitions, servers: ['silent'], outDir: out, readyTimeoutMs: 1500 });
    const runs = runsOf(out);
    assert.equal(runs.length, 2);
    for (const run of runs) assert.match(run.failure, /printed no ready line \('listening on http:\/\/'\) within 1500 ms/);
    assert.equal(alive(Number(fs.readFileSync(pidfile, 'utf8'))), false);
  });

  it('a server that hangs mid-scenario: that run fails as hung, the rest are not run, it is killed, the next server runs', async () => {
    const out = makeTmpDir();
    const pidfile = path.join(out, 'hangs.pid');
    // The contract check sends a few GET /hello; the 10th blocks the stand-in's loop for a minute.
    const definitions = standinDefinitions({ hangs: { STANDIN_STALL_AT: '10', STANDIN_STALL_MS: '60000', STANDIN_PIDFILE: pidfile }, good: {} });
    await runScenarios({ ...quiet, definitions, servers: ['hangs', 'good'], outDir: out });
    const runs = runsOf(out);
    assert.deepEqual(runs.map((r) => `${r.server}/${r.scenario}/${r.ok}`), ['hangs/tiny_open/false', 'hangs/tiny_closed/false', 'good/tiny_open/true', 'good/tiny_closed/true']);
    assert.match(runs[0].failure, /^the server stopped answering \(hung\): \d+ requests timed out/);
    assert.match(runs[1].failure, /^not run: the server stopped answering during tiny_open/);
    assert.equal(alive(Number(fs.readFileSync(pidfile, 'utf8'))), false);
  });
});
