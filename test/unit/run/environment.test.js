'use strict';
// Where a set of results was measured (perf/lib/run/environment.js): the machine, the versions
// (the locked gems from Gemfile.lock), the project's commit, and what the run passes in (the
// pinning, the options it records).

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { collectEnvironment, lockedGems } = require('../../../perf/lib/run/environment');
const { thresholds } = require('../../../perf/lib/judge/bottleneck');
const { makeTmpDir } = require('../../support/runner_helpers');

describe('environment: where the results were measured', () => {
  it('the locked gems: each gem of Gemfile.lock with its version, dependencies\' constraints left out', () => {
    const dir = makeTmpDir('environment-');
    const lock = ['GEM', '  remote: https://rubygems.org/', '  specs:', '    eventmachine (1.2.7)', '    eventmachine_httpserver (0.2.1)', '    rack (3.0.8)', '      webrick (~> 1.8)', '', 'PLATFORMS', '  x86_64-linux', ''].join('\n');
    fs.writeFileSync(path.join(dir, 'Gemfile.lock'), lock);
    assert.deepEqual(lockedGems(dir), { eventmachine: '1.2.7', eventmachine_httpserver: '0.2.1', rack: '3.0.8' });
    assert.deepEqual(lockedGems(makeTmpDir('environment-')), {}, 'no Gemfile.lock');
  });

  it('the machine, the versions and the project\'s commit; the pinning and options as given', () => {
    const pinning = { enabled: false, server_cpu: null, client_cpu: null, reason: 'turned off (--no-pin)' };
    const options = { quick: true, servers: ['node'] };
    const env = collectEnvironment({ pinning, options });
    assert.equal(env.pinning, pinning);
    assert.equal(env.options, options);
    assert.equal(env.node, process.version);
    assert.equal(env.cores, os.cpus().length);
    assert.ok(env.cores_available >= 1 && env.cores_available <= env.cores);
    assert.equal(env.hostname, os.hostname());
    assert.equal(env.eventmachine, lockedGems().eventmachine);
    assert.match(env.project_commit, /^[0-9a-f]{40}$/);
    assert.equal(typeof env.project_dirty, 'boolean');
    assert.deepEqual(env.thresholds, thresholds());
    assert.match(env.npm_packages.autocannon, /^\d+\.\d+\.\d+/);
  });
});
