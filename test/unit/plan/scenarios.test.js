'use strict';
// Scenario files: the shipped ones load and mean what their descriptions say; mistakes are caught
// with one line naming the file and the field; --quick scales counts, keeps rates.

const assert = require('node:assert/strict');
const { loadScenarios, normalizeScenario, quickScale, warmupScenario, expectedWarmupS, ScenarioError, ORDER } = require('../../../perf/lib/plan/scenarios');
const { expectedDurationS } = require('../../../perf/lib/store/scenario_doc');
const { engineFor, rateClientBuilt } = require('../../../perf/lib/engines');

/** The built-in engine of kind rate here: rate_client where it is built (test/unit/engines/rate_client.test.js). */
const rateEngine = () => (rateClientBuilt() ? 'rate_client' : 'constant_rate');
const { writeScenarioDir } = require('../../support/runner_helpers');

const byName = (list) => Object.fromEntries(list.map((s) => [s.name, s]));

describe('perf scenarios: the shipped files', () => {
  const full = byName(loadScenarios());
  const quick = byName(loadScenarios({ quick: true }));

  it('a quick run that holds fewer slow clients records the full number (its peak RSS is then not judged)', () => {
    assert.deepEqual([quick.slow_upload.slow.clients, quick.slow_upload.full_size], [10, { slow_clients: 50 }]);
    assert.equal(full.slow_upload.full_size, undefined);
    assert.equal(quick.keepalive_400x100.full_size, undefined, 'closed loops keep their concurrency');
  });

  it('has every shipped scenario, the seed studies\' first, in their order', () => {
    // user-added scenarios follow the shipped ones, by name
    assert.deepEqual(loadScenarios().map((s) => s.name).slice(0, ORDER.length), ORDER);
    // No folder named (null, as the command line passes it without --scenarios-dir): the same.
    assert.deepEqual(loadScenarios({ dir: null }).map((s) => s.name), loadScenarios().map((s) => s.name));
  });

  it('describes seed 002 tests 1-4, 000, 003 and 004 faithfully', () => {
    assert.deepEqual([full.sequential_6000.kind, full.sequential_6000.concurrency, full.sequential_6000.requests, full.sequential_6000.keep_alive], ['closed', 1, 6000, false]);
    for (const [name, n, rate] of [
      ['concurrent_2000_20', 2000, 20],
      ['concurrent_2000_100', 2000, 100],
      ['concurrent_3000_200', 3000, 200],
    ]) {
      assert.equal(full[name].kind, 'open');
      assert.equal(full[name].connections, n);
      assert.equal(full[name].rate, rate);
      assert.equal(full[name].requests_per_connection, 1);
    }
    assert.deepEqual([full.keepalive_400x100.concurrency, full.keepalive_400x100.requests_per_connection], [400, 100]);
    assert.deepEqual([full.bigfile_100k.concurrency, full.bigfile_100k.requests, full.bigfile_100k.request.path], [32, 10000, '/lipsum100k.txt']);
    assert.deepEqual([full.long_conn_256.concurrency, full.long_conn_256.duration_s, full.long_conn_256.keep_alive], [256, 10, true]);
    assert.deepEqual([full.short_conn_256.concurrency, full.short_conn_256.duration_s, full.short_conn_256.keep_alive], [256, 10, false]);
    assert.equal(full.slow_read.slow.request.path, '/data/random-1m.bin');
    assert.equal(full.slow_upload.slow.request.upload_bytes, 1048576);
    assert.equal(full.big_upload.slow.request.upload_bytes, 16 * 1024 * 1024);
  });

  it('picks autocannon where it is faithful and the other built-in engines elsewhere', () => {
    const engines = Object.fromEntries(Object.values(full).map((s) => [s.name, engineFor(s)]));
    assert.equal(engines.keepalive_400x100, 'autocannon');
    assert.equal(engines.bigfile_100k, 'autocannon');
    assert.equal(engines.long_conn_256, 'autocannon');
    assert.equal(engines.sequential_6000, 'sequential');
    assert.equal(engines.short_conn_256, 'sequential');
    assert.equal(engines.concurrent_2000_20, 'open_loop');
    assert.equal(engines.slow_read, 'slow_clients');
  });

  it('--quick divides counts by twenty and keeps rates and concurrency; a scenario\'s quick block asks for about a second of load where ÷20 left a tenth, and half-second rounds of the open loops', () => {
    assert.equal(quick.concurrent_2000_100.connections, 50);
    assert.equal(quick.concurrent_2000_100.rate, 100);
    assert.equal(quick.sequential_6000.requests, 2000);
    assert.deepEqual([quick.concurrent_2000_20.connections, quick.concurrent_2000_20.rate], [20, 20]);
    assert.deepEqual([quick.concurrent_3000_200.connections, quick.concurrent_3000_200.rate], [100, 200]);
    assert.deepEqual([quick.keepalive_400x100.concurrency, quick.keepalive_400x100.requests_per_connection], [400, 25]);
    assert.deepEqual([quick.bigfile_100k.concurrency, quick.bigfile_100k.requests], [32, 5000]);
    assert.equal(quick.long_conn_256.duration_s, 1);
    assert.equal(quick.slow_read.slow.bytes_per_s, full.slow_read.slow.bytes_per_s);
    assert.equal(quick.slow_read.probe.rate, full.slow_read.probe.rate);
    // the slow scenarios' own quick blocks
    assert.deepEqual([quick.slow_read.probe.duration_s, quick.slow_read.slow.clients, quick.slow_read.slow.active_s], [1.5, 10, 1.2]);
  });
});

describe('perf scenarios: validation', () => {
  const base = { description: 'x', kind: 'open', connections: 10, rate: 5 };
  const check = (raw, pattern) => assert.throws(() => normalizeScenario(raw, 'f.json', 'f'), (err) => err instanceof ScenarioError && pattern.test(err.message) && err.message.startsWith('f.json'));

  it('accepts a minimal scenario and fills in the defaults', () => {
    const s = normalizeScenario(base, 'f.json', 'f');
    assert.equal(s.name, 'f');
    assert.equal(s.timeout_s, 10);
    assert.deepEqual(s.request, { method: 'GET', path: '/hello', headers: {}, upload_bytes: null });
  });

  it('rejects typos, wrong types and impossible combinations with one line naming the field', () => {
    check({ ...base, rat: 5 }, /unknown field 'rat'/);
    check({ ...base, rate: '5' }, /'rate' must be a number/);
    check({ ...base, rate: 0 }, /'rate' must be between 0\.1 and 1000000 per second, not 0$/);
    check({ ...base, connections: 1.5 }, /'connections' must be an integer/);
    check({ ...base, kind: 'burst' }, /'kind' must be one of/);
    check({ ...base, description: undefined }, /'description' is required/);
    check({ ...base, name: 'g' }, /'name' is 'g' but the file is f.json/);
    check({ ...base, concurrency: 3 }, /'concurrency' does not apply to kind 'open'/);
    check({ ...base, request: { path: 'hello' } }, /'path' must start with \//);
    check({ ...base, request: { headers: { Connection: 'close' } } }, /set by the runner/);
    check({ description: 'x', kind: 'closed', concurrency: 2, requests: 10, duration_s: 3 }, /exactly one of/);
    check({ description: 'x', kind: 'closed', concurrency: 2, keep_alive: false, requests_per_connection: 3 }, /needs keep_alive: true/);
    check({ description: 'x', kind: 'slow_clients', probe: { rate: 10, duration_s: 2 }, slow: { mode: 'read', clients: 1, start_s: 1, active_s: 5 } }, /must end within the probe's duration_s/);
    check({ description: 'x', kind: 'slow_clients', probe: { rate: 10, duration_s: 9 }, slow: { mode: 'upload', clients: 1, start_s: 1, active_s: 5 } }, /'upload_bytes'.*required/);
    // From the schema (perf/schemas/scenario.schema.json), named by the path to the field.
    check({ description: 'x', kind: 'slow_clients', probe: { rate: 10, duration_s: 9, rte: 1 }, slow: {} }, /^f\.json: probe: unknown field 'rte' \(known: request, rate, duration_s\)$/);
    check({ ...base, request: { headers: { 'X-Id': 7 } } }, /^f\.json: request: headers: 'X-Id' must be a string \(headers are an object of strings\)$/);
    // A header that would smuggle another header or request into every request sent.
    for (const value of ['1\r\nTransfer-Encoding: chunked', 'a\nb', 'a\rb', 'a\u0000b']) {
      check({ ...base, request: { headers: { 'X-A': value } } }, /^f\.json: request: headers: 'X-A' must be one line: a string with no CR, LF or NUL$/);
    }
    for (const name of ['X-A\r\nX-B', 'X\u0000A', 'X A', '']) {
      check({ ...base, request: { headers: { [name]: '1' } } }, new RegExp(`^f\\.json: request: headers: name ${JSON.stringify(name).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} must be a token`));
    }
    check({ description: 'x', kind: 'slow_clients' }, /^f\.json: 'probe' is required for kind 'slow_clients'$/);
    check({ ...base, quick: 3 }, /^f\.json: 'quick' must be an object$/);
  });

  it('refuses values no run could carry out, naming the field and the allowed range', () => {
    const closed = { description: 'x', kind: 'closed', concurrency: 4, requests: 100 };
    const slow = { description: 'x', kind: 'slow_clients', probe: { rate: 10, duration_s: 9 }, slow: { mode: 'read', clients: 1, start_s: 1, active_s: 5 } };
    check({ ...base, rate: 0.000001 }, /'rate' must be between 0\.1 and 1000000 per second, not 0\.000001$/);
    check({ ...base, rate: 2e6 }, /'rate' must be between 0\.1 and 1000000 per second/);
    check({ ...base, connections: 1e12 }, /'connections' must be between 1 and 10000000, not 1000000000000$/);
    check({ ...base, connections: 1e6, rate: 1 }, /'connections' \/ 'rate' \(the run's length in s\) is 1000000; it must be at most 86400 \(fewer connections or a higher rate/);
    check({ ...base, requests_per_connection: 2e6 }, /'connections' × 'requests_per_connection' \(requests in all\) is 20000000; it must be at most 10000000/);
    check({ ...base, timeout_s: 1e9 }, /'timeout_s' must be greater than 0 and at most 3600 s, not 1000000000$/);
    check({ ...closed, concurrency: 1e12, requests: 1e12 }, /'concurrency' must be between 1 and 10000, not 1000000000000$/);
    check({ ...closed, requests: 1e12 }, /'requests' must be between 1 and 10000000/);
    check({ description: 'x', kind: 'closed', concurrency: 400, requests_per_connection: 1e6 }, /'concurrency' × 'requests_per_connection' \(requests in all\) is 400000000; it must be at most 10000000/);
    check({ description: 'x', kind: 'closed', concurrency: 4, duration_s: 1e6 }, /'duration_s' must be greater than 0 and at most 86400 s, not 1000000$/);
    check({ ...slow, probe: { rate: 0.001, duration_s: 9 } }, /^f\.json: probe: 'rate' must be between 0\.1 and 1000000/);
    check({ ...slow, probe: { rate: 1e5, duration_s: 1000 }, slow: { ...slow.slow } }, /probe: 'rate' × 'duration_s' \(probe requests in all\) is 100000000; it must be at most 10000000/);
    check({ ...slow, slow: { ...slow.slow, clients: 1e9 } }, /slow: 'clients' must be between 1 and 10000/);
    check({ ...slow, slow: { ...slow.slow, bytes_per_s: 0.001 } }, /slow: 'bytes_per_s' must be between 1 and 10000000000/);
    check({ ...slow, slow: { ...slow.slow, mode: 'upload', request: { upload_bytes: 2 ** 40 } } }, /slow: request: 'upload_bytes' must be between 0 and 1073741824 bytes/);
  });

  it('refuses an out-of-range scenario file when it is loaded, naming the file, also at --quick size', () => {
    const dir = writeScenarioDir({ crawl: { description: 'x', kind: 'open', connections: 100, rate: 0.000001 } });
    assert.throws(() => loadScenarios({ dir, quick: true }), (err) => err instanceof ScenarioError && /crawl\.json: 'rate' must be between 0\.1 and 1000000 per second, not 0\.000001$/.test(err.message) && !err.message.includes('\n'));
  });

  it('loads a user-added scenario from a directory and orders it after the seed ones', () => {
    const dir = writeScenarioDir({
      my_test: { description: 'mine', kind: 'closed', concurrency: 4, duration_s: 3, request: { path: '/lipsum100k.txt' } },
      sequential_6000: { description: 'seed', kind: 'closed', concurrency: 1, keep_alive: false, requests: 6000 },
    });
    assert.deepEqual(loadScenarios({ dir }).map((s) => s.name), ['sequential_6000', 'my_test']);
    assert.deepEqual(loadScenarios({ dir, names: ['my_test'] }).map((s) => s.request.path), ['/lipsum100k.txt']);
    assert.throws(() => loadScenarios({ dir, names: ['nope'] }), /unknown scenario 'nope' \(known: .*my_test/);
  });

  it('reports a file that is not JSON by name', () => {
    const dir = writeScenarioDir({});
    require('node:fs').writeFileSync(require('node:path').join(dir, 'broken.json'), '{ "kind": ');
    assert.throws(() => loadScenarios({ dir }), /broken\.json: not valid JSON/);
  });

  it('quickScale: counts ÷20 rounded up, durations ÷20 but at least 1 s, a quick block wins', () => {
    assert.equal(quickScale({ kind: 'open', connections: 30, rate: 7 }).connections, 2);
    assert.equal(quickScale({ kind: 'open', connections: 30, rate: 7 }).rate, 7);
    assert.equal(quickScale({ kind: 'closed', concurrency: 50, requests: 100 }).requests, 50, 'never fewer requests than connections');
    assert.equal(quickScale({ kind: 'closed', concurrency: 5, duration_s: 60 }).duration_s, 3);
    assert.equal(quickScale({ kind: 'closed', concurrency: 5, duration_s: 10 }).duration_s, 1);
    assert.deepEqual(quickScale({ kind: 'slow_clients', probe: { rate: 5, duration_s: 40 }, slow: { clients: 40, start_s: 2 }, quick: { slow: { clients: 7 } } }).slow, { clients: 7, start_s: 0.1 });
  });
});

describe('perf scenarios: warm-up', () => {
  const base = { description: 'x', kind: 'open', connections: 10, rate: 5 };

  it('is 2 s unless the scenario says otherwise, 1 s with --quick; a quick one is never longer, and 0 stays 0', () => {
    assert.equal(normalizeScenario(base, 'f.json', 'f').warmup_s, 2);
    for (const s of loadScenarios()) assert.equal(s.warmup_s, 2, s.name);
    for (const s of loadScenarios({ quick: true })) assert.equal(s.warmup_s, 1, s.name);
    assert.deepEqual([0, 0.5, 5, 60].map((w) => quickScale({ ...base, warmup_s: w }).warmup_s), [0, 0.5, 1, 3]);
    assert.equal(quickScale({ ...base, warmup_s: 60, quick: { warmup_s: 0 } }).warmup_s, 0);
  });

  it('is bounded like the other durations', () => {
    for (const [w, re] of [[-1, /'warmup_s' must be between 0 and 600 s, not -1$/], [601, /'warmup_s' must be between 0 and 600 s, not 601$/], ['2', /'warmup_s' must be a number, not "2"$/]]) {
      assert.throws(() => normalizeScenario({ ...base, warmup_s: w }, 'f.json', 'f'), (err) => err instanceof ScenarioError && re.test(err.message));
    }
  });

  it('sends the scenario\'s own request at its own concurrency or rate, for warmup_s, through the engine that measures it', () => {
    const n = (raw) => normalizeScenario({ description: 'x', ...raw }, 'f.json', 'f');
    const keepAlive = n({ kind: 'closed', concurrency: 400, requests_per_connection: 100, request: { path: '/' }, warmup_s: 1.5 });
    const pick = (w) => [w.kind, w.concurrency, w.requests, w.requests_per_connection, w.duration_s, w.request.path, w.engine, w.warmup_s];
    assert.deepEqual(pick(warmupScenario(keepAlive)), ['closed', 400, null, null, 0.5, '/', null, 0], 'built-in: slices bounded by a time');
    assert.deepEqual(pick(warmupScenario({ ...keepAlive, warmup_s: 0.2 })), ['closed', 400, null, null, 0.2, '/', null, 0], 'no slice longer than the warm-up');
    assert.deepEqual(pick(warmupScenario({ ...keepAlive, engine: 'wrk' })), ['closed', 400, null, null, 1, '/', 'wrk', 0], 'wrk: slices of a whole second');
    assert.deepEqual(pick(warmupScenario({ ...keepAlive, engine: 'httperf' })), ['closed', 400, null, 100, null, '/', 'httperf', 0], 'httperf: the scenario itself, which the runner repeats');
    assert.equal(warmupScenario({ ...keepAlive, engine: 'tsung' }).engine, null, 'no load hosts for a warm-up');
    // What the plan expects it to take: whole slices, at least two, and one more; httperf a quarter more; an open loop its time.
    assert.deepEqual([expectedWarmupS(keepAlive), expectedWarmupS({ ...keepAlive, engine: 'wrk' }), expectedWarmupS({ ...keepAlive, engine: 'httperf' }), expectedWarmupS({ ...keepAlive, warmup_s: 0 })], [2, 3, 1.875, 0]);
    const open = warmupScenario(n({ kind: 'open', connections: 2000, rate: 100, warmup_s: 0.2 }));
    assert.deepEqual([open.kind, open.rate, open.connections], ['open', 100, 20]);
    const slow = warmupScenario(n({ kind: 'slow_clients', probe: { rate: 50, duration_s: 6 }, slow: { mode: 'read', clients: 10, start_s: 1, active_s: 4 } }));
    assert.deepEqual([slow.kind, slow.rate, slow.connections, slow.request.path, slow.slow], ['open', 50, 100, '/hello', undefined]);
    assert.equal(warmupScenario(n({ ...base, warmup_s: 0 })), null);
    const rate = warmupScenario(n({ kind: 'rate', connections: 100, rate: 4000, requests: 20000, warmup_s: 0.5 }));
    assert.deepEqual([rate.kind, rate.rate, rate.connections, rate.requests], ['rate', 4000, 100, 2000], 'a constant rate: its rate for warmup_s, on its pool');
  });
});

describe('perf scenarios: a constant request rate over keep-alive connections (kind rate)', () => {
  const raw = { description: 'x', kind: 'rate', connections: 100, rate: 4000, requests: 20000 };

  it('is read with its pool, its rate and its count; --quick divides the count; its length is count ÷ rate; the built-in engine of kind rate runs it', () => {
    const s = normalizeScenario(raw, 'f.json', 'f');
    assert.deepEqual([s.kind, s.connections, s.rate, s.requests, s.request.path], ['rate', 100, 4000, 20000, '/hello']);
    assert.deepEqual([quickScale(raw).requests, quickScale(raw).connections, quickScale(raw).rate], [1000, 100, 4000]);
    assert.equal(expectedDurationS(s), 5);
    assert.equal(engineFor(s), rateEngine());
  });

  it('needs its pool, rate and count, and ends within a day', () => {
    for (const field of ['connections', 'rate', 'requests']) {
      const without = { ...raw };
      delete without[field];
      assert.throws(() => normalizeScenario(without, 'f.json', 'f'), (err) => err instanceof ScenarioError && err.message.includes(field), field);
    }
    assert.throws(() => normalizeScenario({ ...raw, rate: 0.1, requests: 10000 }, 'f.json', 'f'), /'requests' \/ 'rate' \(the run's length in s\)/);
  });
});

describe('perf scenarios: waiting requests', () => {
  const { waitMs, heldConnections } = require('../../../perf/lib/store/scenario_doc');
  const full = byName(loadScenarios());
  const names = ['wait_keepalive_1000', 'wait_keepalive_5000', 'wait_keepalive_10000', 'wait_open_1000', 'wait_open_5000', 'wait_open_10000'];

  it('hold 1,000, 5,000 and 10,000 waiting requests at once, keep-alive at a constant rate and a connection per request, at rate ≈ held ÷ the wait', () => {
    for (const name of names) {
      const s = full[name];
      const held = Number(name.split('_').pop());
      assert.equal(heldConnections(s), held, name);
      assert.equal(s.kind, name.includes('keepalive') ? 'rate' : 'open');
      assert.equal(engineFor(s), name.includes('keepalive') ? rateEngine() : 'open_loop');
      assert.ok(Math.abs(s.rate * (waitMs(s) / 1000) - held) < 1e-9, `${name}: ${s.rate}/s × ${waitMs(s)} ms`);
    }
  });

  it('--quick runs only the smallest, shorter and with a shorter wait; the others keep their held counts when named', () => {
    const quick = byName(loadScenarios({ quick: true }));
    assert.deepEqual(names.filter((n) => quick[n]), ['wait_keepalive_1000']);
    assert.deepEqual([heldConnections(quick.wait_keepalive_1000), waitMs(quick.wait_keepalive_1000), expectedDurationS(quick.wait_keepalive_1000)], [500, 250, 1]);
    const named = loadScenarios({ quick: true, names });
    assert.deepEqual(named.map(heldConnections), [500, 5000, 10000, 1000, 5000, 10000]);
  });
});
