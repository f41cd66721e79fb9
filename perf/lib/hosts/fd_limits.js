'use strict';
// Open-file limits (RLIMIT_NOFILE) for the load generator and the servers it starts. Thousands
// of waiting connections need a descriptor each on both sides of loopback, and a
// default soft limit of 1,024 would make the 5,000- and 10,000-connection scenarios fail on
// EMFILE halfway, or the servers refuse connections at their cap (CONTRACT.md, "Limits":
// the open-files limit less fd_reserve). So before anything starts the runner raises its own
// limit as far as the scenarios need (the servers inherit it; both raise their soft limit to
// the hard one themselves), up to the hard limit, or past it as root (prlimit, up to the
// kernel's fs.nr_open); what cannot be held is skipped and said in one line.

const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const contract = require('../../../contract.json');

// Descriptors each side keeps besides its connections (the listening socket, stdio, the
// runtime's own): the servers' reserve (contract.json), which the runner's own use is within.
const FD_RESERVE = contract.fd_reserve;

/** { soft, hard } of a process's open-files limit from /proc/<pid>/limits (Infinity: unlimited), or null. */
function readLimits(pid = 'self') {
  try {
    const line = fs.readFileSync(`/proc/${pid}/limits`, 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const [soft, hard] = line.split(/\s{2,}/).slice(1, 3).map((v) => (v === 'unlimited' ? Infinity : Number(v)));
    return Number.isFinite(soft) || soft === Infinity ? { soft, hard } : null;
  } catch {
    return null;
  }
}

/** The kernel's ceiling for any process's limit (fs.nr_open), or null. */
function kernelCeiling() {
  try {
    return Number(fs.readFileSync('/proc/sys/fs/nr_open', 'utf8').trim()) || null;
  } catch {
    return null;
  }
}

/** Sets this process's limit to soft:hard with prlimit(1) (Node has no setrlimit); throws its error. */
function setOwnLimit(soft, hard) {
  execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${soft}:${hard}`], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 5000 });
}

/** Descriptors a scenario holding `held` connections needs on each side. */
const descriptorsFor = (held) => held + FD_RESERVE;

/**
 * Makes this process's open-files limit at least what `need` descriptors take, where the
 * system allows, and says what it is: { soft, hard, need, raised_from (the soft limit before,
 * or null when unchanged), fixed (true when --nofile set it), why (why it could not be raised
 * to need, or null) }. fixed: a number sets the limit to exactly that (soft and hard; for the
 * tests of a run at a low limit, and for a user who wants one), never raised.
 */
function ensureDescriptors(need, { fixed = null } = {}) {
  const before = readLimits();
  if (!before) return { soft: null, hard: null, need, raised_from: null, fixed: false, why: 'this system has no /proc/self/limits to read' };
  if (fixed !== null) {
    try {
      setOwnLimit(fixed, fixed);
    } catch (err) {
      return { ...before, need, raised_from: null, fixed: false, why: `--nofile ${fixed} could not be set: ${String(err.stderr || err.message).trim()}` };
    }
    const now = readLimits();
    return { ...now, need, raised_from: null, fixed: true, why: now.soft < need ? `--nofile ${fixed}` : null };
  }
  if (before.soft >= need) return { ...before, need, raised_from: null, fixed: false, why: null };
  const ceiling = kernelCeiling() ?? Infinity;
  const target = Math.min(need, ceiling);
  // Up to the hard limit anyone may go; past it only root (CAP_SYS_RESOURCE).
  const attempts = target > before.hard ? [[target, target], [before.hard, before.hard]] : [[target, before.hard]];
  let refused = null;
  for (const [soft, hard] of attempts) {
    try {
      setOwnLimit(soft, hard);
      break;
    } catch (err) {
      refused = String(err.stderr || err.message).trim().split('\n')[0];
    }
  }
  const now = readLimits() || before;
  let why = null;
  if (now.soft < need) why = target < need ? `the kernel's fs.nr_open is ${ceiling}` : `the hard limit is ${now.hard}${refused ? ` and raising it was refused (${refused})` : ''}`;
  return { ...now, need, raised_from: now.soft !== before.soft ? before.soft : null, fixed: false, why };
}

/**
 * The one line for scenarios the limit cannot hold, or null: "fd limit 1,024 < 10,064
 * descriptors for 10,000 connections: raise `ulimit -n` (hard limit 4,096) or run as root;
 * wait_keepalive_5000, wait_keepalive_10000 skipped". limits: ensureDescriptors's; names: the
 * scenarios left out; held: the most connections one of them holds.
 */
function shortfallLine(limits, names, held) {
  if (!names.length) return null;
  const n = (x) => (x === Infinity ? 'unlimited' : x.toLocaleString('en-US'));
  const advice = limits.fixed ? 'as --nofile set it' : `raise \`ulimit -n\` (hard limit ${n(limits.hard)}) or run as root`;
  return `fd limit ${n(limits.soft)} < ${n(descriptorsFor(held))} descriptors for ${n(held)} connections: ${advice}; ${names.join(', ')} skipped`;
}

/** A limit as the lines say it: its soft value, or 'unknown'. */
const fdLimitText = (limits) => (limits && Number.isFinite(limits.soft) ? limits.soft.toLocaleString('en-US') : 'unknown');

/** What a load generator that ran out of descriptors on `count` connections says (run_one.js). */
function outOfDescriptorsText(count) {
  return `it ran out of file descriptors (EMFILE) on ${count} connections, at its fd limit of ${fdLimitText(readLimits())}: raise \`ulimit -n\``;
}

module.exports = { FD_RESERVE, readLimits, ensureDescriptors, descriptorsFor, shortfallLine, fdLimitText, outOfDescriptorsText };
