'use strict';
// A ramp's step judged over its schedule, on connections warmed before its time zero, and a
// search's answer held twice (perf/lib/run/ramp.js, perf/lib/run/capacity.js), against
// stand-in servers on real sockets: one that answers every request at once but holds one reply
// for a second (its step still keeps its rate, the held reply in its latency), and one of known
// capacity (1 ms of CPU a request: 1,000/s at most) offered twice that (it still fails, and its
// loop, late with the load, is no pause to measure a step again for: perf/lib/run/pause_window.js).

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { runScenarios } = require('../../perf/lib/run/runner');
const { schemaProblem } = require('../../perf/lib/store/results_doc');
const { standinDefinitions, makeTmpDir, writeScenarioDir } = require('../support/runner_helpers');

describe('ramps: a step judged over its schedule, on warmed connections', function () {
  this.timeout(180000);
  const out = makeTmpDir('ramp-step-');
  const lines = [];
  let doc;

  before(async () => {
    const scenariosDir = writeScenarioDir({ tiny_open: { description: 'a connection per request', kind: 'open', rate: 50, connections: 10 } });
    const rampsDir = makeTmpDir('ramps-step-');
    // One rate, 2,000/s for half a second over 100 keep-alive connections: a search of a step and
    // its confirmation where the server holds it, three failing steps where it does not (half a
    // second, not a second: the held reply is still a second late, past the step's end and its
    // grace, and the heavy server's backlog of each failing step half as long to drain).
    fs.writeFileSync(path.join(rampsDir, 'ka.json'), JSON.stringify({ description: 'hello over 100 connections at one rate', connection: 'keep-alive', connections: 100, from_rps: 2000, to_rps: 2000, step_s: 0.5, min_requests: 100, max_steps: 6, warmup_requests: 0, lead_s: 0 }));
    // late: its ~700th /hello (after the contract check and the step's 100 warm-up requests, about
    // 0.3 s into the step) answered a second late. The requests behind it on its connection
    // (20 a second) wait too: about 5 of 1,000, under the 1 % above p99. An objective of 50 ms
    // keeps a busy machine's milliseconds out of the question.
    await runScenarios({ definitions: standinDefinitions({ late: { STANDIN_HOLD_AT: '700', STANDIN_HOLD_MS: '1000' }, heavy: { STANDIN_BUSY_MS: '1' } }), servers: ['late', 'heavy'], scenariosDir, rampsDir, ramps: ['ka'], slo: 'p99=50ms', repeat: 1, rampRepeat: 1, quick: true, outDir: out, pin: false, warmup: 0, lighterEngines: false, log: (l) => lines.push(l) });
    doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
  });

  it('one reply a second late is latency, not a lower rate: the step passes, its rate over its schedule, its p99 still judging the tail', () => {
    assert.equal(schemaProblem(doc), null, 'results.json matches its schema');
    const [search] = doc.ramps.ramps[0].servers.late.searches;
    const [first] = search.steps;
    assert.equal(first.failure, null, lines.join('\n'));
    assert.ok(first.late_replies >= 1, `${first.late_replies} replies after the window and its grace`);
    assert.equal(first.grace_ms, 50, 'the objective\'s time');
    assert.ok(first.achieved_rps >= 0.95 * 2000, `kept ${first.achieved_rps}/s`);
    assert.ok(first.replies_rps < 0.95 * 2000, `replies over the time to the last: ${first.replies_rps}/s, which would have failed the step`);
    assert.ok(first.p99_ms <= 50 && first.p999_ms > 50, `p99 ${first.p99_ms} ms, p99.9 ${first.p999_ms} ms: the held reply and those behind it on its connection are in the latencies, above p99`);
    assert.deepEqual(first.warmed && first.warmed.connections, 100, 'its 100 connections opened and answered before its time zero');
  });

  it('the answer is held twice: the rate passed, then passed its confirming step', () => {
    const [search] = doc.ramps.ramps[0].servers.late.searches;
    assert.deepEqual([search.sustainable_rps, search.confirmed, search.unconfirmed_rps, search.saturated], [2000, true, null, false], lines.join('\n'));
    assert.deepEqual(search.steps.map((st) => [st.rate, st.failure, Boolean(st.confirming)]), [[2000, null, false], [2000, null, true]]);
  });

  it('a server of known capacity below the offered rate still fails: its backlog is unanswered at the end of the window', () => {
    const [search] = doc.ramps.ramps[0].servers.heavy.searches;
    assert.deepEqual([search.sustainable_rps, search.failing_rps, search.saturated], [null, 2000, true], lines.join('\n'));
    for (const st of search.steps) {
      assert.match(st.failure, /^schedule not kept \(\d+ of 2000\/s\)$/);
      // 1,000/s at most, and what it served by the window's end and the grace.
      assert.ok(st.achieved_rps <= 1000 * 1.05 + 10, `kept ${st.achieved_rps}/s`);
    }
  });

  it('past its edge, its loop busy with the backlog runs its heartbeat late without pausing: no step is measured again, longer', () => {
    const [search] = doc.ramps.ramps[0].servers.heavy.searches;
    assert.ok(search.steps.every((st) => st.window), 'the stand-in records its runtime events');
    assert.deepEqual(search.steps.map((st) => [st.load_s, Boolean(st.lengthened_from)]), search.steps.map(() => [0.5, false]), JSON.stringify(search.steps.map((st) => st.window)));
  });
});
