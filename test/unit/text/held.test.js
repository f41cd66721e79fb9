'use strict';
// Waiting requests in words (perf/lib/text/held.js): the held-count search's line per server
// and the lines the terminal ends with.

const assert = require('node:assert/strict');
const { heldLine, waitingLines } = require('../../../perf/lib/text/held');
const { memorySlope } = require('../../../perf/lib/judge/held');

const section = { bound_ms: 10, design: { wait_ms: 1000 } };
const memory = { kb_per_connection: 2.31, ci95: [2.05, 2.57], n: 4, base_mb: 40, connections: [250, 1000], at_most_kb: null };

describe('waiting: the held-count search in words', () => {
  it('says how many a server held, where it failed and why, and its memory per connection', () => {
    const steps = [{ held: 2000, failure: 'p99 1030 ms over 1010 ms', failure_detail: null }];
    assert.equal(heldLine('em', { held: 1414, failing: 2000, saturated: true, limited: null, incomplete: null, steps, memory }, section), 'held  em    holds 1,414 waiting requests at p99 ≤ wait + 10 ms; fails at 2,000: p99 1030 ms over 1010 ms; memory 2.31 KB per connection [2.05–2.57] (4 steps, 250–1,000 held)');
    assert.equal(heldLine('node', { held: 1000, failing: null, saturated: false, limited: null, incomplete: null, steps: [], memory: null }, section), 'held  node  holds at least 1,000 waiting requests at p99 ≤ wait + 10 ms: the most offered');
    assert.match(heldLine('node', { held: 4000, failing: null, saturated: false, limited: 'the load generator was the bottleneck (93 % of its core)', incomplete: null, steps: [], memory: null }, section), /holds at least 4,000 .*; no more measured: the load generator was the bottleneck/);
    assert.equal(heldLine('node', { held: null, failing: null, saturated: false, limited: null, incomplete: 'interrupted', steps: [], memory: null }, section), 'held  node  search incomplete: interrupted');
  });

  it('ends the terminal with each waiting scenario\'s latency above the wait, each server\'s memory per connection and the held counts; nothing where nothing waited', () => {
    const waiting = {
      bound_ms: 10,
      scenarios: [{ scenario: 'wait_keepalive_1000', kind: 'rate', wait_ms: 1000, held: 1000, servers: { node: { runs: 5, judged_runs: 5, failed: 0, p50: 1.2, p99: 4.56, errors: 0 }, em: { runs: 5, judged_runs: 0, failed: 5, p50: null, p99: null, errors: 0 } } }],
      memory: { node: { runs: memory, search: null }, em: { runs: null, search: null } },
    };
    const lines = waitingLines({ waiting, held: null });
    assert.match(lines[1], /^Waiting requests \(GET \/delay\?ms=N/);
    assert.equal(lines[2], '  wait_keepalive_1000  1,000 held, N = 1,000 ms: node p50 +1.20 ms, p99 +4.56 ms, 0 errors; em not judged (5 failed)');
    assert.equal(lines[3], '  memory per connection  node  2.31 KB [2.05–2.57] from the keep-alive runs (4, 250–1,000 held)');
    assert.equal(lines[4], '  memory per connection  em    not measured (fewer than three runs at two held counts)');
    assert.deepEqual(waitingLines({ waiting: { bound_ms: 10, scenarios: [], memory: {} }, held: null }), []);
  });

  it('never prints memory per connection below zero: a slope whose interval reaches 0 is below the resolution, with its upper bound', () => {
    // Three steps, RSS 40, 52, 41 MB at 250, 500, 1,000 held: a slope of about −1 KB with an
    // interval of about ±100 KB (one degree of freedom).
    const crossing = memorySlope([{ x: 250, y: 40 }, { x: 500, y: 52 }, { x: 1000, y: 41 }]);
    assert.ok(crossing.ci95[0] < 0 && crossing.ci95[1] > 0, JSON.stringify(crossing));
    // RSS falling as connections rise, the whole interval below 0: at most 0 KB.
    const falling = memorySlope([{ x: 250, y: 60 }, { x: 500, y: 50.1 }, { x: 1000, y: 30 }]);
    assert.ok(falling.ci95[1] < 0, JSON.stringify(falling));
    const upper = crossing.ci95[1].toPrecision(3);
    const steps = [{ held: 500, failure: 'p99 261 ms over 260 ms', failure_detail: null }];
    assert.equal(heldLine('em', { held: 354, failing: 500, saturated: true, limited: null, incomplete: null, steps, memory: crossing }, section), `held  em    holds 354 waiting requests at p99 ≤ wait + 10 ms; fails at 500: p99 261 ms over 260 ms; memory per connection below the resolution (≤ ${upper} KB; 3 steps, 250–1,000 held)`);
    const scenarios = [{ scenario: 'wait_keepalive_1000', kind: 'rate', wait_ms: 250, held: 500, servers: { node: { runs: 5, judged_runs: 5, failed: 0, p50: 1.52, p99: 8.18, errors: 0 } } }];
    const lines = waitingLines({ waiting: { bound_ms: 10, scenarios, memory: { node: { runs: falling, search: null }, em: { runs: null, search: crossing } } }, held: null });
    assert.equal(lines[3], '  memory per connection  node  below the resolution (≤ 0 KB) from the keep-alive runs (3, 250–1,000 held)');
    assert.equal(lines[4], `  memory per connection  em    below the resolution (≤ ${upper} KB) from the held-count search (3 steps, 250–1,000 held)`);
    for (const line of lines) assert.doesNotMatch(line, /[-−]\d/, line);
  });
});
