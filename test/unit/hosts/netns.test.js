'use strict';
// --link's network (perf/lib/hosts/netns.js): rates in tc units, the addresses it takes, its
// commands' errors, why it cannot be made, and (as root) a namespace behind a veth pair shaped
// with tbf, removed after; skipped without root.

const assert = require('node:assert/strict');
const http = require('node:http');
const fs = require('node:fs');
const { spawn, spawnSync } = require('node:child_process');
const path = require('node:path');
const { createLink, removeLink, linkBytes, linkUsage, parseRate, namespaceExists, linkUnavailableReason, run, LinkError, ADDRESS_LOCK } = require('../../../perf/lib/hosts/netns');
const { makeTmpDir } = require('../../support/runner_helpers');

const NETNS = path.join(__dirname, '..', '..', '..', 'perf', 'lib', 'hosts', 'netns.js');

/**
 * What `expression` (of the netns module, `n`, from `module`) gives in a node run by `sh -c`
 * after `setup` (shell commands), as JSON; with options.netns, in a network namespace of its own
 * (unshare -n) where only loopback exists, so its addresses are the test's. options: spawnSync's.
 */
function inProcess(expression, { setup = 'true', netns = false, module = NETNS, ...options } = {}) {
  const script = `const n = require(${JSON.stringify(module)}); try { console.log(JSON.stringify(${expression})); } catch (err) { console.log(JSON.stringify({ thrown: err.message, link: err instanceof n.LinkError })); }`;
  const argv = [...(netns ? ['unshare', '-n'] : []), 'sh', '-c', `${setup} && exec "$0" -e "$1"`, process.execPath, script];
  const res = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', ...options });
  assert.equal(res.status, 0, res.stderr);
  return JSON.parse(res.stdout);
}

/** A directory holding links to these programs only, for a PATH without the others. */
function binWith(programs) {
  const dir = makeTmpDir('netns-path-');
  for (const name of programs) fs.symlinkSync(spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim(), path.join(dir, name));
  return dir;
}

const SERVE_BYTES = 1024 * 1024;
// A server inside the namespace: 1 MiB to every request, then its ready line.
const SERVER_SCRIPT = `
const http = require('node:http');
const body = Buffer.alloc(${SERVE_BYTES}, 97);
const server = http.createServer((req, res) => res.end(body));
server.listen(8099, process.argv[1], () => console.log('ready'));
process.on('SIGTERM', () => process.exit(0));
`;

function startInside(link) {
  return new Promise((resolve, reject) => {
    const child = spawn(link.commandPrefix[0], [...link.commandPrefix.slice(1), process.execPath, '-e', SERVER_SCRIPT, link.serverAddress]);
    child.stdout.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}

function fetchTimed(host) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    http
      .get({ host, port: 8099, path: '/', agent: false }, (res) => {
        let bytes = 0;
        res.on('data', (c) => {
          bytes += c.length;
        });
        res.on('end', () => resolve({ bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 }));
      })
      .on('error', reject);
  });
}

describe('--link: a rate-limited network namespace', function () {
  this.timeout(30000);

  it('reads rates in tc units and refuses anything else in one line', () => {
    assert.equal(parseRate('54mbit'), 54e6);
    assert.equal(parseRate('1gbit'), 1e9);
    assert.equal(parseRate('512kbit'), 512e3);
    for (const bad of ['fast', '54', '-1mbit', '54 furlongs']) assert.throws(() => parseRate(bad), /--link takes a rate such as 54mbit/);
  });

  it('reads tc\'s byte units and fractions, in any case; a rate of zero is no rate', () => {
    assert.equal(parseRate('10kbps'), 80e3);
    assert.equal(parseRate('2MBps'), 16e6);
    assert.equal(parseRate(' 1.5Mbit '), 1.5e6);
    assert.throws(() => parseRate('0mbit'), (err) => err instanceof LinkError && err.message === "--link takes a rate such as 54mbit, 1gbit or 512kbit (tc units), got '0mbit'");
  });

  it('what the link carried: each way\'s Mbit/s over the load, the fuller way\'s share of the rate, bytes a reply, the replies a second it carries', () => {
    const before = { to_server: 1000, to_client: 5000, at: 0 };
    const after = { to_server: 1000 + 250000, to_client: 5000 + 675000, at: 2000 };
    assert.deepEqual(linkUsage(before, after, { rateBits: 4e6, replies: 1000, loadS: 1.5 }), {
      rate_bits: 4e6,
      to_server_mbit_s: 1.333,
      to_client_mbit_s: 3.6,
      busiest_pct: 90,
      busiest: 'to_client',
      bytes_per_reply: { to_server: 250, to_client: 675 },
      carries_rps: 741,
    });
    assert.equal(linkUsage(before, after, { rateBits: 4e6, replies: 1000 }).busiest_pct, 67.5, 'over the readings\' window without a load length');
    assert.equal(linkUsage(null, after, { rateBits: 4e6, replies: 1 }), null, 'counters not read: nothing said');
    assert.deepEqual([linkUsage(before, after, { rateBits: 4e6, replies: 0 }).bytes_per_reply, linkUsage(before, after, { rateBits: 4e6, replies: 0 }).carries_rps], [null, null]);
  });

  it('a command that fails: one line with the command and the first line of what it said; quiet, null', () => {
    assert.throws(() => run(['sh', '-c', 'echo first >&2; echo second >&2; exit 3']), (err) => err instanceof LinkError && err.message === 'sh -c echo first >&2; echo second >&2; exit 3 failed: first');
    assert.equal(run(['sh', '-c', 'exit 3'], { quiet: true }), null);
    assert.equal(run(['sh', '-c', 'echo out']), 'out\n');
  });

  describe('why it cannot be made here', () => {
    before(function () {
      if (process.getuid() !== 0) this.skip(); // the cases below start processes as another user or with another PATH
    });

    it('without root: run as root or leave --link out', () => {
      // Read by another user: a copy any user can read (the module needs nothing but node's own).
      const dir = makeTmpDir('netns-copy-');
      fs.chmodSync(dir, 0o755);
      const copy = path.join(dir, 'netns.js');
      fs.copyFileSync(NETNS, copy);
      assert.equal(inProcess('n.linkUnavailableReason()', { module: copy, uid: 65534, gid: 65534, cwd: '/' }), '--link needs root (it creates a network namespace and tc queues): run as root, or leave --link out');
    });

    it('without ip, or without tc: install iproute2', () => {
      assert.equal(inProcess('n.linkUnavailableReason()', { env: { PATH: binWith(['sh']) } }), "--link needs 'ip', which is missing: install Debian's iproute2 (apt-get install iproute2)");
      assert.equal(inProcess('n.linkUnavailableReason()', { env: { PATH: binWith(['sh', 'ip']) } }), "--link needs 'tc', which is missing: install Debian's iproute2 (apt-get install iproute2)");
    });
  });

  describe('its addresses', () => {
    before(function () {
      if (linkUnavailableReason() || spawnSync('unshare', ['-n', 'true']).status !== 0) this.skip();
    });

    it('the first block of 198.18.0.0/24 large enough that no network here overlaps', () => {
      assert.deepEqual(inProcess('n.freeAddressBlock(2)', { netns: true }), { addresses: ['198.18.0.1', '198.18.0.2'], prefix: 30 });
      const used = 'ip link set lo up && ip addr add 198.18.0.1/30 dev lo';
      assert.deepEqual(inProcess('n.freeAddressBlock(2)', { netns: true, setup: used }), { addresses: ['198.18.0.5', '198.18.0.6'], prefix: 30 });
      // Three addresses (a load host, its server and the bridge) take a block of eight.
      assert.deepEqual(inProcess('n.freeAddressBlock(3)', { netns: true, setup: used }), { addresses: ['198.18.0.9', '198.18.0.10', '198.18.0.11', '198.18.0.12', '198.18.0.13', '198.18.0.14'], prefix: 29 });
      // One address used at the very end of the first block is enough to skip it.
      assert.deepEqual(inProcess('n.freeAddressBlock(2)', { netns: true, setup: 'ip link set lo up && ip addr add 198.18.0.3/32 dev lo' }), { addresses: ['198.18.0.5', '198.18.0.6'], prefix: 30 });
    });

    it('chosen by one process at a time: processes starting at once each get a block of their own; a lock whose owner exited is taken over', async () => {
      const namespace = `evn-lk${process.pid}`.slice(0, 15);
      run(['ip', 'netns', 'add', namespace]);
      try {
        run(['ip', 'netns', 'exec', namespace, 'ip', 'link', 'set', 'lo', 'up']);
        // Each waits 200 ms between choosing its block and taking it: without the lock, all four
        // would choose the first.
        const script = `const n = require(${JSON.stringify(NETNS)}); const b = n.withFreeAddressBlock(2, (block) => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200); n.run(['ip', 'addr', 'add', block.addresses[0] + '/30', 'dev', 'lo']); return block; }); console.log(b.addresses[0]);`;
        const choose = () => new Promise((resolve, reject) => {
          const child = spawn('ip', ['netns', 'exec', namespace, process.execPath, '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
          let out = '';
          child.stdout.on('data', (c) => { out += c; });
          child.on('error', reject);
          child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}`))));
        });
        const chosen = await Promise.all([choose(), choose(), choose(), choose()]);
        assert.deepEqual(chosen.slice().sort(), ['198.18.0.1', '198.18.0.13', '198.18.0.5', '198.18.0.9']);
        // A lock left by a process that has exited (its pid no longer runs) does not stop the next.
        const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim();
        fs.mkdirSync(ADDRESS_LOCK);
        fs.writeFileSync(path.join(ADDRESS_LOCK, 'pid'), gone);
        assert.equal(await choose(), '198.18.0.17');
        assert.equal(fs.existsSync(ADDRESS_LOCK), false, 'released');
      } finally {
        run(['ip', 'netns', 'del', namespace], { quiet: true });
      }
    });

    it('none left: one line saying how to free some', () => {
      const taken = inProcess('n.freeAddressBlock(2)', { netns: true, setup: 'ip link set lo up && ip addr add 198.18.0.77/24 dev lo' });
      assert.deepEqual(taken, { thrown: 'no free block of 4 addresses left in 198.18.0.0/24: remove stale namespaces (ip netns list; ip netns del evn-…)', link: true });
    });
  });

  describe('as root', () => {
    before(function () {
      if (linkUnavailableReason()) this.skip();
    });

    it('carries traffic between the host and the namespace no faster than the rate, and is removed after', async () => {
      const link = createLink('8mbit', { tag: `t${process.pid}` });
      let server;
      try {
        assert.ok(namespaceExists(link.namespace));
        server = await startInside(link);
        const before = linkBytes(link);
        const { bytes, seconds } = await fetchTimed(link.serverAddress);
        const usage = linkUsage(before, linkBytes(link), { rateBits: link.rateBits, replies: 1 });
        assert.equal(bytes, SERVE_BYTES);
        // The host end's counters saw the reply cross toward the client, framing included.
        assert.equal(usage.busiest, 'to_client');
        assert.ok(usage.bytes_per_reply.to_client > SERVE_BYTES && usage.bytes_per_reply.to_client < SERVE_BYTES * 1.1, JSON.stringify(usage));
        const bitsPerSecond = (bytes * 8) / seconds;
        // A shaped link can be slower than its rate on a busy machine, never much faster.
        assert.ok(bitsPerSecond < 8e6 * 1.25, `${(bitsPerSecond / 1e6).toFixed(1)} Mbit/s through an 8 Mbit/s link`);
      } finally {
        if (server) server.kill('SIGTERM');
        removeLink(link);
      }
      assert.equal(namespaceExists(link.namespace), false);
    });

    it('is removed when the process that made it is interrupted', async () => {
      const tag = `i${process.pid}`;
      const script = `
        const { createLink } = require(${JSON.stringify(path.join(__dirname, '..', '..', '..', 'perf', 'lib', 'hosts', 'netns.js'))});
        createLink('1mbit', { tag: ${JSON.stringify(tag)} });
        process.on('SIGINT', () => process.exit(130));
        console.log('made');
        setInterval(() => {}, 1000);
      `;
      const child = spawn(process.execPath, ['-e', script]);
      await new Promise((resolve, reject) => {
        child.stdout.once('data', resolve);
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      assert.ok(namespaceExists(`evn-${tag.slice(-6)}`));
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
      assert.equal(namespaceExists(`evn-${tag.slice(-6)}`), false);
    });
  });
});
