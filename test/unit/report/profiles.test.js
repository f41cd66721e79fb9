'use strict';
// The report's section "Where the time goes (profiles)" (perf/lib/report/profiles.js): built
// by buildReport from a made-up results folder with a made-up profiles/ folder as
// `scripts/profile.sh --out <results dir>/profiles` leaves it (a tiny profile.json in the
// shape perf/lib/studies/profile.js writes, two tiny SVGs that use the same ids): both graphs
// inline with their ids prefixed, their hover titles kept, no script; the tables of shares
// and top frames, the workload, the command and the commit, the line that the req/s are not
// benchmark figures. No profiles folder: no section. A broken profile.json: a warning line, no
// crash. --profiles DIR: a folder elsewhere; one without profile.json is a usage error.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { buildReport, NoProfiles } = require('../../../perf/lib/report/index');
const { inlineSvg } = require('../../../perf/lib/report/profiles');
const flame = require('../../../perf/lib/studies/flame');
const { trialRun } = require('../../support/made_up_results');
const { makeTmpDir } = require('../../support/runner_helpers');

const CLI = path.resolve(__dirname, '..', '..', '..', 'perf', 'cli', 'report.js');

/** A results folder of one scenario, node and em, one trial each, made at commit run_commit. */
function resultsFolder(prefix, { commit = 'aaaaaaa1111111111111111111111111111111111' } = {}) {
  const dir = makeTmpDir(prefix);
  const runs = ['node', 'em'].map((server) => trialRun(server, 'hello', 1, server === 'node' ? 1 : 2, 100));
  fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ environment: { project_commit: commit }, runs }));
  return dir;
}

/** A server's entry of profile.json as profile.js writes it; more overrides. */
function entry(server, runtime, more = {}) {
  const node = runtime === 'node';
  return {
    server,
    description: `${server}, made up`,
    runtime,
    mode: node ? null : 'cpu',
    profiler: node ? 'V8 (--cpu-prof)' : 'StackProf (cpu mode)',
    sampler: node ? 'V8\'s sampler (node --cpu-prof), every 1 ms' : 'StackProf, cpu mode',
    note: null,
    files: { raw: `${server}.${node ? 'cpuprofile' : 'stackprof.dump'}`, folded: `${server}.folded`, svg: `${server}.svg`, log: `${server}.server.log` },
    wrk: { command: 'wrk -t 1 -c 50 -d 5s --latency --timeout 5s http://127.0.0.1:40000/hello', requests: 75000, requests_per_sec: 14966.98, socket_errors: { connect: 0, read: 0, write: 0, timeout: 0 }, non_2xx_3xx: 0, client_cpu_pct: 28, client_bound: false },
    on_cpu: { process_pct: 99.7, main_thread_pct: node ? 94.1 : 99.4 },
    samples: node ? 4589 : 1248,
    stacks: 3,
    shares: node
      ? { samples: 4589, by_kind: { code: 6.19, library: 34.78, native: 43.45, gc: 1.53, idle: 14.06 }, gc_pct: 1.53, idle_pct: 14.06 }
      : { samples: 1248, by_kind: { code: 30.21, library: 0.72, native: 66.59, gc: 2.48, idle: 0 }, gc_pct: 2.48, idle_pct: 0 },
    top: node
      ? [{ frame: 'writev', kind: 'native', samples: 1445, pct: 31.49 }, { frame: '(idle)', kind: 'idle', samples: 645, pct: 14.06 }, { frame: 'route node/app.js:202', kind: 'code', samples: 53, pct: 1.15 }]
      : [{ frame: 'EventMachine.run_machine', kind: 'native', samples: 457, pct: 36.62 }, { frame: '(sweeping)', kind: 'gc', samples: 25, pct: 2.0 }],
    ...more,
  };
}

/** profile.json as profile.js writes it, of node_tuned and em_tuned. */
function profileDoc(more = {}) {
  const settings = { servers: ['node_tuned', 'em_tuned'], workload: 'hello_keepalive', request: 'GET /hello, keep-alive', seconds: 5, warmup_s: 1, connections: 50, ruby_mode: 'cpu' };
  return {
    kind: 'profile',
    environment: { node: 'v20.20.2', project_commit: 'd5b8ce0c78c9311018ea42f9ff5232e9272f3276', project_dirty: true, pinning: { enabled: true, server_cpu: 0, client_cpu: 1, reason: null }, options: settings, started_at: '2026-11-27T10:29:26.413Z', finished_at: '2026-11-27T10:29:40.848Z' },
    settings,
    interrupted: false,
    failed: [],
    servers: [entry('node_tuned', 'node'), entry('em_tuned', 'ruby')],
    ...more,
  };
}

/** A tiny flame graph: a gradient with id "bg" used by url(#bg), a frame with a hover title, a script and an onclick. */
function tinySvg(server) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40" viewBox="0 0 200 40" class="flamegraph" tabindex="0">
<defs><linearGradient id="bg"><stop offset="0" stop-color="#eee"/></linearGradient></defs>
<rect x="0" y="0" width="200" height="40" fill="url(#bg)"/>
<g class="f" id="frame-all" data-name="all" onclick="alert(1)"><title>all of ${server}
all samples: 10 samples, 100.0%</title><rect x="0" y="20" width="200" height="15"/><text x="3" y="31">all</text></g>
<use href="#frame-all"/>
<script><![CDATA[
document.title = 'scripted';
]]></script>
</svg>
`;
}

function writeProfiles(dir, doc = profileDoc(), { svgs = ['node_tuned', 'em_tuned'] } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'profile.json'), typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2));
  for (const s of svgs) fs.writeFileSync(path.join(dir, `${s}.svg`), tinySvg(s));
  fs.writeFileSync(path.join(dir, 'node_tuned.folded'), 'main;writev 10\n');
}

/** The profiles section of a report's HTML, or null. */
function sectionOf(html) {
  const m = /<section id="profiles">[\s\S]*?\n<\/section>/.exec(html);
  return m ? m[0] : null;
}

describe('report: the profiles section (scripts/profile.sh --out <results dir>/profiles)', function () {
  this.timeout(60000);
  const dir = resultsFolder('report-profiles-');
  let built;
  let html;
  let section;

  before(async () => {
    writeProfiles(path.join(dir, 'profiles'));
    built = await buildReport(dir, { png: false });
    html = fs.readFileSync(built.reportPath, 'utf8');
    section = sectionOf(html);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('adds "Where the time goes (profiles)" with its link in the navigation, and no warning', () => {
    assert.ok(section, 'no profiles section');
    assert.match(section, /<h2>Where the time goes \(profiles\)<\/h2>/);
    assert.match(html, /<a href="#profiles">Profiles<\/a>/);
    assert.deepEqual(built.warnings, []);
    assert.doesNotMatch(section, /class="warn"/);
  });

  it('inlines both flame graphs, each id prefixed per graph (no id twice on the page), their hover titles kept, their scripts and handlers taken out', () => {
    const figures = section.match(/<figure class="flame" data-server="[^"]+">\n<svg [\s\S]*?<\/svg>/g);
    assert.equal(figures.length, 2);
    assert.match(figures[0], /data-server="node_tuned"/);
    assert.match(figures[1], /data-server="em_tuned"/);
    for (const [i, server] of [[1, 'node_tuned'], [2, 'em_tuned']]) {
      const f = figures[i - 1];
      assert.match(f, new RegExp(`<linearGradient id="flame-${i}-${server}-bg">`));
      assert.match(f, new RegExp(`fill="url\\(#flame-${i}-${server}-bg\\)"`));
      assert.match(f, new RegExp(`<use href="#flame-${i}-${server}-frame-all"/>`));
      assert.match(f, new RegExp(`<title>all of ${server}\nall samples: 10 samples, 100.0%</title>`));
      assert.match(f, new RegExp(`<svg aria-label="flame graph of ${server}" xmlns=`));
      assert.doesNotMatch(f, /<\?xml|tabindex|onclick/);
    }
    assert.doesNotMatch(html, /<script/i);
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), [], 'ids used twice');
    assert.ok(!ids.includes('bg'));
  });

  it('a table of the servers\' GC, idle and on-CPU shares, and per server its top self-time frames', () => {
    const shares = /<table class="profile-shares">[\s\S]*?<\/table>/.exec(section)[0];
    const rows = shares.match(/<tr><td class="l">.*?<\/tr>/g).map((r) => r.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
    assert.deepEqual(rows, [
      'node_tuned V8 (--cpu-prof) 4,589 1.53 % 14.1 % 99.7 % 94.1 % 6.19 % 34.8 % 43.5 % 14,967',
      'em_tuned StackProf (cpu mode) 1,248 2.48 % not sampled 99.7 % 99.4 % 30.2 % 0.72 % 66.6 % 14,967',
    ]);
    const tops = section.match(/<table class="profile-top">[\s\S]*?<\/table>/g);
    assert.equal(tops.length, 2);
    const frames = (t) => [...t.matchAll(/<td class="l frame">(?:<i [^>]*><\/i>)?([^<]*)<\/td><td class="l">([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td>/g)].map((m) => m.slice(1).join(' | '));
    assert.deepEqual(frames(tops[0]), ['writev | native | 1,445 | 31.5 %', '(idle) | idle | 645 | 14.1 %', 'route node/app.js:202 | code | 53 | 1.15 %']);
    assert.deepEqual(frames(tops[1]), ['EventMachine.run_machine | native | 457 | 36.6 %', '(sweeping) | gc | 25 | 2.00 %']);
    // profile.js's own sentence of each server's shares.
    assert.match(section, /GC 1\.5%, V8&#39;s &quot;\(idle\)&quot; 14\.1% \(the loop outside JavaScript, not only waiting: the server was on CPU 100% of the time, its main thread 94%\)/);
    assert.match(section, /GC 2\.5%, idle not sampled \(StackProf&#39;s cpu mode;/);
  });

  it('says the workload, the command, the profile\'s commit (and that it is not the run\'s), and that the req/s are not benchmark figures', () => {
    assert.match(section, /<b>hello_keepalive<\/b> \(GET \/hello, keep-alive\), wrk -t1 -c50, 1 s warm-up \(not profiled\), then 5 s profiled; servers on CPU 0, wrk on CPU 1/);
    assert.match(section, new RegExp(`<code>scripts/profile\\.sh --servers node_tuned,em_tuned --workload hello_keepalive --seconds 5 --warmup 1 --connections 50 --mode cpu --out ${path.join(dir, 'profiles').replace(/[.]/g, '\\.')}</code>`));
    assert.match(section, /Profiled at commit <code>d5b8ce0c78c9<\/code> \(with uncommitted changes\) on 2026-11-27T10:29:26\.413Z\. <b>Not this run's commit<\/b> \(<code>aaaaaaa11111<\/code>\)/);
    assert.match(section, /<b>The req\/s here are not benchmark figures\.<\/b>/);
    assert.match(section, /Load: <code>wrk -t 1 -c 50 -d 5s --latency --timeout 5s http:\/\/127\.0\.0\.1:40000\/hello<\/code>/);
  });

  it('links the files of the profiles folder that are there, from the report', () => {
    assert.match(section, /<a href="profiles\/node_tuned\.svg">node_tuned\.svg<\/a>/);
    assert.match(section, /<a href="profiles\/node_tuned\.folded">node_tuned\.folded<\/a>/);
    assert.match(section, /<a href="profiles\/profile\.json">profiles\/profile\.json<\/a>/);
    assert.doesNotMatch(section, /node_tuned\.cpuprofile|em_tuned\.folded/, 'files not in the folder are not linked');
  });
});

describe('report: the profiles section, absent or broken', function () {
  this.timeout(60000);
  const dirs = [];
  const folder = (prefix, opts) => {
    const d = resultsFolder(prefix, opts);
    dirs.push(d);
    return d;
  };
  after(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

  it('without a profiles folder: no section, no link to it', async () => {
    const dir = folder('report-noprofiles-');
    const built = await buildReport(dir, { png: false });
    const html = fs.readFileSync(built.reportPath, 'utf8');
    assert.equal(sectionOf(html), null);
    assert.doesNotMatch(html, /href="#profiles"|class="flame"/);
    assert.deepEqual(built.warnings, []);
  });

  it('a broken profile.json: the section with a warning line, the report built, the warning returned (the command prints it)', async () => {
    const dir = folder('report-badprofiles-');
    writeProfiles(path.join(dir, 'profiles'), '{"kind": "profile", "servers": [');
    const built = await buildReport(dir, { png: false });
    const section = sectionOf(fs.readFileSync(built.reportPath, 'utf8'));
    assert.ok(section);
    const warns = section.match(/<li class="warn">.*?<\/li>/g);
    assert.equal(warns.length, 1);
    assert.match(warns[0], /profiles\/profile\.json cannot be read \(.*JSON.*\), so no profile is shown/);
    assert.doesNotMatch(section, /<svg|<table/);
    assert.equal(built.warnings.length, 1);
    assert.match(built.warnings[0], /^profiles: profiles\/profile\.json cannot be read/);
  });

  it('JSON not in profile.sh\'s shape, a server entry without its shares, a missing SVG, a failed server: a warning each, the rest shown', async () => {
    const dir = folder('report-oddprofiles-', { commit: 'd5b8ce0c78c9311018ea42f9ff5232e9272f3276' });
    const doc = profileDoc({
      servers: [entry('node_tuned', 'node'), entry('em_tuned', 'ruby', { shares: null }), entry('node', 'node')],
      failed: [{ server: 'em', error: 'no profile written (em.stackprof.dump)' }],
    });
    writeProfiles(path.join(dir, 'profiles'), doc, { svgs: ['node_tuned'] });
    const built = await buildReport(dir, { png: false });
    const section = sectionOf(fs.readFileSync(built.reportPath, 'utf8'));
    const warns = section.match(/<li class="warn">.*?<\/li>/g).map((w) => w.replace(/<[^>]+>/g, ''));
    assert.deepEqual(warns, [
      'WARNING em: not profiled: no profile written (em.stackprof.dump)',
      'WARNING profiles/profile.json: server 2 (em_tuned) not shown: no shares (gc_pct, idle_pct, by_kind)',
      'WARNING node: flame graph not shown: node.svg is missing',
    ]);
    assert.equal(section.match(/<figure class="flame"/g).length, 1);
    assert.equal(section.match(/<table class="profile-top">/g).length, 2, 'node\'s frames without its graph');
    assert.doesNotMatch(section, /Not this run/, 'the same commit');
    assert.equal(built.warnings.length, 3);

    const other = folder('report-notprofile-');
    writeProfiles(path.join(other, 'profiles'), { kind: 'soak', runs: [] });
    const again = await buildReport(other, { png: false });
    assert.match(sectionOf(fs.readFileSync(again.reportPath, 'utf8')), /profiles\/profile\.json is not profile\.sh&#39;s record/);
  });

  it('--profiles DIR: a folder elsewhere, linked from the report; a folder without profile.json: one line, exit 2, nothing written', async () => {
    const dir = folder('report-elsewhere-');
    const elsewhere = path.join(dir, 'kept', 'prof');
    writeProfiles(elsewhere);
    const built = await buildReport(dir, { png: false, profiles: elsewhere });
    const section = sectionOf(fs.readFileSync(built.reportPath, 'utf8'));
    assert.equal(section.match(/<figure class="flame"/g).length, 2);
    assert.match(section, /<a href="kept\/prof\/node_tuned\.svg">/);

    await assert.rejects(buildReport(dir, { png: false, profiles: path.join(dir, 'nope') }), NoProfiles);
    const bare = folder('report-cli-noprofiles-');
    const res = spawnSync(process.execPath, [CLI, bare, '--profiles', path.join(bare, 'nope'), '--no-png', '-q'], { encoding: 'utf8' });
    assert.equal(res.status, 2);
    assert.equal(res.stdout, '');
    assert.equal(res.stderr, `report: --profiles: no profile.json in ${path.join(bare, 'nope')} (scripts/profile.sh --out ${path.join(bare, 'nope')} writes it)\n`);
    assert.ok(!fs.existsSync(path.join(bare, 'report.html')));
  });
});

describe('report: a flame graph made inline (inlineSvg)', () => {
  it('flame.js\'s own SVG: no zoom script, no tabindex, no zoom hint; titles kept; without ids nothing to prefix', () => {
    const stacks = new Map([['main;work', 3], ['main;(garbage collector)', 1]]);
    const kinds = new Map([['main', 'code'], ['work', 'code'], ['(garbage collector)', 'gc']]);
    const { svg } = flame.renderFlameGraph(stacks, kinds, { title: 'made up' });
    assert.match(svg, /<script>/);
    const inline = inlineSvg(svg, 'flame-1-x', 'flame graph of x');
    assert.doesNotMatch(inline, /<script|tabindex|click a frame to zoom/);
    assert.match(inline, /^<svg aria-label="flame graph of x" xmlns=/);
    assert.match(inline, /<title>work\nthe project's code: 3 samples, 75\.0%<\/title>/);
    assert.match(inline, /hover a frame for its numbers<\/text>/);
    assert.match(inline, /<\/svg>$/);
  });

  it('text without an <svg> element: an error (a warning line in the report)', () => {
    assert.throws(() => inlineSvg('<html>not a graph</html>', 'p', 'x'), /not an SVG/);
  });
});
