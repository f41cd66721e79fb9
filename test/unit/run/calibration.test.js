'use strict';
// The host's calibration (perf/lib/run/calibration.js): the libevent reference at a fixed load
// as planned (perf/lib/plan/calibration.js), measured on a real server and socket (a smaller
// load than the runs'), its one line, and what is said where it cannot run.

const assert = require('node:assert/strict');
const { calibrate } = require('../../../perf/lib/run/calibration');
const { plannedCalibration } = require('../../../perf/lib/plan/calibration');
const { calibrationPlan, calibrationLine } = require('../../../perf/lib/text/calibration');
const { loadServerDefinitions } = require('../../../perf/lib/hosts/server_process');
const { missingRequirement } = require('../../../perf/lib/plan/trial_plan');

describe('calibration: the libevent reference at one fixed load', function () {
  this.timeout(30000);
  const definitions = loadServerDefinitions();
  const planned = plannedCalibration();

  it('the runs\' load: the libevent reference, GET /hello at a fixed rate over keep-alive connections', () => {
    const { server, scenario } = planned;
    assert.deepEqual([server, scenario.kind, scenario.rate, scenario.connections, scenario.requests, scenario.request.path], ['libevent', 'rate', 5000, 50, 25000, '/hello']);
    assert.equal(calibrationPlan(planned), 'calibration first: the libevent reference at 5,000 requests/s, about 6 s (perf/calibration.json)');
  });

  it('measures its CPU per request and the rate it served, and stops it', async function () {
    if (missingRequirement(definitions.libevent)) this.skip(); // scripts/setup.sh --backends builds it; the next test covers its absence
    const small = { ...planned, scenario: { ...planned.scenario, rate: 1000, requests: 1000, warmup_s: 0 } };
    const c = await calibrate(small, { definitions });
    assert.equal(c.skipped, undefined, c.skipped);
    assert.equal(c.server, 'libevent');
    assert.ok(c.cpu_ms_per_request > 0 && c.cpu_ms_per_request < 1, `${c.cpu_ms_per_request} ms`);
    // The schedule sets the rate: within 10 % of it.
    assert.ok(Math.abs(c.throughput_rps - 1000) < 100, `${c.throughput_rps}/s`);
    assert.ok(c.p99_ms >= c.p50_ms);
    assert.match(calibrationLine(c), /^calibration: libevent at 1,000 requests\/s: 0\.\d{4} ms of CPU per request, p99 [\d.]+ ms \(the host's yardstick, recorded with the run\)$/);
  });

  it('says, in one line, that it could not measure where the reference is not built', async () => {
    const missing = { ...definitions, libevent: { ...definitions.libevent, requires: ['perf/c/build/no_such_server'] } };
    const c = await calibrate(planned, { definitions: missing });
    assert.equal(c.server, 'libevent');
    assert.match(c.skipped, /no_such_server/);
    assert.match(calibrationLine(c), /^calibration: libevent not measured \(.*\); runs on different hosts cannot be set side by side by it$/);
  });
});
