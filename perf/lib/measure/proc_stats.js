'use strict';
// What the kernel knows about the server process: CPU seconds from /proc/<pid>/stat (utime,
// stime: all threads of the process, in 10 ms clock ticks) and, at nanosecond resolution, from
// each thread's /proc/<pid>/task/<tid>/schedstat (the time it ran: the only per-process counter
// fine enough for the CPU of a one-second slice, ~1,000 ticks' worth of requests); memory from /proc/<pid>/status (VmRSS, VmHWM), open
// descriptors from /proc/<pid>/fd. Peak RSS per run: VmHWM is reset through clear_refs
// (Linux >= 4.0) before the run and read after it, and VmRSS is also sampled every 100 ms
// in case the reset is not allowed; the larger of the two is the peak.
// And what it knows about the whole machine: the CPU time of all CPUs from /proc/stat, so that
// a run can say how much went to other processes and to the hypervisor (steal).

const fs = require('node:fs');
const { execFileSync } = require('node:child_process');

let clockTicks = null;
/** Kernel clock ticks per second (USER_HZ), usually 100. */
function clkTck() {
  if (clockTicks === null) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 2000 }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/**
 * Parses the text of /proc/<pid>/stat into { user_s, system_s, ppid } (comm may hold spaces
 * and parens).
 */
function parseStat(text) {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); ppid is field 4, utime field 14, stime field 15.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error('unexpected /proc/<pid>/stat format');
  const hz = clkTck();
  return { user_s: utime / hz, system_s: stime / hz, ppid: Number(fields[1]) };
}

/** Every process now: pid → { ppid, cpu_s (user + system) }, one read of each stat file. */
function processTable() {
  const table = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const { user_s: user, system_s: system, ppid } = parseStat(fs.readFileSync(`/proc/${entry}/stat`, 'utf8'));
      table.set(Number(entry), { ppid, cpu_s: user + system });
    } catch {
      // gone between the listing and the read
    }
  }
  return table;
}

/**
 * { user_s, system_s, ran_ns } of a live process, or null when it is gone. ran_ns: the time its
 * threads have run, summed from their schedstat (null where the kernel has no schedstat). A
 * thread that ended is missing from the sum (its time stays in /proc/<pid>/stat): cpuDelta
 * then falls back to the ticks.
 */
function readCpu(pid) {
  try {
    return { ...parseStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')), ran_ns: readRanNs(pid) };
  } catch {
    return null;
  }
}

/** The nanoseconds the threads of a process have run (first field of each thread's schedstat), or null. */
function readRanNs(pid) {
  try {
    let total = 0;
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        total += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch (err) {
        if (err.code !== 'ENOENT' && err.code !== 'ESRCH') throw err; // a thread that just ended
      }
    }
    return Number.isFinite(total) ? total : null;
  } catch {
    return null;
  }
}

/** { rss_kb, hwm_kb } of a live process, or null when it is gone. */
function readMemory(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /^VmRSS:\s+(\d+) kB/m.exec(text);
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(text);
    return { rss_kb: rss ? Number(rss[1]) : null, hwm_kb: hwm ? Number(hwm[1]) : null };
  } catch {
    return null;
  }
}

/** Resets VmHWM to the current RSS; false when the kernel or permissions do not allow it. */
function resetPeakRss(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Number of open file descriptors, or null. */
function countFds(pid) {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

// A mapping's header line in /proc/<pid>/smaps: its range, permissions and name (empty when anonymous).
const MAPPING_LINE = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \d+\s*(.*)$/;
const PAGE_BYTES = 4096;

/**
 * The resident kB of a process's mappings by kind, from the text of /proc/<pid>/smaps:
 * { stacks, c_heap, anonymous, files, other, stack_regions }. A stack is a writable anonymous
 * mapping beside a one-page guard (no access), as Ruby's fiber pool and pthreads map their
 * stacks; c_heap is brk's [heap] (malloc's small blocks); anonymous the rest of the anonymous
 * memory (Ruby's object pages, V8's heap, malloc's large blocks and arenas).
 */
function parseMappings(text) {
  const maps = [];
  for (const line of text.split('\n')) {
    const m = MAPPING_LINE.exec(line);
    if (m) maps.push({ from: BigInt(`0x${m[1]}`), to: BigInt(`0x${m[2]}`), perms: m[3], name: m[4].trim(), rss: 0 });
    else if (line.startsWith('Rss:') && maps.length) maps[maps.length - 1].rss = Number(line.split(/\s+/)[1]);
  }
  const isGuard = (map) => map && map.perms === '---p' && map.to - map.from === BigInt(PAGE_BYTES);
  const kb = { stacks: 0, c_heap: 0, anonymous: 0, files: 0, other: 0, stack_regions: 0 };
  maps.forEach((map, i) => {
    const besideGuard = (isGuard(maps[i - 1]) && maps[i - 1].to === map.from) || (isGuard(maps[i + 1]) && maps[i + 1].from === map.to);
    let kind = 'other';
    if (map.name === '[heap]') kind = 'c_heap';
    else if (map.name.startsWith('/')) kind = 'files';
    else if (map.name === '' && map.perms.startsWith('rw') && besideGuard) {
      kind = 'stacks';
      kb.stack_regions += 1;
    } else if (map.name === '') kind = 'anonymous';
    kb[kind] += map.rss;
  });
  return kb;
}

/** parseMappings of a live process, or null when it is gone. */
function readMappings(pid) {
  try {
    return parseMappings(fs.readFileSync(`/proc/${pid}/smaps`, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Calls sample() now and every intervalMs, its timer not keeping the process alive; the
 * function returned stops it after one last call. What the samplers below share.
 */
function sampleEvery(sample, intervalMs) {
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    sample();
  };
}

/** Samples VmRSS every intervalMs; stop() returns the peak in kB (and VmHWM when reset worked). */
function startRssSampler(pid, intervalMs = 100) {
  const hwmReset = resetPeakRss(pid);
  let peak = 0;
  const end = sampleEvery(() => {
    const m = readMemory(pid);
    if (m && m.rss_kb > peak) peak = m.rss_kb;
  }, intervalMs);
  return {
    stop() {
      end();
      const m = readMemory(pid);
      if (hwmReset && m && m.hwm_kb > peak) peak = m.hwm_kb;
      return peak || null;
    },
  };
}

/**
 * Samples the time a process's threads have run (readRanNs) every intervalMs, each reading with
 * its moment (performance.now()); stop() takes a last one and returns them all, [{ at, ran_ns }]
 * (none where the kernel has no schedstat). What a run's middle half is measured from
 * (perf/lib/run/bottleneck.js middleShare).
 */
function startRanSampler(pid, intervalMs = 20) {
  const readings = [];
  const end = sampleEvery(() => {
    const ranNs = readRanNs(pid);
    if (ranNs !== null) readings.push({ at: performance.now(), ran_ns: ranNs });
  }, intervalMs);
  return {
    stop() {
      end();
      return readings;
    },
  };
}

/**
 * Difference of two readCpu() results, or null: { user_s, system_s (ticks), total_s (user +
 * system: from schedstat where both readings have it and it agrees with the ticks, else from
 * the ticks), resolution_s (the step total_s is measured in: 1 ns, or one tick) }. The two
 * agree when the ticks' total lies within two ticks, plus 10 %, of schedstat's (a thread that
 * ended between the readings takes its time out of schedstat's sum, never out of the ticks).
 */
function cpuDelta(before, after) {
  if (!before || !after) return null;
  const user = after.user_s - before.user_s;
  const system = after.system_s - before.system_s;
  const tick = 1 / clkTck();
  const ran = Number.isFinite(before.ran_ns) && Number.isFinite(after.ran_ns) ? (after.ran_ns - before.ran_ns) / 1e9 : null;
  const fine = ran !== null && ran >= 0 && user + system <= ran * 1.1 + 2 * tick;
  return {
    user_s: Math.round(user * 1000) / 1000,
    system_s: Math.round(system * 1000) / 1000,
    total_s: fine ? Math.round(ran * 1e9) / 1e9 : Math.round((user + system) * 1000) / 1000,
    resolution_s: fine ? 1e-9 : tick,
  };
}

// The fields of /proc/stat's "cpu" line, in its order (proc(5)), in clock ticks summed over CPUs.
const MACHINE_FIELDS = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq', 'steal', 'guest', 'guest_nice'];

/** Parses /proc/stat's text into { <field>_s: seconds over all CPUs, cpus: how many cpuN lines }. */
function parseProcStat(text) {
  const line = /^cpu\s+([\d ]+)$/m.exec(text);
  if (!line) throw new Error('unexpected /proc/stat format (no "cpu" line)');
  const ticks = line[1].trim().split(/\s+/).map(Number);
  const hz = clkTck();
  const out = { cpus: (text.match(/^cpu\d+\s/gm) || []).length };
  // Older kernels have fewer columns: what is missing counts 0.
  MACHINE_FIELDS.forEach((f, i) => (out[`${f}_s`] = (ticks[i] || 0) / hz));
  return out;
}

/** The machine's CPU times (parseProcStat), or null when /proc/stat cannot be read. */
function readMachineCpu() {
  try {
    return parseProcStat(fs.readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null;
  }
}

/**
 * What the machine's CPUs did between two readMachineCpu() results, in CPU seconds:
 * busy_s (user + nice + system: processes, and the kernel working for them; guest time is
 * already inside user), irq_s (irq + softirq: interrupts, mostly the loopback traffic of the
 * run itself), steal_s (taken by the hypervisor for other machines), idle_s (idle + iowait).
 * null when either is missing.
 */
function machineCpuDelta(before, after) {
  if (!before || !after) return null;
  const d = (f) => Math.max(0, after[`${f}_s`] - before[`${f}_s`]);
  const r = (x) => Math.round(x * 1000) / 1000;
  return {
    busy_s: r(d('user') + d('nice') + d('system')),
    irq_s: r(d('irq') + d('softirq')),
    steal_s: r(d('steal')),
    idle_s: r(d('idle') + d('iowait')),
    cpus: after.cpus,
  };
}

/**
 * The kernel's TcpExt counters from a /proc/.../net/netstat text: { ListenOverflows, ... }
 * (its lines come in pairs, the names and then the values).
 */
function parseNetstat(text) {
  const lines = text.split('\n').filter((l) => l.startsWith('TcpExt:'));
  if (lines.length < 2) return null;
  const [names, values] = lines.map((l) => l.split(/\s+/).slice(1));
  return Object.fromEntries(names.map((n, i) => [n, Number(values[i])]));
}

/**
 * Connection attempts the kernel dropped at a full accept queue (TcpExt ListenOverflows), so
 * far, in the network namespace of process pid (the server's: --link puts it in its own); null
 * when it cannot be read. A dropped SYN is sent again by the client after 1 s (the kernel's
 * initial retransmission timeout), so each one is a reply a second late or more.
 */
function readListenOverflows(pid = 'self') {
  try {
    const counters = parseNetstat(fs.readFileSync(`/proc/${pid}/net/netstat`, 'utf8'));
    return counters && Number.isFinite(counters.ListenOverflows) ? counters.ListenOverflows : null;
  } catch {
    return null;
  }
}

module.exports = { readCpu, readRanNs, readMemory, readMappings, parseMappings, resetPeakRss, countFds, startRssSampler, startRanSampler, cpuDelta, parseStat, processTable, clkTck, parseProcStat, readMachineCpu, machineCpuDelta, parseNetstat, readListenOverflows };
