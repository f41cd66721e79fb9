'use strict';
// The load hosts of the distributed engine (--engine tsung --load-hosts LIST): the machines
// Tsung's agents run on. LIST is either
//   HOST,HOST,…  machines the user reaches with their own ssh (keys, ~/.ssh/config), each with
//                Tsung installed; the server must be reachable from them (--target URL).
//   netns:N      N load hosts made on this machine for the run: a bridge, a network namespace
//                per host and one for the server (as --link does), an ssh daemon in each host
//                namespace with a host key and a client key made for the run, and a name table
//                (ERL_INETRC) so that Tsung's Erlang nodes find each other by name. This is how
//                the engine is tested here; the same ssh path is taken as with real hosts.
// Erlang's distribution trusts anyone who knows the cookie, and Tsung's is fixed ("tsung"):
// here the controller's epmd and distribution port listen on the bridge (and loopback) only,
// and the agents' are inside their namespaces, which reach nothing but the bridge. Everything
// is removed by removeLoadHosts(), also from an exit handler when the run is interrupted.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { run, withFreeAddressBlock, linkUnavailableReason } = require('./netns');
const { allowedCpus } = require('./pinning');

const MAX_NETNS_HOSTS = 8;
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*$/;
const SSHD = '/usr/sbin/sshd';
// Hosts' clocks: Tsung starts every host's arrival phase at one wall-clock time the controller
// sets. A host whose clock is off by more than this sends its share of the load at another
// time than the rest, so the server does not get the load the scenario asks for.
const MAX_CLOCK_OFFSET_MS = 100;
const CLOCK_ROUNDS = 5;

class LoadHostsError extends Error {}

/** { kind: 'netns', count } or { kind: 'ssh', hosts }; throws LoadHostsError with one line. */
function parseLoadHosts(text) {
  const value = String(text ?? '').trim();
  if (value.startsWith('netns:')) {
    const count = /^netns:(\d+)$/.test(value) ? Number(value.slice(6)) : NaN;
    if (!(count >= 1 && count <= MAX_NETNS_HOSTS)) throw new LoadHostsError(`--load-hosts netns:N makes 1 to ${MAX_NETNS_HOSTS} load hosts on this machine (got '${value}')`);
    return { kind: 'netns', count };
  }
  const hosts = value.split(',').map((h) => h.trim());
  const bad = hosts.find((h) => !HOST_NAME.test(h));
  if (bad !== undefined) {
    throw new LoadHostsError(`--load-hosts takes host names separated by commas (machines reachable by ssh, with Tsung installed) or netns:N; '${bad}' is not a host name`);
  }
  const twice = hosts.find((h, i) => hosts.indexOf(h) !== i);
  if (twice) throw new LoadHostsError(`--load-hosts names ${twice} twice`);
  return { kind: 'ssh', hosts };
}

/** The Tsung controller's host name: this machine's short name (Erlang's short node names). */
function controllerName() {
  return os.hostname().split('.')[0];
}

/** Why netns load hosts cannot be made here (one line), or null. */
function netnsHostsUnavailableReason() {
  const link = linkUnavailableReason();
  if (link) return link.replace('--link', '--load-hosts netns:N');
  if (!fs.existsSync(SSHD)) return `--load-hosts netns:N needs an ssh daemon (${SSHD}): install it with scripts/setup.sh --engines tsung (Debian's openssh-server)`;
  for (const tool of ['ssh', 'ssh-keygen']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `--load-hosts netns:N needs '${tool}': install Debian's openssh-client`;
  }
  return null;
}

const liveHosts = new Set();
let exitHookInstalled = false;

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => liveHosts.forEach(removeLoadHosts));
}

function writeFile(file, text, mode = 0o600) {
  fs.writeFileSync(file, text, { mode });
  return file;
}

/** An Erlang inet configuration: each name at its address, names looked up there first. */
function inetrcText(names) {
  const lines = names.map(({ name, address }) => `{host, {${address.split('.').join(',')}}, ["${name}"]}.`);
  return `${lines.join('\n')}\n{lookup, [file, native]}.\n`;
}

function sshConfigText(hosts, dir) {
  const entries = hosts.map((h) => `Host ${h.name}\n  HostName ${h.address}\n`);
  return `${entries.join('')}Host *
  IdentityFile ${dir}/client_key
  IdentitiesOnly yes
  BatchMode yes
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  ConnectTimeout 5
  LogLevel ERROR
`;
}

function sshdConfigText(host, dir) {
  return `ListenAddress ${host.address}
Port 22
HostKey ${dir}/host_key
AuthorizedKeysFile ${dir}/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile ${dir}/sshd-${host.name}.pid
LogLevel ERROR
`;
}

// Tsung starts each agent as `<remote shell> HOST erl …`: this one goes through the run's ssh
// configuration and gives the agent the run's name table and epmd port.
function remoteShellText(dir, epmdPort) {
  return `#!/bin/sh
# Remote shell of the run's Tsung (tsung -r): HOST COMMAND…, over ssh, with the name table.
host="$1"
shift
exec ssh -F ${dir}/ssh_config "$host" "ERL_INETRC=${dir}/inetrc ERL_EPMD_PORT=${epmdPort} $*"
`;
}

/**
 * Makes N load hosts on this machine (see the header). options: { tag, cpus (the load
 * generator's CPUs: the ssh daemons, hence Tsung's agents, run there) }. Returns the hosts
 * object the engine and the runner use: { kind: 'netns', hosts: [{ name, address, namespace }],
 * server: { namespace, address, commandPrefix }, controller: { name, address }, dir,
 * remoteShell, env (for the Tsung controller) }.
 */
function createNetnsHosts(count, { tag = String(process.pid), cpus = null } = {}) {
  const reason = netnsHostsUnavailableReason();
  if (reason) throw new LoadHostsError(reason);
  const suffix = tag.slice(-5);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evn-load-hosts-'));
  fs.chmodSync(dir, 0o700);
  const state = { kind: 'netns', dir, bridge: `evnb${suffix}`, namespaces: [], devices: [], sshdPidFiles: [], epmdPort: null };
  liveHosts.add(state);
  installExitHook();
  try {
    run(['ip', 'link', 'add', state.bridge, 'type', 'bridge']);
    state.devices.push(state.bridge);
    const { addresses, prefix } = withFreeAddressBlock(count + 2, (block) => {
      run(['ip', 'addr', 'add', `${block.addresses[0]}/${block.prefix}`, 'dev', state.bridge]);
      return block;
    });
    run(['ip', 'link', 'set', state.bridge, 'up']);
    const join = (role, address) => {
      const namespace = `evn-${role}-${suffix}`;
      const outside = `ev${role}${suffix}`;
      const inside = `ep${role}${suffix}`;
      run(['ip', 'netns', 'add', namespace]);
      state.namespaces.push(namespace);
      run(['ip', 'link', 'add', outside, 'type', 'veth', 'peer', 'name', inside]);
      state.devices.push(outside);
      run(['ip', 'link', 'set', outside, 'master', state.bridge]);
      run(['ip', 'link', 'set', outside, 'up']);
      run(['ip', 'link', 'set', inside, 'netns', namespace]);
      run(['ip', '-n', namespace, 'addr', 'add', `${address}/${prefix}`, 'dev', inside]);
      run(['ip', '-n', namespace, 'link', 'set', inside, 'up']);
      run(['ip', '-n', namespace, 'link', 'set', 'lo', 'up']);
      return namespace;
    };
    const serverNamespace = join('s', addresses[1]);
    const hosts = Array.from({ length: count }, (_, i) => {
      const namespace = join(`h${i + 1}`, addresses[2 + i]);
      return { name: namespace, address: addresses[2 + i], namespace };
    });
    const controller = { name: controllerName(), address: addresses[0] };

    run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C', 'em-vs-node load hosts', '-f', path.join(dir, 'client_key')]);
    run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C', 'em-vs-node load hosts', '-f', path.join(dir, 'host_key')]);
    const clientKey = fs.readFileSync(path.join(dir, 'client_key.pub'), 'utf8').trim();
    writeFile(path.join(dir, 'authorized_keys'), `from="${controller.address}" ${clientKey}\n`);
    writeFile(path.join(dir, 'inetrc'), inetrcText([controller, ...hosts]), 0o644);
    writeFile(path.join(dir, 'ssh_config'), sshConfigText(hosts, dir));
    state.epmdPort = freeEpmdPort([controller.address, '127.0.0.1']);
    const remoteShell = writeFile(path.join(dir, 'remote_shell'), remoteShellText(dir, state.epmdPort), 0o700);
    fs.mkdirSync('/run/sshd', { recursive: true }); // sshd's privilege separation directory
    const pin = cpus && cpus.length ? ['taskset', '-c', cpus.join(',')] : [];
    for (const host of hosts) {
      const conf = writeFile(path.join(dir, `sshd-${host.name}.conf`), sshdConfigText(host, dir));
      state.sshdPidFiles.push(path.join(dir, `sshd-${host.name}.pid`));
      // sshd detaches once it listens: when this returns, the host takes connections.
      run(['ip', 'netns', 'exec', host.namespace, ...pin, SSHD, '-f', conf, '-E', path.join(dir, `sshd-${host.name}.log`)]);
    }
    // The daemons listening for ssh: not the load generator's work (their sessions are).
    state.sshdDaemons = state.sshdPidFiles.map(readPidFile).filter((pid) => pid > 0);
    Object.assign(state, {
      hosts,
      controller,
      server: { namespace: serverNamespace, address: addresses[1], commandPrefix: ['ip', 'netns', 'exec', serverNamespace] },
      remoteShell,
      cpus: cpus && cpus.length ? cpus : allowedCpus(),
      // The controller's name resolves to its bridge address; its epmd and distribution port
      // listen there (and on loopback) only.
      env: {
        ERL_INETRC: path.join(dir, 'inetrc'),
        ERL_EPMD_PORT: String(state.epmdPort),
        ERL_EPMD_ADDRESS: `127.0.0.1,${controller.address}`,
        ERL_AFLAGS: `-kernel inet_dist_use_interface {${controller.address.split('.').join(',')}}`,
      },
    });
    return state;
  } catch (err) {
    removeLoadHosts(state);
    throw err instanceof LoadHostsError ? err : new LoadHostsError(`cannot make the load hosts: ${err.message}`);
  }
}

/**
 * The pid in an ssh daemon's pid file. sshd listens before it detaches, but its detached child
 * writes the file a moment after the command has returned: waited for, up to PID_FILE_WAIT_MS.
 */
const PID_FILE_WAIT_MS = 5000;
function readPidFile(file) {
  const until = Date.now() + PID_FILE_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      const pid = Number(fs.readFileSync(file, 'utf8').trim());
      if (pid > 0) return pid;
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    if (Date.now() > until) throw new LoadHostsError(`the ssh daemon wrote no pid file (${file}) within ${PID_FILE_WAIT_MS / 1000} s`);
    Atomics.wait(pause, 0, 0, 10); // a synchronous 10 ms pause: the hosts are made before any load
  }
}

/** Load hosts the user names: reached with their own ssh and their names as they resolve. */
function sshHosts(hosts) {
  return { kind: 'ssh', hosts: hosts.map((name) => ({ name, address: null, namespace: null })), server: null, controller: { name: controllerName(), address: null }, dir: null, remoteShell: 'ssh', env: {}, epmdPort: null, sshdDaemons: [] };
}

/**
 * How far one host's clock is from this machine's: one remote-shell session prints the time
 * each time it is sent a line; offset = its time − the midpoint of the round trip, uncertainty
 * = half the round trip (the best of CLOCK_ROUNDS). Resolves { offset_ms, uncertainty_ms }.
 */
function measureClock(loadHosts, host) {
  return new Promise((resolve, reject) => {
    const child = spawn(loadHosts.remoteShell, [host.name, "sh -c 'while read -r line; do date +%s%N; done'"], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...loadHosts.env } });
    let best = null;
    let sentAt = 0;
    let rounds = 0;
    let buffer = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
    // A remote shell that exits before it reads makes our writes fail (EPIPE); its close,
    // below, says why, so the write's own error is not one more.
    child.stdin.on('error', () => {});
    const ask = () => {
      sentAt = Date.now();
      child.stdin.write('\n');
    };
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        const back = Date.now();
        if (!/^\d{19}$/.test(line)) continue;
        const ns = BigInt(line);
        const remoteMs = Number(ns / 1000000n) + Number(ns % 1000000n) / 1e6;
        const sample = { offset_ms: Math.round((remoteMs - (sentAt + back) / 2) * 1000) / 1000, uncertainty_ms: (back - sentAt) / 2 };
        if (!best || sample.uncertainty_ms < best.uncertainty_ms) best = sample;
        rounds += 1;
        if (rounds < CLOCK_ROUNDS) ask();
        else child.stdin.end();
      }
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new LoadHostsError(`cannot reach load host ${host.name}: ${err.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (best && rounds >= CLOCK_ROUNDS) resolve(best);
      else reject(new LoadHostsError(`cannot reach load host ${host.name} through its remote shell (${loadHosts.remoteShell}): ${stderr.trim().split('\n')[0] || `exit ${code}`}`));
    });
    ask();
  });
}

/**
 * Checks every load host answers and that its clock is close enough to run on: sets
 * loadHosts.clocks ({ host: { offset_ms, uncertainty_ms } }) and throws LoadHostsError, one
 * line, for a host out of reach or a clock off by more than MAX_CLOCK_OFFSET_MS.
 */
async function checkClocks(loadHosts) {
  // Every host at once: each is its own remote-shell session (about half a second of ssh set-up
  // each), and a round trip is timed within one session only. The first host out of reach, in
  // the order named, is the one said.
  const measured = await Promise.allSettled(loadHosts.hosts.map((host) => measureClock(loadHosts, host)));
  const unreachable = measured.find((m) => m.status === 'rejected');
  if (unreachable) throw unreachable.reason;
  const clocks = Object.fromEntries(loadHosts.hosts.map((host, i) => [host.name, measured[i].value]));
  loadHosts.clocks = clocks;
  const off = Object.entries(clocks).find(([, c]) => Math.abs(c.offset_ms) - c.uncertainty_ms > MAX_CLOCK_OFFSET_MS);
  if (off) {
    throw new LoadHostsError(`load host ${off[0]}'s clock is ${Math.round(off[1].offset_ms)} ms off this machine's (more than ${MAX_CLOCK_OFFSET_MS} ms): Tsung starts every host at one wall-clock time, so its share of the load would come at another time; synchronise the clocks (NTP) and run again`);
  }
  return clocks;
}

// The run's own epmd port. epmd binds its port without SO_REUSEADDR, so a client socket of an
// earlier load (httperf, the Tsung agents) left in TIME-WAIT on 127.0.0.1:4369 keeps
// the default epmd from starting for a minute ("register/listen error: econnrefused"). A port
// no socket of this machine uses on those addresses, in any state, is taken instead.
const EPMD_PORTS = { first: 4369, count: 200 };

/** Local ports in use on the given IPv4 addresses (or on every address), from /proc/net/tcp. */
function portsInUse(addresses) {
  const hex = (ip) => ip.split('.').map((x) => Number(x).toString(16).padStart(2, '0')).reverse().join('').toUpperCase();
  const wanted = new Set([...addresses.map(hex), '00000000']);
  const used = new Set();
  let text;
  try {
    text = fs.readFileSync('/proc/net/tcp', 'utf8');
  } catch {
    return used; // no /proc: the first port is tried
  }
  for (const line of text.split('\n').slice(1)) {
    const local = line.trim().split(/\s+/)[1];
    if (!local) continue;
    const [ip, port] = local.split(':');
    if (wanted.has(ip)) used.add(parseInt(port, 16));
  }
  return used;
}

function freeEpmdPort(addresses) {
  const used = portsInUse(addresses);
  for (let port = EPMD_PORTS.first; port < EPMD_PORTS.first + EPMD_PORTS.count; port++) if (!used.has(port)) return port;
  throw new LoadHostsError(`no free port for the run's epmd in ${EPMD_PORTS.first}–${EPMD_PORTS.first + EPMD_PORTS.count - 1}: wait a minute for sockets in TIME-WAIT to go`);
}

/**
 * The load hosts a run asked for ({ kind, count | hosts }), made (netns) or named (ssh), their
 * clocks checked (checkClocks), each step said through log. logRoot: where Tsung's runs keep
 * their configurations and logs. Throws LoadHostsError (having removed what it made); once it
 * has returned, the caller removes them (removeLoadHosts).
 */
async function setUpLoadHosts(asked, { cpus = null, logRoot, log = () => {} }) {
  log(asked.kind === 'netns' ? `load hosts: making ${asked.count} network namespace${asked.count > 1 ? 's' : ''} with an ssh daemon each` : `load hosts: ${asked.hosts.join(', ')} (over ssh)`);
  const loadHosts = asked.kind === 'netns' ? createNetnsHosts(asked.count, { cpus }) : sshHosts(asked.hosts);
  loadHosts.logRoot = logRoot;
  if (loadHosts.server) log(`load hosts: ${loadHosts.hosts.map((h) => `${h.name} at ${h.address}`).join(', ')}; servers in network namespace ${loadHosts.server.namespace} at ${loadHosts.server.address}`);
  let clocks;
  try {
    clocks = await checkClocks(loadHosts);
  } catch (err) {
    removeLoadHosts(loadHosts);
    throw err;
  }
  log(`load hosts: clocks ${Object.entries(clocks).map(([name, c]) => `${name} ${c.offset_ms >= 0 ? '+' : ''}${c.offset_ms} ms (±${c.uncertainty_ms})`).join(', ')} from this machine's`);
  return loadHosts;
}

/** What results.json's environment records of the load hosts. */
function loadHostsEnvironment(loadHosts) {
  return {
    kind: loadHosts.kind,
    hosts: loadHosts.hosts.map((h) => ({ name: h.name, address: h.address, clock: (loadHosts.clocks || {})[h.name] || null })),
    server_address: loadHosts.server ? loadHosts.server.address : null,
    controller: loadHosts.controller,
  };
}

/** How /proc/<pid>/ns/net names a namespace made with `ip netns add` ("net:[inode]"), or null. */
function namespaceId(namespace) {
  try {
    return `net:[${fs.statSync(`/run/netns/${namespace}`).ino}]`;
  } catch {
    return null;
  }
}

/** Process ids whose network namespace is `namespace` (read from /proc, no command run). */
function pidsInNamespace(namespace) {
  const wanted = namespaceId(namespace);
  if (!wanted) return [];
  const pids = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readlinkSync(`/proc/${entry}/ns/net`) === wanted) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

function kill(pid) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Removes everything createNetnsHosts made (what exists of it), and the run's epmd. */
function removeLoadHosts(state) {
  if (state.kind === 'netns') {
    // sshd, and what outlives a Tsung run in a namespace (epmd, a stray agent), would keep it alive.
    for (const namespace of state.namespaces) pidsInNamespace(namespace).forEach(kill);
    for (const namespace of state.namespaces) run(['ip', 'netns', 'del', namespace], { quiet: true });
    for (const device of [...state.devices].reverse()) run(['ip', 'link', 'del', device], { quiet: true });
    if (state.dir) fs.rmSync(state.dir, { recursive: true, force: true });
  }
  // The run's own epmd (its own port): it outlives Tsung, and would keep a namespace alive.
  if (state.epmdPort) spawnSync('epmd', ['-port', String(state.epmdPort), '-kill'], { stdio: 'ignore', timeout: 3000 });
  liveHosts.delete(state);
}

module.exports = { parseLoadHosts, createNetnsHosts, sshHosts, setUpLoadHosts, loadHostsEnvironment, removeLoadHosts, checkClocks, namespaceId, pidsInNamespace, netnsHostsUnavailableReason, inetrcText, portsInUse, freeEpmdPort, LoadHostsError, MAX_CLOCK_OFFSET_MS };
