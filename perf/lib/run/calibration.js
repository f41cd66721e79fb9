'use strict';
// The host's calibration: one reference server with no runtime beneath it (the C libevent server,
// perf/c/libevent_server.c), measured at one fixed load (perf/calibration.json) in every quick
// and full run, pinned where the servers run, its CPU per request recorded with the run
// (results.json environment.calibration; the archive keeps it with the host). Hosts sold under
// one name differ, and a kernel or its mitigations moved em's CPU per request by a third with no
// change to em: a run whose calibration costs 1.3× the CPU of another's ran on a slower host for
// every server, and the two can be set side by side with that known.

const { startServer, loadServerDefinitions } = require('../hosts/server_process');
const { missingRequirement } = require('../plan/trial_plan');
const { runOne } = require('./run_one');

/**
 * Measures the calibration as planned (perf/lib/plan/calibration.js: { server, scenario }):
 * resolves { server, scenario (its parameters), cpu_ms_per_request, throughput_rps, p50_ms,
 * p99_ms, engine } or { server, skipped: why } where the reference cannot run here or its run
 * failed (the run goes on without it). cpu: the servers' CPU (or null); signal: the run's.
 */
async function calibrate({ server, scenario }, { cpu = null, signal = null, definitions = loadServerDefinitions() } = {}) {
  const missing = missingRequirement(definitions[server]);
  if (missing) return { server, skipped: missing };
  let handle = null;
  try {
    handle = await startServer(server, { definitions, cpu, readyTimeoutMs: 10000 });
    const result = await runOne({ server, handle, scenario, outerSignal: signal, serverState: {}, progress: () => {} });
    if (result.interrupted) return { server, skipped: 'interrupted' };
    const { run } = result;
    if (!run.ok) return { server, skipped: `its run failed: ${run.failure}` };
    return {
      server,
      scenario: { kind: scenario.kind, connections: scenario.connections, rate: scenario.rate, requests: scenario.requests, path: scenario.request.path },
      cpu_ms_per_request: run.server_cpu.ms_per_request,
      throughput_rps: run.throughput_rps,
      p50_ms: run.latency_ms.p50,
      p99_ms: run.latency_ms.p99,
      engine: run.engine,
    };
  } catch (err) {
    return { server, skipped: err.message.split('\n')[0] };
  } finally {
    if (handle) await handle.stop();
  }
}

module.exports = { calibrate };
