'use strict';
// The headline questions as a quick run chooses among them (perf/lib/plan/questions.js): the
// subjects its budget buys, weighed as a whole.

const assert = require('node:assert/strict');
const { subjectsOf, quickSelection, defaultPairs, headlineServers, PRIOR_DECIDES } = require('../../../perf/lib/plan/questions');
const { loadServerDefinitions } = require('../../../perf/lib/hosts/server_process');

// Four subjects, one question each: what it costs (s) and the chance one run decides it.
const SUBJECTS = { sure: [60, 0.9], likely: [50, 0.8], longShot: [10, 0.2], some: [30, 0.3] };
const subjects = subjectsOf(Object.keys(SUBJECTS).map((id) => ({ id, subject: id })), []);
const costS = (s) => SUBJECTS[s.name][0];
const decides = (q) => SUBJECTS[q.id][1];

describe('quick selection: the set of subjects that likely decides the most within the budget', () => {
  it('weighs every set that fits, where taking the most per second first would fill the budget with long shots', () => {
    // Most per second first: longShot, likely, some (1.3 questions); the best set: sure, longShot, some (1.4).
    const { chosen, left, spentS } = quickSelection(subjects, { budgetS: 100, costS, decides });
    assert.deepEqual(chosen.map((s) => s.name), ['longShot', 'sure', 'some'], 'the set, in the order that decides the most per second');
    assert.deepEqual(left.map((s) => s.name), ['likely']);
    assert.equal(spentS, 100);
  });

  it('the cheaper of two sets that decide as much; every one where all fit; the best per second where none fits', () => {
    const even = { a: [40, 0.5], b: [20, 0.5] };
    const two = subjectsOf(Object.keys(even).map((id) => ({ id, subject: id })), []);
    const pick = (budgetS) => quickSelection(two, { budgetS, costS: (s) => even[s.name][0], decides: (q) => even[q.id][1] });
    assert.deepEqual(pick(45).chosen.map((s) => s.name), ['b']);
    assert.deepEqual(pick(60).chosen.map((s) => s.name), ['b', 'a']);
    assert.deepEqual(pick(5).chosen.map((s) => s.name), ['b'], 'nothing measured is no answer');
  });

  it('counts a question nothing is known of at the prior chance, and a subject by all its questions', () => {
    const shared = subjectsOf([{ id: 'q1', subject: 's' }, { id: 'q2', subject: 's' }, { id: 'q3', subject: 't' }], ['t']);
    assert.deepEqual(shared.map((s) => [s.name, s.kind, s.questions.length]), [['s', 'scenario', 2], ['t', 'ramp', 1]]);
    const { chosen } = quickSelection(shared, { budgetS: 100, costS: () => 10 });
    assert.deepEqual(chosen.map((s) => s.decides), [2 * PRIOR_DECIDES, PRIOR_DECIDES]);
  });
});

describe('the pairs the headline questions are asked of', () => {
  const defs = loadServerDefinitions();
  it('each runtime with its defaults: node vs em, node vs async_http, em vs async_http, then each against the hand-written async; the sides but a reference are the servers a run compares unless told others', () => {
    assert.deepEqual(defaultPairs(defs).map((p) => `${p.a}:${p.b}`), ['node:em', 'node:async_http', 'em:async_http', 'node:async', 'em:async', 'async_http:async']);
    assert.deepEqual(defaultPairs(defs, ['em', 'async']).map((p) => `${p.a}:${p.b}`), ['em:async']);
    assert.deepEqual(headlineServers(defs), ['node', 'em', 'async_http']);
    // A reference (perf/servers.json reference_for) is measured with --references only.
    const noReference = { ...defs, async: { ...defs.async, reference_for: undefined } };
    assert.deepEqual(headlineServers(noReference), ['node', 'em', 'async_http', 'async']);
  });
});
