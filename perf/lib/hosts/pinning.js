'use strict';
// CPU pinning: with two or more CPUs the server runs on one (taskset -c when it is spawned)
// and the load generator, this very process with all its threads, on another
// (taskset -a -p), so neither steals the other's core and the generator's own CPU use stays
// measurable with process.cpuUsage().

const fs = require('node:fs');
const { execFileSync } = require('node:child_process');

/** Parses a kernel CPU list such as "0-3,6" into [0,1,2,3,6]. */
function parseCpuList(text) {
  const cpus = [];
  for (const part of text.trim().split(',')) {
    if (!part) continue;
    const [a, b] = part.split('-').map(Number);
    for (let c = a; c <= (b === undefined ? a : b); c++) cpus.push(c);
  }
  return cpus;
}

/** CPUs this process may run on (Cpus_allowed_list), or null when unknown. */
function allowedCpus() {
  try {
    const m = /^Cpus_allowed_list:\s*(\S+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return m ? parseCpuList(m[1]) : null;
  } catch {
    return null;
  }
}

function hasTaskset() {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore', timeout: 2000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Decides the pinning: { enabled, server_cpu, client_cpu, reason }. reason says why it is
 * off (one CPU, no taskset, or turned off).
 */
function planPinning({ want = true } = {}) {
  if (!want) return { enabled: false, server_cpu: null, client_cpu: null, reason: 'turned off (--no-pin)' };
  const cpus = allowedCpus();
  if (!cpus || cpus.length < 2) return { enabled: false, server_cpu: null, client_cpu: null, reason: `only ${cpus ? cpus.length : 'an unknown number of'} CPU(s) available` };
  if (!hasTaskset()) return { enabled: false, server_cpu: null, client_cpu: null, reason: 'taskset not found (Debian: apt-get install util-linux)' };
  return { enabled: true, server_cpu: cpus[0], client_cpu: cpus[1], reason: null };
}

/**
 * Pins every thread of process pid to cpu (a CPU number, or a kernel CPU list such as "0-1"
 * to give it back what it had). Throws a one-line error when taskset fails.
 */
function pinProcess(pid, cpu) {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 5000 });
  } catch (err) {
    const why = err.stderr ? err.stderr.toString().trim().split('\n')[0] : err.message;
    throw new Error(`taskset could not pin process ${pid} to CPU ${cpu}: ${why}`, { cause: err });
  }
}

module.exports = { planPinning, pinProcess, parseCpuList, allowedCpus };
