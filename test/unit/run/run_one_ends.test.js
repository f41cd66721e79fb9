'use strict';
// How a run ends when it does not measure a server's answers (perf/lib/run/run_one.js): a
// server that exits or stops answering during it, one running elsewhere (--target), an
// interrupted run, the deadline and the records of runs without measurements, and settle between
// runs. Their assertions are on outcomes and deadlines of a second or more, so the file shares
// the machine (test/lanes/lanes.js); a run's measurements: ./run_one.test.js.

const assert = require('node:assert/strict');
const { runOne, failedRun, runDeadlineMs, settle, describeExit } = require('../../../perf/lib/run/run_one');
const { WARMUP_CAP } = require('../../../perf/lib/plan/scenarios');
const { scenarioParams } = require('../../../perf/lib/store/scenario_doc');
const { countFds } = require('../../../perf/lib/measure/proc_stats');
const { remoteServer } = require('../../../perf/lib/hosts/server_process');
const { standinEachTest, watchServer: watch, namedScenario: scenario, TINY_SCENARIO: TINY } = require('../../support/runner_helpers');

describe('run_one: the deadline and the records without measurements', () => {
  it('a run may take its expected length and a half, its timeout and 30 s; a count-bounded closed loop 900 s; plus its warm-up\'s, slices for up to WARMUP_CAP × warmup_s', () => {
    const timed = scenario('timed', { kind: 'closed', concurrency: 2, duration_s: 2, timeout_s: 5, warmup_s: 0 });
    assert.equal(runDeadlineMs(timed), (2 * 1.5 + 5 + 30) * 1000);
    assert.equal(runDeadlineMs({ ...timed, warmup_s: 1 }), (2 * 1.5 + 5 + 30) * 1000 + (0.5 * 1.5 + 5 + 30) * 1000 + WARMUP_CAP * 1000);
    assert.equal(runDeadlineMs({ ...TINY, warmup_s: 0 }), 900000);
    const open = scenario('open', { kind: 'open', connections: 100, rate: 50, warmup_s: 0 });
    assert.equal(runDeadlineMs(open), (2 * 1.5 + 10 + 30) * 1000);
  });

  it('a failed run: no measurements, not judged, with the reason and the parameters', () => {
    const run = failedRun('node', TINY, 'the server did not start: boom', { trial: 2 });
    assert.deepEqual([run.server, run.scenario, run.trial, run.engine, run.ok, run.failure], ['node', 'tiny', 2, 'autocannon', false, 'the server did not start: boom']);
    assert.deepEqual([run.requests, run.replies, run.throughput_rps, run.latency_ms, run.server_cpu, run.judged], [0, 0, null, null, null, false]);
    assert.deepEqual(run.not_judged_because, ['failed: the server did not start: boom']);
    assert.deepEqual(run.params, scenarioParams(TINY));
    assert.equal(failedRun('node', { ...TINY, engine: 'wrk' }, 'x').engine, 'wrk');
    assert.equal(failedRun('node', TINY, 'x').trial, null);
  });

  it('how a server ended, in words', () => {
    assert.equal(describeExit({ code: 3, signal: null, error: null }), 'exit code 3');
    assert.equal(describeExit({ code: null, signal: 'SIGKILL', error: null }), 'signal SIGKILL');
    assert.equal(describeExit({ code: null, signal: null, error: new Error('spawn ENOENT') }), 'spawn ENOENT');
  });
});

describe('run_one: a run that ends without measuring the server', function () {
  this.timeout(60000);
  const start = standinEachTest();

  it('a server already running elsewhere (--target): its CPU and memory are not measured', async () => {
    const handle = await start();
    const remote = remoteServer('elsewhere', handle.url);
    const { run } = await runOne({ server: 'elsewhere', handle: remote, scenario: { ...TINY, warmup_s: 0 }, outerSignal: null, serverState: watch(remote) });
    assert.equal(run.ok, true, run.failure);
    assert.deepEqual([run.server_measured, run.server_cpu, run.server_peak_rss_mb, run.server_cpu_pct], [false, null, null, null]);
    assert.equal(run.trial, null);
    assert.equal(run.runtime, undefined, 'no runtime events from a server elsewhere');
  });

  it('a server that exits during the run: the run fails and says how', async () => {
    const handle = await start({ STANDIN_EXIT_AFTER: '20' });
    const serverState = watch(handle);
    const { run } = await runOne({ server: 'standin', handle, scenario: scenario('many', { kind: 'closed', concurrency: 2, requests: 2000, warmup_s: 0 }), outerSignal: null, serverState });
    assert.equal(run.ok, false);
    assert.match(run.failure, /^the server exited during the run \(exit code 3\)/);
    assert.deepEqual(serverState.exit, { code: 3, signal: null });
    assert.equal(run.judged, false);
  });

  it('a server that stops answering: the run fails as hung, once a GET /hello after it gets no reply', async () => {
    // The 5th /hello blocks its event loop for 8 s: the run's requests time out after 1 s (the
    // built-in engine's timeouts are whole seconds), the run ends after 1.5 s, and the probe
    // after it waits 3 s, all inside the stall.
    const handle = await start({ STANDIN_STALL_AT: '5', STANDIN_STALL_MS: '8000' });
    const serverState = watch(handle);
    const { run } = await runOne({ server: 'standin', handle, scenario: scenario('stalls', { kind: 'closed', concurrency: 2, duration_s: 1.5, timeout_s: 1, warmup_s: 0 }), outerSignal: null, serverState });
    assert.equal(serverState.hung, 'stalls');
    assert.equal(run.ok, false);
    assert.match(run.failure, /^the server stopped answering \(hung\): \d+ requests timed out, and a GET \/hello after the run got no reply within 3 s$/);
    // Still stalled, it would take the afterEach's SIGTERM only at the stall's end (3 s more):
    // killed now.
    await handle.stop(0);
  });

  it('interrupted (the outer signal): nothing is recorded, before or during the run', async () => {
    const handle = await start();
    const before = new AbortController();
    before.abort();
    assert.deepEqual(await runOne({ server: 'standin', handle, scenario: TINY, outerSignal: before.signal, serverState: watch(handle) }), { interrupted: true });
    const during = new AbortController();
    const long = scenario('long', { kind: 'closed', concurrency: 2, duration_s: 20, warmup_s: 0 });
    const started = performance.now();
    const running = runOne({ server: 'standin', handle, scenario: long, outerSignal: during.signal, serverState: watch(handle), progress: () => during.abort() });
    assert.deepEqual(await running, { interrupted: true });
    assert.ok(performance.now() - started < 10000, 'stopped well before its 20 s');
  });

  it('twelve runs at once under one outer signal (a simultaneous round): interrupted together, with no listener each on that signal (no MaxListenersExceededWarning)', async () => {
    const handle = await start();
    const warnings = [];
    const onWarning = (w) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const outer = new AbortController();
      const long = scenario('long', { kind: 'closed', concurrency: 1, duration_s: 20, warmup_s: 0 });
      const measuring = new Set();
      // Interrupted once every one of them is measuring: all twelve are in progress at once.
      const progressOf = (i) => () => {
        measuring.add(i);
        if (measuring.size === 12) outer.abort();
      };
      const runs = Array.from({ length: 12 }, (_, i) => runOne({ server: 'standin', handle, scenario: long, outerSignal: outer.signal, serverState: watch(handle), progress: progressOf(i) }));
      assert.deepEqual(await Promise.all(runs), Array.from({ length: 12 }, () => ({ interrupted: true })));
      // A warning is emitted on the next tick of the one that passed the limit.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(warnings.map((w) => w.name), []);
  });
});

describe('settle: between runs, the server\'s descriptors back near their baseline', () => {
  const fs = require('node:fs');
  const open = (n) => Array.from({ length: n }, () => fs.openSync('/dev/null', 'r'));

  it('returns once they have stopped falling above it (a backend pool stays open), long before maxMs', async () => {
    const baseline = countFds(process.pid);
    const kept = open(10);
    try {
      const started = performance.now();
      await settle(process.pid, baseline, 3000);
      const took = performance.now() - started;
      assert.ok(took >= 200 && took < 2000, `returned after ${took} ms`);
    } finally {
      kept.forEach((fd) => fs.closeSync(fd));
    }
  });

  it('waits while they fall, until they are back near the baseline', async () => {
    const baseline = countFds(process.pid);
    const closing = open(12);
    const closer = setInterval(() => {
      if (closing.length) fs.closeSync(closing.pop());
    }, 40);
    try {
      await settle(process.pid, baseline, 5000);
      assert.ok(countFds(process.pid) <= baseline + 2, `${countFds(process.pid)} open against a baseline of ${baseline}`);
    } finally {
      clearInterval(closer);
      closing.forEach((fd) => fs.closeSync(fd));
    }
  });
});
