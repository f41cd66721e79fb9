'use strict';
// The report's section "Where the time goes (profiles)": the flame graphs that
// scripts/profile.sh (perf/lib/studies/profile.js) wrote for this run, read from
// <results dir>/profiles/ (`scripts/profile.sh --out <results dir>/profiles`) or from the folder
// given with `npm run report -- DIR --profiles FOLDER`.
//
// profile.js exports no reader of its profile.json (it writes the file at the end of runProfile
// and keeps nothing else), so the file is read here as plain JSON and each server's entry
// checked for the fields the section shows; what the section says of each server's shares is
// profile.js's own sentence (sharesText), and the kinds' names and colours are flame.js's.
// Each SVG is inlined as markup, so the report stays one file: its <title>s (hover) are kept,
// its zoom script is taken out (the page runs no scripts: click-to-zoom is in the SVG on its
// own, linked under it), and its ids are prefixed per graph (render.js namespaceIds), so that
// two graphs, or a graph and a chart, never share one. A profile.json that cannot be read, a
// server entry not in profile.sh's shape or an SVG that is missing is said in a warning line,
// in the section and on stderr; the rest of the report is built as usual.

const fs = require('node:fs');
const path = require('node:path');
const { sharesText } = require('../studies/profile');
const flame = require('../studies/flame');
const { namespaceIds } = require('./render');
const { serverStyle } = require('./style');
const { fmtNumber } = require('../text/format');
const { PROJECT_ROOT } = require('../project_root');

/** The folder of a results folder that profile.sh --out fills, and the file it writes last. */
const PROFILES_DIR = 'profiles';
const PROFILE_FILE = 'profile.json';

/** --profiles named a folder that holds no profile.json: one line, nothing written. */
class NoProfiles extends Error {}

const esc = flame.escapeXml;

function pct(v) {
  if (!Number.isFinite(v)) return '–';
  return `${v < 10 ? v.toFixed(2) : v.toFixed(1)} %`;
}

function isObject(x) {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/** Why a server entry of profile.json cannot be shown (null: it can): the fields the section reads. */
function entryProblem(r) {
  if (!isObject(r)) return 'not an object';
  if (typeof r.server !== 'string' || !r.server) return 'no server name';
  if (!isObject(r.shares) || !Number.isFinite(r.shares.gc_pct) || !Number.isFinite(r.shares.idle_pct) || !isObject(r.shares.by_kind)) return 'no shares (gc_pct, idle_pct, by_kind)';
  if (!isObject(r.on_cpu)) return 'no on_cpu';
  if (!Array.isArray(r.top) || r.top.some((t) => !isObject(t) || typeof t.frame !== 'string' || !Number.isFinite(t.samples) || !Number.isFinite(t.pct))) return 'no top frames (frame, samples, pct)';
  if (!isObject(r.files) || typeof r.files.svg !== 'string') return 'no files.svg';
  return null;
}

/**
 * A flame graph's SVG ready to sit in the page: the markup from <svg> to </svg> (no XML
 * prolog), no script and no on… attribute, no zoom hint (the page cannot zoom), its ids
 * prefixed. Throws when the text holds no <svg> element.
 */
function inlineSvg(text, prefix, label) {
  const start = text.search(/<svg[\s>]/);
  const end = text.lastIndexOf('</svg>');
  if (start < 0 || end < start) throw new Error('not an SVG (no <svg> … </svg>)');
  let svg = text.slice(start, end + '</svg>'.length);
  svg = svg.replace(/<script\b[^>]*\/>|<script\b[\s\S]*?<\/script\s*>/gi, '');
  svg = svg.replace(/<[a-zA-Z][^>]*>/g, (tag) => tag.replace(/\s+on[a-zA-Z]+\s*=\s*("[^"]*"|'[^']*')/g, ''));
  svg = svg.replace(/^<svg([^>]*?) tabindex="[^"]*"/, '<svg$1');
  svg = svg.replace('click a frame to zoom, &quot;all&quot; to zoom out', 'hover a frame for its numbers');
  svg = namespaceIds(svg, prefix);
  return svg.replace(/^<svg\b/, `<svg aria-label="${esc(label)}"`);
}

function slug(s) {
  return String(s).toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'x';
}

/** A link from the report (in resultsDir) to a file of the profiles folder. */
function hrefOf(resultsDir, dir, file) {
  return path.relative(resultsDir, path.join(dir, path.basename(file))).split(path.sep).join('/');
}

/**
 * The profiles to show in a results folder's report: from dir when given (else
 * <resultsDir>/profiles when that folder exists). null when there is no such folder.
 * { dir, file (profile.json as shown), fileHref, doc (profile.json, or null when unreadable),
 * servers: [{ entry (its server in profile.json), svg (inline markup, or null), anchor, files
 * (links from the report) }], warnings: [line] }. Throws NoProfiles when dir is given and holds no
 * profile.json.
 */
function loadProfiles(resultsDir, { dir = null } = {}) {
  const given = dir !== null && dir !== undefined;
  const at = path.resolve(given ? dir : path.join(resultsDir, PROFILES_DIR));
  const file = path.join(at, PROFILE_FILE);
  if (given && !fs.existsSync(file)) throw new NoProfiles(`--profiles: no ${PROFILE_FILE} in ${dir} (scripts/profile.sh --out ${dir} writes it)`);
  if (!given && !fs.existsSync(at)) return null;
  const shown = path.relative(resultsDir, file).startsWith('..') ? file : path.relative(resultsDir, file);
  const out = { dir: at, file: shown, fileHref: hrefOf(resultsDir, at, PROFILE_FILE), doc: null, servers: [], warnings: [] };
  let doc;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    out.warnings.push(e.code === 'ENOENT'
      ? `${shown} is missing: profile.sh writes it when it ends (still running, or stopped by an error?), so no profile is shown`
      : `${shown} cannot be read (${e.message.split('\n')[0]}), so no profile is shown`);
    return out;
  }
  if (!isObject(doc) || doc.kind !== 'profile' || !Array.isArray(doc.servers)) {
    out.warnings.push(`${shown} is not profile.sh's record (no kind "profile" with servers), so no profile is shown`);
    return out;
  }
  out.doc = doc;
  if (doc.interrupted) out.warnings.push('profile.sh was interrupted: servers it did not finish are not shown');
  for (const f of Array.isArray(doc.failed) ? doc.failed : []) {
    if (isObject(f)) out.warnings.push(`${f.server}: not profiled: ${f.error}`);
  }
  const anchors = new Set();
  doc.servers.forEach((entry, i) => {
    const problem = entryProblem(entry);
    if (problem) {
      out.warnings.push(`${shown}: server ${i + 1}${isObject(entry) && typeof entry.server === 'string' ? ` (${entry.server})` : ''} not shown: ${problem}`);
      return;
    }
    const svgFile = path.join(at, path.basename(entry.files.svg));
    let svg = null;
    try {
      svg = inlineSvg(fs.readFileSync(svgFile, 'utf8'), `flame-${i + 1}-${slug(entry.server)}`, `flame graph of ${entry.server}`);
    } catch (e) {
      out.warnings.push(`${entry.server}: flame graph not shown: ${path.basename(svgFile)} ${e.code === 'ENOENT' ? 'is missing' : `cannot be read (${e.message.split('\n')[0]})`}`);
    }
    // Links to the files beside it that are there (a copied folder may lack the raw profiles).
    const href = (name) => (typeof name === 'string' && fs.existsSync(path.join(at, path.basename(name))) ? hrefOf(resultsDir, at, name) : null);
    let anchor = `profile-${slug(entry.server)}`;
    if (anchors.has(anchor)) anchor += `-${i + 1}`;
    anchors.add(anchor);
    out.servers.push({ entry, svg, anchor, files: Object.fromEntries(['svg', 'folded', 'raw', 'log'].map((k) => [k, href(entry.files[k])])) });
  });
  if (!out.servers.length && !doc.failed?.length) out.warnings.push(`${shown} holds no profiled server`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The section

function commitText(env) {
  if (!env || !env.project_commit) return 'unknown';
  return `<code>${esc(String(env.project_commit).slice(0, 12))}</code>${env.project_dirty ? ' (with uncommitted changes)' : ''}`;
}

/** profile.sh's command line that makes the same profiles (from the settings it recorded). */
function commandOf(doc, dir) {
  const s = isObject(doc.settings) ? doc.settings : {};
  const env = isObject(doc.environment) ? doc.environment : {};
  const rel = path.relative(PROJECT_ROOT, dir);
  const parts = ['scripts/profile.sh'];
  if (Array.isArray(s.servers)) parts.push('--servers', s.servers.join(','));
  if (s.workload) parts.push('--workload', s.workload);
  if (Number.isFinite(s.seconds)) parts.push('--seconds', String(s.seconds));
  if (Number.isFinite(s.warmup_s)) parts.push('--warmup', String(s.warmup_s));
  if (Number.isFinite(s.connections)) parts.push('--connections', String(s.connections));
  if (s.ruby_mode) parts.push('--mode', s.ruby_mode);
  if (isObject(env.pinning) && env.pinning.enabled === false) parts.push('--no-pin');
  parts.push('--out', rel.startsWith('..') || path.isAbsolute(rel) ? dir : rel);
  return parts.join(' ');
}

function onCpu(v) {
  return Number.isFinite(v) ? `${esc(fmtNumber(v, '%'))} %` : '–';
}

function idleCell(r) {
  if (r.runtime === 'node') return `<span title="V8's &quot;(idle)&quot;: the loop outside JavaScript, not only waiting">${pct(r.shares.idle_pct)}</span>`;
  return `<span class="muted">${r.mode === 'wall' ? 'not told apart' : 'not sampled'}</span>`;
}

function chip(server) {
  return `<span class="chip" style="--c:${serverStyle(server).colour}" aria-hidden="true"></span>`;
}

/** A row per server: samples, GC, idle, on CPU, the kinds on top, req/s under the profiler. */
function sharesTable(shown) {
  const kinds = ['code', 'library', 'native'];
  const rows = shown.map(({ entry: r, anchor }) => {
    const wrk = isObject(r.wrk) ? r.wrk : {};
    return `<tr><td class="l"><a href="#${esc(anchor)}">${chip(r.server)}${esc(r.server)}</a> <span class="muted">${esc(r.profiler || '')}</span></td><td>${esc(fmtNumber(r.samples, 'count'))}</td><td><b>${pct(r.shares.gc_pct)}</b></td><td>${idleCell(r)}</td><td>${onCpu(r.on_cpu.process_pct)}</td><td>${onCpu(r.on_cpu.main_thread_pct)}</td>${kinds.map((k) => `<td>${pct(r.shares.by_kind[k])}</td>`).join('')}<td class="muted">${esc(fmtNumber(wrk.requests_per_sec, 'req/s'))}${wrk.client_bound ? ' (wrk at its whole CPU)' : ''}</td></tr>`;
  }).join('\n');
  return `<div class="scroll"><table class="profile-shares"><thead><tr><th class="l" rowspan="2">server</th><th rowspan="2">samples</th><th rowspan="2">GC</th><th rowspan="2">idle</th><th colspan="2">on CPU, share of the time</th><th colspan="3">samples by the kind of the frame on top</th><th rowspan="2">req/s under the profiler <span class="unit">not a benchmark figure</span></th></tr>
<tr><th>all threads</th><th>main thread</th>${kinds.map((k) => `<th>${esc(flame.KIND_LABELS[k])}</th>`).join('')}</tr></thead>
<tbody>
${rows}
</tbody></table></div>`;
}

function topTable(r) {
  const rows = r.top.map((t, i) => `<tr><td>${i + 1}</td><td class="l frame"><i class="swatch" style="background:${flame.frameColour(t.frame, t.kind)}"></i>${esc(t.frame)}</td><td class="l">${esc(t.kind || '')}</td><td>${esc(fmtNumber(t.samples, 'count'))}</td><td>${pct(t.pct)}</td></tr>`).join('\n');
  return `<div class="scroll"><table class="profile-top"><caption>Top ${r.top.length} frames by self time (samples with the frame on top)</caption><thead><tr><th>#</th><th class="l">frame</th><th class="l">kind</th><th>samples</th><th>of all samples</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>`;
}

function serverBlock({ entry: r, svg, files, anchor }) {
  const wrk = isObject(r.wrk) ? r.wrk : {};
  const se = isObject(wrk.socket_errors) ? wrk.socket_errors : {};
  const errors = ['connect', 'read', 'write', 'timeout'].reduce((n, k) => n + (Number.isFinite(se[k]) ? se[k] : 0), 0);
  const links = [
    files.svg ? `<a href="${esc(files.svg)}">${esc(path.basename(files.svg))}</a> (the flame graph on its own: click a frame to zoom)` : null,
    files.folded ? `<a href="${esc(files.folded)}">${esc(path.basename(files.folded))}</a> (folded stacks: flamegraph.pl, speedscope, inferno)` : null,
    files.raw ? `<a href="${esc(files.raw)}">${esc(path.basename(files.raw))}</a> (the raw profile)` : null,
  ].filter(Boolean).join(' · ');
  const graph = svg
    ? `<figure class="flame" data-server="${esc(r.server)}">
${svg}
<figcaption>${links}</figcaption>
</figure>`
    : '';
  return `<h3 id="${esc(anchor)}">${chip(r.server)}${esc(r.server)} <span class="muted">${esc(r.profiler || '')}</span></h3>
${r.description ? `<p class="muted">${esc(r.description)}</p>` : ''}
<p>${esc(sharesText(r))}; ${esc(fmtNumber(r.samples, 'count'))} samples. Under the profiler wrk got ${esc(fmtNumber(wrk.requests_per_sec, 'req/s'))} req/s (${esc(fmtNumber(wrk.requests, 'count'))} requests${errors ? `, ${errors} socket errors` : ''}${wrk.non_2xx_3xx ? `, ${esc(String(wrk.non_2xx_3xx))} replies ≥ 400` : ''}): not a benchmark figure.${wrk.command ? ` <span class="muted">Load: <code>${esc(wrk.command)}</code>.</span>` : ''}</p>
${r.sampler || r.note ? `<p class="muted">${r.sampler ? `Sampler: ${esc(r.sampler)}.` : ''}${r.note ? ` <b>Note:</b> ${esc(r.note)}.` : ''}</p>` : ''}
${graph}
${topTable(r)}`;
}

/** The section's HTML; '' without profiles. runCommit: the run's commit, to say when they differ. */
function profilesSection(profiles, { runCommit = null } = {}) {
  if (!profiles) return '';
  const warnings = profiles.warnings.length
    ? `<ul class="flags">${profiles.warnings.map((w) => `<li class="warn"><span class="tag warn">WARNING</span> ${esc(w)}</li>`).join('')}</ul>`
    : '';
  const doc = profiles.doc;
  if (!doc) {
    return `<section id="profiles">
<h2>Where the time goes (profiles)</h2>
${warnings}
</section>`;
  }
  const s = isObject(doc.settings) ? doc.settings : {};
  const env = isObject(doc.environment) ? doc.environment : {};
  const pinning = isObject(env.pinning) ? env.pinning : null;
  const other = runCommit && env.project_commit && String(runCommit) !== String(env.project_commit)
    ? ` <b>Not this run's commit</b> (<code>${esc(String(runCommit).slice(0, 12))}</code>): the code profiled may differ from the code measured.`
    : '';
  const legend = flame.KINDS.map((k) => `<span class="server"><i class="swatch" style="background:${flame.frameColour(k, k)}"></i>${esc(flame.KIND_LABELS[k])}</span>`).join('');
  const workload = `${s.workload ? `<b>${esc(s.workload)}</b>` : 'an unrecorded workload'}${s.request ? ` (${esc(s.request)})` : ''}`;
  const warm = Number.isFinite(s.warmup_s) && s.warmup_s > 0 ? `${s.warmup_s} s warm-up (not profiled), then ` : '';
  const load = `${Number.isFinite(s.connections) ? `wrk -t1 -c${s.connections}` : 'wrk'}${Number.isFinite(s.seconds) ? `, ${warm}${s.seconds} s profiled` : ''}`;
  return `<section id="profiles">
<h2>Where the time goes (profiles)</h2>
<p>Each server under its runtime's profiler (Node: V8's <code>--cpu-prof</code>; Ruby: StackProf${s.ruby_mode ? `, ${esc(s.ruby_mode)} mode` : ''}), one after the other, each started fresh, on the same load: ${workload}, ${esc(load)}${pinning ? `; ${pinning.enabled ? `servers on CPU ${esc(String(pinning.server_cpu))}, wrk on CPU ${esc(String(pinning.client_cpu))}` : 'not pinned'}` : ''}. Profiled at commit ${commitText(env)}${env.started_at ? ` on ${esc(String(env.started_at))}` : ''}.${other}</p>
<p>Command: <code>${esc(commandOf(doc, profiles.dir))}</code> <span class="muted">(from the settings in <a href="${esc(profiles.fileHref)}">${esc(profiles.file)}</a>)</span></p>
<p class="care"><b>The req/s here are not benchmark figures.</b> They were measured under the profiler (V8's sampler thread and StackProf's signal handler run on the server's CPU) and only say that each server was loaded; how fast the servers are is in the verdicts above. The shares are comparable between the servers, the sample counts are not (V8 samples wall time about every millisecond, StackProf's cpu mode on-CPU time at the kernel's tick).</p>
<p class="muted">How to read a flame graph: each box is a function, the one below it its caller; its width is its share of the samples, in it or in what it called; left to right is by name, not time. Hover a box for its numbers. V8's "(idle)" is the event loop outside JavaScript, waiting in epoll but also reading sockets and parsing HTTP in C++: what the server really left unused is 100 % minus its time on CPU. GC is what ran on the main thread.<br>Colours: ${legend}</p>
${warnings}
${profiles.servers.length ? sharesTable(profiles.servers) : ''}
${profiles.servers.map(serverBlock).join('\n')}
</section>`;
}

module.exports = { loadProfiles, profilesSection, inlineSvg, commandOf, NoProfiles, PROFILES_DIR, PROFILE_FILE };
