'use strict';
// Whether a run counts for a verdict, as the runner checks it (perf/lib/run/bottleneck.js): each reason it is left out
// (failed, client-bound, the load hosts' problems, not server-bound, disturbed) at its threshold
// and on either side of it, the margins whole clock ticks leave, which scenarios are judged on
// server-bound, and the CPU shares of a measured window. The /proc/stat readings those shares
// come from, and a real run that is not server-bound: test/e2e/judging.test.js.

const assert = require('node:assert/strict');
// The notes are the judge's codes; their words (perf/lib/text/verdict_notes.js) are what the reader sees.
const { noteWords } = require('../../../perf/lib/text/verdict_notes');
const { reasonWords } = require('../../../perf/lib/text/reasons');
const { clkTck, parseProcStat, machineCpuDelta } = require('../../../perf/lib/measure/proc_stats');
const { clientCpuPct } = require('../../../perf/lib/engines/external');
const { analyzeRuns } = require('../../../perf/lib/judge/verdicts');
const { checkClientBound, isLinkBound, linkDemandPct, MIN_SERVER_BOUND_LOAD_S, isClientBound, saturating, cpuShares, checkRun, clientLateness, middleShare } = require('../../../perf/lib/run/bottleneck');
const { CLIENT_BOUND_PCT, NEAR_CLIENT_BOUND_PCT, SERVER_BOUND_PCT, LINK_BOUND_PCT, DISTURBED_PCT, SHARED_LOAD_PCT, thresholds } = require('../../../perf/lib/method');

const CLOSED = { kind: 'closed', concurrency: 32 };
// A quiet window: the shares checkRun reads, none of them near a threshold. Resolutions 0
// unless a test sets them, so that the thresholds themselves are what is tested.
const QUIET = { server_cpu_pct: 99, server_resolution_pct: 0, steal_pct: 0, foreign_cpu_pct: 0, resolution_pct: 0 };
/** checkRun of a run that completed, its load generator far from its ceiling, with these shares. */
const judge = (shares, more = {}) => checkRun({ scenario: CLOSED, ok: true, clientCpuPct: 40, clientBound: false, shares: { ...QUIET, ...shares }, ...more });

/** Runs fn with PERF_DISTURBED_PCT as given (undefined: unset), then puts back what it was. */
function withDisturbedPct(value, fn) {
  const saved = process.env.PERF_DISTURBED_PCT;
  if (value === undefined) delete process.env.PERF_DISTURBED_PCT;
  else process.env.PERF_DISTURBED_PCT = value;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env.PERF_DISTURBED_PCT;
    else process.env.PERF_DISTURBED_PCT = saved;
  }
}

describe('bottleneck: the thresholds', () => {
  it('as results.json records them: client-bound 90 %, near it 80 %, server-bound 90 %, the link 90 % of its rate, disturbed 10 % of a core, another server beside it 10 %, a waiting run\'s client late by 5 ms, the bound above the wait 10 ms', () => {
    assert.deepEqual([CLIENT_BOUND_PCT, NEAR_CLIENT_BOUND_PCT, SERVER_BOUND_PCT, LINK_BOUND_PCT, DISTURBED_PCT, SHARED_LOAD_PCT, MIN_SERVER_BOUND_LOAD_S], [90, 80, 90, 90, 10, 10, 0.25]);
    assert.deepEqual(withDisturbedPct(undefined, thresholds), { client_bound_pct: 90, near_client_bound_pct: 80, server_bound_pct: 90, link_bound_pct: 90, disturbed_pct: 10, shared_load_pct: 10, client_late_ms: 5, above_wait_bound_ms: 10 });
  });

  it('PERF_DISTURBED_PCT raises the disturbed threshold on a machine known to be shared; a value that is not a number leaves it', () => {
    assert.equal(withDisturbedPct('25', thresholds).disturbed_pct, 25);
    assert.equal(withDisturbedPct('lots', thresholds).disturbed_pct, DISTURBED_PCT);
    assert.equal(withDisturbedPct('', thresholds).disturbed_pct, DISTURBED_PCT);
  });
});

describe('bottleneck: the load generator\'s own lateness', () => {
  it('the Node engines: their event loop\'s p99 delay and their mean schedule lag; rate_client: its lag\'s p99; neither measured: null', () => {
    assert.equal(clientLateness({ loopP99: 1.5, lagMean: 0.5, lagP99: null }), 2);
    assert.equal(clientLateness({ loopP99: 1.5, lagMean: null }), 1.5);
    assert.equal(clientLateness({ loopP99: null, lagMean: 0.3, lagP99: 1.2 }), 1.2);
    assert.equal(clientLateness({ loopP99: null, lagMean: 0.3, lagP99: null }), 0.3);
    assert.equal(clientLateness({}), null);
  });
});

describe('bottleneck: client-bound', () => {
  it(`from ${CLIENT_BOUND_PCT} % of the load generator's core on`, () => {
    assert.equal(isClientBound(CLIENT_BOUND_PCT), true);
    assert.equal(isClientBound(100), true);
    assert.equal(isClientBound(CLIENT_BOUND_PCT - 0.1), false);
  });

  it('not measured (null) is not client-bound', () => {
    assert.equal(isClientBound(null), false);
    assert.equal(isClientBound(undefined), false);
    assert.equal(isClientBound('95'), false);
  });

  it('a client-bound run is not judged, and says how much of its core the load generator used', () => {
    const v = judge({}, { clientCpuPct: 93.46, clientBound: true });
    assert.deepEqual(v, { server_bound: true, disturbed: false, judged: false, reasons: [{ code: 'client-bound', client_cpu_pct: 93.5, limit_pct: CLIENT_BOUND_PCT }] });
  });

  it('judged by the runner for every engine, from the CPU the engine measured: its own, or any load host\'s', () => {
    assert.deepEqual(checkClientBound({ client_cpu_pct: 95 }), { client_bound: true });
    assert.deepEqual(checkClientBound({ client_cpu_pct: 40 }), { client_bound: false });
    assert.deepEqual(checkClientBound({ client_cpu_pct: null }), { client_bound: false });
    // httperf: its busy polling makes its CPU say nothing, so it says null, and null stays.
    assert.deepEqual(checkClientBound({ client_cpu_pct: 99, client_bound: null }), { client_bound: null });
    // Tsung's hosts: one at its core's limit makes the run client-bound, though their sum is not.
    const hosts = [{ name: 'a', client_cpu_pct: 95 }, { name: 'b', client_cpu_pct: 10 }, { name: 'c', client_cpu_pct: null }];
    assert.deepEqual(checkClientBound({ client_cpu_pct: 52.5, load_hosts: hosts }), { client_bound: true, load_hosts: [{ ...hosts[0], client_bound: true }, { ...hosts[1], client_bound: false }, { ...hosts[2], client_bound: false }] });
    assert.equal(checkClientBound({ client_cpu_pct: 30, load_hosts: hosts.slice(1) }).client_bound, false);
  });

  it('checkRun goes by the run\'s client_bound, decided once by the runner (checkClientBound)', () => {
    assert.equal(judge({}, { clientCpuPct: 95, clientBound: false }).judged, true);
  });
});

describe('bottleneck: failed runs and the load hosts\' problems', () => {
  it('a run that did not complete is not judged, with its failure where it has one', () => {
    assert.deepEqual(judge({}, { ok: false, failure: 'the server exited during the run (exit code 3)' }).reasons, [{ code: 'failed', failure: 'the server exited during the run (exit code 3)' }]);
    assert.deepEqual(judge({}, { ok: false }).reasons, [{ code: 'failed', failure: null }]);
  });

  it('each problem of the load (Tsung\'s hosts) is a reason', () => {
    const v = judge({}, { loadProblems: ['Tsung started 3 of 4 users', '6 of 8 planned requests completed'] });
    assert.deepEqual(v.reasons, [{ code: 'load', problem: 'Tsung started 3 of 4 users' }, { code: 'load', problem: '6 of 8 planned requests completed' }]);
    assert.equal(v.judged, false);
  });
});

describe('bottleneck: link-bound (--link)', () => {
  const usage = (busiest) => ({ rate_bits: 54e6, to_server_mbit_s: 10, to_client_mbit_s: (54 * busiest) / 100, busiest_pct: busiest, busiest: 'to_client', bytes_per_reply: { to_server: 200, to_client: 700 }, carries_rps: 9643 });

  it(`from ${LINK_BOUND_PCT} % of the link's rate one way on; no link, no reason`, () => {
    assert.deepEqual([isLinkBound(usage(89.9)), isLinkBound(usage(90)), isLinkBound(null)], [false, true, false]);
    // On a schedule: what the rate offered asks of it (at the bytes a reply measured) counts too.
    assert.deepEqual([linkDemandPct(usage(60), 9643), isLinkBound(usage(60), 8600), isLinkBound(usage(60), 8700)], [100, false, true]);
  });

  it('a link-bound run is not judged, with the link\'s usage (which way it filled, how many replies it carries)', () => {
    const v = judge({}, { linkUsage: usage(96.5) });
    assert.deepEqual(v.reasons, [{ code: 'link-bound', link_usage: usage(96.5) }]);
    assert.equal(judge({}, { linkUsage: usage(40) }).judged, true);
  });
});

describe('bottleneck: server-bound', () => {
  it('only closed loops of several clients are meant to keep the server busy', () => {
    assert.equal(saturating({ kind: 'closed', concurrency: 2 }), true);
    assert.equal(saturating({ kind: 'closed', concurrency: 1 }), false, 'one client waits for each reply: the server idles by construction');
    assert.equal(saturating({ kind: 'open', concurrency: 8 }), false);
    assert.equal(saturating({ kind: 'slow_clients', concurrency: 8 }), false);
  });

  it(`a saturating closed loop whose server used less than ${SERVER_BOUND_PCT} % of its core is not judged`, () => {
    assert.deepEqual(judge({ server_cpu_pct: SERVER_BOUND_PCT }), { server_bound: true, disturbed: false, judged: true, reasons: [] });
    const held = judge({ server_cpu_pct: SERVER_BOUND_PCT - 0.1 });
    assert.deepEqual(held, { server_bound: false, disturbed: false, judged: false, reasons: [{ code: 'not-server-bound', server_cpu_pct: 89.9, middle_pct: null, limit_pct: SERVER_BOUND_PCT }] });
  });

  it('allows for the resolution of the server\'s clock ticks: flagged only when under the threshold by more', () => {
    assert.equal(judge({ server_cpu_pct: 86, server_resolution_pct: 4 }).server_bound, true);
    assert.equal(judge({ server_cpu_pct: 85.9, server_resolution_pct: 4 }).server_bound, false);
  });

  it('without the server\'s own resolution, the window\'s stands in; without either, none', () => {
    assert.equal(judge({ server_cpu_pct: 87, server_resolution_pct: null, resolution_pct: 3 }).server_bound, true);
    assert.equal(judge({ server_cpu_pct: 86.9, server_resolution_pct: null, resolution_pct: 3 }).server_bound, false);
    assert.equal(judge({ server_cpu_pct: 89.9, server_resolution_pct: undefined, resolution_pct: null }).server_bound, false);
  });

  it('a load shorter than a quarter of a second is mostly its start and end: not told', () => {
    assert.equal(judge({ server_cpu_pct: 30 }, { loadS: 0.25 }).server_bound, false);
    const short = judge({ server_cpu_pct: 30 }, { loadS: 0.249 });
    assert.deepEqual([short.server_bound, short.judged], [null, true]);
  });

  it('not told for a server not measured (--target), nor for a scenario that sets its own pace', () => {
    assert.equal(judge({ server_cpu_pct: null }).server_bound, null);
    for (const scenario of [{ kind: 'closed', concurrency: 1 }, { kind: 'open' }, { kind: 'slow_clients' }]) {
      const v = judge({ server_cpu_pct: 5 }, { scenario });
      assert.deepEqual([v.server_bound, v.judged], [null, true], scenario.kind);
    }
  });

  it('not server-bound only where the middle half of the load was under too: the ends idle the server whoever sets the pace', () => {
    // A keep-alive batch's ends (sessions opening, the last ones finishing) left the whole at 86 %.
    const ends = judge({ server_cpu_pct: 86, server_middle: { cpu_pct: 97.5, resolution_pct: 2 } });
    assert.deepEqual([ends.server_bound, ends.judged], [true, true]);
    // A load generator's ceiling holds all through the run: the middle shows it too.
    const held = judge({ server_cpu_pct: 85, server_middle: { cpu_pct: 80, resolution_pct: 2 } });
    assert.deepEqual(held.reasons, [{ code: 'not-server-bound', server_cpu_pct: 85, middle_pct: 80, limit_pct: SERVER_BOUND_PCT }]);
    assert.equal(reasonWords(held.reasons[0]), `not server-bound: the server used 85% of its core, 80% in the middle half of the load (under ${SERVER_BOUND_PCT}%), so something else set the pace`);
    // Each within its own resolution: the middle's readings lag by up to a tick each.
    assert.equal(judge({ server_cpu_pct: 85, server_middle: { cpu_pct: 86.1, resolution_pct: 4 } }).server_bound, true);
    assert.equal(judge({ server_cpu_pct: 85, server_middle: { cpu_pct: 85.9, resolution_pct: 4 } }).server_bound, false);
    // A whole run over the threshold stays server-bound whatever its middle's readings say.
    assert.equal(judge({ server_cpu_pct: 92, server_middle: { cpu_pct: 84, resolution_pct: 2 } }).server_bound, true);
  });
});

describe('bottleneck: the middle half of a run', () => {
  it('its share between the first reading past a quarter of the window and the last before three quarters, and its resolution', () => {
    // Readings every 20 ms of a 1 s window: 30 % of a core in its first 100 ms, 98 % to 0.88 s, then 20 %.
    const readings = [];
    let ran = 0;
    for (let at = 0; at <= 1000; at += 20) {
      readings.push({ at, ran_ns: ran });
      ran += (at < 100 ? 0.3 : at < 880 ? 0.98 : 0.2) * 20e6;
    }
    const tick = 1 / clkTck();
    assert.deepEqual(middleShare(readings, { from: 0, to: 1000 }), { cpu_pct: 98, resolution_pct: Math.round(((2 * tick) / 0.48) * 1000) / 10 }); // readings at 260 and 740 ms
    // Only the readings inside count: the middle's span is theirs, not the window's.
    assert.equal(middleShare([{ at: 250, ran_ns: 0 }, { at: 700, ran_ns: 0.45e9 }, { at: 990, ran_ns: 0.46e9 }], { from: 0, to: 1000 }).cpu_pct, 100);
  });

  it('under a tenth of a second between its readings, or fewer than two: not told', () => {
    assert.equal(middleShare([{ at: 100, ran_ns: 0 }, { at: 190, ran_ns: 1e8 }], { from: 0, to: 400 }), null);
    assert.equal(middleShare([{ at: 500, ran_ns: 0 }], { from: 0, to: 1000 }), null);
    assert.equal(middleShare([], { from: 0, to: 1000 }), null);
  });
});

describe('bottleneck: disturbed', () => {
  // The threshold a user gets (test/support/quiet_machine.js raises it for the other files).
  let saved;
  beforeEach(() => {
    saved = process.env.PERF_DISTURBED_PCT;
    delete process.env.PERF_DISTURBED_PCT;
  });
  afterEach(() => {
    if (saved !== undefined) process.env.PERF_DISTURBED_PCT = saved;
  });

  it(`steal over ${DISTURBED_PCT} % of a core: not judged, with both figures`, () => {
    assert.equal(judge({ steal_pct: DISTURBED_PCT }).disturbed, false);
    const v = judge({ steal_pct: DISTURBED_PCT + 0.1, foreign_cpu_pct: 2 });
    assert.deepEqual(v, { server_bound: true, disturbed: true, judged: false, reasons: [{ code: 'disturbed', steal_pct: 10.1, foreign_cpu_pct: 2, limit_pct: DISTURBED_PCT }] });
  });

  it(`other processes over ${DISTURBED_PCT} % of a core: the same`, () => {
    assert.equal(judge({ foreign_cpu_pct: DISTURBED_PCT }).disturbed, false);
    assert.equal(judge({ foreign_cpu_pct: DISTURBED_PCT + 0.1 }).disturbed, true);
  });

  it('past the threshold by more than the window\'s resolution only', () => {
    assert.equal(judge({ steal_pct: DISTURBED_PCT + 4, resolution_pct: 4 }).disturbed, false);
    assert.equal(judge({ steal_pct: DISTURBED_PCT + 4.1, resolution_pct: 4 }).disturbed, true);
    assert.equal(judge({ foreign_cpu_pct: DISTURBED_PCT + 4, resolution_pct: 4 }).disturbed, false);
    assert.equal(judge({ foreign_cpu_pct: DISTURBED_PCT + 4.1, resolution_pct: 4 }).disturbed, true);
  });

  it('other processes unknown (the server elsewhere): judged on steal, said as "?"', () => {
    assert.equal(judge({ foreign_cpu_pct: null }).disturbed, false);
    assert.deepEqual(judge({ steal_pct: 30, foreign_cpu_pct: null }).reasons, [{ code: 'disturbed', steal_pct: 30, foreign_cpu_pct: null, limit_pct: DISTURBED_PCT }]);
  });

  it('the machine\'s CPU not read: nothing said about it', () => {
    const v = judge({ steal_pct: null, foreign_cpu_pct: 50 });
    assert.deepEqual([v.disturbed, v.judged], [null, true]);
  });

  it('PERF_DISTURBED_PCT raises the threshold, and the reason says which', () => {
    process.env.PERF_DISTURBED_PCT = '50';
    assert.equal(judge({ steal_pct: 40 }).disturbed, false);
    assert.deepEqual(judge({ steal_pct: 60, foreign_cpu_pct: 0 }).reasons, [{ code: 'disturbed', steal_pct: 60, foreign_cpu_pct: 0, limit_pct: 50 }]);
  });
});

describe('bottleneck: a backend the requests call (Redis, the upstream)', () => {
  const RATE = { kind: 'rate', rate: 2000, connections: 100, requests: 20000 };
  const withBackend = (pct) => checkRun({ scenario: RATE, ok: true, clientCpuPct: 30, clientBound: false, shares: { ...QUIET, server_cpu_pct: 60 }, backends: [{ name: 'redis', cpu_pct: pct, ms_per_request: 0.01 }] });

  it(`under ${CLIENT_BOUND_PCT} % of a core leaves the run judged`, () => {
    for (const pct of [0, 12.5, CLIENT_BOUND_PCT - 0.1, null]) assert.equal(withBackend(pct).judged, true, String(pct));
  });

  it(`at ${CLIENT_BOUND_PCT} % or more is "backend-bound": a backend's limit is never the server's`, () => {
    const v = withBackend(97.2);
    assert.equal(v.judged, false);
    assert.deepEqual(v.reasons, [{ code: 'backend-bound', backend: 'redis', cpu_pct: 97.2, limit_pct: CLIENT_BOUND_PCT }]);
  });
});

describe('bottleneck: another server measured beside this one (simultaneous rounds)', () => {
  const OPEN = { kind: 'open', rate: 100, connections: 100 };
  const beside = (pct) => checkRun({ scenario: OPEN, ok: true, clientCpuPct: 5, clientBound: false, shares: { ...QUIET, server_cpu_pct: 4 }, paired: true, beside: [{ server: 'em', cpu_pct: pct }] });

  it(`a light load beside it (up to ${SHARED_LOAD_PCT} % of the servers' core) leaves the run judged`, () => {
    for (const pct of [0, 3.5, SHARED_LOAD_PCT, null]) assert.equal(beside(pct).judged, true, String(pct));
  });

  it(`a heavier one is "shared core": not judged, naming the server and its share`, () => {
    const v = beside(38.8);
    assert.equal(v.judged, false);
    assert.deepEqual(v.reasons, [{ code: 'shared', server: 'em', cpu_pct: 38.8, limit_pct: SHARED_LOAD_PCT }]);
  });

  it('the other server\'s CPU is not another process\'s: not counted as foreign', () => {
    const machine = { busy_s: 1.7, irq_s: 0.3, steal_s: 0, idle_s: 0.1, cpus: 2 };
    // 2.0 − server 0.9 − client 0.5 − the server beside it 0.4 = 0.2 s of 1.25 s.
    assert.equal(cpuShares({ wallS: 1.25, serverS: 0.9, clientS: 0.5, besideS: 0.4, machine }).foreign_cpu_pct, 16);
  });
});

describe('bottleneck: every reason at once', () => {
  it('in order: failed, client-bound, link-bound, load, not server-bound, disturbed', () => {
    const linkUsage = { rate_bits: 1e6, busiest_pct: 99, busiest: 'to_server', carries_rps: null };
    const v = withDisturbedPct(undefined, () =>
      checkRun({ scenario: CLOSED, ok: false, failure: 'x', clientCpuPct: 99, clientBound: true, linkUsage, shares: { ...QUIET, server_cpu_pct: 50, steal_pct: 20 }, loadProblems: ['y'] }),
    );
    assert.deepEqual(v.reasons.map((r) => r.code), ['failed', 'client-bound', 'link-bound', 'load', 'not-server-bound', 'disturbed']);
    assert.deepEqual([v.server_bound, v.disturbed, v.judged], [false, true, false]);
  });
});

describe('bottleneck: the CPU shares of a window', () => {
  const hz = clkTck();
  const machine = { busy_s: 1.7, irq_s: 0.3, steal_s: 0.2, idle_s: 0.1, cpus: 2 };

  it('the server\'s share is of the load, not of the window around it; the machine\'s are of the window', () => {
    const s = cpuShares({ wallS: 1.25, loadS: 1, serverS: 0.9, clientS: 0.5, machine });
    assert.equal(s.server_cpu_pct, 90);
    assert.equal(s.server_resolution_pct, ((2 / hz) / 1) * 100);
    assert.deepEqual([s.wall_s, s.busy_pct, s.irq_pct, s.steal_pct], [1.25, 136, 24, 16]);
    // foreign = busy 1.7 + interrupts 0.3 − server 0.9 − client 0.5 = 0.6 s of 1.25 s.
    assert.equal(s.foreign_cpu_pct, 48);
    // One tick per CPU of the machine, and one each for the server and the client, over the window.
    assert.equal(s.resolution_pct, Math.round(((4 / hz) / 1.25) * 100 * 10) / 10);
  });

  it('a load as long as the window, or longer, or of no length: the window', () => {
    for (const loadS of [undefined, 1.25, 2, 0]) assert.equal(cpuShares({ wallS: 1.25, loadS, serverS: 0.9, clientS: 0, machine: null }).server_cpu_pct, 72, String(loadS));
  });

  it('other processes never below zero (the kernel charges a process for interrupts too)', () => {
    assert.equal(cpuShares({ wallS: 1, serverS: 1.8, clientS: 0.5, machine }).foreign_cpu_pct, 0);
  });

  it('without /proc/stat: only the server\'s share, and the resolution of one CPU', () => {
    const s = cpuShares({ wallS: 1, serverS: 0.5, clientS: 0.2, machine: null });
    assert.deepEqual(s, { wall_s: 1, server_cpu_pct: 50, server_resolution_pct: (2 / hz) * 100, busy_pct: null, irq_pct: null, steal_pct: null, foreign_cpu_pct: null, resolution_pct: (3 / hz) * 100 });
  });

  it('without the server\'s CPU (--target): no share of its own, and other processes unknown', () => {
    const s = cpuShares({ wallS: 1, serverS: null, clientS: 0.2, machine });
    assert.deepEqual([s.server_cpu_pct, s.foreign_cpu_pct, s.steal_pct], [null, null, 20]);
  });

  it('a window of no length tells nothing', () => {
    const s = cpuShares({ wallS: 0, serverS: 0.1, clientS: 0, machine });
    assert.deepEqual([s.server_cpu_pct, s.busy_pct, s.steal_pct, s.foreign_cpu_pct, s.resolution_pct], [null, null, null, null, null]);
  });

  it('percentages to a tenth, the window to the millisecond', () => {
    const s = cpuShares({ wallS: 0.33333, serverS: 0.1, clientS: 0, machine: null });
    assert.deepEqual([s.wall_s, s.server_cpu_pct], [0.333, 30]);
  });
});

/** /proc/stat text with these CPU seconds (user nice system idle iowait irq softirq steal) on two CPUs. */
function procStat({ user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0 }) {
  const t = (s) => Math.round(s * clkTck());
  const all = [user, nice, system, idle, iowait, irq, softirq, steal, 0, 0].map(t).join(' ');
  const half = [user, nice, system, idle, iowait, irq, softirq, steal, 0, 0].map((s) => Math.round(t(s) / 2)).join(' ');
  return `cpu  ${all}\ncpu0 ${half}\ncpu1 ${half}\nintr 1 2 3\nctxt 99\n`;
}

describe('judging runs: the /proc/stat accounting', () => {
  // One second of wall time on two CPUs.
  const before = parseProcStat(procStat({ user: 100, system: 40, idle: 500, softirq: 10, steal: 3 }));
  const busy = parseProcStat(procStat({ user: 101.2, system: 40.5, idle: 500.0, softirq: 10.3, steal: 3.4, nice: 0 }));

  it('parses the cpu line into seconds and counts the CPUs', () => {
    assert.equal(before.cpus, 2);
    assert.equal(before.user_s, 100);
    assert.equal(before.steal_s, 3);
    assert.equal(before.guest_s, 0);
    assert.throws(() => parseProcStat('intr 1 2\n'), /no "cpu" line/);
  });

  // This file tests the refusal itself, at the threshold a user gets (test/support/quiet_machine.js
  // raises it for the other files).
  let savedThreshold;
  beforeEach(() => {
    savedThreshold = process.env.PERF_DISTURBED_PCT;
    delete process.env.PERF_DISTURBED_PCT;
  });
  afterEach(() => {
    if (savedThreshold !== undefined) process.env.PERF_DISTURBED_PCT = savedThreshold;
  });

  it('splits the machine\'s CPU into the server, the load generator, interrupts, steal and other processes', () => {
    const machine = machineCpuDelta(before, busy);
    assert.deepEqual(machine, { busy_s: 1.7, irq_s: 0.3, steal_s: 0.4, idle_s: 0, cpus: 2 });
    const shares = cpuShares({ wallS: 1, serverS: 0.95, clientS: 0.5, machine });
    // foreign = busy 1.7 + interrupts 0.3 − server 0.95 − client 0.5 = 0.55 s of 1 s.
    assert.deepEqual(shares, { wall_s: 1, server_cpu_pct: 95, server_resolution_pct: (2 / clkTck()) * 100, busy_pct: 170, irq_pct: 30, steal_pct: 40, foreign_cpu_pct: 55, resolution_pct: (4 / clkTck()) * 100 });
    const verdict = checkRun({ scenario: CLOSED, ok: true, clientCpuPct: 50, clientBound: false, shares });
    assert.equal(verdict.server_bound, true);
    assert.equal(verdict.disturbed, true);
    assert.equal(verdict.judged, false);
    assert.deepEqual(verdict.reasons, [{ code: 'disturbed', steal_pct: 40, foreign_cpu_pct: 55, limit_pct: DISTURBED_PCT }]);
  });

  it('a quiet machine with a busy server is judged; a server not measured (--target) leaves foreign CPU unknown', () => {
    const quiet = parseProcStat(procStat({ user: 100.7, system: 40.2, idle: 500.9, softirq: 10.1, steal: 3.01 }));
    const machine = machineCpuDelta(before, quiet);
    const shares = cpuShares({ wallS: 1, serverS: 0.93, clientS: 0.05, machine });
    assert.equal(shares.foreign_cpu_pct, 2);
    assert.deepEqual(checkRun({ scenario: CLOSED, ok: true, clientCpuPct: 5, clientBound: false, shares }), { server_bound: true, disturbed: false, judged: true, reasons: [] });
    const remote = cpuShares({ wallS: 1, serverS: null, clientS: 0.05, machine });
    assert.equal(remote.foreign_cpu_pct, null);
    assert.equal(checkRun({ scenario: CLOSED, ok: true, clientCpuPct: 5, clientBound: false, shares: remote }).server_bound, null);
  });

  it('server-bound applies to closed loops of several clients only, and allows for the 10 ms resolution', () => {
    assert.deepEqual([saturating(CLOSED), saturating({ kind: 'closed', concurrency: 1 }), saturating({ kind: 'open' }), saturating({ kind: 'slow_clients' })], [true, false, false, false]);
    const shares = (pct, wallS) => ({ ...cpuShares({ wallS, serverS: (pct / 100) * wallS, clientS: 0, machine: null }) });
    const idle = checkRun({ scenario: CLOSED, ok: true, clientCpuPct: 40, clientBound: false, shares: shares(60, 10) });
    assert.equal(idle.server_bound, false);
    assert.deepEqual(idle.reasons, [{ code: 'not-server-bound', server_cpu_pct: 60, middle_pct: null, limit_pct: SERVER_BOUND_PCT }]);
    assert.equal(idle.disturbed, null, 'without /proc/stat nothing is said about the machine');
    // 87% over 0.5 s is within the resolution of whole ticks (2 ticks of 10 ms: 4%): not flagged.
    assert.equal(checkRun({ scenario: CLOSED, ok: true, clientCpuPct: 40, clientBound: false, shares: shares(87, 0.5), loadS: 0.5 }).server_bound, true);
    // A load shorter than a quarter of a second is mostly its start and end: not told.
    assert.equal(checkRun({ scenario: CLOSED, ok: true, clientCpuPct: 40, clientBound: false, shares: shares(30, 0.1), loadS: 0.1 }).server_bound, null);
    for (const scenario of [{ kind: 'open' }, { kind: 'closed', concurrency: 1 }]) {
      assert.equal(checkRun({ scenario, ok: true, clientCpuPct: 10, clientBound: false, shares: shares(5, 10) }).server_bound, null);
    }
  });

  it('client-bound has one threshold, for the built-in engines and the external engines alike', () => {
    const cut = CLIENT_BOUND_PCT / 100;
    assert.equal(checkClientBound({ client_cpu_pct: clientCpuPct({ user_s: cut, system_s: 0 }, 1000) }).client_bound, true);
    assert.equal(checkClientBound({ client_cpu_pct: clientCpuPct({ user_s: cut - 0.01, system_s: 0 }, 1000) }).client_bound, false);
    const v = checkRun({ scenario: CLOSED, ok: true, clientCpuPct: 97, clientBound: true, shares: cpuShares({ wallS: 1, serverS: 0.99, clientS: 0.97, machine: null }) });
    assert.deepEqual(v.reasons, [{ code: 'client-bound', client_cpu_pct: 97, limit_pct: CLIENT_BOUND_PCT }]);
  });

  it('verdicts leave out runs that were not judged, and say why; older results without the field still count client_bound', () => {
    const run = (server, trial, extra) => ({ server, scenario: 's', trial, ok: true, client_bound: false, replies: 100, latency_ms: { mean: server === 'a' ? 1 : 2, p50: 1, p99: 3 }, throughput_rps: 100, server_cpu: null, params: { kind: 'closed', concurrency: 8 }, ...extra });
    const held = { judged: false, not_judged_because: ['not server-bound: the server used 40% of its core (under 90%), so something else set the pace'] };
    const { aggregates, comparisons } = analyzeRuns([run('a', 1, held), run('b', 1, { judged: true, not_judged_because: [] }), run('a', 2, held), run('b', 2, {})]);
    const a = aggregates.find((x) => x.server === 'a');
    assert.deepEqual([a.basis, a.used_trials, a.not_judged_trials], ['not-judged', [], [1, 2]]);
    const mean = comparisons.find((c) => c.metric === 'mean_ms');
    assert.equal(mean.excluded, 'not-judged');
    assert.equal(noteWords(mean.note), 'a not judged in all 2 trials (not server-bound)');
    const old = analyzeRuns([run('a', 1, { client_bound: true }), run('b', 1, {})]).comparisons.find((c) => c.metric === 'mean_ms');
    assert.equal(old.excluded, 'client-bound');
  });
});

describe('bottleneck: a waiting run\'s load generator running late', () => {
  const WAITING = { kind: 'rate', connections: 1000, rate: 1000, requests: 4000, request: { path: '/delay?ms=1000' } };
  const late = (scenario, clientLateMs) => checkRun({ scenario, ok: true, clientCpuPct: 40, clientBound: false, clientLateMs, shares: { ...QUIET, server_cpu_pct: 5 }, paired: true });

  it('is not judged from 5 ms of its own lateness on (half the bound above the wait), judged below it', () => {
    assert.deepEqual(late(WAITING, 4.9).reasons, []);
    assert.deepEqual(late(WAITING, 5).reasons, [{ code: 'client-late', late_ms: 5, limit_ms: 5 }]);
    assert.equal(late({ ...WAITING, kind: 'open' }, 7).judged, false, 'a connection per request too');
  });

  it('leaves runs that do not wait, and closed loops (timed from when each request was written), to the other rules', () => {
    assert.equal(late({ ...WAITING, request: { path: '/hello' } }, 50).judged, true);
    assert.equal(late({ kind: 'closed', concurrency: 1, request: { path: '/delay?ms=25' } }, 50).judged, true);
  });
});
