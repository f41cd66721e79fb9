'use strict';
// The ramps' stage (perf/lib/run/ramp.js) without servers: a run read as a search's step, the
// steps taken in turn, and the comparison of sustainable rates under the project's rule. The
// stage against real servers: test/e2e/ramp.test.js.

const assert = require('node:assert/strict');
const { stepOf, compareServers, turnstile } = require('../../../perf/lib/run/ramp');

const run = (over = {}) => ({ ok: true, failure: null, throughput_rps: 990, latency_ms: { p50: 1, p99: 4, p999: 6 }, errors: { refused: 1, reset: 0, timeout: 2, other: 0 }, server_cpu_pct: 40, server_cpu: { ms_per_request: 0.1 }, client_cpu_pct: 30, client_bound: false, ...over });
const search = (sustainable, saturated = true, limited = null) => ({ sustainable_rps: sustainable, failing_rps: saturated ? sustainable * 1.05 : null, saturated, limited });

describe('ramps: the stage', () => {
  it('reads a run as a step: errors summed, percentiles, CPU; a client-bound run limits the search, a failed one fails', () => {
    const step = stepOf(run(), 1000);
    assert.deepEqual(step, { offered_rps: 1000, achieved_rps: 990, p50_ms: 1, p99_ms: 4, p999_ms: 6, errors: 3, server_cpu_pct: 40, server_cpu_ms_per_request: 0.1, client_cpu_pct: 30, limited: null });
    assert.match(stepOf(run({ client_bound: true, client_cpu_pct: 97 }), 1000).limited, /load generator was the bottleneck \(97 %/);
    const failed = stepOf(run({ ok: false, failure: 'no replies', errors: { refused: 0, reset: 0, timeout: 0, other: 0 } }), 1000);
    assert.deepEqual([failed.errors, failed.limited], [1, null], 'a failed run fails its rate: the server\'s failure');
  });

  it('takes the steps of two searches in turn, one at a time', async () => {
    const turn = turnstile();
    const order = [];
    let running = 0;
    const step = (who) => turn(async () => {
      running += 1;
      assert.equal(running, 1, 'one step at a time');
      order.push(who);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
    });
    const search = async (who) => {
      for (let i = 0; i < 3; i++) await step(who);
    };
    await Promise.all([search('a'), search('b')]);
    assert.deepEqual(order, ['a', 'b', 'a', 'b', 'a', 'b']);
  });

  it('compares the sustainable rates on the searches: Welch, a winner, the same within the margin, undecided', () => {
    const per = (values) => ({ searches: values.map((v) => search(v)) });
    const [win] = compareServers(['node', 'em'], { node: per([4000, 4200, 3900]), em: per([7600, 8000, 7700]) }, 0.1);
    assert.deepEqual([win.decision, win.winner, win.method], ['winner', 'em', 'welch']);
    assert.ok(win.factor > 1.8 && win.factor < 2.1);
    const [same] = compareServers(['node', 'em'], { node: per([4000, 4010, 3990]), em: per([4005, 3995, 4000]) }, 0.1);
    assert.deepEqual([same.decision, same.winner], ['same', null]);
    const [open] = compareServers(['node', 'em'], { node: per([3000, 5000, 4000]), em: per([4000, 4600, 3500]) }, 0.1);
    assert.equal(open.decision, 'undecided');
  });

  it('a side that never saturated is at least its rate: shown the faster, never the slower or the same', () => {
    const sat = { searches: [search(4000), search(4100)] };
    const atLeast = { searches: [search(8000, false, 'client-bound'), search(8000, false, 'client-bound')] };
    const [faster] = compareServers(['node', 'em'], { node: sat, em: atLeast }, 0.1);
    assert.deepEqual([faster.decision, faster.winner], ['winner', 'em']);
    const [slower] = compareServers(['node', 'em'], { node: { searches: [search(9000), search(9100)] }, em: atLeast }, 0.1);
    assert.deepEqual([slower.decision, slower.winner], [null, null]);
    assert.match(slower.note, /not judged: em never saturated/);
    const [both] = compareServers(['node', 'em'], { node: atLeast, em: atLeast }, 0.1);
    assert.equal(both.decision, null, 'both held the highest rate: not "the same"');
  });

  it('fewer than two searches with a rate on a side: no interval, said so', () => {
    const [c] = compareServers(['node', 'em'], { node: { searches: [search(4000)] }, em: { searches: [search(5000), search(5100)] } }, 0.1);
    assert.deepEqual([c.decision, c.ci95], [null, null]);
    assert.match(c.note, /fewer than two searches/);
  });
});
