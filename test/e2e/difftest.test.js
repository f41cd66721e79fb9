'use strict';
// The differential tester's slice in npm test: a few thousand seeded cases of its grammar
// (test/difftest/grammar.js) sent to both servers; any disagreement the contract does not
// document fails the test and is printed as a case to send again (scripts/difftest.sh).

const assert = require('node:assert/strict');
const { SERVER_NAMES, useServers } = require('../support/servers');
const { runCases, describeDisagreement, TESTER_LIMITS } = require('../difftest/run');

const SEED = 22;
const CASES = 3000;

describe('the differential tester, a seeded slice, on both servers', function () {
  this.timeout(90000);
  const servers = useServers({ env: TESTER_LIMITS });

  it(`finds no undocumented disagreement in ${CASES} cases of seed ${SEED}`, async () => {
    const exited = () => SERVER_NAMES.filter((name) => servers[name].child.exitCode !== null || servers[name].child.signalCode !== null);
    const running = {
      ports: () => ({ node: servers.node.port, em: servers.em.port }),
      exited,
      output: (name) => servers[name].output(),
      restart: async (name) => assert.fail(`the ${name} server exited: ${servers[name].output()}`),
    };
    const summary = await runCases(running, { seed: SEED, count: CASES, concurrency: 150 });
    assert.deepEqual(exited(), []);
    assert.equal(summary.cases, CASES);
    assert.equal(summary.disagreements.length, 0, `\n${summary.disagreements.map(describeDisagreement).join('\n')}`);
    assert.ok(summary.agreed > CASES * 0.95, `only ${summary.agreed} of ${CASES} cases alike`);
  });
});
