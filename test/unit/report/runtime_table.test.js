'use strict';
// The runtime table of a scenario (perf/lib/report/runtime_table.js): per server the medians of
// its usable runs' GC, loop stalls and allocations, and what their p99 tails coincided with.

const assert = require('node:assert/strict');
const { runtimeRows, tailText } = require('../../../perf/lib/report/runtime_table');
const { decoded, trialRun } = require('../../support/made_up_results');

/** A run's runtime: minor and major GCs, the GC's share, its longest, stalls, allocations, and its p99 tail's cause with the share it explains. */
function runtime({ minor, major = 0, share = 1, longest = 2, stalls = 0, longestStall = 0, perRequest = 1500, unit = 'bytes', cause = 'gc', explained = 90, other = 10 }) {
  const side = (pct) => ({ in_flight_pct: 50, all_in_flight_pct: 10, without_ms: 4 - (pct / 100) * 3, explained_pct: pct });
  return {
    runtime: unit === 'bytes' ? 'node' : 'ruby', complete: true, heartbeat_ms: 10, gc_position: unit === 'bytes' ? 'exact' : 'heartbeat',
    gc: { collections: minor + major, minor, major, time_ms: 10, longest_ms: longest, share_pct: share },
    loop: { stall_ms: 5, stalls, stalled_ms: stalls * 6, longest_stall_ms: longestStall, late_p99_ms: 1 },
    allocations: { unit, total: perRequest * 20000, per_request: perRequest },
    tail: { p99: { at_ms: 4, median_ms: 1, slow: 200, gc: side(cause === 'stalls' ? other : explained), stalls: side(cause === 'stalls' ? explained : other), coincided: cause } },
    pauses: [],
  };
}

const run = (server, trial, rt, more = {}) => trialRun(server, 'hello', trial, 1, 1000, { replies: 20000, runtime: runtime(rt), ...more });
/** Runs as the report reads them: judged (each with p99_resolved). */
const judged = (runs) => decoded(runs).runs;

describe('report: the runtime table', () => {
  it('medians over each server\'s usable runs, allocations with their unit; no row without one', () => {
    const runs = [
      run('node', 1, { minor: 10, major: 1, share: 1.2, longest: 3, stalls: 2, longestStall: 9, perRequest: 1400 }),
      run('node', 2, { minor: 30, major: 1, share: 2.4, longest: 5, stalls: 4, longestStall: 7, perRequest: 1600 }),
      run('node', 3, { minor: 20, major: 3, share: 1.8, longest: 4, stalls: 3, longestStall: 8, perRequest: 1500 }),
      // A client-bound run is no run a verdict may use: left out, as summary.txt's table leaves it.
      run('node', 4, { minor: 900, major: 90 }, { client_bound: true }),
      run('em', 1, { minor: 5, major: 1, perRequest: 52.3, unit: 'objects' }),
      run('em', 2, { minor: 7, major: 1, perRequest: 50.1, unit: 'objects' }, { client_bound: true }),
      trialRun('nginx', 'hello', 1, 1, 1000),
      run('node_tuned', 1, { minor: 1 }, { client_bound: true }),
    ];
    const rows = runtimeRows(decoded(runs), 'hello');
    assert.deepEqual(rows.map((r) => r.server), ['node', 'em'], 'nginx records no runtime events; node_tuned has no usable run');
    const [node, em] = rows;
    assert.deepEqual(
      [node.runs, node.minor, node.major, node.collections, node.gc_share_pct, node.longest_gc_ms, node.stall_ms, node.stalls, node.longest_stall_ms, node.alloc],
      [3, 20, 1, 23, 1.8, 4, 5, 3, 8, '1,500 bytes'],
    );
    assert.deepEqual([em.runs, em.alloc, em.heartbeat_gc], [1, '52.3 objects', true]);
  });

  it('the p99 tail: each answer with the median share of the excess it explains and in how many runs; n too small where no run resolves a p99', () => {
    const tails = [
      run('node', 1, { minor: 1, cause: 'gc', explained: 90 }),
      run('node', 2, { minor: 1, cause: 'gc', explained: 96 }),
      run('node', 3, { minor: 1, cause: 'neither', explained: 12, other: 30 }),
    ];
    assert.equal(tailText(judged(tails)), 'GC pauses: 93 % (2 of 3 runs); neither: at most 30 % (1 of 3 runs)');
    assert.equal(tailText(judged([run('em', 1, { minor: 1, cause: 'stalls', explained: 70 })])), 'loop stalls: 70 %');
    assert.equal(tailText(judged([run('em', 1, { minor: 1 }, { replies: 2000 })])), 'n too small', '2,000 replies resolve no p99');
    const noTail = run('em', 1, { minor: 1 });
    delete noTail.runtime.tail;
    assert.equal(tailText(judged([noTail])), null);
  });
});
