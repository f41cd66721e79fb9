'use strict';
// CPU pinning (perf/lib/hosts/pinning.js): the kernel's CPU lists, the plan (server on the first
// allowed CPU, load generator on the second; off with one CPU, without taskset or when asked),
// decided in real processes started with one or two CPUs, and pinning every thread of a real
// process.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { planPinning, pinProcess, parseCpuList, allowedCpus } = require('../../../perf/lib/hosts/pinning');
const { makeTmpDir } = require('../../support/runner_helpers');

const PINNING = path.join(__dirname, '..', '..', '..', 'perf', 'lib', 'hosts', 'pinning.js');

/** What `expression` (of the pinning module, `p`) gives in a node started by `command` (e.g. taskset -c 0, or none). */
function inProcess(command, expression, env = process.env) {
  const argv = [...command, process.execPath, '-e', `const p = require(${JSON.stringify(PINNING)}); console.log(JSON.stringify(${expression}))`];
  const res = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', env });
  assert.equal(res.status, 0, res.stderr);
  return JSON.parse(res.stdout);
}

// The tests that start processes on one or two CPUs take them from what this one may use.
const CPUS = allowedCpus() || [];
const cpusOf = (pid) => fs.readdirSync(`/proc/${pid}/task`).map((tid) => /^Cpus_allowed_list:\s*(\S+)$/m.exec(fs.readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'))[1]);

describe('pinning: CPU lists', () => {
  it('parseCpuList: single CPUs and ranges, in the kernel\'s notation', () => {
    assert.deepEqual(parseCpuList('0-3,6'), [0, 1, 2, 3, 6]);
    assert.deepEqual(parseCpuList('5\n'), [5]);
    assert.deepEqual(parseCpuList('0,2-3,8-9'), [0, 2, 3, 8, 9]);
    assert.deepEqual(parseCpuList(''), []);
  });

});

describe('pinning: the plan', function () {
  this.timeout(10000);
  before(function () {
    if (CPUS.length < 2) this.skip();
  });

  it('allowedCpus: the CPUs this process may run on', () => {
    assert.deepEqual(inProcess(['taskset', '-c', String(CPUS[1])], 'p.allowedCpus()'), [CPUS[1]]);
    assert.deepEqual(inProcess(['taskset', '-c', `${CPUS[0]},${CPUS[1]}`], 'p.allowedCpus()'), [CPUS[0], CPUS[1]]);
  });

  it('two CPUs or more: the server on the first, the load generator on the second', () => {
    assert.deepEqual(inProcess(['taskset', '-c', `${CPUS[0]},${CPUS[1]}`], 'p.planPinning()'), { enabled: true, server_cpu: CPUS[0], client_cpu: CPUS[1], reason: null });
  });

  it('one CPU: off, and why', () => {
    assert.deepEqual(inProcess(['taskset', '-c', String(CPUS[1])], 'p.planPinning()'), { enabled: false, server_cpu: null, client_cpu: null, reason: 'only 1 CPU(s) available' });
  });

  it('no taskset: off, and how to get it', () => {
    const plan = inProcess([], 'p.planPinning()', { PATH: makeTmpDir('no-taskset-') });
    assert.deepEqual(plan, { enabled: false, server_cpu: null, client_cpu: null, reason: 'taskset not found (Debian: apt-get install util-linux)' });
  });

  it('--no-pin: off, whatever the machine', () => {
    assert.deepEqual(planPinning({ want: false }), { enabled: false, server_cpu: null, client_cpu: null, reason: 'turned off (--no-pin)' });
  });
});

describe('pinning: pinProcess', function () {
  this.timeout(10000);
  let child;
  before(function () {
    if (CPUS.length < 2) this.skip();
  });
  beforeEach(async () => {
    // A process with several threads (node's worker pool), waiting.
    child = spawn(process.execPath, ['-e', "require('node:fs').readFile(__filename, () => {}); console.log('up'); setInterval(() => {}, 1000)"], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => child.stdout.once('data', resolve));
  });
  afterEach(() => child.kill('SIGKILL'));

  it('pins every thread of the process, and gives the CPUs back', () => {
    const [had] = cpusOf(child.pid);
    assert.ok(cpusOf(child.pid).length > 1, 'several threads');
    pinProcess(child.pid, CPUS[1]);
    assert.deepEqual(new Set(cpusOf(child.pid)), new Set([String(CPUS[1])]));
    pinProcess(child.pid, had);
    assert.deepEqual(new Set(cpusOf(child.pid)), new Set([had]));
  });

  it('a process it cannot pin: one line saying which and why', () => {
    const none = Math.max(...CPUS) + 1000; // a CPU this machine does not have
    assert.throws(() => pinProcess(child.pid, none), (err) => err.message.startsWith(`taskset could not pin process ${child.pid} to CPU ${none}: taskset: `) && !err.message.includes('\n'));
  });
});
