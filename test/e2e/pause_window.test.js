'use strict';
// A ramp on a server that pauses its loop 20 ms every 1.2 s (the C stand-in,
// perf/c/pausing_server.c: no runtime of its own, its pauses a timer's): each step grows to
// two of its periods once its pauses are seen, a step that met one pause is measured again
// longer where that pause could decide its verdict, and a step that held two or more is judged
// over whole periods between them (perf/lib/run/pause_window.js). Its rates are far below the
// stand-in's capacity, and the objective p99 ≤ 10 ms: a pause of 20 ms (its heartbeat then 10 to
// 20 ms late: always a long pause) in every 1,200 holds about 0.8 % of its requests past 10 ms,
// which passes over whole periods and fails a 0.9 s step that holds one, so the pause decides
// such a step. The steps' lengths and windows are the subject, not its edge.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { runScenarios } = require('../../perf/lib/run/runner');
const { schemaProblem } = require('../../perf/lib/store/results_doc');
const { makeTmpDir, writeScenarioDir } = require('../support/runner_helpers');
const { pausingDefinition } = require('../../perf/lib/studies/window_check');

// Steps of 0.9 s hold at most one of its pauses: only a step measured again, longer, can hold
// two, and one that held one is (its pause decides it: above). And a step misses the pause only
// a quarter of the time (0.5 s steps missed it 58 % of the time: about once in 25 searches, the
// search met no pause in any of its six steps and the test had nothing to judge).
const PERIOD_MS = 1200;
// The stand-in's pauses are placed to its heartbeat of 10 ms: a gap between two is a period to within two heartbeats.
const GAP_SLACK_MS = 25;

describe('ramps: a step as long as the pause, on a server that pauses 20 ms every 1.2 s', function () {
  this.timeout(120000);
  const out = makeTmpDir('pause-window-');
  const lines = [];
  let steps;
  let doc;

  before(async () => {
    const scenariosDir = writeScenarioDir({ tiny: { description: 'a few requests', kind: 'closed', concurrency: 2, requests: 20 } });
    const rampsDir = makeTmpDir('pause-window-ramps-');
    fs.writeFileSync(path.join(rampsDir, 'ka.json'), JSON.stringify({ description: 'keep-alive, rising', connection: 'keep-alive', connections: 10, from_rps: 250, to_rps: 2000, step_s: 0.9, max_step_s: 4, min_requests: 100, precision: 0.2, warmup_requests: 500, fail_confirmations: 2, lead_s: 0 }));
    await runScenarios({ definitions: { pausing: pausingDefinition({ pauseMs: 20, everyMs: PERIOD_MS }) }, servers: ['pausing'], scenariosDir, rampsDir, ramps: ['ka'], slo: 'p99=10ms', rampRepeat: 1, outDir: out, pin: false, repeat: 1, warmup: 0, lighterEngines: false, log: (l) => lines.push(l) });
    doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    steps = doc.ramps.ramps[0].servers.pausing.searches[0].steps;
  });

  it('finds the pauses in the server\'s runtime events, and judges a step holding two or more over whole periods between them', () => {
    assert.equal(schemaProblem(doc), null, 'results.json matches its schema');
    const whole = steps.filter((st) => st.window && st.window.long_pauses >= 2);
    assert.ok(whole.length >= 2, `steps judged over whole periods: ${JSON.stringify(steps.map((st) => [st.rate, st.load_s, st.window]))}`);
    for (const st of whole) {
      const { from_ms: from, to_ms: to, periods } = st.window;
      assert.ok(periods >= 1 && Math.abs(to - from - periods * PERIOD_MS) <= periods * GAP_SLACK_MS, `a window of ${periods} periods: ${from}–${to} ms`);
    }
    assert.match(lines.find((l) => l.startsWith('ka  pausing ')), / steps? judged over whole periods between loop pauses of 10 ms or more \(one every ~1\.2 s\)/);
  });

  it('plans each step after the first pauses as two periods and a margin, and measures a step whose pauses could decide it again, longer', () => {
    // Before a period is seen in a window, a step is planned from what its pauses bound it by.
    const learned = steps.findIndex((st) => st.window && st.window.periods > 0);
    assert.ok(learned >= 0 && learned < steps.length - 1, `a period learned, and steps after it: ${JSON.stringify(steps.map((st) => [st.rate, st.load_s, st.window]))}`);
    for (const st of steps.slice(learned + 1).filter((x) => x.window && x.window.long_pauses >= 2)) {
      assert.ok(st.window.period_s >= 0.9 && st.window.period_s <= 1.8, `period planned for: ${st.window.period_s} s`);
      assert.ok(st.load_s >= Math.min(4, 2 * st.window.period_s), `${st.load_s} s for a period of ${st.window.period_s} s`);
    }
    const again = steps.filter((x) => x.lengthened_from);
    assert.ok(again.length >= 1, 'a step measured again: the period is learned only from a longer step');
    // A step judged whole after one or two pauses stood only where they could not turn its verdict.
    for (const st of steps.filter((x) => x.window && x.window.periods === 0 && x.window.long_pauses >= 1 && x.window.long_pauses <= 2 && x.load_s < 4)) {
      assert.equal(st.window.pauses_decide, false, JSON.stringify([st.rate, st.load_s, st.window]));
    }
    for (const st of again) {
      const before = st.lengthened_from[st.lengthened_from.length - 1];
      assert.ok(before.long_pauses >= 1 && before.long_pauses <= 2, `measured again after ${before.long_pauses} long pauses and no whole period`);
      assert.ok(st.load_s >= Math.min(4, 2 * before.load_s), `${before.load_s} s, then ${st.load_s} s`);
    }
    assert.ok(steps.every((st) => st.load_s <= 4), 'never longer than max_step_s');
  });
});
