'use strict';
// The load hosts of the Tsung engine: --load-hosts as written, the name table Tsung's Erlang
// nodes use, and (as root) netns hosts made for a run: reachable over ssh with the run's own
// key, their daemons on their own address only, their clocks measured, everything gone after.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const net = require('node:net');
const { parseLoadHosts, createNetnsHosts, removeLoadHosts, checkClocks, pidsInNamespace, netnsHostsUnavailableReason, inetrcText, freeEpmdPort, LoadHostsError } = require('../../../perf/lib/hosts/load_hosts');
const { namespaceExists } = require('../../../perf/lib/hosts/netns');
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
      for (const host of hosts.hosts) {
        assert.ok(namespaceExists(host.namespace));
        const res = spawnSync(hosts.remoteShell, [host.name, "sh -c 'echo $ERL_INETRC; ip -o -4 addr show'"], { encoding: 'utf8', timeout: 15000 });
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
