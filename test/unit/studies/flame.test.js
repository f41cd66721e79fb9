'use strict';
// Folded stacks and flame graphs (perf/lib/studies/flame.js): a small made-up .cpuprofile folds
// into the expected lines (and only its samples inside a window), StackProf's --stackcollapse
// lines are summed, frames get their kinds, self time and the GC and idle shares add up, and
// the SVG has a rect per frame as wide as its samples. StackProf's own output from a made-up
// dump, the command line and a real run: profile.test.js.

const assert = require('node:assert/strict');
const path = require('node:path');
const flame = require('../../../perf/lib/studies/flame');

const ROOT = '/work/proj';
const frame = (functionName, url = '', lineNumber = -1) => ({ functionName, scriptId: url ? '9' : '0', url, lineNumber, columnNumber: 0 });

// (root) ─┬─ (idle)
//         ├─ (garbage collector)
//         ├─ (program)
//         └─ parserOnHeadersComplete node:_http_common:71
//              └─ route file:///work/proj/node/app.js:202
//                   ├─ writev (native binding)
//                   └─ dispatch file:///work/proj/node_modules/httpdispatcher/index.js:10
const PROFILE = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), hitCount: 0, children: [2, 3, 4, 5] },
    { id: 2, callFrame: frame('(idle)'), hitCount: 0 },
    { id: 3, callFrame: frame('(garbage collector)'), hitCount: 0 },
    { id: 4, callFrame: frame('(program)'), hitCount: 0 },
    { id: 5, callFrame: frame('parserOnHeadersComplete', 'node:_http_common', 70), hitCount: 0, children: [6] },
    { id: 6, callFrame: frame('route', 'file:///work/proj/node/app.js', 201), hitCount: 0, children: [7, 8] },
    { id: 7, callFrame: frame('writev'), hitCount: 0 },
    { id: 8, callFrame: frame('', 'file:///work/proj/node_modules/httpdispatcher/index.js', 9), hitCount: 0 },
  ],
  startTime: 1000,
  endTime: 1000 + 10 * 1000,
  // One sample every 1000 µs, at 2000, 3000, … 11000.
  samples: [2, 7, 7, 6, 8, 3, 4, 7, 5, 2],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
};
const ROUTE = 'parserOnHeadersComplete node:_http_common:71;route node/app.js:202';

describe('flame: folding a V8 .cpuprofile', () => {
  it('a line per distinct stack, root first, (root) left out, counts summed', () => {
    const f = flame.foldCpuProfile(PROFILE, { root: ROOT });
    assert.equal(flame.formatFolded(f.stacks), [
      '(garbage collector) 1',
      '(idle) 2',
      '(program) 1',
      'parserOnHeadersComplete node:_http_common:71 1',
      `${ROUTE} 1`,
      `${ROUTE};(anonymous) node_modules/httpdispatcher/index.js:10 1`,
      `${ROUTE};writev 3`,
      '',
    ].join('\n'));
    assert.equal(f.samples, 10);
    assert.equal(f.samples_in_profile, 10);
    assert.equal(f.interval_us, 1000);
  });

  it('each frame gets its kind: the project\'s code, library (node:, node_modules), native, gc, idle', () => {
    const { kinds } = flame.foldCpuProfile(PROFILE, { root: ROOT });
    assert.deepEqual(Object.fromEntries(kinds), {
      '(idle)': 'idle',
      writev: 'native',
      'route node/app.js:202': 'code',
      'parserOnHeadersComplete node:_http_common:71': 'library',
      '(anonymous) node_modules/httpdispatcher/index.js:10': 'library',
      '(garbage collector)': 'gc',
      '(program)': 'native',
    });
  });

  it('only the samples inside the window [from, to] (µs on the profile\'s clock)', () => {
    const f = flame.foldCpuProfile(PROFILE, { root: ROOT, from: 4000, to: 7000 });
    // Samples at 4000, 5000, 6000, 7000: writev, route, dispatch, (garbage collector).
    assert.equal(flame.formatFolded(f.stacks), ['(garbage collector) 1', `${ROUTE} 1`, `${ROUTE};(anonymous) node_modules/httpdispatcher/index.js:10 1`, `${ROUTE};writev 1`, ''].join('\n'));
    assert.equal(f.samples, 4);
    assert.deepEqual(f.window, { from: 4000, to: 7000 });
  });

  it('without a root, paths stay whole; a file outside the project is library code', () => {
    const { kinds } = flame.foldCpuProfile(PROFILE);
    assert.equal(kinds.get('route /work/proj/node/app.js:202'), 'library');
  });

  it('refuses what is not a CPU profile', () => {
    assert.throws(() => flame.foldCpuProfile({ nodes: [] }), /not a V8 CPU profile/);
  });
});

describe('flame: StackProf', () => {
  it('--stackcollapse lines: equal stacks summed (StackProf writes a line per run of equal samples)', () => {
    const text = '<main>;EventMachine.run_machine 2\n<main>;EventMachine.run_machine;A#b 1\n<main>;EventMachine.run_machine 3\n(garbage collection);(marking) 1\n\n';
    assert.deepEqual([...flame.parseStackCollapse(text)], [['<main>;EventMachine.run_machine', 5], ['<main>;EventMachine.run_machine;A#b', 1], ['(garbage collection);(marking)', 1]]);
  });

  it('kinds from --json\'s frames: C functions native, "(…)" with no file GC, the project\'s files code, gems library', () => {
    const kinds = flame.stackprofKinds({
      frames: {
        1: { name: '<main>', file: path.join(ROOT, 'ruby/em/server.rb'), line: 1 },
        2: { name: '<main>', file: 'ruby/em/server.rb', line: 1 },
        3: { name: 'EventMachine.run_machine', file: '<cfunc>', line: null },
        4: { name: 'EventMachine.run', file: path.join(ROOT, 'vendor/bundle/ruby/3.1.0/gems/eventmachine-1.2.7/lib/eventmachine.rb'), line: 150 },
        5: { name: '(garbage collection)', file: '' },
        6: { name: '(sweeping)', file: '' },
        7: { name: 'Set#include?', file: '/usr/lib/ruby/3.1.0/set.rb', line: 300 },
      },
    }, ROOT);
    assert.deepEqual(Object.fromEntries(kinds), {
      '<main>': 'code',
      'EventMachine.run_machine': 'native',
      'EventMachine.run': 'library',
      '(garbage collection)': 'gc',
      '(sweeping)': 'gc',
      'Set#include?': 'library',
    });
  });
});

describe('flame: self time and shares', () => {
  const { stacks, kinds } = flame.foldCpuProfile(PROFILE, { root: ROOT });

  it('self time: the leaf\'s samples, biggest first, with kind and share', () => {
    assert.deepEqual(flame.selfTime(stacks, kinds, 3), [
      { frame: 'writev', kind: 'native', samples: 3, pct: 30 },
      { frame: '(idle)', kind: 'idle', samples: 2, pct: 20 },
      { frame: '(anonymous) node_modules/httpdispatcher/index.js:10', kind: 'library', samples: 1, pct: 10 },
    ]);
  });

  it('shares by kind add up to 100 %; GC and idle', () => {
    const s = flame.kindShares(stacks, kinds);
    assert.equal(s.samples, 10);
    assert.deepEqual(s.by_kind, { code: 10, library: 20, native: 40, gc: 10, idle: 20 });
    assert.equal(s.gc_pct, 10);
    assert.equal(s.idle_pct, 20);
  });

  it('GC counts a sample with a GC frame anywhere on its stack (StackProf\'s "(marking)" above "(garbage collection)")', () => {
    const rubyStacks = new Map([['(garbage collection);(marking)', 3], ['<main>;A#b', 1]]);
    const s = flame.kindShares(rubyStacks, new Map([['(garbage collection)', 'gc'], ['(marking)', 'gc'], ['<main>', 'code'], ['A#b', 'code']]));
    assert.equal(s.gc_pct, 75);
    assert.equal(s.by_kind.gc, 75);
  });
});

describe('flame: the SVG', () => {
  // all (8) ─┬─ a (6) ─┬─ b (4) ── c (1)
  //          │         └─ d (2)
  //          └─ e (2)
  const stacks = new Map([['a;b', 3], ['a;b;c', 1], ['a;d', 2], ['e', 2]]);
  const kinds = new Map([['a', 'code'], ['b', 'library'], ['c', 'native'], ['d', 'gc'], ['e', 'idle']]);
  const width = 1000;
  const chart = width - 20; // 10 px on either side
  const { svg, frames, omitted, depth, total } = flame.renderFlameGraph(stacks, kinds, { width, title: 'made up <&>' });
  const groups = [...svg.matchAll(/<g class="f" data-name="([^"]*)" data-kind="(\w+)" data-samples="(\d+)"[^>]*><title>([^<]*)<\/title><rect x="([\d.]+)" y="(\d+)" width="([\d.]+)"/g)].map((m) => ({
    name: m[1], kind: m[2], samples: Number(m[3]), title: m[4], x: Number(m[5]), y: Number(m[6]), width: Number(m[7]),
  }));
  const byName = Object.fromEntries(groups.map((g) => [g.name, g]));

  it('a rect per frame, and one for "all"', () => {
    assert.equal(frames, 6);
    assert.equal(omitted, 0);
    assert.equal(depth, 4);
    assert.equal(total, 8);
    assert.deepEqual(groups.map((g) => g.name).sort(), ['a', 'all', 'b', 'c', 'd', 'e']);
  });

  it('each rect as wide as its samples: samples ÷ total × the chart\'s width (less a 0.5 px gap)', () => {
    for (const g of groups) {
      assert.ok(Math.abs(g.width - ((g.samples / 8) * chart - 0.5)) < 0.01, `${g.name}: ${g.width} px for ${g.samples} samples`);
    }
    assert.deepEqual(groups.map((g) => [g.name, g.samples]).sort(), [['a', 6], ['all', 8], ['b', 4], ['c', 1], ['d', 2], ['e', 2]]);
  });

  it('callees on their caller, left to right by name, from the caller\'s left edge', () => {
    assert.ok(byName.b.y < byName.a.y && byName.a.y < byName.all.y, 'root at the bottom');
    assert.equal(byName.c.y, byName.b.y - 16);
    assert.equal(byName.a.x, byName.all.x);
    assert.equal(byName.b.x, byName.a.x);
    assert.ok(Math.abs(byName.d.x - (byName.b.x + (4 / 8) * chart)) < 0.01);
    assert.ok(Math.abs(byName.e.x - (byName.a.x + (6 / 8) * chart)) < 0.01);
  });

  it('each frame\'s <title> says its name, kind, samples and share; its colour is its kind\'s', () => {
    assert.equal(byName.b.title, 'b\nruntime and package code (JS/Ruby): 4 samples, 50.0%');
    assert.equal(byName.c.title, 'c\nnative (C/C++, VM): 1 sample, 12.5%');
    assert.deepEqual(groups.map((g) => [g.name, g.kind]).sort(), [['a', 'code'], ['all', 'all'], ['b', 'library'], ['c', 'native'], ['d', 'gc'], ['e', 'idle']]);
    assert.match(svg, new RegExp(`fill="${flame.frameColour('d', 'gc').replace(/[()]/g, '\\$&')}"`));
  });

  it('is a standalone SVG with its title escaped', () => {
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(svg, /made up &lt;&amp;&gt;/);
    assert.match(svg, /<\/svg>\n$/);
  });

  it('frames narrower than minWidth are left out and counted', () => {
    const many = new Map([['wide', 10000], ['thin', 1]]);
    const r = flame.renderFlameGraph(many, new Map(), { width: 1000, minWidth: 1 });
    assert.equal(r.frames, 2);
    assert.equal(r.omitted, 1);
    assert.match(r.svg, /1 frame narrower than 1 px left out/);
  });

  it('no samples: says so', () => {
    assert.match(flame.renderFlameGraph(new Map(), new Map()).svg, />no samples</);
  });
});
