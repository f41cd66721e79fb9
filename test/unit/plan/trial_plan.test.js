'use strict';
// What the runner will do before it does it (perf/lib/plan/trial_plan.js): what a server lacks
// to serve a scenario or to run here, the order of the runs, how long they take.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const plan = require('../../../perf/lib/plan/trial_plan');
const { loadScenarios } = require('../../../perf/lib/plan/scenarios');
const { makeTmpDir } = require('../../support/runner_helpers');
const { PROJECT_ROOT } = require('../../../perf/lib/project_root');

describe('trials: what the runner plans', () => {
  const scenarios = loadScenarios({ quick: true });
  const byName = Object.fromEntries(scenarios.map((s) => [s.name, s]));

  it('trials outermost: servers alternate A B A B', () => {
    assert.deepEqual(plan.trialPlan(['a', 'b'], 2).map((p) => `${p.trial}${p.server}`), ['1a', '1b', '2a', '2b']);
  });

  it('what a server that serves less skips', () => {
    const nginx = { serves: ['hello', 'files'] };
    assert.equal(plan.missingCapabilities(nginx, byName.slow_read), null);
    assert.deepEqual(plan.missingCapabilities(nginx, byName.big_upload), ['upload']);
    assert.equal(plan.missingCapabilities({}, byName.big_upload), null, 'no `serves`: serves everything');
  });

  it('a server whose command is missing is named with the hint', () => {
    assert.equal(plan.missingRequirement({ requires: ['node'] }), null);
    assert.equal(plan.missingRequirement({ requires: 'node' }), null, 'one command needs no list');
    assert.equal(plan.missingRequirement({}), null);
    assert.equal(plan.missingRequirement({ requires: ['no-such-program-xyz'], install_hint: 'apt-get install xyz' }), 'no-such-program-xyz is not installed (apt-get install xyz)');
    assert.equal(plan.missingRequirement({ requires: ['no-such-xyz', 'node', 'no-such-abc'] }), 'no-such-xyz, no-such-abc are not installed');
  });

  it('finds an executable command on PATH, or a command named by a path in the project', () => {
    const dir = makeTmpDir('trial-plan-');
    fs.writeFileSync(path.join(dir, 'runs-here'), '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'not-executable'), '', { mode: 0o644 });
    fs.mkdirSync(path.join(dir, 'a-directory'), { mode: 0o755 });
    assert.equal(plan.findCommand('runs-here', `/nonexistent${path.delimiter}${dir}`), path.join(dir, 'runs-here'));
    assert.equal(plan.findCommand('not-executable', dir), null);
    assert.equal(plan.findCommand('a-directory', dir), null);
    assert.equal(plan.findCommand('package.json', dir), null, 'a bare name is looked up on PATH, not in the project');
    assert.equal(plan.findCommand('perf/cli/run.js', ''), path.join(PROJECT_ROOT, 'perf', 'cli', 'run.js'));
    assert.equal(plan.findCommand('perf/no-such-file', ''), null);
  });

  it('estimates the length: load × trials + start-up, "about"', () => {
    const served = { node: [byName.sequential_6000, byName.slow_read], em: [byName.sequential_6000, byName.slow_read] };
    const one = plan.estimatePlanS(plan.trialPlan(['node', 'em'], 1), served);
    const three = plan.estimatePlanS(plan.trialPlan(['node', 'em'], 3), served);
    assert.ok(one > 2 * 4.5 && one < 30, `${one}`); // sequential 2000 requests ≈ 1.3 s, slow_read 1.5 s, warm-ups 1 s each
    assert.ok(three > 3 * 2 * 4.5 && three < 3 * one, `${three}`);
  });

  it('a count-bounded closed loop is estimated from a conservative rate; one bounded by time takes its time', () => {
    const closed = { kind: 'closed', concurrency: 10, requests: 8000, requests_per_connection: null, duration_s: null, keep_alive: true };
    assert.equal(plan.estimateScenarioS(closed), 8000 / plan.ESTIMATE_RPS.keep_alive);
    assert.equal(plan.estimateScenarioS({ ...closed, keep_alive: false, requests: 1500 }), 1);
    assert.equal(plan.estimateScenarioS({ ...closed, requests: null, requests_per_connection: 100 }), (100 * 10) / plan.ESTIMATE_RPS.keep_alive);
    assert.equal(plan.estimateScenarioS({ ...closed, requests: null, duration_s: 7 }), 7);
    assert.equal(plan.estimateScenarioS({ kind: 'open', connections: 500, rate: 100 }), 5);
  });
});
