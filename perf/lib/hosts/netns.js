'use strict';
// A network between the load generator and the server: the server runs in a network namespace
// of its own, joined to this one by a veth pair whose two ends are rate-limited with tbf (this
// kernel has tbf and htb, not netem), as the seed study's 54 Mbit/s wireless link did. Traffic
// only ever flows between the host end and the namespace. The addresses are a free /30 of
// 198.18.0.0/24, from the range RFC 2544 sets aside for benchmark tests, checked against every
// network already on this machine, so they reach nothing but this project's test host.
// Everything is removed by removeLink(), also from an exit handler when the run is interrupted.

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

// RFC 2544's range for benchmarking network devices; a /30 of it that no interface here overlaps.
const BENCHMARK_NET = '198.18.0';
const RATE_PATTERN = /^(\d+(?:\.\d+)?)(bit|kbit|mbit|gbit|bps|kbps|mbps|gbps)$/i;
const BITS_PER_UNIT = { bit: 1, kbit: 1e3, mbit: 1e6, gbit: 1e9, bps: 8, kbps: 8e3, mbps: 8e6, gbps: 8e9 };

class LinkError extends Error {}

/** Parses a tc rate such as '54mbit' into bits per second; throws LinkError when it is not one. */
function parseRate(text) {
  const match = RATE_PATTERN.exec(String(text).trim());
  if (!match || Number(match[1]) <= 0) {
    throw new LinkError(`--link takes a rate such as 54mbit, 1gbit or 512kbit (tc units), got '${text}'`);
  }
  return Number(match[1]) * BITS_PER_UNIT[match[2].toLowerCase()];
}

function run(args, { quiet = false } = {}) {
  try {
    return execFileSync(args[0], args.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10000 });
  } catch (err) {
    if (quiet) return null;
    const detail = (err.stderr || err.message || '').toString().trim().split('\n')[0];
    throw new LinkError(`${args.join(' ')} failed: ${detail}`);
  }
}

/** Says in one line why a link cannot be made here, or returns null when it can. */
function linkUnavailableReason() {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    return '--link needs root (it creates a network namespace and tc queues): run as root, or leave --link out';
  }
  for (const tool of ['ip', 'tc']) {
    if (run(['sh', '-c', `command -v ${tool}`], { quiet: true }) === null) {
      return `--link needs '${tool}', which is missing: install Debian's iproute2 (apt-get install iproute2)`;
    }
  }
  return null;
}

function ipToNumber(ip) {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/** The networks of this namespace's IPv4 addresses, as [first, last] address numbers. */
function usedNetworks() {
  const text = run(['ip', '-o', '-4', 'addr', 'show'], { quiet: true }) || '';
  return [...text.matchAll(/inet (\d+\.\d+\.\d+\.\d+)\/(\d+)/g)].map(([, ip, bits]) => {
    const size = 2 ** (32 - Number(bits));
    const first = Math.floor(ipToNumber(ip) / size) * size;
    return [first, first + size - 1];
  });
}

/**
 * The first aligned block of the benchmarking range, of `hosts` usable addresses or more, that
 * overlaps no network here: { addresses (the usable ones, in order), prefix (its bits) }.
 */
function freeAddressBlock(hosts) {
  let size = 4;
  while (size - 2 < hosts) size *= 2;
  const used = usedNetworks();
  for (let base = 0; base + size <= 256; base += size) {
    const first = ipToNumber(`${BENCHMARK_NET}.${base}`);
    if (!used.some(([lo, hi]) => first <= hi && first + size - 1 >= lo)) {
      const addresses = Array.from({ length: size - 2 }, (_, i) => `${BENCHMARK_NET}.${base + 1 + i}`);
      return { addresses, prefix: 32 - Math.log2(size) };
    }
  }
  throw new LinkError(`no free block of ${size} addresses left in ${BENCHMARK_NET}.0/24: remove stale namespaces (ip netns list; ip netns del evn-…)`);
}

// Choosing a free block and putting its first address on a device are one step for every
// process of this project: two runs starting at once (two --link runs, npm test's parallel lane)
// would otherwise both see the same block free. The lock is a directory (mkdir is atomic) holding
// its owner's pid; one whose owner has exited is taken over. Written here rather than taken from
// a lock library: the callers are synchronous (execFileSync throughout), and proper-lockfile's
// synchronous lock does not wait.
const ADDRESS_LOCK = path.join(os.tmpdir(), 'em-vs-node-addresses.lock');
const ADDRESS_LOCK_WAIT_MS = 15000;

function lockOwnerGone() {
  let pid;
  try {
    pid = Number(fs.readFileSync(path.join(ADDRESS_LOCK, 'pid'), 'utf8'));
  } catch {
    // Made, its pid not yet written: gone only if it stayed so (its maker died in between).
    try {
      return Date.now() - fs.statSync(ADDRESS_LOCK).mtimeMs > 2000;
    } catch {
      return true;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return err.code === 'ESRCH';
  }
}

/**
 * Runs assign(block), block being freeAddressBlock(hosts), while no other process chooses one;
 * assign must put an address of the block on a device here (what makes the next choice skip it).
 * Returns what assign returns.
 */
function withFreeAddressBlock(hosts, assign) {
  const deadline = Date.now() + ADDRESS_LOCK_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      fs.mkdirSync(ADDRESS_LOCK);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw new LinkError(`cannot make ${ADDRESS_LOCK}: ${err.message}`);
    }
    if (lockOwnerGone()) {
      fs.rmSync(ADDRESS_LOCK, { recursive: true, force: true });
    } else if (Date.now() > deadline) {
      throw new LinkError(`another process has held ${ADDRESS_LOCK} for ${ADDRESS_LOCK_WAIT_MS / 1000} s while choosing its network addresses; if no run is starting, remove it`);
    } else {
      Atomics.wait(pause, 0, 0, 20);
    }
  }
  try {
    fs.writeFileSync(path.join(ADDRESS_LOCK, 'pid'), String(process.pid));
    return assign(freeAddressBlock(hosts));
  } finally {
    fs.rmSync(ADDRESS_LOCK, { recursive: true, force: true });
  }
}

/** tbf on one device: the rate, a burst of 10 ms at that rate (at least one jumbo frame), a 50 ms queue. */
function shape(namespaceArgs, device, rateBits) {
  const burstBytes = Math.max(Math.ceil(rateBits / 8 / 100), 16 * 1024);
  run([...namespaceArgs, 'tc', 'qdisc', 'add', 'dev', device, 'root', 'tbf', 'rate', `${rateBits}bit`, 'burst', String(burstBytes), 'latency', '50ms']);
}

const liveLinks = new Set();
let exitHookInstalled = false;

/**
 * Creates the namespace and the shaped veth pair. Returns { namespace, serverAddress,
 * hostAddress, rateBits, commandPrefix } where commandPrefix runs a command inside the
 * namespace (`ip netns exec` execs it, so the pid is the command's own).
 */
function createLink(rateText, { tag = String(process.pid) } = {}) {
  const rateBits = parseRate(rateText);
  const reason = linkUnavailableReason();
  if (reason) throw new LinkError(reason);
  const suffix = tag.slice(-6);
  const link = { namespace: `evn-${suffix}`, hostDevice: `evnh${suffix}`, serverDevice: `evns${suffix}` };
  liveLinks.add(link);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => liveLinks.forEach(removeLink));
  }
  const inNamespace = ['ip', 'netns', 'exec', link.namespace];
  let hostAddress;
  let serverAddress;
  try {
    run(['ip', 'netns', 'add', link.namespace]);
    run(['ip', 'link', 'add', link.hostDevice, 'type', 'veth', 'peer', 'name', link.serverDevice]);
    run(['ip', 'link', 'set', link.serverDevice, 'netns', link.namespace]);
    [hostAddress, serverAddress] = withFreeAddressBlock(2, ({ addresses }) => {
      run(['ip', 'addr', 'add', `${addresses[0]}/30`, 'dev', link.hostDevice]);
      return addresses;
    });
    run(['ip', 'link', 'set', link.hostDevice, 'up']);
    run([...inNamespace, 'ip', 'addr', 'add', `${serverAddress}/30`, 'dev', link.serverDevice]);
    run([...inNamespace, 'ip', 'link', 'set', link.serverDevice, 'up']);
    run([...inNamespace, 'ip', 'link', 'set', 'lo', 'up']);
    // Both directions: requests (host to server) and replies (server to host).
    shape([], link.hostDevice, rateBits);
    shape(inNamespace, link.serverDevice, rateBits);
  } catch (err) {
    removeLink(link);
    throw err;
  }
  return { ...link, serverAddress, hostAddress, rateBits, rate: rateText, commandPrefix: inNamespace };
}

/** Removes the namespace; its end of the veth pair goes with it, and so does the host end. */
function removeLink(link) {
  run(['ip', 'netns', 'del', link.namespace], { quiet: true });
  run(['ip', 'link', 'del', link.hostDevice], { quiet: true });
  liveLinks.delete(link);
}

/**
 * Bytes the link has carried so far, each way, from the host end's counters: { to_server (the
 * requests: what the host end sent), to_client (the replies: what it received), at (ms) }, or
 * null when they cannot be read. Frames as tbf counts them (Ethernet header included).
 */
function linkBytes(link) {
  const read = (name) => Number(fs.readFileSync(`/sys/class/net/${link.hostDevice}/statistics/${name}`, 'utf8'));
  try {
    return { to_server: read('tx_bytes'), to_client: read('rx_bytes'), at: performance.now() };
  } catch {
    return null;
  }
}

/**
 * What the link carried over a run, from two linkBytes readings and the run's replies, as a
 * rate over `loadS` (the load's own length, when shorter than between the readings: an engine
 * may notice its end late, while the link idles): {
 * rate_bits, to_server_mbit_s, to_client_mbit_s, busiest_pct (the fuller direction, % of the
 * link's rate), bytes_per_reply (each way), carries_rps (the replies a second the link's
 * fuller direction carries at these bytes a reply: where it saturates first) }, or null.
 */
function linkUsage(before, after, { rateBits, replies, loadS = Infinity }) {
  if (!before || !after || !(after.at > before.at)) return null;
  const seconds = Math.min((after.at - before.at) / 1000, loadS > 0 ? loadS : Infinity);
  const bytes = { to_server: after.to_server - before.to_server, to_client: after.to_client - before.to_client };
  const fuller = Math.max(bytes.to_server, bytes.to_client);
  const mbit = (n) => Math.round(((n * 8) / seconds / 1e6) * 1000) / 1000;
  return {
    rate_bits: rateBits,
    to_server_mbit_s: mbit(bytes.to_server),
    to_client_mbit_s: mbit(bytes.to_client),
    busiest_pct: Math.round(((fuller * 8) / seconds / rateBits) * 1000) / 10,
    busiest: bytes.to_client >= bytes.to_server ? 'to_client' : 'to_server',
    bytes_per_reply: replies > 0 ? { to_server: Math.round(bytes.to_server / replies), to_client: Math.round(bytes.to_client / replies) } : null,
    carries_rps: replies > 0 && fuller > 0 ? Math.round(rateBits / 8 / (fuller / replies)) : null,
  };
}

/** Whether a namespace of that name exists (for tests and for the runner's own checks). */
function namespaceExists(name) {
  const list = run(['ip', 'netns', 'list'], { quiet: true }) || '';
  return list.split('\n').some((line) => line.split(' ')[0] === name);
}

module.exports = { createLink, removeLink, linkBytes, linkUsage, parseRate, linkUnavailableReason, namespaceExists, freeAddressBlock, withFreeAddressBlock, ADDRESS_LOCK, run, LinkError };
