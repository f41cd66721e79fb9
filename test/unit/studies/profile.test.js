'use strict';
// scripts/profile.sh (perf/lib/studies/profile.js, perf/cli/profile.js): a made-up .cpuprofile
// and a made-up StackProf dump (read by the installed stackprof's own --stackcollapse and
// --json) fold into the expected lines; the servers' profiled command lines keep their own
// arguments and environment; every usage error is one line and exit 2 (wrk missing: exit 1);
// and one real run profiles node and em for 2 s each and draws both. The folding and the SVG
// in detail: flame.test.js.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { loadServerDefinitions } = require('../../../perf/lib/hosts/server_process');
const { foldProfile, profiledDefinition, checkServers, runtimeOf, ProfileUsageError } = require('../../../perf/lib/studies/profile');
const flame = require('../../../perf/lib/studies/flame');
const { runCommand, makeTmpDir } = require('../../support/runner_helpers');
const { PROJECT_ROOT } = require('../../../perf/lib/project_root');

const CLI = path.join(PROJECT_ROOT, 'perf', 'cli', 'profile.js');
const SCRIPT = path.join(PROJECT_ROOT, 'scripts', 'profile.sh');

// A StackProf raw dump as StackProf.results gives it (ruby/em/profile.rb writes it with
// Marshal): frames by id, and raw samples as [stack length, frame ids root first…, weight]….
const MADE_UP_DUMP = `
root = ARGV[1]
gem = File.join(root, 'vendor/bundle/ruby/3.1.0/gems/eventmachine-1.2.7/lib/eventmachine.rb')
frames = {
  1 => { name: '<main>', file: File.join(root, 'ruby/em/server.rb'), line: 1, total_samples: 8, samples: 0 },
  2 => { name: 'EventMachine.run', file: gem, line: 150, total_samples: 8, samples: 0 },
  3 => { name: 'EventMachine.run_machine', file: '<cfunc>', line: nil, total_samples: 8, samples: 4 },
  4 => { name: 'EmVsNode::Connection#receive_data', file: File.join(root, 'ruby/em/connection.rb'), line: 10, total_samples: 4, samples: 1 },
  5 => { name: 'EventMachine::HttpServer#receive_data', file: '<cfunc>', line: nil, total_samples: 3, samples: 3 },
  6 => { name: '(garbage collection)', file: '', total_samples: 2, samples: 0 },
  7 => { name: '(marking)', file: '', total_samples: 2, samples: 2 }
}
raw = [3, 1, 2, 3, 3,
       5, 1, 2, 3, 4, 5, 2,
       3, 1, 2, 3, 1,
       4, 1, 2, 3, 4, 1,
       5, 1, 2, 3, 4, 5, 1,
       2, 6, 7, 2]
data = { version: 1.2, mode: :cpu, interval: 1000, samples: 10, gc_samples: 2, missed_samples: 0, frames: frames, raw: raw }
File.binwrite(ARGV[0], Marshal.dump(data))
`;

describe('profile: folding the raw profiles', function () {
  this.timeout(60000);
  const dir = makeTmpDir('profile-fold-');

  it('a made-up StackProf dump: stackprof --stackcollapse\'s lines, equal stacks summed, the kinds from --json', async () => {
    const dump = path.join(dir, 'em.stackprof.dump');
    execFileSync('ruby', ['-e', MADE_UP_DUMP, dump, PROJECT_ROOT]);
    const f = await foldProfile('ruby', dump, { from: null, to: null });
    const run = '<main>;EventMachine.run;EventMachine.run_machine';
    assert.equal(flame.formatFolded(f.stacks), [
      '(garbage collection);(marking) 2',
      `${run} 4`,
      `${run};EmVsNode::Connection#receive_data 1`,
      `${run};EmVsNode::Connection#receive_data;EventMachine::HttpServer#receive_data 3`,
      '',
    ].join('\n'));
    assert.equal(f.samples, 10);
    assert.deepEqual(Object.fromEntries(f.kinds), {
      '<main>': 'code',
      'EventMachine.run': 'library',
      'EventMachine.run_machine': 'native',
      'EmVsNode::Connection#receive_data': 'code',
      'EventMachine::HttpServer#receive_data': 'native',
      '(garbage collection)': 'gc',
      '(marking)': 'gc',
    });
    assert.equal(f.mode, 'cpu');
    assert.equal(flame.kindShares(f.stacks, f.kinds).gc_pct, 20);
  });

  it('a made-up .cpuprofile: only wrk\'s window; every sample, said so, when none falls inside it', async () => {
    const file = path.join(dir, 'node.cpuprofile');
    const cf = (functionName, url = '') => ({ functionName, scriptId: '0', url, lineNumber: url ? 9 : -1, columnNumber: 0 });
    fs.writeFileSync(file, JSON.stringify({
      nodes: [
        { id: 1, callFrame: cf('(root)'), children: [2, 3] },
        { id: 2, callFrame: cf('(idle)') },
        { id: 3, callFrame: cf('hello', `file://${PROJECT_ROOT}/node/app.js`), children: [4] },
        { id: 4, callFrame: cf('writev') },
      ],
      startTime: 100,
      endTime: 400,
      samples: [2, 3, 4, 4],
      timeDeltas: [0, 100, 100, 100],
    }));
    const inside = await foldProfile('node', file, { from: 150, to: 400 });
    assert.equal(flame.formatFolded(inside.stacks), 'hello node/app.js:10 1\nhello node/app.js:10;writev 2\n');
    assert.equal(inside.note, null);
    const elsewhere = await foldProfile('node', file, { from: 5000, to: 6000 });
    assert.equal(elsewhere.samples, 4);
    assert.match(elsewhere.note, /no sample fell inside wrk's window/);
  });
});

describe('profile: the servers\' profiled command lines', () => {
  const definitions = loadServerDefinitions();

  it('node: --cpu-prof into the results folder before the server\'s own arguments (node_tuned keeps its V8 flag)', () => {
    const def = profiledDefinition(definitions.node_tuned, 'node', { raw: '/out/node_tuned.cpuprofile' }, 'cpu');
    assert.equal(def.command, 'node');
    assert.deepEqual(def.args, ['--cpu-prof', '--cpu-prof-dir', '/out', '--cpu-prof-name', 'node_tuned.cpuprofile', ...definitions.node_tuned.args]);
    assert.ok(def.args.includes('--max-semi-space-size=32'));
  });

  it('ruby: -r ruby/em/profile.rb, STACKPROF_OUT and the mode, the server\'s own environment kept (em_tuned\'s RUBY_GC_*)', () => {
    const def = profiledDefinition(definitions.em_tuned, 'ruby', { raw: '/out/em_tuned.stackprof.dump' }, 'wall');
    assert.deepEqual(def.args, ['-r', path.join(PROJECT_ROOT, 'ruby', 'em', 'profile.rb'), ...definitions.em_tuned.args]);
    assert.deepEqual(def.env, { ...definitions.em_tuned.env, STACKPROF_OUT: '/out/em_tuned.stackprof.dump', STACKPROF_MODE: 'wall' });
    assert.ok(def.env.RUBY_GC_HEAP_0_INIT_SLOTS);
  });

  it('which runtime: node or ruby by the command; anything else none', () => {
    assert.deepEqual(['node', 'em', 'node_tuned', 'em_tuned', 'em_yjit', 'nginx', 'libevent'].map((n) => runtimeOf(definitions[n])), ['node', 'ruby', 'node', 'ruby', 'ruby', null, null]);
  });

  it('refuses a server named twice, or one that does not serve the workload', () => {
    assert.throws(() => checkServers(['node', 'node'], definitions, 'hello_keepalive'), (e) => e instanceof ProfileUsageError && /named twice/.test(e.message));
    assert.throws(() => checkServers(['node_bare'], definitions, 'lipsum'), (e) => e instanceof ProfileUsageError && e.message === "server 'node_bare' does not serve the lipsum workload (GET /lipsum100k.txt, 100 KB, keep-alive)");
  });
});

describe('profile: usage errors (one line, then the usage; exit 2)', function () {
  this.timeout(60000);
  const out = path.join(makeTmpDir('profile-refused-'), 'out');
  const cases = [
    [['--servers', 'node,no_such_server'], /^profile\.sh: unknown server 'no_such_server' \(known: node, em, /],
    [['--servers', 'nginx'], /^profile\.sh: server 'nginx' runs 'bash': only servers run by node \(V8's --cpu-prof\) or ruby \(StackProf\) can be profiled$/],
    [['--servers', 'node,'], /^profile\.sh: option '--servers <list>' argument 'node,' is invalid\. must not hold an empty name/],
    [['--workload', 'hello'], /^profile\.sh: option '--workload <name>' argument 'hello' is invalid\. must be one of hello_keepalive, hello_close, lipsum/],
    [['--seconds', '0'], /^profile\.sh: option '--seconds <n>' argument '0' is invalid\. must be a whole number from 1 to 3600\.$/],
    [['--seconds', '2.5'], /argument '2\.5' is invalid\. must be a whole number/],
    [['--seconds', 'ten'], /argument 'ten' is invalid/],
    [['--mode', 'object'], /^profile\.sh: option '--mode <mode>' argument 'object' is invalid\. must be one of cpu, wall/],
    [['--bogus'], /^profile\.sh: unknown option '--bogus'$/],
  ];
  for (const [args, message] of cases) {
    it(args.join(' '), async () => {
      const r = await runCommand('node', [CLI, ...args, '--out', out]);
      assert.equal(r.code, 2, r.stderr);
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 2, r.stderr);
      assert.match(lines[0], message);
      assert.match(lines[1], /^usage: profile\.sh \[--servers node_tuned,em_tuned\] \[--workload hello_keepalive\|hello_close\|lipsum\] \[--seconds N\]/);
      assert.equal(r.stdout, '');
      assert.ok(!fs.existsSync(out), 'nothing written');
    });
  }

  it('wrk missing: one line saying how to install it, exit 1', async () => {
    const r = await runCommand('node', [CLI, '--servers', 'node', '--out', out], { env: { WRK_BIN: '/nonexistent/wrk' } });
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'profile.sh: error: wrk not found at /nonexistent/wrk (from $WRK_BIN); install it with: apt-get install wrk (or scripts/setup.sh --engines), or point $WRK_BIN at it\n');
    assert.ok(!fs.existsSync(out), 'nothing written');
  });

  it('--help: the options, exit 0', async () => {
    const r = await runCommand('node', [CLI, '--help']);
    assert.equal(r.code, 0);
    for (const o of ['--servers', '--workload', '--seconds', '--warmup', '--connections', '--mode', '--out', '--no-pin']) assert.match(r.stdout, new RegExp(`^  ${o} `, 'm'));
  });
});

describe('scripts/profile.sh --servers node,em --seconds 2, for real', function () {
  this.timeout(180000);
  const out = makeTmpDir('profile-');
  let result;
  const read = (name) => fs.readFileSync(path.join(out, name), 'utf8');

  before(async () => {
    result = await runCommand('bash', [SCRIPT, '--servers', 'node,em', '--seconds', '2', '--out', out], { timeoutMs: 170000 });
  });

  it('shows each step and the top frames, exit 0', () => {
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    for (const [i, name] of ['node', 'em'].entries()) {
      const step = `\\[${i + 1}/2\\] ${name}: `;
      for (const what of ['starting under ', 'pid \\d+ ready on http://127\\.0\\.0\\.1:\\d+; warm-up', 'profiling under load: wrk -t 1 -c 50 -d 2s ', 'wrk [\\d,]+ req/s', 'stopping \\(SIGTERM\\)', 'folding ', '\\d+ samples in \\d+ stacks']) {
        assert.match(result.stdout, new RegExp(`^${step}${what}`, 'm'), `${name}: ${what}`);
      }
      assert.match(result.stdout, new RegExp(`^${name}: \\d+ samples; GC [\\d.]+%, .*the server was on CPU [\\d,]+% of the time, its main thread [\\d,]+%\\); top self time:$`, 'm'));
    }
    assert.match(result.stdout, new RegExp(`^flame graphs: .*${path.basename(out)}/index\\.html$`, 'm'));
  });

  it('writes each server\'s raw profile, folded stacks and flame graph', () => {
    for (const f of ['node.cpuprofile', 'node.folded', 'node.svg', 'em.stackprof.dump', 'em.folded', 'em.svg', 'index.html', 'profile.json']) {
      assert.ok(fs.statSync(path.join(out, f)).size > 0, f);
    }
    for (const name of ['node', 'em']) {
      const lines = read(`${name}.folded`).trim().split('\n');
      assert.ok(lines.length > 3 && lines.every((l) => /^\S.* \d+$/.test(l)), `${name}.folded: ${lines.slice(0, 3)}`);
    }
  });

  it('the flame graphs name each runtime\'s frames: Node\'s http and the project\'s JS, EventMachine and the project\'s Ruby', () => {
    const node = read('node.svg');
    const em = read('em.svg');
    assert.match(node, /^<svg /);
    assert.match(node, /data-name="[^"]* node:_http_server:\d+"/);
    assert.match(node, /data-name="[^"]* node\/[a-z_]+\.js:\d+" data-kind="code"/);
    assert.match(em, /data-name="EventMachine\.run_machine" data-kind="native"/);
    assert.match(em, /data-name="EmVsNode::[^"]+" data-kind="code"/);
    assert.doesNotMatch(em, /node:_http_server/);
    assert.doesNotMatch(node, /EventMachine/);
  });

  it('index.html: both graphs one above the other, each with its top 15 frames, GC and idle', () => {
    const html = read('index.html');
    const at = (re) => html.search(re);
    assert.ok(at(/<section id="node">/) >= 0 && at(/<section id="em">/) > at(/<section id="node">/), 'node, then em');
    assert.equal((html.match(/<svg aria-label="flame graph of /g) || []).length, 2);
    assert.equal((html.match(/<h3>Top 15 frames by self time<\/h3>/g) || []).length, 2);
    assert.equal((html.match(/<b>GC [\d.]+%<\/b> of them · <b>idle<\/b>: /g) || []).length, 2);
    assert.match(html, /<b>idle<\/b>: V8's "\(idle\)" [\d.]+% of the samples/);
    assert.match(html, /<b>idle<\/b>: not sampled \(cpu mode\)/);
    assert.match(html, /EventMachine\.run_machine/);
    assert.match(html, /node:_http_server/);
  });

  it('profile.json: per server the shares, the top frames and wrk\'s figures', () => {
    const doc = JSON.parse(read('profile.json'));
    assert.equal(doc.kind, 'profile');
    assert.equal(doc.interrupted, false);
    assert.deepEqual(doc.failed, []);
    assert.deepEqual(doc.servers.map((s) => [s.server, s.runtime]), [['node', 'node'], ['em', 'ruby']]);
    for (const s of doc.servers) {
      assert.ok(s.samples > 0 && s.wrk.requests > 0, JSON.stringify(s.wrk));
      assert.equal(s.top.length, 15);
      assert.ok(s.on_cpu.process_pct > 0 && s.on_cpu.main_thread_pct > 0, JSON.stringify(s.on_cpu));
      const sum = Object.values(s.shares.by_kind).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 100) < 1e-6, `${s.server}: shares add up to ${sum}`);
    }
  });
});
