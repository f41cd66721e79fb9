'use strict';
// The host's calibration: one reference server with no runtime beneath it (the C libevent server,
// perf/c/libevent_server.c), measured at one fixed load (perf/calibration.json) in every quick
// and full run, pinned where the servers run, its CPU per request recorded with the run
// (results.json environment.calibration; the archive keeps it with the host). Hosts sold under
// one name differ, and a kernel or its mitigations moved em's CPU per request by a third with no
// change to em: a run whose calibration costs 1.3× the CPU of another's ran on a slower host for
// every server, and the two can be set side by side with that known.

const path = require('node:path');
const { startServer, loadServerDefinitions } = require('../hosts/server_process');
const { normalizeScenario } = require('../plan/scenarios');
const { missingRequirement } = require('../plan/trial_plan');
const { runOne } = require('./run_one');
const CALIBRATION = require('../../calibration.json');
const { PROJECT_ROOT } = require('../project_root');

const SCENARIO = normalizeScenario({ name: 'calibration', ...CALIBRATION.scenario }, path.join(PROJECT_ROOT, 'perf', 'calibration.json'));

/**
 * Measures the calibration: resolves { server, scenario (its parameters), cpu_ms_per_request,
 * throughput_rps, p50_ms, p99_ms, engine } or { server, skipped: why } where the reference
 * cannot run here or its run failed (the run goes on without it). cpu: the servers' CPU (or
 * null); signal: the run's; scenario: the load (a test's is smaller than the runs').
 */
async function calibrate({ cpu = null, signal = null, definitions = loadServerDefinitions(), scenario = SCENARIO } = {}) {
  const server = CALIBRATION.server;
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

/** What the plan says of the calibration, before anything runs. */
function calibrationPlan() {
  const seconds = Math.ceil(SCENARIO.requests / SCENARIO.rate + SCENARIO.warmup_s);
  return `calibration first: the ${CALIBRATION.server} reference at ${SCENARIO.rate.toLocaleString('en-US')} requests/s, about ${seconds} s (perf/calibration.json)`;
}

/** The calibration in one line for the run's log. */
function calibrationLine(c) {
  if (c.skipped) return `calibration: ${c.server} not measured (${c.skipped}); runs on different hosts cannot be set side by side by it`;
  return `calibration: ${c.server} at ${c.scenario.rate.toLocaleString('en-US')} requests/s: ${c.cpu_ms_per_request.toFixed(4)} ms of CPU per request, p99 ${c.p99_ms} ms (the host's yardstick, recorded with the run)`;
}

module.exports = { calibrate, calibrationLine, calibrationPlan, SCENARIO };
