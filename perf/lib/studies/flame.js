'use strict';
// Folded stacks and flame graphs for scripts/profile.sh (perf/lib/studies/profile.js).
//
// Folding: one line per distinct stack, "root;caller;…;leaf count" (the format of Brendan
// Gregg's stackcollapse-*.pl, which flamegraph.pl, speedscope and inferno read), from
//   - a V8 .cpuprofile (node --cpu-prof): its nodes (callFrame, children) and samples
//     (timeDeltas), optionally only the samples inside a time window;
//   - StackProf's own `stackprof --stackcollapse` (its raw samples, a line per run of equal
//     samples, so equal stacks repeat: they are summed here), with the frames' kinds from
//     `stackprof --json` (file "<cfunc>" for a C function, "" for GC's made-up frames).
// Each frame also gets a kind, for the colours and the shares:
//   code     the project's own code (node/, ruby/)
//   library  JavaScript or Ruby code of the runtime and its packages (node:…, node_modules,
//            gems, Ruby's standard library)
//   native   C/C++ seen as one frame: Node's bindings and V8's builtins (no script), V8's
//            "(program)" (the VM itself, no JavaScript on the stack), Ruby's C functions
//            (EventMachine's reactor is EventMachine.run_machine)
//   gc       garbage collection on the main thread: V8's "(garbage collector)", StackProf's
//            "(garbage collection)" with "(marking)" and "(sweeping)"
//   idle     V8's "(idle)". Not only waiting: Node marks its isolate idle for libuv's whole
//            poll phase outside JavaScript (Environment::StartProfilerIdleNotifier: from the
//            prepare phase to the check phase), which is epoll_wait and also the C++ work done
//            there before any callback: reading the sockets and, for an HTTP server, llhttp's
//            parsing of what was read. A server busy 100 % of the time still shows "(idle)"
//            samples, so profile.js says how much of the time the server was on CPU beside
//            it. StackProf's cpu mode takes no sample while Ruby waits; in its wall mode the
//            wait is inside EventMachine.run_machine, as the reactor's own C++ work is.
//
// Rendering: written here, not taken from npm. The packages that render folded stacks or a
// .cpuprofile do not do this job faithfully offline: `flamegraph` (npm, thlorenz) says in its
// README that it no longer reads current .cpuprofile files (a format change), and colours
// frames by a hash of their name, not by kind; `d3-flame-graph` draws in the browser with d3
// (eight d3 modules to inline into every page, and a browser to test it); speedscope and 0x
// are viewers whose pages load their own assets, and none puts two graphs and their tables on
// one page. What a flame graph needs is small: a rect per frame, as wide as its samples,
// stacked on its caller, with its name, a <title> to hover, and a click to zoom, as
// flamegraph.pl draws it.

const path = require('node:path');

const KINDS = ['code', 'library', 'native', 'gc', 'idle'];
const KIND_LABELS = {
  code: 'the project\'s code',
  library: 'runtime and package code (JS/Ruby)',
  native: 'native (C/C++, VM)',
  gc: 'garbage collection',
  idle: 'V8\'s (idle): the loop outside JavaScript',
};
// Base colours (HSL) per kind; a frame's name moves it a little within its kind's range, so
// that neighbours with the same kind stay apart.
const KIND_HUES = {
  code: { h: [22, 42], s: [85, 95], l: [55, 65] },
  library: { h: [45, 58], s: [70, 85], l: [60, 70] },
  native: { h: [195, 215], s: [55, 70], l: [62, 72] },
  gc: { h: [330, 345], s: [60, 75], l: [58, 68] },
  idle: { h: [0, 0], s: [0, 0], l: [80, 86] },
};

/** A frame name fit for a folded line: no ';' (the separator), no line breaks. */
function cleanName(name) {
  return String(name).replace(/;/g, ',').replace(/[\r\n]+/g, ' ');
}

// ---------------------------------------------------------------------------------------------
// V8 .cpuprofile

/** file:///work/main/node/app.js → node/app.js (under root); node:… and others as they are. */
function shortUrl(url, root) {
  if (!url.startsWith('file://')) return url;
  let file;
  try {
    file = decodeURIComponent(new URL(url).pathname);
  } catch {
    return url;
  }
  if (root) {
    const rel = path.relative(root, file);
    if (!rel.startsWith('..') && !path.isAbsolute(rel)) return rel;
  }
  return file;
}

/** The kind of a V8 call frame (see the header). */
function v8Kind(callFrame, root) {
  const fn = callFrame.functionName;
  const url = callFrame.url || '';
  if (fn === '(garbage collector)') return 'gc';
  if (fn === '(idle)') return 'idle';
  if (!url) return 'native';
  if (url.startsWith('file://')) {
    const file = shortUrl(url, root);
    if (path.isAbsolute(file) || file.split('/').includes('node_modules')) return 'library';
    return 'code';
  }
  return 'library';
}

/** A V8 call frame's name in folded stacks: "fn file:line", or "fn" for native frames. */
function v8Name(callFrame, root) {
  const fn = callFrame.functionName || '(anonymous)';
  if (!callFrame.url) return cleanName(fn);
  const line = callFrame.lineNumber >= 0 ? `:${callFrame.lineNumber + 1}` : '';
  return cleanName(`${fn} ${shortUrl(callFrame.url, root)}${line}`);
}

/**
 * Folds a V8 .cpuprofile. options: { from, to } (µs on the profile's clock, CLOCK_MONOTONIC:
 * process.hrtime's in another process on the same machine) keep only the samples taken in
 * that window; root (the project root) shortens paths and tells the project's code apart.
 * Returns { stacks: Map(folded stack → count), kinds: Map(frame → kind), samples,
 * samples_in_profile, window: { from, to } | null, interval_us } (interval_us: the mean
 * time between the samples kept).
 */
function foldCpuProfile(profile, options = {}) {
  if (!profile || !Array.isArray(profile.nodes) || !Array.isArray(profile.samples) || !Array.isArray(profile.timeDeltas)) {
    throw new Error('not a V8 CPU profile (no nodes, samples and timeDeltas)');
  }
  const root = options.root || null;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const kinds = new Map();
  const stackOf = new Map(); // node id → folded stack (memo)
  const stackFor = (id) => {
    if (stackOf.has(id)) return stackOf.get(id);
    const names = [];
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (!node) break;
      if (node.callFrame.functionName === '(root)' && parent.get(at) === undefined) break;
      const name = v8Name(node.callFrame, root);
      if (!kinds.has(name)) kinds.set(name, v8Kind(node.callFrame, root));
      names.push(name);
    }
    const stack = names.reverse().join(';');
    stackOf.set(id, stack);
    return stack;
  };
  const hasWindow = Number.isFinite(options.from) || Number.isFinite(options.to);
  const from = Number.isFinite(options.from) ? options.from : -Infinity;
  const to = Number.isFinite(options.to) ? options.to : Infinity;
  const stacks = new Map();
  let t = profile.startTime;
  let kept = 0;
  let first = null;
  let last = null;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] || 0;
    if (t < from || t > to) continue;
    const stack = stackFor(profile.samples[i]);
    if (!stack) continue;
    stacks.set(stack, (stacks.get(stack) || 0) + 1);
    kept++;
    if (first === null) first = t;
    last = t;
  }
  return {
    stacks,
    kinds,
    samples: kept,
    samples_in_profile: profile.samples.length,
    window: hasWindow ? { from: options.from ?? null, to: options.to ?? null } : null,
    interval_us: kept > 1 ? Math.round((last - first) / (kept - 1)) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// StackProf

/** StackProf's `--stackcollapse` output → Map(folded stack → count), equal stacks summed. */
function parseStackCollapse(text) {
  const stacks = new Map();
  for (const line of text.split('\n')) {
    const m = /^(.*) (\d+)$/.exec(line.trimEnd());
    if (!m || !m[1]) continue;
    stacks.set(m[1], (stacks.get(m[1]) || 0) + Number(m[2]));
  }
  return stacks;
}

/** The kind of a StackProf frame (see the header) from its name and file. */
function stackprofKind(frame, root) {
  const file = frame.file || '';
  if (file === '<cfunc>') return 'native';
  if (file === '' && /^\(.*\)$/.test(frame.name)) return 'gc';
  if (!file) return 'native';
  const abs = root ? path.resolve(root, file) : file;
  const rel = root ? path.relative(root, abs) : file;
  if (root && !rel.startsWith('..') && !path.isAbsolute(rel) && !rel.split('/').includes('vendor')) return 'code';
  return 'library';
}

/**
 * The kinds of StackProf's frames by name, from `stackprof --json` (its frames). A name that
 * two frames share (two "<main>") takes the kind of either, code before library before native.
 */
function stackprofKinds(json, root) {
  const kinds = new Map();
  const rank = (k) => KINDS.indexOf(k);
  for (const frame of Object.values(json.frames || {})) {
    const name = cleanName(frame.name);
    const kind = stackprofKind(frame, root);
    if (!kinds.has(name) || rank(kind) < rank(kinds.get(name))) kinds.set(name, kind);
  }
  return kinds;
}

// ---------------------------------------------------------------------------------------------
// Folded stacks: text, totals, self time

/** Map(stack → count) as folded text, stacks in order, one a line. */
function formatFolded(stacks) {
  return [...stacks.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([s, n]) => `${s} ${n}\n`).join('');
}

function totalSamples(stacks) {
  let n = 0;
  for (const c of stacks.values()) n += c;
  return n;
}

/** A frame's kind; a frame not in kinds by its look: "(…)" made-up, anything else native. */
function kindOf(name, kinds) {
  if (kinds && kinds.has(name)) return kinds.get(name);
  return 'native';
}

/**
 * Self time: samples whose leaf is the frame, biggest first, with kind and share of all
 * samples; at most limit.
 */
function selfTime(stacks, kinds, limit = 15) {
  const total = totalSamples(stacks);
  const self = new Map();
  for (const [stack, n] of stacks) {
    const leaf = stack.slice(stack.lastIndexOf(';') + 1);
    self.set(leaf, (self.get(leaf) || 0) + n);
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([frame, samples]) => ({ frame, kind: kindOf(frame, kinds), samples, pct: total ? (100 * samples) / total : 0 }));
}

/**
 * Where the samples are by kind: the leaf's kind (self), and besides gc_pct, the samples with
 * a GC frame anywhere on the stack (StackProf puts "(marking)" above "(garbage collection)").
 * Returns { samples, by_kind: { kind: pct }, gc_pct, idle_pct }.
 */
function kindShares(stacks, kinds) {
  const total = totalSamples(stacks);
  const byKind = Object.fromEntries(KINDS.map((k) => [k, 0]));
  let gc = 0;
  for (const [stack, n] of stacks) {
    const frames = stack.split(';');
    byKind[kindOf(frames[frames.length - 1], kinds)] += n;
    if (frames.some((f) => kindOf(f, kinds) === 'gc')) gc += n;
  }
  const pct = (n) => (total ? (100 * n) / total : 0);
  return {
    samples: total,
    by_kind: Object.fromEntries(KINDS.map((k) => [k, pct(byKind[k])])),
    gc_pct: pct(gc),
    idle_pct: pct(byKind.idle),
  };
}

// ---------------------------------------------------------------------------------------------
// The flame graph (SVG)

/** The call tree of folded stacks: { name, value, children: Map } under a root named "all". */
function buildTree(stacks) {
  const root = { name: 'all', value: 0, children: new Map() };
  for (const [stack, n] of stacks) {
    root.value += n;
    let node = root;
    for (const name of stack.split(';')) {
      let child = node.children.get(name);
      if (!child) {
        child = { name, value: 0, children: new Map() };
        node.children.set(name, child);
      }
      child.value += n;
      node = child;
    }
  }
  return root;
}

function escapeXml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** A stable number in [0, 1) from a name (FNV-1a), to vary a colour within its kind. */
function nameHash(name) {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 2 ** 32;
}

function frameColour(name, kind) {
  const c = KIND_HUES[kind] || KIND_HUES.native;
  const v = nameHash(name);
  const at = (range, f) => Math.round(range[0] + (range[1] - range[0]) * f);
  return `hsl(${at(c.h, v)},${at(c.s, (v * 7) % 1)}%,${at(c.l, (v * 13) % 1)}%)`;
}

function pctText(n, total) {
  const p = total ? (100 * n) / total : 0;
  return `${p < 10 ? p.toFixed(2) : p.toFixed(1)}%`;
}

// Click a frame to zoom to it (its callers stay, greyed, full width); click "all" (or press
// Escape) to zoom out. Each frame's <g> holds its place as fractions (data-x, data-w) and its
// depth (data-d); the script only moves and hides what is drawn. It runs in the SVG opened on
// its own and inline in index.html (it finds its own <svg>).
const ZOOM_SCRIPT = `(function () {
  var svg = document.currentScript && document.currentScript.closest ? document.currentScript.closest('svg') : document.documentElement;
  if (!svg) return;
  var W = +svg.getAttribute('data-chart-width'), X0 = +svg.getAttribute('data-chart-x'), CW = +svg.getAttribute('data-char-width');
  function fit(g, x, w) {
    var r = g.querySelector('rect'), t = g.querySelector('text');
    r.setAttribute('x', (X0 + x * W).toFixed(2));
    r.setAttribute('width', Math.max(0, w * W - 0.5).toFixed(2));
    if (!t) return;
    var n = Math.floor((w * W - 6) / CW), name = g.getAttribute('data-name');
    t.setAttribute('x', (X0 + x * W + 3).toFixed(2));
    t.textContent = n < 3 ? '' : name.length <= n ? name : name.slice(0, n - 2) + '..';
  }
  function zoom(target) {
    var zx = +target.getAttribute('data-x'), zw = +target.getAttribute('data-w'), zd = +target.getAttribute('data-d');
    svg.querySelectorAll('g.f').forEach(function (g) {
      var x = +g.getAttribute('data-x'), w = +g.getAttribute('data-w'), d = +g.getAttribute('data-d');
      var inside = x >= zx - 1e-12 && x + w <= zx + zw + 1e-12;
      var below = d < zd && x <= zx + 1e-12 && x + w >= zx + zw - 1e-12;
      g.style.display = inside || below ? '' : 'none';
      g.style.opacity = below ? 0.5 : '';
      if (inside) fit(g, (x - zx) / zw, w / zw); else if (below) fit(g, 0, 1);
    });
  }
  svg.addEventListener('click', function (e) {
    var g = e.target.closest ? e.target.closest('g.f') : null;
    if (g) zoom(g);
  });
  svg.addEventListener('keydown', function (e) { if (e.key === 'Escape') zoom(svg.querySelector('g.f')); });
})();`;

/**
 * The flame graph of folded stacks as a standalone SVG: the root "all" at the bottom, each
 * caller's callees on top of it, left to right by name (as flamegraph.pl), each frame as wide
 * as its samples (samples / total × the chart's width), coloured by kind, with its name and
 * a <title> (frame, kind, samples, share) to hover. options: { title, subtitle, width (1200),
 * frameHeight (16), fontSize (11), minWidth (px; narrower frames are left out and counted,
 * default 0.1) }.
 * Returns { svg, frames (drawn), omitted (too narrow), depth, total }.
 */
function renderFlameGraph(stacks, kinds, options = {}) {
  const width = options.width || 1200;
  const frameHeight = options.frameHeight || 16;
  const fontSize = options.fontSize || 11;
  const charWidth = fontSize * 0.6;
  const minWidth = options.minWidth ?? 0.1;
  const pad = 10;
  const chartWidth = width - 2 * pad;
  const tree = buildTree(stacks);
  const total = tree.value;

  // Lay out: depth-first, children by name, x as a fraction of the total.
  const placed = [];
  let depth = 0;
  let omitted = 0;
  const place = (node, x, d, kind) => {
    const w = total ? node.value / total : 0;
    if (w * chartWidth < minWidth && d > 0) {
      omitted++;
      return;
    }
    placed.push({ node, x, w, d, kind });
    depth = Math.max(depth, d + 1);
    let at = x;
    for (const child of [...node.children.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      place(child, at, d + 1, kindOf(child.name, kinds));
      at += total ? child.value / total : 0;
    }
  };
  if (total > 0) place(tree, 0, 0, 'all');

  const top = options.subtitle ? 52 : 36;
  const legendHeight = 22;
  const height = top + Math.max(depth, 1) * frameHeight + legendHeight + pad;
  const chartBottom = top + depth * frameHeight;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" class="flamegraph" data-chart-width="${chartWidth}" data-chart-x="${pad}" data-char-width="${charWidth}" font-family="Verdana, DejaVu Sans, sans-serif" font-size="${fontSize}" tabindex="0">`);
  out.push('<style>.flamegraph g.f { cursor: pointer } .flamegraph g.f:hover rect { stroke: #000; stroke-width: 0.5 } .flamegraph text { pointer-events: none } .flamegraph:focus { outline: none }</style>');
  out.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="#fbfaf6"/>`);
  if (options.title) out.push(`<text x="${width / 2}" y="20" text-anchor="middle" font-size="${fontSize + 5}">${escapeXml(options.title)}</text>`);
  if (options.subtitle) out.push(`<text x="${width / 2}" y="38" text-anchor="middle" fill="#555">${escapeXml(options.subtitle)}</text>`);
  if (total === 0) out.push(`<text x="${width / 2}" y="${top + 12}" text-anchor="middle">no samples</text>`);
  for (const { node, x, w, d, kind } of placed) {
    const px = pad + x * chartWidth;
    const pw = w * chartWidth;
    const y = chartBottom - (d + 1) * frameHeight;
    const fill = kind === 'all' ? '#d9d4c7' : frameColour(node.name, kind);
    const label = kind === 'all' ? 'all samples' : KIND_LABELS[kind] || kind;
    const n = Math.floor((pw - 6) / charWidth);
    const text = n < 3 ? '' : node.name.length <= n ? node.name : `${node.name.slice(0, n - 2)}..`;
    out.push(
      `<g class="f" data-name="${escapeXml(node.name)}" data-kind="${kind}" data-samples="${node.value}" data-x="${x}" data-w="${w}" data-d="${d}">` +
        `<title>${escapeXml(node.name)}\n${label}: ${node.value} sample${node.value === 1 ? '' : 's'}, ${pctText(node.value, total)}</title>` +
        `<rect x="${px.toFixed(2)}" y="${y}" width="${Math.max(0, pw - 0.5).toFixed(2)}" height="${frameHeight - 1}" rx="1" fill="${fill}"/>` +
        `<text x="${(px + 3).toFixed(2)}" y="${y + frameHeight - 4.5}">${escapeXml(text)}</text></g>`,
    );
  }
  // Legend: the kinds' colours.
  let lx = pad;
  const ly = chartBottom + 8;
  for (const kind of KINDS) {
    out.push(`<rect x="${lx}" y="${ly}" width="12" height="12" fill="${frameColour(kind, kind)}"/>`);
    out.push(`<text x="${lx + 16}" y="${ly + 10}">${escapeXml(KIND_LABELS[kind])}</text>`);
    lx += 24 + KIND_LABELS[kind].length * charWidth;
  }
  const note = omitted ? `${omitted} frame${omitted === 1 ? '' : 's'} narrower than ${minWidth} px left out; ` : '';
  out.push(`<text x="${width - pad}" y="${ly + 10}" text-anchor="end" fill="#555">${escapeXml(`${note}click a frame to zoom, "all" to zoom out`)}</text>`);
  out.push(`<script><![CDATA[\n${ZOOM_SCRIPT}\n]]></script>`);
  out.push('</svg>');
  return { svg: out.join('\n') + '\n', frames: placed.length, omitted, depth, total };
}

module.exports = {
  KINDS,
  KIND_LABELS,
  foldCpuProfile,
  parseStackCollapse,
  stackprofKinds,
  formatFolded,
  totalSamples,
  selfTime,
  kindShares,
  renderFlameGraph,
  escapeXml,
  frameColour,
};
