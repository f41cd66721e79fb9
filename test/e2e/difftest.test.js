'use strict';
// The differential tester's slice in npm test: a few thousand seeded cases of its grammar
// (test/difftest/grammar.js) sent to each pair of servers, on each runtime set; any disagreement the contract does not
// document fails the test and is printed as a case to send again (scripts/difftest.sh). A fixed
// seed's cases are regression cases; a seed drawn for each run explores, named in the test's
// title (DIFFTEST_SEED=N npm test draws N again).

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const { execFile } = require('node:child_process');
const path = require('node:path');
const { runtimeSets, useServers } = require('../support/servers');
const { loadServerDefinitions } = require('../../perf/lib/hosts/server_process');
const { withRuntimeVariants } = require('../../perf/lib/hosts/runtimes');
const { runCases, warmServers, describeDisagreement, TESTER_LIMITS } = require('../difftest/run');
const { makeTmpDir } = require('../support/runner_helpers');

const SEED = 22;
const CASES = 2000;
const DRAWN_SEED = Number(process.env.DIFFTEST_SEED) || crypto.randomInt(1, 2 ** 31);
// On the default runtimes only: the drawn seed explores the servers, not the runtimes' parsers.
const DRAWN_CASES = 1000;
// Cases under way at once, over all pairs of every runtime set. The tester's client sends a
// byte-per-write case a byte per turn of its own event loop; at 150 at once on two cores such a
// case can take the whole HEADERS_TIMEOUT_MS of TESTER_LIMITS, and then which server's sweep
// sees it late is chance.
const CONCURRENCY = 110;

// Most cases must be alike, so that no recogniser of a documented difference claims what is
// not: of the grammar's cases, at least 95 % between the servers of one gate, 80 % against
// async-http's own parser (85.2–87.3 % over seeds 1 to 5, 7, 11 and 22: its request-line
// reading alone is 7–9 % of them).
const ALIKE = 0.95;
const ASYNC_HTTP_ALIKE = 0.8;

// Each pair of the project servers; the runner's result names the first `node`, the second `em`.
const pairsOf = (names) => names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b]));
// On the other runtimes (test/support/servers.js runtimeSets), a smaller slice of the same seed.
const OTHER_RUNTIMES_CASES = 600;

const sets = runtimeSets().map(({ names }, i) => ({ names, count: i === 0 ? CASES : OTHER_RUNTIMES_CASES, definitions: withRuntimeVariants(loadServerDefinitions(), names) }));
// async-http's own server against Node's, on today's runtimes: each of its parser's differences
// the contract documents is recognised (test/difftest/documented.js), so any other disagreement fails.
const beside = sets[0].names.includes('async_http') ? [] : [{ set: { ...sets[0], names: ['node', 'async_http'], definitions: withRuntimeVariants(loadServerDefinitions(), ['node', 'async_http']) }, pair: ['node', 'async_http'], seed: SEED, count: CASES }];
const sweepsOf = [
  ...sets.flatMap((set, i) => pairsOf(set.names).flatMap((pair) => [{ set, pair, seed: SEED, count: set.count }, ...(i === 0 ? [{ set, pair, seed: DRAWN_SEED, count: DRAWN_CASES }] : [])])),
  ...beside,
];
const totalCases = sweepsOf.reduce((t, { count }) => t + count, 0);

describe('the differential tester, a seeded slice, on each pair of servers, on each runtime set', function () {
  this.timeout(120000);
  const servers = useServers({ env: TESTER_LIMITS }, [...new Set(sweepsOf.flatMap(({ pair }) => pair))]);
  // Every pair's sweep at once, CONCURRENCY cases under way in all, shared in proportion to the
  // pairs' cases so that they end together: a sweep ends with its slowest cases (those that wait
  // out a timeout, 1–3 s), and pairs or runtime sets one after the other waited that out again
  // each time.
  const sweeps = new Map();
  // Each server first answers cases of another seed, unjudged (test/difftest/run.js warmServers):
  // with fifteen servers just started on two cores, a cold Ruby server's first closing replies
  // came up to a second late.
  before(() => warmServers(Object.values(servers).map((server) => server.port), { concurrency: CONCURRENCY }));
  before(() => {
    for (const { set, pair: [a, b], seed, count } of sweepsOf) {
      const side = (name) => ({ server: set.definitions[name].variant_of || name, runtime: set.definitions[name].runtime });
      const exited = () => [a, b].filter((name) => servers[name].child.exitCode !== null || servers[name].child.signalCode !== null);
      const running = {
        ports: () => ({ node: servers[a].port, em: servers[b].port }),
        on: { node: side(a), em: side(b) },
        exited,
        output: (name) => servers[name].output(),
        restart: async (name) => assert.fail(`the ${name} server exited: ${servers[name].output()}`),
      };
      const concurrency = Math.max(1, Math.round((CONCURRENCY * count) / totalCases));
      // Settled here, read by the pair's test: a rejection is that test's failure, not the hook's.
      sweeps.set(`${a} ${b} ${seed} ${count}`, runCases(running, { seed, count, concurrency }).then((summary) => ({ summary, exited: exited() }), (error) => ({ error })));
    }
  });

  for (const { set, pair: [a, b], seed, count } of sweepsOf) {
    const drawn = seed === DRAWN_SEED ? ' (drawn for this run)' : '';
    it(`${a} (${set.definitions[a].runtime}) vs ${b} (${set.definitions[b].runtime}): finds no undocumented disagreement in ${count} cases of seed ${seed}${drawn}`, async () => {
      const { summary, exited, error } = await sweeps.get(`${a} ${b} ${seed} ${count}`);
      if (error) throw error;
      assert.deepEqual(exited, []);
      assert.equal(summary.cases, count);
      assert.equal(summary.disagreements.length, 0, `\n${summary.disagreements.map((d) => describeDisagreement(d, [a, b])).join('\n')}`);
      const alike = b === 'async_http' ? ASYNC_HTTP_ALIKE : ALIKE;
      assert.ok(summary.agreed > count * alike, `only ${summary.agreed} of ${count} cases alike (documented: ${JSON.stringify(summary.documented)})`);
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

  it('llhttp\'s request tests from a checkout (--corpus): each sent to both, alike, exit 0; a folder without them, one line and exit 2', async () => {
    const root = path.join(__dirname, '..', '..');
    const dir = makeTmpDir('llhttp-');
    fs.mkdirSync(path.join(dir, 'test', 'request'), { recursive: true });
    const test = (title, lines) => [`### ${title}`, '', '<!-- meta={"type": "request"} -->', '```http', ...lines, '', '', '```', ''].join('\n');
    fs.writeFileSync(path.join(dir, 'test', 'request', 'sample.md'), [test('hello', ['GET /hello HTTP/1.1', 'Host: x']), test('RTSP', ['PUT /hello RTSP/1.0', 'CSeq: 1'])].join('\n'));
    const run = (args) => new Promise((resolve) => {
      execFile('bash', ['scripts/difftest.sh', ...args], { cwd: root }, (err, out, errOut) => resolve({ code: err ? err.code : 0, stdout: out, stderr: errOut }));
    });
    const { code, stdout, stderr } = await run(['--corpus', dir]);
    assert.equal(code, 0, `exit ${code}: ${stderr.slice(-400)}`);
    assert.match(stdout, /difftest: 2 cases of llhttp's request tests in .* \(0 computed by code left out\) in \d+ s: 2 alike/);
    const none = await run(['--corpus', os.tmpdir()]);
    assert.equal(none.code, 2, none.stdout);
    assert.match(none.stderr, /has no test\/request\/\*\.md: name a checkout of llhttp/);
  });
});
