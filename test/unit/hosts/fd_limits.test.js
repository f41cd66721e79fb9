'use strict';
// Open-file limits (perf/lib/hosts/fd_limits.js): read from /proc, the descriptors a scenario
// needs, and the one line for what a limit cannot hold. Raising and setting the limit changes
// the process it runs in, so it is tested end to end (test/e2e/waiting.test.js), in a runner of
// its own.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const { readLimits, descriptorsFor, shortfallLine, FD_RESERVE } = require('../../../perf/lib/hosts/fd_limits');
const contract = require('../../../contract.json');

describe('fd limits', () => {
  it('reads this process\'s soft and hard limits as /proc/self/limits gives them', () => {
    const line = fs.readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const [soft, hard] = line.trim().split(/\s+/).slice(3, 5).map(Number);
    assert.deepEqual(readLimits(), { soft, hard });
    assert.equal(readLimits(999999999), null, 'no such process');
  });

  it('needs a descriptor per connection held and the servers\' reserve', () => {
    assert.equal(FD_RESERVE, contract.fd_reserve);
    assert.equal(descriptorsFor(10000), 10000 + contract.fd_reserve);
  });

  it('says in one line what the limit cannot hold, and how to raise it', () => {
    const limits = { soft: 1024, hard: 4096, fixed: false };
    assert.equal(shortfallLine(limits, ['wait_keepalive_5000', 'wait_keepalive_10000'], 10000), 'fd limit 1,024 < 10,064 descriptors for 10,000 connections: raise `ulimit -n` (hard limit 4,096) or run as root; wait_keepalive_5000, wait_keepalive_10000 skipped');
    assert.equal(shortfallLine({ soft: 256, hard: 256, fixed: true }, ['wait_open_1000'], 1000), 'fd limit 256 < 1,064 descriptors for 1,000 connections: as --nofile set it; wait_open_1000 skipped');
    assert.equal(shortfallLine(limits, [], 0), null);
  });
});
