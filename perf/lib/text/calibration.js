'use strict';
// The host's calibration in words (perf/lib/plan/calibration.js, perf/lib/run/calibration.js):
// what the plan line says of it before the run, and the line the run logs once it is measured.

/** "calibration first: the libevent reference at 5,000 requests/s, about 6 s (perf/calibration.json)". */
function calibrationPlan({ server, scenario, seconds }) {
  return `calibration first: the ${server} reference at ${scenario.rate.toLocaleString('en-US')} requests/s, about ${seconds} s (perf/calibration.json)`;
}

/** The calibration as measured, in one line for the run's log (perf/lib/run/calibration.js). */
function calibrationLine(c) {
  if (c.skipped) return `calibration: ${c.server} not measured (${c.skipped}); runs on different hosts cannot be set side by side by it`;
  return `calibration: ${c.server} at ${c.scenario.rate.toLocaleString('en-US')} requests/s: ${c.cpu_ms_per_request.toFixed(4)} ms of CPU per request, p99 ${c.p99_ms} ms (the host's yardstick, recorded with the run)`;
}

module.exports = { calibrationPlan, calibrationLine };
