'use strict';
// The ramps as data (perf/lib/plan/ramps.js): checked against their schema with one-line
// errors, their defaults and quick values, and each step as a scenario of kind open.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { loadRamps, stepScenario, warmupLoad, rampConnections, stepSeconds, estimateRampS, WARMUP_REQUESTS } = require('../../../perf/lib/plan/ramps');
const { normalizeScenario, warmupScenario } = require('../../../perf/lib/plan/scenarios');
const { makeTmpDir } = require('../../support/runner_helpers');

function rampDir(ramps) {
  const dir = makeTmpDir('perf-ramps-');
  for (const [name, body] of Object.entries(ramps)) fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(body));
  return dir;
}

describe('ramps as data', () => {
  it('the project\'s ramps are valid, full size and quick', () => {
    assert.ok(loadRamps().length >= 1);
    assert.ok(loadRamps({ quick: true }).every((r) => r.step_s <= 1));
  });

  it('fills in the defaults and merges the quick values', () => {
    const dir = rampDir({ up: { description: 'up', from_rps: 10, to_rps: 1000, quick: { from_rps: 100, step_s: 0.5, precision: 0.1 } } });
    const [full] = loadRamps({ dir });
    assert.deepEqual(full, { name: 'up', description: 'up', source: null, request: { method: 'GET', path: '/hello', headers: {}, upload_bytes: null }, connection: 'new', connections: null, from_rps: 10, to_rps: 1000, step_s: 2, max_step_s: 15, lead_s: 2, min_requests: 200, max_steps: 30, precision: 0.05, timeout_s: 10, warmup_requests: 20000, fail_confirmations: 3, approximation_steps: 12 });
    const [quick] = loadRamps({ dir, quick: true });
    assert.deepEqual([quick.from_rps, quick.step_s, quick.to_rps, quick.precision], [100, 0.5, 1000, 0.1]);
  });

  it('says in one line what is wrong: the schema, a rate range upside down, an unknown name', () => {
    const bad = (body) => assert.throws(() => loadRamps({ dir: rampDir({ r: body }) }), (err) => !err.message.includes('\n') && /r\.json/.test(err.message));
    bad({ description: 'x', from_rps: 0, to_rps: 10 });
    bad({ description: 'x', from_rps: 10 });
    bad({ description: 'x', from_rps: 10, to_rps: 100, rate: 5 });
    assert.throws(() => loadRamps({ dir: rampDir({ r: { description: 'x', from_rps: 100, to_rps: 10 } }) }), /'to_rps' \(10\) must be at least 'from_rps' \(100\)/);
    assert.throws(() => loadRamps({ names: ['nope'] }), (err) => err.usage && /unknown ramp 'nope' \(known: hello_keepalive, hello_per_connection/.test(err.message));
    bad({ description: 'x', from_rps: 10, to_rps: 100, connection: 'pipelined' });
  });

  it('a step: an open loop at the rate, one request per connection, long enough for min_requests, led in by lead_s of its own load', () => {
    const [ramp] = loadRamps({ dir: rampDir({ r: { description: 'x', from_rps: 20, to_rps: 1000, step_s: 2, min_requests: 200 } }) });
    assert.equal(stepSeconds(ramp, 20), 10, '200 requests at 20/s');
    assert.equal(stepSeconds(ramp, 1000), 2);
    const step = stepScenario(ramp, 1000);
    assert.deepEqual([step.kind, step.rate, step.connections, step.requests_per_connection, step.warmup_s, step.warm_connections], ['open', 1000, 2000, 1, 2, undefined], 'a connection per request: nothing to warm; 2 s of the rate before the window');
    // The lead-in is the scenario's warm-up: the step's own rate for lead_s, before its window.
    assert.deepEqual([warmupScenario(step).kind, warmupScenario(step).rate, warmupScenario(step).connections], ['open', 1000, 2000]);
    assert.equal(stepScenario(loadRamps({ dir: rampDir({ r: { description: 'x', from_rps: 20, to_rps: 1000, lead_s: 0 } }) })[0], 1000).warmup_s, 0, 'lead_s 0: none');
    assert.deepEqual(loadRamps({ quick: true }).map((r) => r.lead_s), [0, 0], 'a quick ramp\'s steps start from where the last left off');
    // A valid scenario of its kind, as the engines take it.
    const { description, kind, request, connections, rate, timeout_s: timeout, warmup_s: warmup } = step;
    assert.equal(normalizeScenario({ description, kind, request: { path: request.path }, connections, rate, timeout_s: timeout, warmup_s: warmup }, 'step', undefined).connections, 2000);
  });

  it('a keep-alive step: requests at the rate over the ramp\'s pool (kind rate), as many as the step lasts', () => {
    const [ramp] = loadRamps({ dir: rampDir({ k: { description: 'x', connection: 'keep-alive', connections: 50, from_rps: 500, to_rps: 64000 } }) });
    const step = stepScenario(ramp, 4000);
    assert.deepEqual([step.kind, step.rate, step.connections, step.requests, step.warmup_s], ['rate', 4000, 50, 8000, 2]);
    assert.deepEqual([warmupScenario(step).requests, warmupScenario(step).warm_connections], [8000, true], 'its lead-in: 2 s of the rate over warmed connections');
    assert.equal(stepScenario(ramp, 4000, 6.9).requests, 27600, 'a step planned longer, for two of its server\'s pause periods');
    assert.equal(ramp.max_step_s, 15, 'a step grows to 15 s at most by default');
    assert.deepEqual(loadRamps({ quick: true }).map((r) => r.max_step_s), [0.5, 0.5], 'a quick step keeps its length');
    assert.equal(loadRamps({ dir: rampDir({ k: { description: 'x', from_rps: 500, to_rps: 64000, step_s: 3, max_step_s: 1 } }) })[0].max_step_s, 3, 'never below step_s');
    assert.equal(step.warm_connections, true, 'its connections opened and warmed before its time zero');
    const { description, kind, connections, rate, requests } = step;
    assert.equal(normalizeScenario({ description, kind, connections, rate, requests }, 'step', undefined).requests, 8000);
    assert.equal(loadRamps({ dir: rampDir({ k: { description: 'x', connection: 'keep-alive', from_rps: 500, to_rps: 64000 } }) })[0].connections, 100, 'a pool of 100 by default');
  });

  it('a quick search is shorter: each project ramp\'s quick values take 6 steps of approximation after the climb, in steps of 0.5 s; new connections stop waiting at 250 ms and fail the climb\'s rate on three failing steps, keep-alive on two', () => {
    for (const ramp of loadRamps({ quick: true })) assert.deepEqual([ramp.approximation_steps, ramp.step_s], [6, 0.5], ramp.name);
    const [keepalive, perConnection] = loadRamps({ quick: true, names: ['hello_keepalive', 'hello_per_connection'] });
    assert.deepEqual([keepalive.fail_confirmations, keepalive.timeout_s], [2, 10]);
    assert.deepEqual([perConnection.fail_confirmations, perConnection.timeout_s], [3, 0.25]);
    for (const ramp of loadRamps()) assert.deepEqual([ramp.approximation_steps, ramp.step_s, ramp.fail_confirmations, ramp.timeout_s], [12, 2, 3, 10], ramp.name);
  });

  it('a ramp\'s estimated seconds: its searches\' steps (doubling to to_rps, a step above, the climb\'s top measured whole and the approximation\'s steps; or the bisection to its precision, the bound\'s failure and the answer confirmed), each its load and overhead', () => {
    const approximating = loadRamps({ dir: rampDir({ r: { description: 'x', connection: 'keep-alive', from_rps: 1000, to_rps: 8000, step_s: 1, approximation_steps: 5, warmup_requests: 0 } }) })[0];
    // The climb: 1000, 2000, 4000, 8000 and 1 failing above, at the base length; then at max_step_s the climb's top whole, 2 more failing steps of the rate above (3 by default), and 5 approximating steps.
    assert.ok(Math.abs(estimateRampS(approximating, { servers: 1, repeat: 1 }) - ((4 + 1) * (1 + 2 + 0.35) + (1 + 2 + 5) * (15 + 2 + 0.35))) < 1e-9);
    const dir = rampDir({ r: { description: 'x', connection: 'keep-alive', from_rps: 1000, to_rps: 8000, step_s: 1, precision: 0.1, approximation_steps: 0, warmup_requests: 0 } });
    const [ramp] = loadRamps({ dir });
    // Each step after its lead-in (2 s by default). The climb: 1000, 2000, 4000, 8000 and 1 failing above, at the base
    // length; then at max_step_s (15 s by default): 3 bisections (2 → 1.1) a step each, 2 more to confirm the bound's
    // failure, 2 to confirm the answer.
    assert.ok(Math.abs(estimateRampS(ramp, { servers: 1, repeat: 1 }) - ((4 + 1) * (1 + 2 + 0.35) + (3 + 2 + 2) * (15 + 2 + 0.35))) < 1e-9);
    assert.ok(Math.abs(estimateRampS(ramp, { servers: 2, repeat: 3 }) - 6 * estimateRampS(ramp, { servers: 1, repeat: 1 })) < 1e-9);
    const finer = loadRamps({ dir: rampDir({ r: { description: 'x', connection: 'keep-alive', from_rps: 1000, to_rps: 8000, step_s: 1, approximation_steps: 0, warmup_requests: 0 } }) })[0];
    assert.ok(estimateRampS(finer, { servers: 1, repeat: 1 }) > estimateRampS(ramp, { servers: 1, repeat: 1 }), 'a finer precision takes more steps');
    // Two failing steps to confirm the bound instead of three (one more), and each server's warm-up once.
    const quick = loadRamps({ dir: rampDir({ r: { description: 'x', connection: 'keep-alive', from_rps: 1000, to_rps: 8000, step_s: 1, max_step_s: 1, lead_s: 0, precision: 0.1, fail_confirmations: 2, approximation_steps: 0, warmup_requests: 15000 } }) })[0];
    // Steps no longer than the base and no lead-in (as a quick ramp's): all at 1 s. The warm-up's 15,000 requests at the 5,000 a second a closed loop is assumed to warm at.
    assert.ok(Math.abs(estimateRampS(quick, { servers: 2, repeat: 3 }) - 2 * (3 * (4 + 1 + 3 + 1 + 2) * (1 + 0.35) + 3)) < 1e-9);
    // At the longest, the search uses all its max_steps, those after the climb at max_step_s: a bound.
    const paused = loadRamps({ dir: rampDir({ r: { description: 'x', connection: 'keep-alive', from_rps: 1000, to_rps: 8000, step_s: 1, max_step_s: 15, max_steps: 20, precision: 0.1, warmup_requests: 0 } }) })[0];
    assert.ok(Math.abs(estimateRampS(paused, { servers: 1, repeat: 1, longest: true }) - ((4 + 1) * (1 + 2 + 0.35) + (20 - 5) * (15 + 2 + 0.35))) < 1e-9);
  });

  it('a server is warmed before its first step by the ramp\'s request in a closed loop that paces itself: over the keep-alive connections, or 32 at a time each on a new one; 20,000 requests unless the ramp says otherwise, none with 0', () => {
    const [perConnection] = loadRamps({ names: ['hello_per_connection'] });
    const warm = warmupLoad(perConnection);
    assert.deepEqual([warm.kind, warm.concurrency, warm.keep_alive, warm.requests, warm.duration_s, warm.request.path], ['closed', 32, false, WARMUP_REQUESTS, null, '/hello']);
    assert.equal(WARMUP_REQUESTS, 20000);
    const dir = rampDir({ k: { description: 'x', connection: 'keep-alive', connections: 50, from_rps: 500, to_rps: 4000, warmup_requests: 1000 }, none: { description: 'x', from_rps: 10, to_rps: 100, warmup_requests: 0 } });
    const [keepAlive, none] = loadRamps({ dir });
    assert.deepEqual([warmupLoad(keepAlive).concurrency, warmupLoad(keepAlive).keep_alive, warmupLoad(keepAlive).requests], [50, true, 1000]);
    assert.equal(warmupLoad(none), null);
    // A valid scenario of the runner's: what it is given is what the schema allows.
    const { description, kind, concurrency, keep_alive: keepAliveFlag, requests, request } = warm;
    assert.equal(normalizeScenario({ description, kind, concurrency, keep_alive: keepAliveFlag, requests, request: { path: request.path } }, 'warm-up', undefined).requests, 20000);
  });

  it('the most connections a step holds: a keep-alive ramp its pool; a new connection per request its top rate over its timeout, at most its step\'s count', () => {
    const [keepAlive, perConnection] = loadRamps({ names: ['hello_keepalive', 'hello_per_connection'] });
    assert.equal(rampConnections(keepAlive), 100);
    assert.equal(rampConnections(perConnection), 40960 * 2, 'the step of 2 s, shorter than the timeout of 10 s');
    const [quick] = loadRamps({ quick: true, names: ['hello_per_connection'] });
    assert.equal(rampConnections(quick), 20480 * 0.25, 'the timeout of 250 ms, shorter than the step');
  });
});
