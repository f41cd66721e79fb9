'use strict';
// Why a run is not used for a verdict, in words (perf/lib/text/reasons.js): each reason the judge
// decides (perf/lib/run/bottleneck.js checkRun: a code and its numbers) written into
// results.json as "<label>: <detail>", and read back by its code (perf/lib/store/reasons.js).

const assert = require('node:assert/strict');
const { reasonText, reasonWords, linkBoundText } = require('../../../perf/lib/text/reasons');
const { reasonCode, reasonLabel } = require('../../../perf/lib/store/reasons');

const CODES = ['failed', 'client-bound', 'load', 'not-server-bound', 'disturbed', 'superseded'];

describe('reasons: a code, its wording, and back', () => {
  it('a reason is stored as "<label>: <detail>" and read back as its code', () => {
    assert.equal(reasonText('not-server-bound', 'the server used 60% of its core'), 'not server-bound: the server used 60% of its core');
    assert.equal(reasonText('client-bound', 'the load generator used 95% of its core'), 'client-bound: the load generator used 95% of its core');
    for (const code of CODES) assert.equal(reasonCode(reasonText(code, 'why: in detail')), code, code);
  });

  it('each code has one label, a word in a sentence', () => {
    assert.deepEqual(CODES.map(reasonLabel), ['failed', 'client-bound', 'load', 'not server-bound', 'disturbed', 'superseded']);
    assert.equal(reasonLabel('something-else'), 'something-else', 'a code it does not know is its own word');
  });

  it('writes no reason it has no code for', () => {
    assert.throws(() => reasonText('slow', 'x'), /^Error: unknown reason code 'slow'$/);
    assert.throws(() => reasonText('not server-bound', 'x'), /unknown reason code/, 'the label is not the code');
  });

  it('reads a bare label as its code, and any other text as none', () => {
    assert.equal(reasonCode('client-bound'), 'client-bound', 'older results: the label alone');
    assert.equal(reasonCode('not server-bound'), 'not-server-bound');
    assert.equal(reasonCode('not-server-bound: x'), null, 'the code is not the label');
    assert.equal(reasonCode('the server was slow: 80%'), null);
    assert.equal(reasonCode('disturbed:no space'), null);
  });

  it('each reason the judge decides, in its words', () => {
    const words = (reason) => reasonWords(reason);
    assert.equal(words({ code: 'failed', failure: 'the server exited during the run (exit code 3)' }), 'failed: the server exited during the run (exit code 3)');
    assert.equal(words({ code: 'failed', failure: null }), 'failed: the run did not complete');
    assert.equal(words({ code: 'client-bound', client_cpu_pct: 93.5, limit_pct: 95 }), 'client-bound: the load generator used 93.5% of its core (95% or more)');
    assert.equal(words({ code: 'client-late', late_ms: 5, limit_ms: 5 }), "client late: the load generator ran 5 ms late (its event loop's p99 delay and schedule lag, or its schedule lag's p99; 5 ms or more), inside the latency above the wait");
    assert.equal(words({ code: 'load', problem: 'Tsung started 3 of 4 users' }), 'load: Tsung started 3 of 4 users');
    assert.equal(words({ code: 'backend-bound', backend: 'redis', cpu_pct: 97.2, limit_pct: 95 }), 'backend-bound: the backend redis used 97.2% of a core (95% or more)');
    assert.equal(words({ code: 'shared', server: 'em', cpu_pct: 38.8, limit_pct: 30 }), "shared core: measured beside em, whose load used 38.8% of the servers' core (over 30%)");
    assert.equal(words({ code: 'not-server-bound', server_cpu_pct: 89.9, limit_pct: 90 }), 'not server-bound: the server used 89.9% of its core (under 90%), so something else set the pace');
    assert.equal(words({ code: 'disturbed', steal_pct: 10.1, foreign_cpu_pct: 2, limit_pct: 10 }), 'disturbed: steal 10.1%, other processes 2% of a core (over 10%)');
    assert.equal(words({ code: 'disturbed', steal_pct: 30, foreign_cpu_pct: null, limit_pct: 10 }), 'disturbed: steal 30%, other processes ?% of a core (over 10%)');
  });

  it('a full link: which way it filled, how many replies it carries, and what a rate offered asks of it', () => {
    const usage = { rate_bits: 54e6, busiest_pct: 96.5, busiest: 'to_client', carries_rps: 9643 };
    assert.equal(reasonWords({ code: 'link-bound', link_usage: usage }), 'link-bound: the link saturates first: it carried 96.5 % of its 54 Mbit/s toward the client (the replies), about 9,643 of these replies a second');
    assert.equal(linkBoundText({ ...usage, busiest_pct: 60 }, 100), 'the link saturates first: the rate offered asks 100 % of its 54 Mbit/s toward the client (the replies), of which it carried 60 %, about 9,643 of these replies a second');
    assert.equal(linkBoundText({ rate_bits: 1e6, busiest_pct: 99, busiest: 'to_server', carries_rps: null }), 'the link saturates first: it carried 99 % of its 1 Mbit/s toward the server (the requests)');
  });
});
