'use strict';
// The held-memory study's pure parts (perf/lib/studies/held_memory.js): the slope per held
// connection, the probe's reports flattened and compared across counts, and how the probe is
// loaded into each kind of server. Against real servers: test/e2e/held_memory.test.js.

const assert = require('node:assert/strict');
const { slope, figuresOf, perHeld, probeEnv, runHeldMemory } = require('../../../perf/lib/studies/held_memory');

describe('held memory: per held connection', () => {
  it('slope: the least-squares slope, a fixed cost falling out; none over one count', () => {
    assert.equal(slope([0, 1000, 2000, 4000], [30000, 44000, 58000, 86000]), 14);
    assert.equal(slope([0, 1000, 2000], [10, 13, 13]), 0.0015);
    assert.equal(slope([1000, 1000], [5, 9]), null);
  });

  it('figuresOf: numbers flattened, nested kinds and handles by name, classes as bytes and counts', () => {
    const facts = { runtime: 'ruby 3.3.8', rss_kb: 100, mappings_kb: { stacks: 20, c_heap: 30 }, classes: [{ name: 'Fiber', count: 3, bytes: 3000 }], resources: { TCPSocketWrap: 2 } };
    assert.deepEqual(figuresOf(facts), { rss_kb: 100, 'mappings_kb.stacks': 20, 'mappings_kb.c_heap': 30, 'class.Fiber.bytes': 3000, 'class.Fiber.count': 3, 'resources.TCPSocketWrap': 2 });
  });

  it('perHeld: each figure\'s slope; a class absent at a count (not among its largest) counts 0 there', () => {
    const at = (held, rss, fibers) => ({ held, facts: { rss_kb: rss, classes: fibers === null ? [] : [{ name: 'Fiber', count: fibers, bytes: fibers * 1000 }] } });
    const per = perHeld([at(0, 1000, null), at(100, 2000, 300), at(200, 3000, 600)]);
    assert.equal(per.rss_kb, 10);
    assert.equal(per['class.Fiber.count'], 3);
    assert.equal(per['class.Fiber.bytes'], 3000);
  });

  it('probeEnv: Ruby servers load it through RUBYOPT, Node servers through NODE_OPTIONS; any other is refused in one line', () => {
    assert.match(probeEnv('em', { command: 'ruby' }, '/tmp/p.sock').RUBYOPT, /^-r\/.*ruby\/held_probe\.rb$/);
    assert.match(probeEnv('node', { command: 'node' }, '/tmp/p.sock').NODE_OPTIONS, /^--require \/.*node\/held_probe\.js$/);
    assert.equal(probeEnv('node', { command: 'node' }, '/tmp/p.sock').HELD_PROBE_SOCKET, '/tmp/p.sock');
    assert.throws(() => probeEnv('nginx', { command: 'bash' }, '/tmp/p.sock'), /server 'nginx' runs bash, neither Ruby nor Node/);
    assert.match(probeEnv('em', { command: 'ruby' }, '/tmp/p.sock', { RUBYOPT: '-W0' }).RUBYOPT, /^-W0 -r\/.*held_probe\.rb$/, 'after what the caller gave');
  });

  it('a server it cannot measure is refused before any is started: one line, a usage mistake', async () => {
    await assert.rejects(runHeldMemory({ servers: ['em', 'no_such_server'] }), (err) => err.usage === true && /^unknown server 'no_such_server' \(known: /.test(err.message));
    await assert.rejects(runHeldMemory({ servers: ['nginx'] }), (err) => err.usage === true && /runs .*, neither Ruby nor Node/.test(err.message));
    await assert.rejects(runHeldMemory({ servers: ['em@no_such_runtime'] }), (err) => err.usage === true && /unknown runtime 'no_such_runtime'/.test(err.message));
  });
});
