'use strict';
// Each runtime as its users tune it (perf/lib/judge/tuning.js): which pairs a run compares when
// tuned configurations ran, and what tuning both sides does to an answer.

const assert = require('node:assert/strict');
const { tunedPair, tunedOfPair, comparedPairs, tuningEffect } = require('../../../perf/lib/judge/tuning');
const { tunedOf, baseOf } = require('../../../perf/lib/hosts/runtimes');
const { loadServerDefinitions } = require('../../../perf/lib/hosts/server_process');
const { withRuntimeVariants } = require('../../../perf/lib/hosts/runtimes');

const DEFS = loadServerDefinitions();
// The servers on history's runtimes (Node 20, Ruby 3.1), where each has a tuned configuration,
// as a run of them before runtimes were data records them: the pairs below are of such a run.
const emTunedOn31 = withRuntimeVariants(DEFS, ['em_tuned@ruby31'])['em_tuned@ruby31'];
const ON_HISTORY = { ...DEFS, node: { ...DEFS.node, runtime: 'node20' }, em: { ...DEFS.em, runtime: 'ruby31' }, async: { ...DEFS.async, runtime: 'ruby31' }, em_tuned: { ...emTunedOn31, variant_of: undefined } };

describe('tuning: the tuned configurations and the pairs compared', () => {
  it('perf/servers.json tunes each server on each runtime its tuning was measured on, each with its settings, why and the documentation that recommends them', () => {
    const defs = withRuntimeVariants(DEFS, ['node@node20', 'em@ruby31', 'async@ruby31']);
    assert.equal(tunedOf('node@node20', defs), 'node_tuned');
    assert.equal(tunedOf('em@ruby31', defs), 'em_tuned@ruby31');
    assert.equal(tunedOf('async@ruby31', defs), 'async_tuned');
    // On today's runtimes: em's tuning measured on Ruby 3.3 + YJIT; node's and async's not yet.
    assert.deepEqual(['node', 'em', 'async'].map((s) => tunedOf(s, DEFS)), [null, 'em_tuned', null]);
    assert.equal(tunedOf('nginx', DEFS), null);
    assert.deepEqual([baseOf('em_tuned', DEFS), baseOf('em', DEFS)], ['em', 'em']);
    const tunings = withRuntimeVariants(DEFS, ['em_tuned@ruby31']);
    for (const name of ['node_tuned', 'em_tuned', 'async_tuned', 'em_tuned@ruby31']) {
      const { tuning, serves, tuned_of: base } = tunings[name];
      assert.deepEqual(serves, DEFS[base].serves, `${name} serves what its runtime's server does`);
      for (const field of ['settings', 'why', 'documentation']) assert.ok(typeof tuning[field] === 'string' && tuning[field].length > 20 && !/PROVISIONAL/.test(tuning[field]), `${name}.tuning.${field}`);
    }
    assert.notDeepEqual(tunings.em_tuned.env, tunings['em_tuned@ruby31'].env, 'each runtime its own settings');
  });

  it('a server on another runtime is tuned with the settings measured there, or not at all', () => {
    const defs = {
      em: { command: 'ruby', runtime: 'ruby33_yjit' },
      em_tuned: { command: 'ruby', runtime: 'ruby33_yjit', env: { A: '1' }, tuned_of: 'em', on: { ruby31: { env: { B: '2' } } } },
    };
    const made = withRuntimeVariants(defs, ['em@ruby31', 'em@ruby33']);
    assert.equal(tunedOf('em', made), 'em_tuned');
    assert.equal(tunedOf('em@ruby31', made), 'em_tuned@ruby31', 'named before it is made (the run plan makes it)');
    assert.equal(tunedOf('em@ruby33', made), null, 'no tuning measured on Ruby 3.3 without YJIT');
    // A run's own definitions hold the variants that ran, not always the definition they came from.
    const ran = withRuntimeVariants(made, ['em_tuned@ruby31']);
    const recorded = Object.fromEntries(Object.entries(ran).filter(([name]) => name !== 'em_tuned'));
    assert.equal(tunedOf('em@ruby31', recorded), 'em_tuned@ruby31');
  });

  it('the tuned pair: both sides\' tuned configurations, when both ran', () => {
    assert.deepEqual(tunedPair(['node', 'em', 'node_tuned', 'em_tuned'], ON_HISTORY), ['node_tuned', 'em_tuned']);
    assert.equal(tunedPair(['node', 'em', 'em_tuned'], ON_HISTORY), null);
    assert.equal(tunedPair(['node', 'em'], ON_HISTORY), null);
  });

  it('any pair of runtimes has its tuned pair when both of its tuned configurations ran', () => {
    const all = ['node', 'em', 'async', 'node_tuned', 'em_tuned', 'async_tuned'];
    assert.deepEqual(tunedOfPair(['em', 'async'], all, ON_HISTORY), ['em_tuned', 'async_tuned']);
    assert.equal(tunedOfPair(['em', 'async'], ['node', 'em', 'async', 'em_tuned'], ON_HISTORY), null);
    assert.equal(tunedOfPair(null, all, ON_HISTORY), null);
  });

  it('with tuned configurations: the defaults, the tuned, and each against its tuned self; else every pair', () => {
    assert.deepEqual(comparedPairs(['node', 'em', 'node_tuned', 'em_tuned'], ON_HISTORY), [['node', 'em'], ['node_tuned', 'em_tuned'], ['node', 'node_tuned'], ['em', 'em_tuned']]);
    assert.deepEqual(comparedPairs(['a', 'b', 'c'], {}), [['a', 'b'], ['a', 'c'], ['b', 'c']]);
    // Three runtimes: each pair of defaults, each pair tuned, each runtime against its tuned self.
    assert.deepEqual(comparedPairs(['node', 'em', 'async', 'node_tuned', 'em_tuned', 'async_tuned'], ON_HISTORY), [
      ['node', 'em'], ['node', 'async'], ['em', 'async'],
      ['node_tuned', 'em_tuned'], ['node_tuned', 'async_tuned'], ['em_tuned', 'async_tuned'],
      ['node', 'node_tuned'], ['em', 'em_tuned'], ['async', 'async_tuned'],
    ]);
    // A runtime whose tuned configuration did not run: the pairs tuned on both sides only.
    assert.deepEqual(comparedPairs(['node', 'em', 'async', 'node_tuned', 'em_tuned'], ON_HISTORY), [
      ['node', 'em'], ['node', 'async'], ['em', 'async'], ['node_tuned', 'em_tuned'], ['node', 'node_tuned'], ['em', 'em_tuned'],
    ]);
  });
});

describe('tuning: what tuning both sides does to an answer', () => {
  const win = (lead) => ({ kind: 'winner', lead });
  const same = { kind: 'same' };
  const undecided = { kind: 'undecided' };
  it('remains, reversed, gone, appears, the same either way, or undecided', () => {
    assert.equal(tuningEffect(win('node'), win('node')), 'remains');
    assert.equal(tuningEffect(win('node'), win('em')), 'reversed');
    assert.equal(tuningEffect(win('node'), same), 'gone');
    assert.equal(tuningEffect(same, win('em')), 'appears');
    assert.equal(tuningEffect(same, same), 'same');
    assert.equal(tuningEffect(win('node'), undecided), 'undecided');
    assert.equal(tuningEffect(undecided, win('node')), 'undecided');
    assert.equal(tuningEffect({ kind: null }, same), 'undecided');
  });
});
