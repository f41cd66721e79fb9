'use strict';
// The slow-client engine (perf/lib/engines/slow_clients.js) against a real stand-in server: a
// probe on a schedule beside slow readers or uploaders active in a window, transfers cut when
// it closes or started again (repeat), and the probe's latency before, during and after them;
// which scenarios it runs.

const assert = require('node:assert/strict');
const { runSlowClients, probePhases, slowClientsEngine } = require('../../../perf/lib/engines/slow_clients');
const { Samples } = require('../../../perf/lib/measure/samples');
const { normalizeScenario } = require('../../../perf/lib/plan/scenarios');
const { useStandin, rowsOf } = require('../../support/runner_helpers');

describe('perf drivers: against the stand-in server', function () {
  this.timeout(30000);
  const server = useStandin();

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

  it('slow uploads with repeat: each client starts a new transfer when one ends, until the window closes', async () => {
    const scenario = normalizeScenario(
      {
        description: 'test',
        kind: 'slow_clients',
        probe: { request: { path: '/hello' }, rate: 20, duration_s: 1.5 },
        slow: { mode: 'upload', request: { path: '/upload', upload_bytes: 32768 }, clients: 2, bytes_per_s: 131072, start_s: 0.2, active_s: 1, repeat: true },
      },
      'test',
      null,
    );
    const samples = new Samples();
    samples.start();
    const { slow_clients: slow } = await runSlowClients({ host: server.host, port: server.port, scenario, samples });
    const complete = slow.active_periods.filter((p) => p.outcome === 'complete');
    // 32 KiB at 128 KiB/s: about a quarter of a second each, so three or four per client in the second.
    for (const client of [1, 2]) assert.ok(complete.filter((p) => p.client === client).length >= 2, JSON.stringify(slow.active_periods));
    assert.ok(complete.every((p) => p.status === 200 && p.bytes === 32768));
    // Paced: never more than two pieces (a tenth of a second's bytes each) ahead of 128 KiB/s, so
    // 50 ms at least; unpaced, 32 KiB go in a millisecond or two.
    assert.ok(complete.every((p) => p.end_ms - p.start_ms >= 50), JSON.stringify(complete));
    assert.ok(slow.active_periods.every((p) => p.start_ms >= 190 && p.end_ms <= 1200 + 100), JSON.stringify(slow.active_periods));
    for (const client of [1, 2]) {
      const own = slow.active_periods.filter((p) => p.client === client);
      for (let i = 1; i < own.length; i++) assert.ok(own[i].start_ms >= own[i - 1].end_ms, 'one transfer at a time per client');
    }
    assert.deepEqual([slow.mode, slow.transfer_bytes, slow.window_ms], ['upload', 32768, [200, 1200]]);
    assert.equal(slow.replies_2xx, complete.length);
    assert.equal(slow.transfer_ms.count, complete.length);
    assert.equal(slow.bytes, slow.active_periods.reduce((a, p) => a + p.bytes, 0));
    assert.equal(slow.transfers, slow.active_periods.length);
  });
});

describe('slow clients: the probe by phase', () => {
  // Probe replies at 0, 10, 20, 30 and 40 ms (latency 1, 2, 3, 4, 5 ms), a probe error at 25 ms
  // and a slow transfer at 15 ms; the slow clients were active from 10 to 30 ms.
  const samples = new Samples();
  samples.start(0);
  for (let i = 0; i < 5; i++) samples.add({ startAt: i * 10, endAt: i * 10 + i + 1, status: 200, role: 'probe', conn: i + 1 });
  samples.add({ startAt: 25, endAt: 26, error: 'reset', role: 'probe', conn: 6 });
  samples.add({ startAt: 15, endAt: 35, status: 200, role: 'slow', conn: 7 });

  it('before, during and after the slow clients\' active period: replies only, the probe\'s only', () => {
    const phases = probePhases(samples, 10, 30);
    assert.deepEqual([phases.before.replies, phases.during.replies, phases.after.replies], [1, 2, 2]);
    assert.deepEqual(phases.before, { replies: 1, mean: 1, p50: 1, p99: 1, max: 1 });
    assert.deepEqual([phases.during.mean, phases.during.max], [2.5, 3]);
    assert.deepEqual([phases.after.mean, phases.after.max], [4.5, 5]);
  });

  it('no slow client was ever active: everything is before', () => {
    const phases = probePhases(samples, null, null);
    assert.deepEqual([phases.before.replies, phases.during.replies, phases.after.replies], [5, 0, 0]);
    assert.deepEqual(phases.during, { replies: 0, mean: null, p50: null, p99: null, max: null });
  });
});

describe('slow clients engine: which scenarios it runs', () => {
  it('the slow_clients ones', () => {
    assert.equal(slowClientsEngine.supports({ kind: 'slow_clients' }), true);
    for (const kind of ['closed', 'open']) assert.equal(slowClientsEngine.supports({ kind }), false, kind);
  });
});
