'use strict';
// Which disagreements the differential tester sends again (test/difftest/run.js byTiming): those
// timing can make, never a difference in what the servers answered.

const assert = require('node:assert/strict');
const { byTiming } = require('../../difftest/run');

const seen = (statuses, extra = {}) => ({ replies: statuses.map((status) => ({ status })), closed: true, rest: 0, reset: false, ...extra });

describe('difftest: what is sent again', () => {
  it('a close\'s moment alone, a 408 on either side, a reset or a reply cut short: timing', () => {
    assert.equal(byTiming([{ aspect: 'connection' }], seen([200]), seen([200])), true);
    assert.equal(byTiming([{ aspect: 'status of reply 1' }], seen([400]), seen([408])), true);
    assert.equal(byTiming([{ aspect: 'status of reply 1' }], seen([408]), seen([200])), true);
    assert.equal(byTiming([{ aspect: 'replies' }], seen([200], { reset: true }), seen([])), true);
    assert.equal(byTiming([{ aspect: 'replies' }], seen([200]), seen([], { rest: 12 })), true);
  });

  it('another status, body or field, or a close\'s moment beside them: the servers\' own answer, not sent again', () => {
    assert.equal(byTiming([{ aspect: 'status of reply 1' }], seen([200]), seen([400])), false);
    assert.equal(byTiming([{ aspect: 'body of a 400' }, { aspect: 'connection' }], seen([400]), seen([400])), false);
    assert.equal(byTiming([{ aspect: 'connection of a 200' }], seen([200]), seen([200])), false);
  });
});
