'use strict';
// The slow-client engine (perf/lib/engines/slow_clients.js) against a real stand-in server: a
// probe on a schedule beside slow readers or uploaders active in a window, transfers cut when
// it closes, and the probe's latency before, during and after them.

const assert = require('node:assert/strict');
const { runSlowClients } = require('../../../perf/lib/engines/slow_clients');
const { Samples } = require('../../../perf/lib/measure/samples');
const { normalizeScenario } = require('../../../perf/lib/plan/scenarios');
const { startStandin } = require('../../support/runner_helpers');

const rowsOf = (samples) => Array.from({ length: samples.length }, (_, i) => samples.row(i));

describe('perf drivers: against the stand-in server', function () {
  this.timeout(30000);
  let server;
  before(async () => {
    server = await startStandin();
  });
  after(() => server && server.stop());

  it('slow clients: probe samples, slow transfers cut at the window end, active periods, phases', async () => {
    const scenario = normalizeScenario(
      {
        description: 'test',
        kind: 'slow_clients',
        probe: { rate: 40, duration_s: 2 },
        slow: { mode: 'read', request: { path: '/data/random-1m.bin' }, clients: 3, bytes_per_s: 65536, start_s: 0.5, active_s: 1 },
      },
      'test',
      null,
    );
    const samples = new Samples();
    samples.start();
    const res = await runSlowClients({ host: server.host, port: server.port, scenario, samples });
    const rows = rowsOf(samples);
    assert.equal(rows.filter((r) => r.role === 'probe').length, 80);
    const slow = rows.filter((r) => r.role === 'slow');
    assert.equal(slow.length, 3);
    assert.ok(slow.every((r) => r.error === 'cut' && r.t_ms >= 490 && r.t_ms + r.latency_ms <= 1600));
    assert.equal(res.slow_clients.transfers, 3);
    assert.deepEqual(res.slow_clients.outcomes, { cut: 3 });
    assert.deepEqual(res.slow_clients.active_periods.map((p) => p.client).sort(), [1, 2, 3]);
    assert.ok(res.slow_clients.active_periods.every((p) => p.bytes > 0 && p.bytes < 1048576));
    const phases = res.probe_by_phase;
    assert.equal(phases.before.replies + phases.during.replies + phases.after.replies, 80);
    assert.ok(phases.before.replies >= 15 && phases.during.replies >= 30 && phases.after.replies >= 15);
  });
});
