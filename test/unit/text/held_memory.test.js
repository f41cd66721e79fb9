'use strict';
// The held-memory study in words (perf/lib/text/held_memory.js).

const assert = require('node:assert/strict');
const { heldMemoryLines, classesText } = require('../../../perf/lib/text/held_memory');

describe('held memory in words', () => {
  const study = {
    counts: [0, 1000, 2000],
    wait_ms: 5000,
    servers: [
      { name: 'em', runtime: 'ruby 3.3.8 +YJIT', per_held: { rss_kb: 13.7, 'mappings_kb.stacks': 0, 'mappings_kb.c_heap': 12, 'mappings_kb.anonymous': 1.6, object_bytes: 1300, fibers_alive: 0, fds: 1, 'class.EmVsNode::Connection.bytes': 320, 'class.EmVsNode::Connection.count': 1 } },
      { name: 'node', runtime: 'node 24.22.3', per_held: { rss_kb: 19, heap_used_bytes: 7500, fds: 1 } },
    ],
  };

  it('a row a server, a column a part; a figure the runtime has not is a dash', () => {
    const lines = heldMemoryLines(study);
    assert.match(lines[0], /^Per held connection \(each a GET \/delay\?ms=5000 outstanding; the slope over 0, 1,000, 2,000 held, after a full collection\):$/);
    assert.match(lines[1], /^server\s+runtime\s+resident kB\s+stacks kB\s+C heap kB\s+other anon kB\s+Ruby objects B\s+V8 heap B\s+V8 resident B\s+fibers\s+fds$/);
    assert.match(lines[2], /^em\s+ruby 3\.3\.8 \+YJIT\s+13\.7\s+0\s+12\.0\s+1\.60\s+1,300\s+–\s+–\s+0\s+1\.00$/);
    assert.match(lines[3], /^node\s+node 24\.22\.3\s+19\.0\s+–\s+–\s+–\s+–\s+7,500\s+–\s+–\s+1\.00$/);
    assert.deepEqual(lines.slice(4), ['', 'Ruby objects per held connection, the largest (bytes, objects):', '  em: EmVsNode::Connection 320 B (1.00)']);
  });

  it('classesText: the five classes that grew most, largest first; shrinking ones left out', () => {
    const per = {};
    [['String', 65851, 4.9], ['Fiber', 10445, 3], ['Proc', 817, 10.2], ['Hash', 511, 2], ['Array', 337, 7.4], ['Mutex', 300, 4.8], ['Thread', -2600, 0]].forEach(([name, bytes, count]) => {
      per[`class.${name}.bytes`] = bytes;
      per[`class.${name}.count`] = count;
    });
    assert.equal(classesText(per), 'String 65,851 B (4.90), Fiber 10,445 B (3.00), Proc 817 B (10.2), Hash 511 B (2.00), Array 337 B (7.40)');
  });
});
