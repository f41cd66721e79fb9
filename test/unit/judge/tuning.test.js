'use strict';
// Each runtime as its users tune it (perf/lib/judge/tuning.js): which pairs a run compares when
// tuned configurations ran, and what tuning both sides does to an answer.

const assert = require('node:assert/strict');
const { tunedOf, baseOf, tunedPair, tunedOfPair, comparedPairs, tuningEffect } = require('../../../perf/lib/judge/tuning');
const { loadServerDefinitions } = require('../../../perf/lib/hosts/server_process');

const DEFS = loadServerDefinitions();

describe('tuning: the tuned configurations and the pairs compared', () => {
  it('perf/servers.json tunes both runtimes, each with its settings, why and the documentation that recommends them', () => {
    assert.equal(tunedOf('node', DEFS), 'node_tuned');
    assert.equal(tunedOf('em', DEFS), 'em_tuned');
    assert.equal(tunedOf('async', DEFS), 'async_tuned');
    assert.equal(tunedOf('nginx', DEFS), null);
    assert.deepEqual([baseOf('em_tuned', DEFS), baseOf('em', DEFS)], ['em', 'em']);
    for (const name of ['node_tuned', 'em_tuned', 'async_tuned']) {
      const { tuning, serves } = DEFS[name];
      assert.deepEqual(serves, DEFS[DEFS[name].tuned_of].serves, `${name} serves what its runtime's server does`);
      for (const field of ['settings', 'why', 'documentation']) assert.ok(typeof tuning[field] === 'string' && tuning[field].length > 20 && !/PROVISIONAL/.test(tuning[field]), `${name}.tuning.${field}`);
    }
  });

  it('the tuned pair: both sides\' tuned configurations, when both ran', () => {
    assert.deepEqual(tunedPair(['node', 'em', 'node_tuned', 'em_tuned'], DEFS), ['node_tuned', 'em_tuned']);
    assert.equal(tunedPair(['node', 'em', 'em_tuned'], DEFS), null);
    assert.equal(tunedPair(['node', 'em'], DEFS), null);
  });

  it('any pair of runtimes has its tuned pair when both of its tuned configurations ran', () => {
    const all = ['node', 'em', 'async', 'node_tuned', 'em_tuned', 'async_tuned'];
    assert.deepEqual(tunedOfPair(['em', 'async'], all, DEFS), ['em_tuned', 'async_tuned']);
    assert.equal(tunedOfPair(['em', 'async'], ['node', 'em', 'async', 'em_tuned'], DEFS), null);
    assert.equal(tunedOfPair(null, all, DEFS), null);
  });

  it('with tuned configurations: the defaults, the tuned, and each against its tuned self; else every pair', () => {
    assert.deepEqual(comparedPairs(['node', 'em', 'node_tuned', 'em_tuned'], DEFS), [['node', 'em'], ['node_tuned', 'em_tuned'], ['node', 'node_tuned'], ['em', 'em_tuned']]);
    assert.deepEqual(comparedPairs(['a', 'b', 'c'], {}), [['a', 'b'], ['a', 'c'], ['b', 'c']]);
    // Three runtimes: each pair of defaults, each pair tuned, each runtime against its tuned self.
    assert.deepEqual(comparedPairs(['node', 'em', 'async', 'node_tuned', 'em_tuned', 'async_tuned'], DEFS), [
      ['node', 'em'], ['node', 'async'], ['em', 'async'],
      ['node_tuned', 'em_tuned'], ['node_tuned', 'async_tuned'], ['em_tuned', 'async_tuned'],
      ['node', 'node_tuned'], ['em', 'em_tuned'], ['async', 'async_tuned'],
    ]);
    // A runtime whose tuned configuration did not run: the pairs tuned on both sides only.
    assert.deepEqual(comparedPairs(['node', 'em', 'async', 'node_tuned', 'em_tuned'], DEFS), [
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
