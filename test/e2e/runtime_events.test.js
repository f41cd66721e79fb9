'use strict';
// The project's servers and their bare references write their runtime's events for the runner
// (contract.json runtime_events; node/runtime_events.js, ruby/shared/runtime_events.rb): a run
// against each, started as the runner starts it, carries its GC, loop and allocation figures
// for exactly the run's window; a file a server cannot write ends its start in one line.

const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const path = require('node:path');
const { startServer } = require('../../perf/lib/hosts/server_process');
const { runOne } = require('../../perf/lib/run/run_one');
const { normalizeScenario } = require('../../perf/lib/plan/scenarios');
const contract = require('../../contract.json');
const { PROJECT_ROOT } = require('../../perf/lib/project_root');

// 4,000 requests over 10 keep-alive connections, a closed loop: enough garbage for both GCs.
const LOAD = normalizeScenario({ description: 'events', kind: 'closed', concurrency: 10, requests: 4000, warmup_s: 0 }, 'events', 'events');
const RUNTIMES = { node: ['node', 'bytes', 'exact'], node_bare: ['node', 'bytes', 'exact'], em: ['ruby', 'objects', 'heartbeat'], em_bare: ['ruby', 'objects', 'heartbeat'], async: ['ruby', 'objects', 'heartbeat'], async_bare: ['ruby', 'objects', 'heartbeat'] };

for (const [name, [runtime, unit, position]] of Object.entries(RUNTIMES)) {
  describe(`${name}: its runtime's events in a run`, function () {
    this.timeout(30000);
    let handle;
    before(async () => {
      handle = await startServer(name);
    });
    after(async () => {
      if (handle) await handle.stop();
    });

    it(`GCs, heartbeats and ${unit} allocated per request, for the run's window`, async () => {
      const { run } = await runOne({ server: name, handle, scenario: LOAD, outerSignal: null, serverState: { exit: null } });
      assert.equal(run.ok, true, run.failure);
      const r = run.runtime;
      assert.deepEqual([r.runtime, r.allocations.unit, r.gc_position, r.heartbeat_ms, r.complete], [runtime, unit, position, contract.runtime_events.heartbeat_ms, true]);
      assert.ok(r.gc.collections > 0 && r.gc.time_ms > 0 && r.gc.longest_ms > 0 && r.gc.longest_ms <= r.gc.time_ms, JSON.stringify(r.gc));
      assert.equal(r.gc.collections >= r.gc.minor + r.gc.major, true, JSON.stringify(r.gc));
      assert.ok(r.allocations.per_request > 0 && r.allocations.total > 0, JSON.stringify(r.allocations));
      assert.ok(r.loop.late_p99_ms !== null && r.loop.late_p99_ms >= 0, JSON.stringify(r.loop));
      assert.ok(r.tail.p99 && ['gc', 'stalls', 'neither'].includes(r.tail.p99.coincided), JSON.stringify(r.tail));
    });
  });
}

/** Runs a server's entry point with env; resolves { code, stderr } when it exits (15 s at most). */
function runServer(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(args[0], args.slice(1), { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running after 15 s: ${stderr}`));
    }, 15000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('runtime events: a file a server cannot write', function () {
  this.timeout(20000);
  const missing = path.join('/nonexistent-dir', 'x.events');
  for (const [who, args] of [
    ['node server', ['node', 'node/server.js', '--port', '1']],
    ['em server', ['ruby', 'ruby/em/server.rb', '--port', '1']],
    ['node bare server', ['node', 'node/bare_server.js', '--port', '1']],
    ['em bare server', ['ruby', 'ruby/em/bare_server.rb', '--port', '1']],
    ['async server', ['ruby', 'ruby/async/server.rb', '--port', '1']],
    ['async bare server', ['ruby', 'ruby/async/bare_server.rb', '--port', '1']],
  ]) {
    it(`${who}: one line naming the file and the variable, exit 1`, async () => {
      const { code, stderr } = await runServer(args, { [contract.runtime_events.env]: missing });
      assert.equal(code, 1);
      const lines = stderr.trim().split('\n');
      assert.equal(lines.length, 1, stderr);
      assert.match(lines[0], new RegExp(`^${who}: cannot write the runtime's events to ${missing} \\(RUNTIME_EVENTS_FILE\\): `));
    });
  }
});
