'use strict';
// What the kernel says about a process and the machine (perf/lib/measure/proc_stats.js): the
// /proc parsers on known text, and on a real child process its CPU time, its memory and its
// peak (VmHWM reset through clear_refs), its descriptors, and nothing once it is gone.
// (/proc/stat split into server, load generator, interrupts, steal and other processes:
// test/e2e/judging.test.js.)

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const readline = require('node:readline');
const { spawn, spawnSync } = require('node:child_process');
const {
  parseStat,
  processTable,
  readCpu,
  readMemory,
  readMappings,
  parseMappings,
  resetPeakRss,
  countFds,
  startRssSampler,
  startRanSampler,
  cpuDelta,
  clkTck,
  parseProcStat,
  readMachineCpu,
  machineCpuDelta,
  parseNetstat,
  readListenOverflows,
} = require('../../../perf/lib/measure/proc_stats');
const net = require('node:net');

const BIG_MB = 128;
// A child that does what it is told, a line at a time, and says 'done' after each:
//   burn   keeps its CPU busy for 300 ms      grow   touches BIG_MB MiB      shrink   frees them
const CHILD = `
const readline = require('node:readline');
let big = null;
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'burn') for (const until = Date.now() + 300; Date.now() < until;);
  if (line === 'grow') big = Buffer.alloc(${BIG_MB} * 1024 * 1024, 1);
  if (line === 'shrink') { big = null; global.gc(); global.gc(); }
  console.log('done');
});
console.log('done');
`;

/** Starts the child; resolves { pid, tell(command) (resolves once done), end() }. */
async function startChild() {
  const child = spawn(process.execPath, ['--expose-gc', '-e', CHILD], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout });
  const waiting = [];
  lines.on('line', () => waiting.shift()());
  const done = () => new Promise((resolve) => waiting.push(resolve));
  await done();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    pid: child.pid,
    tell(command) {
      child.stdin.write(`${command}\n`);
      return done();
    },
    end() {
      child.kill('SIGKILL');
      return exited;
    },
  };
}

describe('proc stats: the parsers', () => {
  it("parseStat: utime and stime in seconds and the parent, whatever the command's name holds", () => {
    const hz = clkTck();
    const text = `4242 (a (b)) c) S 77 4242 4242 0 -1 4194560 100 0 0 0 ${3 * hz} ${hz / 2} 0 0 20 0 1 0 500 1000 200\n`;
    assert.deepEqual(parseStat(text), { user_s: 3, system_s: 0.5, ppid: 77 });
    assert.throws(() => parseStat('4242 (x) S 1 2'), /^Error: unexpected \/proc\/<pid>\/stat format$/);
  });

  it('parseMappings: resident kB by kind; a stack is a writable anonymous mapping beside a one-page guard, either side', () => {
    const map = (range, perms, name, rss) => `${range} ${perms} 00000000 00:00 0 ${name}\nSize: 8 kB\nRss: ${rss} kB\nPss: 1 kB\n`;
    const text = [
      map('55a000000000-55a000021000', 'rw-p', '[heap]', 100),
      map('7f0000000000-7f0000001000', '---p', '', 0),
      map('7f0000001000-7f00000a1000', 'rw-p', '', 40), // after its guard: a stack
      map('7f00000a1000-7f00000a2000', '---p', '', 0),
      map('7f00000a2000-7f0000142000', 'rw-p', '', 24), // after the next guard: a stack
      map('7f0000200000-7f0000300000', 'rw-p', '', 500), // no guard beside it: anonymous
      map('7f0000300000-7f0000302000', '---p', '', 0), // two pages: no guard
      map('7f0000302000-7f0000303000', 'rw-p', '', 4), // anonymous
      map('7f1000000000-7f1000010000', 'r-xp', '/usr/lib/libc.so.6', 300),
      map('7ffd00000000-7ffd00001000', 'r-xp', '[vdso]', 8),
      map('7f2000000000-7f2000001000', 'rw-p', '', 2), // a stack whose guard lies after it
      map('7f2000001000-7f2000002000', '---p', '', 0),
    ].join('');
    assert.deepEqual(parseMappings(text), { stacks: 66, c_heap: 100, anonymous: 504, files: 300, other: 8, stack_regions: 3 });
  });

  it('parseProcStat: an older kernel\'s shorter cpu line counts the missing fields 0', () => {
    const hz = clkTck();
    const m = parseProcStat(`cpu  ${hz} 0 ${2 * hz} ${10 * hz}\ncpu0 1 0 2 10\ncpu1 1 0 2 10\ncpu2 1 0 2 10\nintr 5\n`);
    assert.deepEqual([m.cpus, m.user_s, m.system_s, m.idle_s, m.irq_s, m.softirq_s, m.steal_s, m.guest_nice_s], [3, 1, 2, 10, 0, 0, 0, 0]);
  });

  it('machineCpuDelta: busy, interrupts, steal and idle over the window; a counter that went back counts 0; null without both readings', () => {
    const at = (o) => ({ user_s: 0, nice_s: 0, system_s: 0, idle_s: 0, iowait_s: 0, irq_s: 0, softirq_s: 0, steal_s: 0, guest_s: 0, guest_nice_s: 0, cpus: 2, ...o });
    const before = at({ user_s: 10, nice_s: 1, system_s: 5, idle_s: 100, iowait_s: 2, irq_s: 0.5, softirq_s: 3, steal_s: 4 });
    const after = at({ user_s: 10.6, nice_s: 1.1, system_s: 5.2, idle_s: 100.5, iowait_s: 2.1, irq_s: 0.5, softirq_s: 3.25, steal_s: 3.9 });
    assert.deepEqual(machineCpuDelta(before, after), { busy_s: 0.9, irq_s: 0.25, steal_s: 0, idle_s: 0.6, cpus: 2 });
    assert.equal(machineCpuDelta(null, after), null);
    assert.equal(machineCpuDelta(before, null), null);
  });

  it('cpuDelta: user and system time between two readings (ticks), to the millisecond; null without both', () => {
    assert.deepEqual(cpuDelta({ user_s: 1.01, system_s: 0.2 }, { user_s: 1.3449, system_s: 0.25 }), { user_s: 0.335, system_s: 0.05, total_s: 0.385, resolution_s: 0.01 });
    assert.equal(cpuDelta(null, { user_s: 1, system_s: 1 }), null);
    assert.equal(cpuDelta({ user_s: 1, system_s: 1 }, null), null);
  });

  it('cpuDelta: the total to the nanosecond from schedstat where it agrees with the ticks, else the ticks', () => {
    const at = (user, system, ranNs) => ({ user_s: user, system_s: system, ran_ns: ranNs });
    // 31.234567 ms ran; the ticks say 30 ms: within two ticks, so schedstat's figure stands.
    assert.deepEqual(cpuDelta(at(1, 0, 5e9), at(1.02, 0.01, 5e9 + 31234567)), { user_s: 0.02, system_s: 0.01, total_s: 0.031234567, resolution_s: 1e-9 });
    // A thread that ended took 200 ms out of schedstat's sum: the ticks (250 ms) are used.
    assert.deepEqual(cpuDelta(at(1, 0, 5e9), at(1.2, 0.05, 5e9 + 50e6)), { user_s: 0.2, system_s: 0.05, total_s: 0.25, resolution_s: 0.01 });
    // No schedstat (an older kernel): the ticks.
    assert.equal(cpuDelta(at(1, 0, null), at(1.1, 0, null)).resolution_s, 0.01);
  });
});

describe('proc stats: a real process', function () {
  this.timeout(20000);
  let child;
  beforeEach(async () => {
    child = await startChild();
  });
  afterEach(() => child.end());

  it('readMappings: a live process has files and a C heap mapped, its resident kinds add up to its VmRSS (within 5 %: the two are read a moment apart)', () => {
    const kinds = readMappings(process.pid);
    assert.ok(kinds.files > 0 && kinds.anonymous > 0, JSON.stringify(kinds));
    const total = kinds.stacks + kinds.c_heap + kinds.anonymous + kinds.files + kinds.other;
    const rss = readMemory(process.pid).rss_kb;
    assert.ok(Math.abs(total - rss) < 0.05 * rss, `${total} kB of mappings against ${rss} kB resident`);
  });

  it('readCpu: the CPU time it used grows as it works', async () => {
    const before = readCpu(child.pid);
    await child.tell('burn');
    const used = cpuDelta(before, readCpu(child.pid));
    assert.ok(used.user_s + used.system_s >= 0.1, `300 ms of busy loop showed as ${JSON.stringify(used)}`);
    // This kernel has schedstat: the total comes at nanosecond resolution, and agrees with the ticks.
    assert.equal(used.resolution_s, 1e-9, JSON.stringify(used));
    assert.ok(Math.abs(used.total_s - (used.user_s + used.system_s)) <= 0.03, JSON.stringify(used));
  });

  it('processTable: every process with its parent', () => {
    const table = processTable();
    assert.equal(table.get(child.pid).ppid, process.pid);
    assert.equal(table.get(process.pid).ppid, process.ppid);
    assert.equal(typeof table.get(child.pid).cpu_s, 'number');
  });

  it('startRssSampler: the peak, even when memory grew and was freed between two samples (VmHWM)', async () => {
    const sampler = startRssSampler(child.pid, 60000); // no sample but the first and the last
    await child.tell('grow');
    await child.tell('shrink');
    const peakKb = sampler.stop();
    assert.ok(peakKb >= BIG_MB * 1024, `peak ${peakKb} kB`);
    assert.ok(readMemory(child.pid).rss_kb < BIG_MB * 1024, 'the memory was given back');
  });

  it('startRanSampler: each reading with its moment, the time run growing while it works, a last one at stop', async () => {
    const sampler = startRanSampler(child.pid, 60000); // no reading but the first and the last
    await child.tell('burn');
    const readings = sampler.stop();
    assert.equal(readings.length, 2, JSON.stringify(readings));
    const [first, last] = readings;
    assert.ok(last.at > first.at, JSON.stringify(readings));
    assert.ok(last.ran_ns - first.ran_ns >= 0.1e9, `300 ms of busy loop ran ${(last.ran_ns - first.ran_ns) / 1e6} ms`);
  });

  it('readMemory and resetPeakRss: VmHWM keeps the peak until it is reset to the current RSS', async () => {
    await child.tell('grow');
    await child.tell('shrink');
    const high = readMemory(child.pid);
    assert.ok(high.hwm_kb >= BIG_MB * 1024 && high.rss_kb < BIG_MB * 1024, JSON.stringify(high));
    assert.equal(resetPeakRss(child.pid), true);
    const reset = readMemory(child.pid);
    assert.ok(reset.hwm_kb < BIG_MB * 1024 && reset.hwm_kb >= reset.rss_kb, JSON.stringify(reset));
  });

  it('once it is gone: no CPU, memory or descriptors, and no reset', async () => {
    const { pid } = child;
    assert.ok(readCpu(pid) && readMemory(pid) && countFds(pid) > 0);
    await child.end();
    assert.deepEqual([readCpu(pid), readMemory(pid), countFds(pid), resetPeakRss(pid)], [null, null, null, false]);
  });
});

describe('proc stats: descriptors and the machine', () => {
  it('countFds: the descriptors a process has open', async () => {
    // sleep opens none of its own: those it was given (and whatever this process inherited).
    const child = spawn('sleep', ['30'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
    await new Promise((resolve) => child.once('spawn', resolve));
    try {
      const listed = spawnSync('ls', ['-A', `/proc/${child.pid}/fd`], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
      assert.ok(listed.length >= 4);
      assert.equal(countFds(child.pid), listed.length);
    } finally {
      child.kill('SIGKILL');
    }
    const before = countFds(process.pid);
    const fds = [0, 1, 2].map(() => fs.openSync('/dev/null', 'r'));
    const during = countFds(process.pid);
    fds.forEach((fd) => fs.closeSync(fd));
    assert.deepEqual([during - before, countFds(process.pid)], [3, before]);
  });

  it('readMachineCpu: every CPU of the machine, times that only grow', () => {
    const a = readMachineCpu();
    const b = readMachineCpu();
    assert.equal(a.cpus, os.cpus().length);
    for (const key of ['user_s', 'system_s', 'idle_s']) assert.ok(b[key] >= a[key] && a[key] > 0, key);
  });
});

describe('proc stats: the accept queue', function () {
  this.timeout(20000);

  it('parses the TcpExt counters of a netstat text', () => {
    const text = 'TcpExt: SyncookiesSent ListenOverflows ListenDrops\nTcpExt: 0 17 19\nIpExt: InNoRoutes\nIpExt: 0\n';
    assert.deepEqual(parseNetstat(text), { SyncookiesSent: 0, ListenOverflows: 17, ListenDrops: 19 });
    assert.equal(parseNetstat('IpExt: InNoRoutes\nIpExt: 0\n'), null);
  });

  it('counts the connection attempts a listener that never accepts drops once its queue of one is full', async () => {
    // A listener with a backlog of 1 that never calls accept (Node accepts whatever comes).
    const listener = spawn('python3', ['-c', 'import socket,sys,time\ns=socket.socket()\ns.bind(("127.0.0.1",0))\ns.listen(1)\nprint(s.getsockname()[1],flush=True)\ntime.sleep(60)'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const sockets = [];
    try {
      const port = Number(await new Promise((resolve) => readline.createInterface({ input: listener.stdout }).once('line', resolve)));
      const before = readListenOverflows(listener.pid);
      assert.equal(typeof before, 'number');
      for (let i = 0; i < 8; i++) sockets.push(net.connect(port, '127.0.0.1').on('error', () => {}));
      // The SYNs past the queue's room are dropped as they arrive: wait for the counter, bounded.
      const deadline = Date.now() + 10000;
      let after = before;
      while (after - before < 5 && Date.now() < deadline) {
        await new Promise((resolve) => setImmediate(resolve));
        after = readListenOverflows(listener.pid);
      }
      assert.ok(after - before >= 5, `${after - before} dropped of 8 connections to a queue of 1`);
    } finally {
      for (const socket of sockets) socket.destroy();
      listener.kill('SIGKILL');
    }
  });

  it('no such process: null', () => {
    assert.equal(readListenOverflows(2 ** 22 + 1), null);
  });
});

