'use strict';
// The runtimes a run needs, made ready before it measures (perf/lib/run/runtimes.js): missing
// ones installed (here a stand-in installer), a quick run's servers moved to the machine's own
// runtimes where today's would be a build of minutes, said in one line with the command that
// adds them (perf/lib/text/runtimes.js); a machine's own runtime that is missing stops the run.

const assert = require('node:assert/strict');
const { prepareRuntimes, describeRuntimes } = require('../../../perf/lib/run/runtimes');
const { movedLines, standInLines } = require('../../../perf/lib/text/runtimes');
const { RuntimeError } = require('../../../perf/lib/hosts/runtimes');
const { loadServerDefinitions } = require('../../../perf/lib/hosts/server_process');

const DEFS = loadServerDefinitions();
const pick = (...names) => Object.fromEntries(names.map((n) => [n, DEFS[n]]));

describe('a run\'s runtimes, made ready', () => {
  const record = (calls) => ({ install: async (id) => calls.push(['install', id]), gems: async (id) => calls.push(['gems', id]) });

  it('installs each runtime missing, once, saying so; the gems of those there checked; servers on none left alone', async () => {
    const calls = [];
    const lines = [];
    const defs = { ...pick('node', 'em', 'async', 'nginx'), 'node@node20': { ...DEFS.node, runtime: 'node20' } };
    const missing = (id) => (id === 'ruby33_yjit' ? 'not installed' : null);
    const { definitions, moved } = await prepareRuntimes(defs, { ...record(calls), missing, log: (l) => lines.push(l) });
    assert.equal(definitions, defs);
    assert.deepEqual(moved, []);
    assert.deepEqual(calls, [['gems', 'node24'], ['install', 'ruby33_yjit'], ['gems', 'node20']]);
    assert.deepEqual(lines, ['runtimes: installing Ruby 3.3 + YJIT (ruby33_yjit), once for this checkout']);
  });

  it('a quick run installs Node (a download of seconds), builds no Ruby: those servers on history\'s runtime of their kind', async () => {
    const calls = [];
    const missing = (id) => (['node24', 'ruby33_yjit'].includes(id) ? 'not installed' : null);
    const { definitions, moved } = await prepareRuntimes(pick('node', 'em', 'async'), { ...record(calls), missing, quick: true });
    assert.deepEqual(calls, [['install', 'node24']]);
    assert.deepEqual(moved, [{ servers: ['em', 'async'], from: 'ruby33_yjit', to: 'ruby31' }]);
    assert.deepEqual([definitions.node.runtime, definitions.em.runtime, definitions.async.runtime], ['node24', 'ruby31', 'ruby31']);
  });

  it('a quick run whose fallback runtime is missing too: one line naming both, before anything is measured', async () => {
    const missing = (id) => (id === 'ruby33_yjit' ? 'not installed' : id === 'ruby31' ? "Ruby 3.1 is the machine's own 'ruby', which is not installed" : null);
    await assert.rejects(prepareRuntimes(pick('em'), { ...record([]), missing, quick: true }), (e) => e instanceof RuntimeError && e.message === "Ruby 3.3 + YJIT is not installed and a quick run does not build it, and Ruby 3.1 is the machine's own 'ruby', which is not installed: npm run runtimes -- install ruby33");
  });

  it('a server that runs on today\'s Ruby only (async_http) is not moved: one line with the command that installs it', async () => {
    const missing = (id) => (id === 'ruby33_yjit' ? 'not installed' : null);
    await assert.rejects(prepareRuntimes(pick('em', 'async_http'), { ...record([]), missing, quick: true }), (e) => e instanceof RuntimeError && e.message === 'async_http runs on Ruby 3.3 + YJIT only, which is not installed, and a quick run does not build it: npm run runtimes -- install ruby33');
  });

  it('the line of a stand-in names who stands in, as what, and the command that adds the absent server\'s runtime', () => {
    assert.deepEqual(standInLines([{ server: 'async_http', by: 'async' }], DEFS), [
      "runtimes: async (its reference, hand-written, em's request gate) stands in for async_http, which runs on Ruby 3.3 only; npm run runtimes -- install ruby33 adds it once, and quick runs compare async_http after",
    ]);
  });

  it('the line of a move names the servers, both runtimes, the build\'s time and the command', () => {
    assert.deepEqual(movedLines([{ servers: ['em', 'async'], from: 'ruby33_yjit', to: 'ruby31' }]), [
      'runtimes: em, async measured on Ruby 3.1 (ruby31), not Ruby 3.3 + YJIT: a quick run does not build it (about 5 min on 2 cores); npm run runtimes -- install ruby33 adds it once, and quick runs use it after',
    ]);
  });

  it('a machine\'s own runtime missing stops the run in one line', async () => {
    const why = "Node 20 is the machine's own 'node', which is 22.1.0 here";
    await assert.rejects(prepareRuntimes({ x: { ...DEFS.node, runtime: 'node20' } }, { ...record([]), missing: () => why }), (e) => e instanceof RuntimeError && e.message === why);
  });

  it('results.json\'s environment.runtimes: each runtime a started server runs on, read from it', () => {
    const described = describeRuntimes({ 'node@node20': { ...DEFS.node, runtime: 'node20' }, nginx: DEFS.nginx, remote: { ...DEFS.em, remote: 'http://127.0.0.1:1' } });
    assert.deepEqual(Object.keys(described), ['node20']);
    assert.equal(described.node20.version, process.versions.node);
  });
});
