'use strict';
// Starting a server described as data (perf/lib/hosts/server_process.js), with real child
// processes: its arguments filled in, ready at its line or at its port, refused in one line
// when it dies or stays silent (and then not left running), pinned or wrapped by a command that
// execs it, stopped with SIGTERM and, past the grace, SIGKILL; a remote server's handle.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { startServer, remoteServer, findFreePort, ephemeralRange, loadServerDefinitions, killLiveServers } = require('../../../perf/lib/hosts/server_process');
const { exchange, request } = require('../../support/raw_http');
const { standinDefinitions, makeTmpDir, alive } = require('../../support/runner_helpers');
const { PROJECT_ROOT } = require('../../../perf/lib/project_root');

/** A definition running `script` with node -e, then `args`; extra: more of the definition. */
const nodeScript = (script, args = [], extra = {}) => ({ description: 'test', command: process.execPath, args: ['-e', script, ...args], ready: 'ready', ...extra });
// Prints its arguments on its ready line, then waits.
const ECHO_ARGS = "console.log('ready ' + JSON.stringify(process.argv.slice(1))); setInterval(() => {}, 1000)";
const statusOf = (pid) => fs.readFileSync(`/proc/${pid}/status`, 'utf8');

describe('server process: starting', function () {
  this.timeout(20000);
  const started = [];
  const start = async (name, options) => {
    const handle = await startServer(name, options);
    started.push(handle);
    return handle;
  };
  afterEach(async () => {
    await Promise.all(started.splice(0).map((h) => h.stop()));
  });

  it('runs the definition with {host}, {port} and {root} filled in, its env and the caller\'s, ready at its line', async () => {
    const script = `console.log(process.env.FROM_DEF, process.env.FROM_CALLER); ${ECHO_ARGS}`;
    const definitions = { echo: nodeScript(script, ['{host}', '{port}', '{root}', '{nothing}'], { env: { FROM_DEF: 'def', FROM_CALLER: 'def' } }) };
    const h = await start('echo', { definitions, env: { FROM_CALLER: 'caller' } });
    assert.equal(h.url, `http://127.0.0.1:${h.port}`);
    assert.ok(alive(h.pid));
    const lines = h.output().split('\n');
    assert.equal(lines[0], 'def caller');
    assert.deepEqual(JSON.parse(lines[1].slice('ready '.length)), ['127.0.0.1', String(h.port), path.join(PROJECT_ROOT, 'shared_www'), '{nothing}']);
  });

  it('a root of the caller\'s own replaces {root} and is passed as --root', async () => {
    const definitions = { echo: nodeScript(ECHO_ARGS, ['{root}']) };
    const root = makeTmpDir('server-root-');
    const h = await start('echo', { definitions, root });
    assert.deepEqual(JSON.parse(h.output().slice('ready '.length)), [root, '--root', root]);
  });

  it('serves once ready: the stand-in answers on the handle\'s port', async () => {
    const h = await start('standin', { definitions: standinDefinitions({ standin: { STANDIN_HELLO_BODY: 'from the env' } }) });
    const { replies } = await exchange(h.port, request('GET', '/hello'));
    assert.equal(replies[0].status, 200);
    assert.equal(replies[0].body.toString(), 'from the env');
  });

  it('ready by port: a server that prints nothing is ready once its port accepts a connection', async () => {
    // Listens only after half a second, and never prints.
    const script = "setTimeout(() => require('node:net').createServer().listen(Number(process.argv[1]), '127.0.0.1'), 500)";
    const h = await start('silent', { definitions: { silent: nodeScript(script, ['{port}'], { ready: { port: true } }) } });
    await new Promise((resolve, reject) => net.connect(h.port, '127.0.0.1', resolve).once('error', reject));
    assert.equal(h.output(), '');
  });

  it('cpu: runs pinned to that CPU, and the handle\'s pid is the server\'s own (taskset execs it)', async () => {
    const h = await start('standin', { definitions: standinDefinitions({ standin: {} }), cpu: 1 });
    assert.match(statusOf(h.pid), /^Cpus_allowed_list:\s+1$/m);
    assert.match(statusOf(h.pid), /^Name:\s+node$/m);
  });

  it('prefix: a command that execs the server (as ip netns exec does); the pid is still the server\'s', async () => {
    const h = await start('standin', { definitions: standinDefinitions({ standin: {} }), prefix: ['env', 'FROM_PREFIX=1'] });
    assert.match(statusOf(h.pid), /^Name:\s+node$/m);
    assert.ok(fs.readFileSync(`/proc/${h.pid}/environ`, 'utf8').split('\0').includes('FROM_PREFIX=1'));
  });
});

describe('server process: refusing to start', function () {
  this.timeout(20000);

  it('an unknown server: one line naming the known ones', async () => {
    await assert.rejects(startServer('nope', { definitions: { a: {}, b: {} } }), /^Error: unknown server 'nope' \(known: a, b\)$/);
  });

  it('a server that exits before it is ready: why, with its last line of output', async () => {
    const definitions = { broken: nodeScript("console.log('starting'); console.error('boom: no config'); process.exit(2)") };
    await assert.rejects(startServer('broken', { definitions }), /^Error: server 'broken' exited before it was ready \(exit code 2\): boom: no config$/);
  });

  it('a server that stays silent past its deadline is refused, and is not left running', async () => {
    const pidFile = path.join(makeTmpDir('silent-server-'), 'pid');
    const script = "require('node:fs').writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000)";
    const definitions = { mute: nodeScript(script, [pidFile], { ready: 'never printed' }) };
    await assert.rejects(startServer('mute', { definitions, readyTimeoutMs: 2000 }), /^Error: server 'mute' printed no ready line \('never printed'\) within 2000 ms$/);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    const left = alive(pid);
    if (left) process.kill(pid, 'SIGKILL'); // so that a failure does not keep this process waiting
    assert.equal(left, false, `server ${pid} still runs`);
  });

  it('ready by port: a server that never listens is refused, naming the address', async () => {
    const definitions = { deaf: nodeScript('setInterval(() => {}, 1000)', [], { ready: { port: true } }) };
    await assert.rejects(startServer('deaf', { definitions, readyTimeoutMs: 500 }), /^Error: server 'deaf' did not accept connections on 127\.0\.0\.1:\d+ within 500 ms$/);
  });
});

describe('server process: stopping', function () {
  this.timeout(20000);

  it('stop(): SIGTERM, and the server\'s own exit', async () => {
    const h = await startServer('standin', { definitions: standinDefinitions({ standin: {} }) });
    assert.deepEqual(await h.stop(), { code: 0, signal: null });
    assert.equal(alive(h.pid), false);
    assert.deepEqual(await h.stop(), { code: 0, signal: null }, 'stopping a stopped server says how it ended');
  });

  it('stop(): SIGKILL once the grace is over, for a server that ignores SIGTERM', async () => {
    const definitions = { stubborn: nodeScript("process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)") };
    const h = await startServer('stubborn', { definitions });
    const t0 = Date.now();
    assert.deepEqual(await h.stop(300), { code: null, signal: 'SIGKILL' });
    assert.ok(Date.now() - t0 >= 250, 'it had its grace first');
  });

  it('killLiveServers: every server still running, at once', async () => {
    const definitions = standinDefinitions({ a: {}, b: {} });
    const handles = [await startServer('a', { definitions }), await startServer('b', { definitions })];
    killLiveServers();
    const ends = await Promise.all(handles.map((h) => h.exited));
    assert.deepEqual(ends, [{ code: null, signal: 'SIGKILL' }, { code: null, signal: 'SIGKILL' }]);
  });
});

describe('server process: the rest', () => {
  it('remoteServer (--target): the same handle, with no process to measure or stop', async () => {
    const h = remoteServer('far', 'http://10.1.2.3:8080/ignored/path');
    assert.deepEqual([h.name, h.pid, h.host, h.port, h.url, h.child, h.output()], ['far', null, '10.1.2.3', 8080, 'http://10.1.2.3:8080', null, '']);
    assert.equal(await h.stop(), null);
  });

  it('findFreePort: a port this machine can listen on, below the ephemeral range outgoing connections take theirs from', async () => {
    const port = await findFreePort();
    const server = net.createServer();
    await new Promise((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    try {
      const range = ephemeralRange();
      assert.ok(range && port >= 10000 && port < range[0], `port ${port}, ephemeral range ${range}`);
      // The same draw again while that port is taken: another one, still below the range.
      const span = range[0] - 10000;
      const taken = (port - 10000 + 0.5) / span;
      let draws = 0;
      const again = await findFreePort('127.0.0.1', () => (draws++ === 0 ? taken : (taken + 0.5) % 1));
      assert.ok(again !== port && again < range[0] && draws === 2, `${again} after ${draws} draws`);
    } finally {
      server.close();
    }
  });

  it('loadServerDefinitions: perf/servers.json, or the file given', () => {
    assert.deepEqual(Object.keys(loadServerDefinitions()).slice(0, 2), ['node', 'em']);
    const file = path.join(makeTmpDir('servers-'), 'servers.json');
    fs.writeFileSync(file, '{"x": {"command": "true"}}');
    assert.deepEqual(loadServerDefinitions(file), { x: { command: 'true' } });
  });
});
