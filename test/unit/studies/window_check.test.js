'use strict';
// The window check's pure parts (perf/lib/studies/window_check.js): the searches' answers against
// the search's resolution, in a line, and the stand-in built from its source where it is missing.
// The rule it checks, run against the stand-in: test/e2e/pause_window.test.js.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const { summarize, summaryLine, pausingServerBinary, pausingDefinition } = require('../../../perf/lib/studies/window_check');

const search = (rps, steps = []) => ({ sustainable_rps: rps, incomplete: null, bracket: [rps, rps * 1.044], steps });
const step = (loadS, window = null, more = {}) => ({ load_s: loadS, window, ...more });

describe('window check', () => {
  it('answers one grid step apart lie within the resolution; farther apart, the answer depends on the pause\'s phase', () => {
    const steps = [step(2), step(6.9, { long_pauses: 3, periods: 2 }), step(6.9, { long_pauses: 1, periods: 0 }, { lengthened_from: [{ load_s: 2 }] })];
    const within = summarize([search(5907, steps), search(5657), search(5907), { sustainable_rps: null, incomplete: 'interrupted', steps: [] }], 0.05);
    assert.deepEqual([within.searches, within.counted, within.rates, within.within_resolution, within.resolution], [4, 3, [5907, 5657, 5907], true, 1.05]);
    assert.deepEqual([within.steps, within.steps_judged_over_periods, within.steps_lengthened, within.mean_step_s], [3, 1, 1, 5.27]);
    assert.equal(summaryLine(within), '3 searches: 5,822/s geometric mean, 5,657–5,907/s (1.044×, the resolution 1.05×): within it; 1 of 3 steps judged over whole periods, 1 measured again longer, 5.27 s a step on average');
    const phased = summarize([search(7336), search(8724), search(8282)], 0.05);
    assert.equal(phased.within_resolution, false);
    assert.match(summaryLine(phased), /\(1\.189×, the resolution 1\.05×\): wider than it: the answer depends on where the pauses fell/);
    assert.equal(summaryLine(summarize([], 0.05)), '0 searches, none with an answer');
  });

  it('builds the stand-in where it is missing, and defines it as a server that pauses', () => {
    const bin = pausingServerBinary();
    assert.ok(fs.statSync(bin).mode & 0o111, `${bin} is executable`);
    const def = pausingDefinition({ pauseMs: 20, everyMs: 3000 });
    assert.deepEqual([def.command, def.env, def.serves], [bin, { PAUSE_MS: '20', PAUSE_EVERY_MS: '3000', BUSY_US: '100' }, ['hello']]);
  });
});
