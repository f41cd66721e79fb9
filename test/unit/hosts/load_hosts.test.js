'use strict';
// The load hosts of the Tsung engine (perf/lib/hosts/load_hosts.js): --load-hosts as written,
// the name table Tsung's Erlang nodes use, the run's epmd port, what results.json records,
// hosts' clocks measured through a remote shell (here a local script standing in for ssh) and
// refused when off, processes found by network namespace, and (as root) netns hosts made for a
// run: reachable over ssh with the run's own key, their daemons on their own address only, their
// clocks measured, everything gone after.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const { spawn, spawnSync, execFileSync } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');
const { parseLoadHosts, createNetnsHosts, removeLoadHosts, checkClocks, pidsInNamespace, namespaceId, netnsHostsUnavailableReason, inetrcText, freeEpmdPort, portsInUse, sshHosts, loadHostsEnvironment, LoadHostsError, MAX_CLOCK_OFFSET_MS } = require('../../../perf/lib/hosts/load_hosts');
const { namespaceExists, linkUnavailableReason } = require('../../../perf/lib/hosts/netns');
const { readOverRemoteShell } = require('../../../perf/lib/engines/tsung');
const { alive, makeTmpDir } = require('../../support/runner_helpers');

describe('load hosts: --load-hosts', () => {
  it('reads netns:N and host lists', () => {
    assert.deepEqual(parseLoadHosts('netns:2'), { kind: 'netns', count: 2 });
    assert.deepEqual(parseLoadHosts(' load1.example.org,load2 '), { kind: 'ssh', hosts: ['load1.example.org', 'load2'] });
  });

  it('refuses what is neither, in one line', () => {
    for (const [text, re] of [
      ['netns:9', /makes 1 to 8 load hosts/],
      ['netns:x', /makes 1 to 8 load hosts on this machine \(got 'netns:x'\)/],
      ['', /'' is not a host name/],
      ['a b', /'a b' is not a host name/],
      ['root@h1', /'root@h1' is not a host name/],
      ['h1,h1', /names h1 twice/],
    ]) {
      assert.throws(() => parseLoadHosts(text), (err) => err instanceof LoadHostsError && re.test(err.message) && !err.message.includes('\n'), text);
    }
  });

  it('writes the name table Erlang reads (ERL_INETRC): each name at its address, the table first', () => {
    assert.equal(inetrcText([{ name: 'vm', address: '198.18.0.1' }, { name: 'evn-h1-1', address: '198.18.0.3' }]), '{host, {198,18,0,1}, ["vm"]}.\n{host, {198,18,0,3}, ["evn-h1-1"]}.\n{lookup, [file, native]}.\n');
  });
});

describe('load hosts: the run\'s epmd port', () => {
  it('skips a port some socket here holds (here: a listener on 127.0.0.1 at the first free one)', async () => {
    const first = freeEpmdPort(['127.0.0.1']);
    const holder = net.createServer();
    await new Promise((resolve) => holder.listen(first, '127.0.0.1', resolve));
    try {
      const next = freeEpmdPort(['127.0.0.1']);
      assert.ok(next > first, `${next} after ${first}`);
    } finally {
      holder.close();
    }
  });
});

describe('load hosts: ports in use', () => {
  /** Listens on address:0; resolves the server. */
  const listening = (address) => new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject).listen(0, address, () => resolve(server));
  });

  /** Closes a server; resolves once it is closed. */
  const closed = (server) => new Promise((resolve) => server.close(resolve));

  /**
   * Whether a socket of this machine, in any state (a listener, a connection, one in
   * TIME-WAIT), has port as its local port on 127.0.0.1 or on every address, as ss (iproute2)
   * lists them: the test's own witness, not the reader of /proc/net/tcp under test. A listener's
   * bind cannot tell (Node sets SO_REUSEADDR: it binds over sockets in TIME-WAIT, which rightly
   * count as in use), and a test lane beside this one opens and closes thousands of loopback
   * connections whose local ports come from the same range as a listener's port 0.
   */
  const heldOnLoopback = (port) =>
    execFileSync('ss', ['-Htan', 'state', 'all', `( sport = :${port} )`], { encoding: 'utf8' })
      .split('\n')
      .some((line) => /^\S+\s+\d+\s+\d+\s+(127\.0\.0\.1|0\.0\.0\.0|\*|\[::\]|\[::ffff:127\.0\.0\.1\]):\d+\s/.test(line.trim()));

  it('a port held on one of the addresses, or on every address, is in use; one held elsewhere is not', async () => {
    const [loopback, any] = await Promise.all([listening('127.0.0.1'), listening('0.0.0.0')]);
    try {
      const used = portsInUse(['127.0.0.1']);
      assert.ok(used.has(loopback.address().port) && used.has(any.address().port));
      assert.ok(heldOnLoopback(loopback.address().port) && heldOnLoopback(any.address().port), 'the witness sees them too');
      // A port held on 127.0.0.2 only, while the witness saw nothing on 127.0.0.1 before and
      // after the reading (else another port: something took it meanwhile).
      let checked = false;
      for (let attempt = 0; attempt < 20 && !checked; attempt += 1) {
        const other = await listening('127.0.0.2');
        const port = other.address().port;
        try {
          if (heldOnLoopback(port)) continue;
          const seen = portsInUse(['127.0.0.1']).has(port);
          if (heldOnLoopback(port)) continue;
          assert.equal(seen, false, `port ${port}: held on 127.0.0.2 only`);
          assert.ok(portsInUse(['127.0.0.2']).has(port));
          checked = true;
        } finally {
          await closed(other);
        }
      }
      assert.ok(checked, 'a port held on 127.0.0.2 only, among 20');
    } finally {
      for (const server of [loopback, any]) server.close();
    }
  });
});

describe('load hosts: named hosts and what results.json records', () => {
  it('hosts reached with the user\'s own ssh: their names, nothing made for them', () => {
    const hosts = sshHosts(['load1.example.org', 'load2']);
    assert.deepEqual(hosts.hosts, [{ name: 'load1.example.org', address: null, namespace: null }, { name: 'load2', address: null, namespace: null }]);
    assert.deepEqual([hosts.kind, hosts.remoteShell, hosts.server, hosts.dir, hosts.env, hosts.sshdDaemons], ['ssh', 'ssh', null, null, {}, []]);
  });

  it('each host with its address and its clock (null until measured); the servers\' address when made here', () => {
    const hosts = sshHosts(['a', 'b']);
    hosts.clocks = { a: { offset_ms: 1.5, uncertainty_ms: 0.2 } };
    const env = loadHostsEnvironment(hosts);
    assert.deepEqual(env.hosts, [{ name: 'a', address: null, clock: { offset_ms: 1.5, uncertainty_ms: 0.2 } }, { name: 'b', address: null, clock: null }]);
    assert.deepEqual([env.kind, env.server_address, env.controller], ['ssh', null, hosts.controller]);
    const made = { kind: 'netns', hosts: [{ name: 'evn-h1-1', address: '198.18.0.3' }], server: { address: '198.18.0.2' }, controller: { name: 'vm', address: '198.18.0.1' } };
    assert.deepEqual(loadHostsEnvironment(made), { kind: 'netns', hosts: [{ name: 'evn-h1-1', address: '198.18.0.3', clock: null }], server_address: '198.18.0.2', controller: { name: 'vm', address: '198.18.0.1' } });
  });
});

describe('load hosts: their clocks', function () {
  this.timeout(30000);
  // Stands in for ssh: runs the command here, as ssh would on the host. A host named skewN has
  // a clock N ms ahead of this machine's; 'slow' answers at once the first time and 100 ms late
  // after that; 'down' cannot be reached (ssh fails after trying); 'gone' fails at once, before
  // it reads what it is sent.
  const REMOTE_SHELL = `#!/bin/sh
host="$1"
shift
case "$host" in
  down) sleep 0.2; echo "ssh: connect to host down port 22: Connection refused" >&2; exit 255 ;;
  gone) echo "ssh: Could not resolve hostname gone" >&2; exit 255 ;;
  slow) exec sh -c 'n=0; while read -r line; do [ $n -gt 0 ] && sleep 0.1; n=1; date +%s%N; done' ;;
  skew*) skew="\${host#skew}"; exec sh -c 'while read -r line; do echo $(( $(date +%s%N) + '"$skew"' * 1000000 )); done' ;;
  *) exec sh -c "$*" ;;
esac
`;
  let remoteShell;
  before(() => {
    remoteShell = path.join(makeTmpDir('remote-shell-'), 'remote_shell');
    fs.writeFileSync(remoteShell, REMOTE_SHELL, { mode: 0o700 });
  });
  const hostsNamed = (...names) => ({ ...sshHosts(names), remoteShell });

  it('measures each host\'s offset from this machine\'s clock, within half a round trip', async () => {
    const hosts = hostsNamed('here', 'skew60');
    const clocks = await checkClocks(hosts);
    assert.deepEqual(Object.keys(clocks), ['here', 'skew60']);
    assert.equal(hosts.clocks, clocks);
    for (const [name, offset] of [['here', 0], ['skew60', 60]]) {
      const c = clocks[name];
      // The offset is measured in whole ms on this side: one more of slack.
      assert.ok(Math.abs(c.offset_ms - offset) <= c.uncertainty_ms + 1, `${name}: ${JSON.stringify(c)}`);
    }
  });

  it('keeps the best of its rounds: the one with the shortest round trip', async () => {
    const { slow } = await checkClocks(hostsNamed('slow'));
    assert.ok(slow.uncertainty_ms < 50, JSON.stringify(slow));
  });

  it(`refuses a host whose clock is more than ${MAX_CLOCK_OFFSET_MS} ms off, in one line`, async () => {
    await assert.rejects(checkClocks(hostsNamed('here', 'skew300')), (err) => {
      const m = /^load host skew300's clock is (\d+) ms off this machine's \(more than 100 ms\): .*synchronise the clocks \(NTP\) and run again$/.exec(err.message);
      return err instanceof LoadHostsError && m && Math.abs(Number(m[1]) - 300) <= 10 && !err.message.includes('\n');
    });
  });

  it('refuses a host out of reach, with what its remote shell said', async () => {
    await assert.rejects(checkClocks(hostsNamed('down')), (err) => err instanceof LoadHostsError && err.message === `cannot reach load host down through its remote shell (${remoteShell}): ssh: connect to host down port 22: Connection refused`);
  });

  it('a remote shell that exits before it reads: the same one line, never a crash on the pipe (EPIPE), every time', async () => {
    for (let i = 0; i < 20; i++) {
      await assert.rejects(checkClocks(hostsNamed('gone')), (err) => err instanceof LoadHostsError && err.message === `cannot reach load host gone through its remote shell (${remoteShell}): ssh: Could not resolve hostname gone`);
    }
  });
});

describe('load hosts: processes by network namespace (root)', function () {
  this.timeout(20000);
  const namespace = `evn-t${process.pid}`.slice(0, 15);
  let child;
  before(function () {
    if (linkUnavailableReason()) this.skip();
    spawnSync('ip', ['netns', 'add', namespace]);
  });
  after(() => {
    if (child) child.kill('SIGKILL');
    spawnSync('ip', ['netns', 'del', namespace]);
  });

  it('finds the processes in a namespace, by the id /proc gives it; none for a namespace that does not exist', async () => {
    child = spawn('ip', ['netns', 'exec', namespace, process.execPath, '-e', "console.log('in'); setInterval(() => {}, 1000)"], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => child.stdout.once('data', resolve));
    assert.equal(namespaceId(namespace), fs.readlinkSync(`/proc/${child.pid}/ns/net`));
    assert.notEqual(namespaceId(namespace), fs.readlinkSync('/proc/self/ns/net'));
    assert.deepEqual(pidsInNamespace(namespace), [child.pid]);
    assert.equal(namespaceId('evn-no-such-namespace'), null);
    assert.deepEqual(pidsInNamespace('evn-no-such-namespace'), []);
  });
});

/** Runs COMMAND on HOST through a remote shell; resolves { status, stdout, stderr }. */
function remoteShellRun(remoteShell, host, command) {
  return new Promise((resolve, reject) => {
    const child = spawn(remoteShell, [host, command], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 15000 });
    const out = { stdout: '', stderr: '' };
    child.stdout.on('data', (chunk) => {
      out.stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out.stderr += chunk;
    });
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, ...out }));
  });
}

describe('load hosts: netns hosts made for a run (root)', function () {
  this.timeout(60000);
  before(function () {
    if (netnsHostsUnavailableReason()) this.skip();
  });

  it('are reachable over ssh with the run\'s key, listen on their own address only, have clocks, and are gone after', async () => {
    const hosts = createNetnsHosts(2, { tag: `t${process.pid}` });
    let removed = false;
    try {
      assert.equal(hosts.hosts.length, 2);
      // Both hosts asked at once (an ssh session costs about half a second to set up).
      const answers = await Promise.all(hosts.hosts.map((host) => remoteShellRun(hosts.remoteShell, host.name, "sh -c 'echo $ERL_INETRC; ip -o -4 addr show'")));
      for (const [i, host] of hosts.hosts.entries()) {
        assert.ok(namespaceExists(host.namespace));
        const res = answers[i];
        assert.equal(res.status, 0, res.stderr);
        assert.match(res.stdout, /inetrc\n/);
        assert.ok(hosts.env.ERL_EPMD_PORT > 0);
        assert.ok(res.stdout.includes(` ${host.address}/`), res.stdout);
        // The ssh daemon listens on the host's address, not on every address.
        const listening = spawnSync('ip', ['netns', 'exec', host.namespace, 'ss', '-Hltn'], { encoding: 'utf8' }).stdout;
        assert.match(listening, new RegExp(`${host.address.replace(/\./g, '\\.')}:22\\b`));
        assert.doesNotMatch(listening, /(0\.0\.0\.0|\*|\[::\]):22\b/);
      }
      assert.ok(hosts.hosts.every((h) => h.address !== hosts.server.address));
      // How the Tsung engine fetches a dump from a host that does not share this filesystem.
      const file = `${makeTmpDir('remote-read-')}/it's a dump`;
      fs.writeFileSync(file, '1.5;<0.1.0>;1;get;h;/;200;10;1.25;-;;;\n');
      assert.equal(readOverRemoteShell(hosts, hosts.hosts[1].name, file), '1.5;<0.1.0>;1;get;h;/;200;10;1.25;-;;;\n');
      assert.equal(readOverRemoteShell(hosts, hosts.hosts[1].name, `${file}.missing`), '');
      const clocks = await checkClocks(hosts);
      for (const host of hosts.hosts) assert.ok(Math.abs(clocks[host.name].offset_ms) < 50, JSON.stringify(clocks));
      const daemons = [...hosts.sshdDaemons];
      const { namespace } = hosts.hosts[0];
      removeLoadHosts(hosts);
      removed = true;
      for (const host of hosts.hosts) assert.equal(namespaceExists(host.namespace), false);
      assert.equal(namespaceExists(hosts.server.namespace), false);
      assert.equal(fs.existsSync(hosts.dir), false);
      assert.deepEqual(pidsInNamespace(namespace), []);
      for (const pid of daemons) assert.equal(alive(pid), false, `sshd ${pid} still runs`);
      assert.doesNotMatch(spawnSync('ip', ['-o', 'link'], { encoding: 'utf8' }).stdout, new RegExp(`evnb${String(`t${process.pid}`).slice(-5)}`));
    } finally {
      if (!removed) removeLoadHosts(hosts);
    }
  });
});
