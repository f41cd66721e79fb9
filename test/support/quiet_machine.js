'use strict';
// Loaded by mocha before every test file (.mocharc.json): the harness's tests check what the
// runner does with its trials, so a run is not refused because the shared machine's hypervisor
// took CPU meanwhile (perf/lib/run/bottleneck.js). test/unit/run/bottleneck.test.js tests that refusal
// with the threshold it sets itself.
process.env.PERF_DISTURBED_PCT ??= '1000';
