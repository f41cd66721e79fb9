'use strict';
// The overhead study's pure parts (perf/lib/studies/overhead.js): pairs as written, the rows
// made of the rounds' measurements (ratios project ÷ bare, errors summed, rounds where wrk or
// something else held the server back), the table's marks and notes, and the settings refused
// before anything starts. The study run for real: test/e2e/overhead.test.js.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { parsePair, summarize, formatTable, runOverhead, OverheadUsageError, MODES } = require('../../../perf/lib/studies/overhead');
const { CLIENT_BOUND_PCT, SERVER_BOUND_PCT } = require('../../../perf/lib/method');
const { makeTmpDir } = require('../../support/runner_helpers');

const NO_ERRORS = { connect: 0, read: 0, write: 0, timeout: 0 };
/** One round's measurement of one server (the fields summarize reads). */
const m = (server, mode, cpu, rps, more = {}) => ({ pair: 'node:node_bare', server, mode, cpu_us_per_request: cpu, requests_per_sec: rps, socket_errors: NO_ERRORS, non_2xx_3xx: 0, client_bound: false, server_busy_pct: 99, ...more });
const PAIRS = [{ project: 'node', bare: 'node_bare' }];

describe('overhead: pairs', () => {
  it('PROJECT:BARE', () => {
    assert.deepEqual(parsePair('em:em_bare'), { project: 'em', bare: 'em_bare' });
    assert.deepEqual(parsePair('node.v2:node-bare'), { project: 'node.v2', bare: 'node-bare' });
  });

  it('refuses anything else, and a server compared with itself, as a usage error', () => {
    for (const text of ['em', 'em:', 'em:em_bare:x', 'a b:c']) {
      assert.throws(() => parsePair(text), (err) => err instanceof OverheadUsageError && err.message === `a pair is PROJECT:BARE, e.g. em:em_bare (got '${text}')`, text);
    }
    assert.throws(() => parsePair('em:em'), (err) => err instanceof OverheadUsageError && err.message === "pair 'em:em' compares a server with itself");
  });
});

describe('overhead: the rows', () => {
  const measurements = [
    m('node', 'keep-alive', 20, 40000, { socket_errors: { connect: 1, read: 2, write: 0, timeout: 0 }, non_2xx_3xx: 3 }),
    m('node_bare', 'keep-alive', 10, 80000),
    m('node', 'keep-alive', 80, 10000, { socket_errors: { connect: 0, read: 0, write: 4, timeout: 5 } }),
    m('node_bare', 'keep-alive', 40, 20000, { client_bound: true }),
    m('node', 'close', 50, 5000, { server_busy_pct: SERVER_BOUND_PCT - 0.1 }),
    m('node_bare', 'close', 25, 9000, { server_busy_pct: SERVER_BOUND_PCT }),
    m('node', 'close', 50, 5000, { server_busy_pct: null }),
    m('node', 'keep-alive', 1000, 1, { pair: 'node:node_alt' }), // another pair's
  ];
  const rows = summarize(PAIRS, measurements);

  it('one row per pair and mode, in the modes\' order, from that pair\'s measurements only', () => {
    assert.deepEqual(rows.map((r) => [r.pair, r.project, r.bare, r.mode]), MODES.map((mode) => ['node:node_bare', 'node', 'node_bare', mode.name]));
  });

  it('ratios project ÷ bare of the geometric means, with their intervals', () => {
    const cpu = rows[0].cpu_us_per_request;
    // node 20 and 80 µs (centre 40), bare 10 and 40 (centre 20).
    assert.ok(Math.abs(cpu.project.centre - 40) < 1e-9 && Math.abs(cpu.bare.centre - 20) < 1e-9, JSON.stringify(cpu));
    assert.ok(Math.abs(cpu.ratio.value - 2) < 1e-9, JSON.stringify(cpu.ratio));
    assert.ok(cpu.ratio.ci95[0] <= 2 && cpu.ratio.ci95[1] >= 2);
    assert.ok(Math.abs(rows[0].requests_per_sec.ratio.value - 0.5) < 1e-9);
  });

  it('a mode with one round each: no ratio (an interval needs two)', () => {
    const one = summarize(PAIRS, [m('node', 'close', 2, 2), m('node_bare', 'close', 1, 1)]);
    assert.equal(one.length, 1);
    assert.equal(one[0].rounds, 1);
    assert.equal(one[0].cpu_us_per_request.ratio, null);
  });

  it('rounds: as many as both servers have', () => {
    assert.deepEqual(rows.map((r) => r.rounds), [2, 1]);
  });

  it('socket errors and non-2xx/3xx replies summed over the rounds, per side', () => {
    assert.deepEqual(rows[0].socket_errors, { project: 12, bare: 0 });
    assert.deepEqual(rows[0].non_2xx_3xx, { project: 3, bare: 0 });
  });

  it(`rounds wrk was the bottleneck in, and rounds whose server was busy under ${SERVER_BOUND_PCT} % of the time`, () => {
    assert.deepEqual(rows[0].client_bound_rounds, { project: 0, bare: 1 });
    assert.deepEqual(rows[1].unsaturated_rounds, { project: 1, bare: 0 }, 'at the threshold is saturated; not measured is not counted');
  });

  it('nothing measured for a side: no row', () => {
    assert.deepEqual(summarize(PAIRS, [m('node', 'close', 2, 2), m('node', 'close', 2, 2)]), []);
  });
});

describe('overhead: the table', () => {
  const heldBack = summarize(PAIRS, [m('node', 'keep-alive', 20, 4000, { client_bound: true }), m('node_bare', 'keep-alive', 10, 8000), m('node', 'keep-alive', 22, 4100), m('node_bare', 'keep-alive', 11, 8100, { server_busy_pct: 50 })]);
  const clean = summarize(PAIRS, [m('node', 'close', 20, 4000), m('node_bare', 'close', 10, 8000), m('node', 'close', 22, 4100), m('node_bare', 'close', 11, 8100)]);

  it('a head, a line per row, what the columns mean', () => {
    const lines = formatTable(clean);
    assert.match(lines[0], /^pair\s+mode\s+CPU µs\/req\s+bare µs\/req\s+CPU ÷ bare \[95% CI\]\s+req\/s\s+bare req\/s\s+req\/s ÷ bare \[95% CI\]\s+socket errors$/);
    assert.match(lines[1], /^node:node_bare\s+close\s+/);
    assert.match(lines[1], /0 \/ 0$/);
    assert.equal(lines[2], '');
    assert.match(lines[3], /^pair = PROJECT:BARE; ratios are project ÷ bare/);
    assert.equal(lines.length, 5);
    assert.doesNotMatch(lines.join('\n'), /\*/);
  });

  it('a row with rounds where req/s was not the server\'s capacity: marked, and a note says how many and why', () => {
    const lines = formatTable(heldBack);
    assert.match(lines[1], /\] \*\s+0 \/ 0$/);
    assert.equal(lines.length, 6);
    assert.equal(lines[5], `* node:node_bare keep-alive: rounds where wrk used ≥ ${CLIENT_BOUND_PCT}% of its CPU: 1 node, 0 node_bare; where the server was busy < ${SERVER_BOUND_PCT}% of the time (held back by another process or the client): 0 node, 1 node_bare. There req/s is not the server's capacity; CPU per request still holds.`);
    // Either kind of round alone is enough.
    for (const flag of [{ server_busy_pct: 50 }, { client_bound: true }]) {
      const once = summarize(PAIRS, [m('node', 'close', 2, 2, flag), m('node_bare', 'close', 1, 1), m('node', 'close', 2, 2), m('node_bare', 'close', 1, 1)]);
      assert.match(formatTable(once)[1], /\] \*\s+0 \/ 0$/, JSON.stringify(flag));
    }
  });

  it('a ratio from one round: said, not left empty', () => {
    const one = summarize(PAIRS, [m('node', 'close', 2, 2), m('node_bare', 'close', 1, 1)]);
    assert.match(formatTable(one)[1], /– \(needs 2 rounds\)/);
  });
});

describe('overhead: settings refused before anything starts', () => {
  const out = path.join(makeTmpDir('overhead-refused-'), 'out');
  const definitions = { node: { command: 'node', serves: ['hello', 'files'] }, node_bare: { command: 'node', serves: ['hello'] }, files_only: { command: 'x', serves: ['files'] } };
  const refused = (options, message) => assert.rejects(runOverhead({ definitions, outDir: out, pairs: PAIRS, ...options }), (err) => err instanceof OverheadUsageError && err.message === message);

  it('fewer than two rounds, or rounds that are not whole', async () => {
    await refused({ rounds: 1 }, 'rounds must be a whole number, 2 or more, for an interval (got 1)');
    await refused({ rounds: 2.5 }, 'rounds must be a whole number, 2 or more, for an interval (got 2.5)');
  });

  it('seconds that are not whole (wrk takes whole seconds)', async () => {
    await refused({ seconds: 0.5 }, 'seconds must be a whole number, 1 or more: wrk takes whole seconds (got 0.5)');
  });

  it('a server that is not defined, or does not serve GET /hello', async () => {
    await refused({ pairs: [{ project: 'node', bare: 'nope' }] }, "unknown server 'nope' (known: node, node_bare, files_only)");
    await refused({ pairs: [{ project: 'files_only', bare: 'node_bare' }] }, "server 'files_only' does not serve GET /hello");
    assert.equal(fs.existsSync(out), false, 'no results folder was made');
  });
});
