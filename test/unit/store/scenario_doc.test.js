'use strict';
// What a scenario asks (perf/lib/store/scenario_doc.js): its wait, the connections it holds,
// what a server must serve to answer it, and a closed loop's options for the engines.

const assert = require('node:assert/strict');
const { waitMs, aboveWait, expectedDurationS, scenarioParams, heldConnections, closedLoopOptions, requestNeeds, scenarioNeeds } = require('../../../perf/lib/store/scenario_doc');
const { loadScenarios } = require('../../../perf/lib/plan/scenarios');

describe('scenario doc: what a scenario asks', () => {
  const byName = Object.fromEntries(loadScenarios({ quick: true }).map((s) => [s.name, s]));

  it('the wait its request asks for (GET /delay?ms=N, GET /upstream?ms=N), from a scenario or a run\'s params', () => {
    assert.equal(waitMs({ request: { path: '/delay?ms=250' } }), 250);
    assert.equal(waitMs({ request: { path: '/delay?x=1&ms=7' } }), 7);
    assert.equal(waitMs({ request: { path: '/upstream?ms=10' } }), 10);
    assert.equal(waitMs({ probe: { request: { path: '/delay?ms=5' } } }), 5, 'a slow-client scenario\'s probe');
    assert.equal(waitMs({ request: { path: '/hello' } }), null);
    assert.equal(waitMs({ request: { path: '/delay?ms=abc' } }), null);
    assert.equal(waitMs(null), null);
  });

  it('the connections it holds open at once: a closed loop\'s clients, a rate\'s pool, an open loop\'s arrivals within a request\'s life', () => {
    assert.equal(heldConnections({ kind: 'closed', concurrency: 256 }), 256);
    assert.equal(heldConnections({ kind: 'rate', connections: 100, requests: 20 }), 20, 'never more than it sends');
    assert.equal(heldConnections({ kind: 'open', connections: 3000, rate: 200, request: { path: '/hello' } }), 200, 'a second of arrivals');
    assert.equal(heldConnections({ kind: 'open', connections: 3000, rate: 200, request: { path: '/delay?ms=100' } }), 20, 'the wait\'s arrivals');
    assert.equal(heldConnections({ kind: 'slow_clients', slow: { clients: 50 }, probe: { rate: 10, request: { path: '/hello' } } }), 60);
  });

  it('the capability one request needs', () => {
    assert.equal(requestNeeds({ path: '/hello' }), 'hello');
    assert.equal(requestNeeds({}), 'hello', 'the default request is GET /hello');
    assert.equal(requestNeeds({ path: '/delay?ms=25' }), 'delay');
    assert.equal(requestNeeds({ path: '/upstream?ms=10' }), 'upstream');
    assert.equal(requestNeeds({ path: '/db' }), 'db');
    assert.equal(requestNeeds({ path: '/lipsum100k.txt' }), 'files');
    assert.equal(requestNeeds({ method: 'POST', path: '/upload' }), 'upload');
    assert.equal(requestNeeds({ path: '/upload', upload_bytes: 10 }), 'upload');
    assert.equal(requestNeeds(null), null);
  });

  it('what each scenario needs: its request\'s, its probe\'s and its slow clients\'', () => {
    assert.deepEqual(scenarioNeeds(byName.sequential_6000), ['hello']);
    assert.deepEqual(scenarioNeeds(byName.bigfile_100k), ['files']);
    assert.deepEqual(scenarioNeeds(byName.slow_read), ['hello', 'files']);
    assert.deepEqual(scenarioNeeds(byName.slow_upload), ['hello', 'upload']);
  });

  it('a closed loop as an engine\'s options, its times in ms', () => {
    const s = { request: { path: '/hello' }, concurrency: 4, requests: 100, requests_per_connection: 10, duration_s: null, timeout_s: 5 };
    assert.deepEqual(closedLoopOptions(s), { request: { path: '/hello' }, concurrency: 4, requests: 100, requestsPerConnection: 10, durationMs: null, timeoutMs: 5000 });
    assert.equal(closedLoopOptions({ ...s, duration_s: 2 }).durationMs, 2000);
  });

  it('the latency above the wait, from a run\'s percentiles', () => {
    assert.deepEqual(aboveWait({ request: { path: '/delay?ms=100' } }, { p50: 101.5, p99: 112.25 }), { wait_ms: 100, p50: 1.5, p99: 12.25 });
    assert.equal(aboveWait({ request: { path: '/hello' } }, { p50: 1, p99: 2 }), null);
  });

  it('how long a scenario\'s load lasts as planned, where its schedule or its time sets it; none where the server\'s speed does', () => {
    assert.equal(expectedDurationS({ kind: 'open', connections: 2000, rate: 20 }), 100);
    assert.equal(expectedDurationS({ kind: 'rate', requests: 25000, rate: 5000 }), 5);
    assert.equal(expectedDurationS({ kind: 'slow_clients', probe: { duration_s: 12 } }), 12);
    assert.equal(expectedDurationS({ kind: 'closed', duration_s: null, requests: 100 }), null);
  });

  it('what a run records of its scenario: its parameters, without the file it came from', () => {
    const s = { name: 'x', kind: 'closed', concurrency: 2, file: '/somewhere/x.json', request: { path: '/hello' } };
    assert.deepEqual(scenarioParams(s), { name: 'x', kind: 'closed', concurrency: 2, request: { path: '/hello' } });
    assert.notEqual(scenarioParams(s).request, s.request, 'a copy');
  });
});
