'use strict';
// The differential tester's slice in npm test: a few thousand seeded cases of its grammar
// (test/difftest/grammar.js) sent to each pair of servers, on each runtime set; any disagreement the contract does not
// document fails the test and is printed as a case to send again (scripts/difftest.sh).

const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const path = require('node:path');
const { runtimeSets, useServers } = require('../support/servers');
const { loadServerDefinitions } = require('../../perf/lib/hosts/server_process');
const { withRuntimeVariants } = require('../../perf/lib/hosts/runtimes');
const { runCases, describeDisagreement, TESTER_LIMITS } = require('../difftest/run');

const SEED = 22;
const CASES = 3000;
// Cases under way at once, over all pairs of every runtime set. The tester's client sends a
// byte-per-write case a byte per turn of its own event loop; at 150 at once on two cores such a
// case can take the whole HEADERS_TIMEOUT_MS of TESTER_LIMITS, and then which server's sweep
// sees it late is chance.
const CONCURRENCY = 110;

// Each pair of the project servers; the runner's result names the first `node`, the second `em`.
const pairsOf = (names) => names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b]));
// On the other runtimes (test/support/servers.js runtimeSets), a smaller slice of the same seed.
const OTHER_RUNTIMES_CASES = 600;

const sets = runtimeSets().map(({ names }, i) => ({ names, count: i === 0 ? CASES : OTHER_RUNTIMES_CASES, definitions: withRuntimeVariants(loadServerDefinitions(), names) }));
const sweepsOf = sets.flatMap((set) => pairsOf(set.names).map((pair) => ({ set, pair })));
const totalCases = sweepsOf.reduce((t, { set }) => t + set.count, 0);

describe('the differential tester, a seeded slice, on each pair of servers, on each runtime set', function () {
  this.timeout(120000);
  const servers = useServers({ env: TESTER_LIMITS }, sets.flatMap((set) => set.names));
  // Every pair's sweep at once, CONCURRENCY cases under way in all, shared in proportion to the
  // pairs' cases so that they end together: a sweep ends with its slowest cases (those that wait
  // out a timeout, 1–3 s), and pairs or runtime sets one after the other waited that out again
  // each time.
  const sweeps = new Map();
  before(() => {
    for (const { set, pair: [a, b] } of sweepsOf) {
      const side = (name) => ({ server: set.definitions[name].variant_of || name, runtime: set.definitions[name].runtime });
      const exited = () => [a, b].filter((name) => servers[name].child.exitCode !== null || servers[name].child.signalCode !== null);
      const running = {
        ports: () => ({ node: servers[a].port, em: servers[b].port }),
        on: { node: side(a), em: side(b) },
        exited,
        output: (name) => servers[name].output(),
        restart: async (name) => assert.fail(`the ${name} server exited: ${servers[name].output()}`),
      };
      const concurrency = Math.max(1, Math.round((CONCURRENCY * set.count) / totalCases));
      // Settled here, read by the pair's test: a rejection is that test's failure, not the hook's.
      sweeps.set(`${a} ${b}`, runCases(running, { seed: SEED, count: set.count, concurrency }).then((summary) => ({ summary, exited: exited() }), (error) => ({ error })));
    }
  });

  for (const { set, pair: [a, b] } of sweepsOf) {
    it(`${a} (${set.definitions[a].runtime}) vs ${b} (${set.definitions[b].runtime}): finds no undocumented disagreement in ${set.count} cases of seed ${SEED}`, async () => {
      const { summary, exited, error } = await sweeps.get(`${a} ${b}`);
      if (error) throw error;
      assert.deepEqual(exited, []);
      assert.equal(summary.cases, set.count);
      assert.equal(summary.disagreements.length, 0, `\n${summary.disagreements.map((d) => describeDisagreement(d, [a, b])).join('\n')}`);
      assert.ok(summary.agreed > set.count * 0.95, `only ${summary.agreed} of ${set.count} cases alike`);
    });
  }
});

describe('the differential tester\'s command (scripts/difftest.sh), as its users run it', function () {
  this.timeout(120000);

  it('a few cases of a pair with async: its set-up, its servers and its summary, exit 0', async () => {
    const root = path.join(__dirname, '..', '..');
    const { code, stdout, stderr } = await new Promise((resolve) => {
      execFile('bash', ['scripts/difftest.sh', '--pair', 'em,async', '--cases', '30', '--seed', '3'], { cwd: root }, (err, out, errOut) => resolve({ code: err ? err.code : 0, stdout: out, stderr: errOut }));
    });
    assert.equal(code, 0, `exit ${code}: ${stderr.slice(-400)}`);
    assert.match(stdout, /difftest: 30 cases of seed 3 from 0 in \d+ s: \d+ alike/);
  });
});
