'use strict';
// Where a set of results was measured (perf/lib/run/environment.js): the machine, the versions
// (the locked gems from Gemfile.lock), the project's commit, and what the run passes in (the
// pinning, the options it records).

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { collectEnvironment, lockedGems, cpuDetails, cpuMitigations, serverSources } = require('../../../perf/lib/run/environment');
const { execFileSync } = require('node:child_process');
const { thresholds } = require('../../../perf/lib/method');
const { makeTmpDir } = require('../../support/runner_helpers');

/** A git repository of these files (each holding its own name), committed once: { dir, git }. */
function repoOf(files) {
  const dir = makeTmpDir('environment-git-');
  const git = (...args) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, stdio: 'pipe' }).toString().trim();
  git('init', '-q');
  for (const f of files) {
    fs.mkdirSync(path.join(dir, path.dirname(f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), f);
  }
  git('add', '.');
  git('commit', '-qm', 'one');
  return { dir, git };
}

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

  it('the CPU\'s flags (sorted) and microcode, and the kernel\'s view of each vulnerability', () => {
    const dir = makeTmpDir('environment-');
    const cpuinfo = path.join(dir, 'cpuinfo');
    fs.writeFileSync(cpuinfo, 'processor\t: 0\nmodel name\t: AMD EPYC\nmicrocode\t: 0x1000065\nflags\t\t: sse2 fpu avx2\n\nprocessor\t: 1\nflags\t\t: other\n');
    assert.deepEqual(cpuDetails(cpuinfo), { flags: ['avx2', 'fpu', 'sse2'], microcode: '0x1000065' });
    assert.deepEqual(cpuDetails(path.join(dir, 'none')), { flags: null, microcode: null });
    const vulns = path.join(dir, 'vulnerabilities');
    fs.mkdirSync(vulns);
    fs.writeFileSync(path.join(vulns, 'spectre_v2'), 'Mitigation: Retpolines\n');
    fs.writeFileSync(path.join(vulns, 'meltdown'), 'Not affected\n');
    assert.deepEqual(cpuMitigations(vulns), { meltdown: 'Not affected', spectre_v2: 'Mitigation: Retpolines' });
    assert.equal(cpuMitigations(path.join(dir, 'none')), null);
  });

  it('a digest per server of its folder, the shared files and its definition at a commit, changed by a change to any', () => {
    const { dir, git } = repoOf(['node/server.js', 'ruby/em/server.rb', 'shared_www/index.html', 'contract.json']);
    const first = git('rev-parse', 'HEAD');
    const defs = { node: { command: 'node', args: ['node/server.js'] }, em: { command: 'ruby', args: ['ruby/em/server.rb'] }, em_tuned: { command: 'ruby', args: ['ruby/em/server.rb'], env: { RUBY_GC_HEAP_INIT_SLOTS: '600000' } } };
    const before = serverSources(defs, { root: dir });
    assert.match(before.node, /^[0-9a-f]{16}$/);
    assert.notEqual(before.em, before.em_tuned, 'the definition counts');
    fs.writeFileSync(path.join(dir, 'ruby/em/server.rb'), 'changed');
    git('commit', '-qam', 'two');
    const after = serverSources(defs, { root: dir });
    assert.equal(after.node, before.node);
    assert.notEqual(after.em, before.em);
    assert.deepEqual(serverSources(defs, { root: dir, commit: first }), before);
    assert.equal(serverSources(defs, { root: dir, commit: 'f'.repeat(40) }).node, null, 'a commit git does not know');
  });

  it('a server that names its folders (sources): changed by a change in any of them, not only its script\'s', () => {
    const { dir, git } = repoOf(['ruby/shared/request_gate.rb', 'ruby/async/server.rb', 'shared_www/index.html', 'contract.json']);
    const args = ['ruby/async/server.rb'];
    const defs = { async: { command: 'ruby', args, sources: ['ruby/async', 'ruby/shared'] }, alone: { command: 'ruby', args } };
    const before = serverSources(defs, { root: dir });
    fs.writeFileSync(path.join(dir, 'ruby/shared/request_gate.rb'), 'changed');
    git('commit', '-qam', 'two');
    const after = serverSources(defs, { root: dir });
    assert.notEqual(after.async, before.async, 'a change in a folder it names');
    assert.equal(after.alone, before.alone, 'the same script without sources: its own folder only');
    assert.equal(serverSources({ async: { ...defs.async, sources: ['ruby/none'] } }, { root: dir }).async, null, 'a folder git does not have');
  });
});
