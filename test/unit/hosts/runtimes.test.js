'use strict';
// The runtimes as data (perf/lib/hosts/runtimes.js, perf/runtimes.json): a variant merged onto
// what it varies, where an installed one lives and whether it is whole, the environment that
// puts a server on it, SERVER@RUNTIME definitions, and what a runtime exactly is, read from it.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const rt = require('../../../perf/lib/hosts/runtimes');
const { loadServerDefinitions } = require('../../../perf/lib/hosts/server_process');
const { makeTmpDir } = require('../../support/runner_helpers');

describe('runtimes: perf/runtimes.json as data', () => {
  it('a variant is what it varies with its variables added; an unknown id says which are known', () => {
    const yjit = rt.runtimeOf('ruby33_yjit');
    assert.deepEqual([yjit.id, yjit.base, yjit.kind, yjit.from, yjit.env], ['ruby33_yjit', 'ruby33', 'ruby', 'debian-source', { RUBY_YJIT_ENABLE: '1' }]);
    assert.deepEqual(rt.runtimeOf('node24').env, {});
    assert.throws(() => rt.runtimeOf('node99'), (e) => e instanceof rt.RuntimeError && /^unknown runtime 'node99' \(known: node20, node22, node24, ruby31, /.test(e.message));
  });

  it('every runtime is pinned: the npm ones by version and integrity, the built ones by version and sha256; today\'s and history\'s name one of each kind', () => {
    const file = rt.runtimesFile();
    for (const [id, def] of Object.entries(file.runtimes)) {
      if (def.of) continue;
      if (def.from === 'npm') assert.match(`${def.version} ${def.integrity}`, /^\d+\.\d+\.\d+ sha512-/, id);
      if (def.from === 'debian-source') assert.match(`${def.version} ${def.sha256}`, /^[\d.]+-\d+ [0-9a-f]{64}$/, id);
    }
    for (const era of ['today', 'history']) for (const kind of ['node', 'ruby']) assert.equal(rt.runtimeOf(file[era][kind]).kind, kind, `${era}.${kind}`);
  });

  it('today\'s runtimes are the ones the servers run on by default (perf/servers.json), and every tuned configuration was measured on history\'s', () => {
    const defs = loadServerDefinitions();
    const { today, history } = rt.runtimesFile();
    assert.deepEqual(['node', 'em', 'async', 'node_bare', 'em_bare', 'async_bare'].map((s) => defs[s].runtime), [today.node, today.ruby, today.ruby, today.node, today.ruby, today.ruby]);
    assert.deepEqual(['node_tuned', 'em_tuned', 'async_tuned'].map((s) => rt.settingsRuntimes(defs[s]).includes(s.startsWith('node') ? history.node : history.ruby)), [true, true, true]);
    assert.equal(defs.em_tuned.runtime, today.ruby, 'em\'s tuning measured on today\'s Ruby too');
  });

  it('an installed runtime lives in its own folder, whole once installed.json is there; the machine\'s own needs its major version', () => {
    const root = makeTmpDir('runtimes-');
    const node24 = rt.runtimeOf('node24');
    assert.equal(rt.installDir(node24, root), path.join(root, 'node24-24.22.3'));
    assert.equal(rt.installDir(rt.runtimeOf('ruby33_yjit'), root), path.join(root, 'ruby33-3.3.8-2'), 'a variant lives where what it varies does');
    assert.equal(rt.unavailable(node24, root), 'Node 24 (node24) is not installed: npm run runtimes -- install node24');
    fs.mkdirSync(path.join(root, 'node24-24.22.3', 'bin'), { recursive: true });
    assert.ok(rt.unavailable(node24, root), 'a folder without installed.json is an install cut short');
    fs.writeFileSync(path.join(root, 'node24-24.22.3', rt.INSTALLED_FILE), '{"version":"24.22.3"}');
    assert.equal(rt.unavailable(node24, root), null);
    // A Ruby built with other configure options than those given now is installed again.
    const ruby33 = rt.runtimeOf('ruby33_yjit');
    fs.mkdirSync(path.join(root, 'ruby33-3.3.8-2'));
    fs.writeFileSync(path.join(root, 'ruby33-3.3.8-2', rt.INSTALLED_FILE), JSON.stringify({ version: '3.3.8-2', configure: ['--enable-yjit', '--disable-install-doc'] }));
    assert.equal(rt.unavailable(ruby33, root), 'Ruby 3.3 + YJIT (ruby33_yjit) is not installed: npm run runtimes -- install ruby33');
    fs.writeFileSync(path.join(root, 'ruby33-3.3.8-2', rt.INSTALLED_FILE), JSON.stringify({ version: '3.3.8-2', configure: ruby33.configure }));
    assert.equal(rt.unavailable(ruby33, root), null);
    assert.ok(ruby33.configure.includes('--enable-load-relative'), 'a Ruby that keeps working where its checkout moves');
    assert.equal(rt.unavailable(rt.runtimeOf('node20')), null, 'the machine\'s node is 20 here');
    assert.equal(rt.unavailable({ ...rt.runtimeOf('node20'), major: '18', label: 'Node 18' }), `Node 18 is the machine's own 'node', which is ${process.versions.node} here`);
    assert.match(rt.unavailable({ ...rt.runtimeOf('node20'), command: 'no-such-node-here', label: 'X' }), /^X is the machine's own 'no-such-node-here', which is not installed$/);
  });

  it('a server on a runtime: its commands first on PATH, its variables set; the machine\'s own leaves PATH as it is', () => {
    const root = makeTmpDir('runtimes-');
    const env = rt.runtimeEnv(rt.runtimeOf('ruby33_yjit'), { PATH: '/usr/bin', KEEP: '1' }, root);
    assert.deepEqual(env, { PATH: `${path.join(root, 'ruby33-3.3.8-2', 'bin')}:/usr/bin`, KEEP: '1', RUBY_YJIT_ENABLE: '1' });
    assert.deepEqual(rt.runtimeEnv(rt.runtimeOf('ruby31'), { PATH: '/usr/bin' }, root), { PATH: '/usr/bin' });
  });

  it('SERVER@RUNTIME: the server\'s definition on that runtime, said to vary it; another kind, a server on none, one line', () => {
    const defs = loadServerDefinitions();
    const made = rt.withRuntimeVariants(defs, ['node', 'em@ruby31', 'nosuch@ruby31']);
    assert.deepEqual({ ...made['em@ruby31'], description: null }, { ...defs.em, runtime: 'ruby31', description: null, variant_of: 'em' });
    assert.match(made['em@ruby31'].description, /, on Ruby 3\.1$/);
    assert.equal(made['nosuch@ruby31'], undefined, 'an unknown server is the caller\'s to name');
    assert.throws(() => rt.withRuntimeVariants(defs, ['em@node24']), (e) => e instanceof rt.RuntimeError && e.message === "'em@node24': em runs on a ruby runtime, node24 is node");
    assert.throws(() => rt.withRuntimeVariants(defs, ['nginx@ruby31']), /server 'nginx' names no runtime/);
  });

  it('a tuned configuration on another runtime takes the settings measured there (on), and is refused on one it was not measured on', () => {
    const defs = {
      em: { description: 'em', command: 'ruby', runtime: 'ruby33_yjit', args: ['s.rb'], env: {} },
      em_tuned: {
        description: 'em, tuned: a', command: 'ruby', runtime: 'ruby33_yjit', args: ['s.rb'], env: { A: '1' }, tuned_of: 'em', tuning: { settings: 'A=1' },
        on: { ruby31: { description: 'em, tuned: b', env: { B: '2' }, tuning: { settings: 'B=2' } } },
      },
    };
    const made = rt.withRuntimeVariants(defs, ['em_tuned@ruby31']);
    assert.deepEqual(made['em_tuned@ruby31'], {
      description: 'em, tuned: b, on Ruby 3.1', command: 'ruby', runtime: 'ruby31', args: ['s.rb'], env: { B: '2' }, tuned_of: 'em', tuning: { settings: 'B=2' }, variant_of: 'em_tuned',
    });
    assert.deepEqual(rt.settingsRuntimes(defs.em_tuned), ['ruby33_yjit', 'ruby31']);
    assert.throws(() => rt.withRuntimeVariants(defs, ['em_tuned@ruby33']), (e) => e instanceof rt.RuntimeError && e.message === "'em_tuned@ruby33': em_tuned's tuning was measured on ruby33_yjit and ruby31, not on ruby33; run em@ruby33 for its defaults");
    // An untuned server runs on any runtime of its kind with its own settings.
    assert.deepEqual(rt.withRuntimeVariants(defs, ['em@ruby33'])['em@ruby33'].env, {});
  });

  it('describes the machine\'s own runtimes as they are: Node\'s versions of V8, libuv, llhttp; Ruby\'s YJIT and the gems the servers load', () => {
    const node = rt.describeRuntime('node20');
    assert.deepEqual([node.id, node.from, node.version, node.v8, node.libuv, node.llhttp], ['node20', 'system', process.versions.node, process.versions.v8, process.versions.uv, process.versions.llhttp]);
    const ruby = rt.describeRuntime('ruby31_yjit');
    assert.equal(ruby.yjit, true);
    assert.match(ruby.version, /^3\.1\./);
    assert.match(ruby.gems.eventmachine, /^1\.2\./);
    assert.equal(rt.describeRuntime('ruby31').yjit, false);
  });
});
