'use strict';
// The report page (perf/lib/report/html.js renderHtml) from a made-up model as buildReport
// makes it: each answer a comparison can have, in the summary table (short) and in its
// scenario's section (in full); the flags that change a verdict beside it; everything a run or
// its environment says escaped.

const assert = require('node:assert/strict');
const { renderHtml } = require('../../../perf/lib/report/html');
const { comparisons, flags, headline } = require('../../../perf/lib/report/headline');
const { orderServers } = require('../../../perf/lib/report/style');
const { madeUpRun: run, decoded } = require('../../support/made_up_results');

/** The page of the runs, with these stored comparisons, as buildReport assembles its model. */
function page(runs, stored, { environment = {}, title = null } = {}) {
  const d = decoded(runs, { comparisons: stored, environment });
  const results = { ...d, servers: orderServers(d.servers) };
  const comps = comparisons(results);
  const sections = results.scenarios.map((scenario) => ({ scenario, slow: false, figures: [], notes: [], noCurve: [] }));
  return renderHtml({ results, comparisons: comps, flags: flags(results), headline: title ?? headline(results, comps), seed: null, overview: [], sections, fonts: {}, generatedAt: '2026-01-01T00:00:00Z' });
}

/** em and node in a scenario, em's median twice node's; more: { em, node } overrides. */
const pairOf = (scenario, more = {}) => [run('em', scenario, 2, 100, more.em), run('node', scenario, 1, 200, more.node)];
/** A stored comparison of node's and em's medians; over: what it found. */
const p50 = (scenario, over = {}) => ({ scenario, metric: 'p50_ms', a: 'node', b: 'em', value_a: 1, value_b: 2, ratio: 0.5, ci95: [0.4, 0.625], significant: true, excluded: null, no_verdict: null, note: null, ...over });

// a_win's node had failed requests and b_same's em a busy load generator: warnings, but no verdict changes.
const runs = [...pairOf('a_win', { node: { errors: { reset: 1 } } }), ...pairOf('b_same', { em: { client_cpu_pct: 85 } }), ...pairOf('c_one'), ...pairOf('d_res'), ...pairOf('e_bound', { node: { client_bound: true } }), ...pairOf('f_failed', { em: { ok: false, failure: 'server <exited> & "gone"' } })];
const stored = [
  p50('a_win'),
  p50('b_same', { ratio: 1.05, ci95: [0.9, 1.2], significant: false }),
  p50('c_one', { ci95: null, significant: null, note: '1 trial: no interval' }),
  p50('d_res', { ratio: null, ci95: null, significant: null, no_verdict: 'below the resolution', note: 'below the resolution: httperf gives <0.1 ms> steps' }),
  p50('e_bound', { ratio: null, ci95: null, significant: null, excluded: 'client-bound', note: 'node client-bound in all 1 trials' }),
  p50('f_failed', { ratio: null, ci95: null, significant: null, excluded: 'failed', note: 'em failed' }),
];

/** The summary table's row of a scenario: its first cell, its median cells and their verdict. */
function summaryRow(html, scenario) {
  const row = new RegExp(`<tr><td class="l"><a href="#s-${scenario}">${scenario}</a>(.*?)</td><td class="(win)?">([^<]*)</td><td class="(win)?">([^<]*)</td><td class="verdict">(.*?)</td>`).exec(html);
  assert.ok(row, `no summary row for ${scenario}`);
  const [, tags, nodeWins, node, emWins, em, verdict] = row;
  return { tags, node: `${node}${nodeWins ? ' (bold)' : ''}`, em: `${em}${emWins ? ' (bold)' : ''}`, verdict };
}

/** The values a scenario's section shows after its median's verdict. */
const VALUES = ' <span class="ci">(node 1.00 vs em 2.00 ms)</span>';

/** The median's verdict in a scenario's own section, with its values. */
function sectionVerdict(html, scenario) {
  const section = new RegExp(`<section id="s-${scenario}">[^]*?</section>`).exec(html)[0];
  return /<li>median response time: (.*?)<\/li>/.exec(section)[1];
}

describe('report page: each answer, in the summary table and in its section', () => {
  const html = page(runs, stored);

  it('a winner: its name in bold, the factor and its interval; its value bold', () => {
    const r = summaryRow(html, 'a_win');
    assert.deepEqual([r.node, r.em], ['1.00 (bold)', '2.00']);
    assert.equal(r.verdict, '<span class="nowrap"><span class="chip" style="--c:#0072B2" aria-hidden="true"></span><b>node</b> 2.0×</span> faster <span class="ci">95% CI <span class="nowrap">1.6–2.5×</span></span>');
    assert.equal(sectionVerdict(html, 'a_win'), r.verdict + VALUES);
  });

  it('undecided: said so, the side that looks better in brackets with the interval; no value bold', () => {
    const r = summaryRow(html, 'b_same');
    assert.deepEqual([r.node, r.em], ['1.00', '2.00']);
    assert.equal(r.verdict, '<span class="ns">undecided</span> <span class="ci">(<span class="nowrap">em 1.05×</span> faster)</span> <span class="ci">95% CI <span class="nowrap">0.9–1.2×</span></span>');
    // Its section says what would decide it.
    assert.match(sectionVerdict(html, 'b_same'), /^<span class="ns">undecided<\/span> .*95% CI .* <span class="ci">about [\d.]+× the measuring would decide<\/span>/);
  });

  it('the same within the margin: said with the margin and the ratio\'s interval; no value bold', () => {
    const same = page(pairOf('g_same'), [p50('g_same', { ratio: 1.01, ci95: [0.95, 1.06], significant: false })]);
    const r = summaryRow(same, 'g_same');
    assert.deepEqual([r.node, r.em], ['1.00', '2.00']);
    assert.equal(r.verdict, '<span class="ns">same within ±10 %</span> <span class="ci">95% CI <span class="nowrap">0.95–1.06</span></span>');
  });

  it('one trial: no verdict, the side that looks better; why in short in the table, in full in the section', () => {
    assert.equal(summaryRow(html, 'c_one').verdict, '<span class="ns">no verdict</span> <span class="ci">(<span class="nowrap">node 2.0×</span> faster; 1 trial)</span>');
    assert.equal(sectionVerdict(html, 'c_one'), '<span class="ns">no verdict</span> <span class="ci">(<span class="nowrap">node 2.0×</span> faster; 1 trial: no interval, no winner)</span>' + VALUES);
  });

  it('not judged whatever the numbers: its code, the note on hover (escaped)', () => {
    assert.equal(summaryRow(html, 'd_res').verdict, '<span class="muted" title="below the resolution: httperf gives &lt;0.1 ms&gt; steps">below the resolution</span>');
  });

  it('client-bound: "not judged" with a warning sign, who and what to do in the section; the row tagged', () => {
    const r = summaryRow(html, 'e_bound');
    assert.equal(r.verdict, '<span class="caveat-text" title="node client-bound in all 1 trials">– not judged <span class="caveat">⚠</span></span>');
    assert.equal(r.tags, '<br><span class="tag warn">node CLIENT-BOUND</span>');
    assert.equal(sectionVerdict(html, 'e_bound'), '<span class="caveat-text" title="node client-bound in all 1 trials">– not judged: node client-bound, the load generator set the pace (try --engine wrk) <span class="caveat">⚠</span></span>' + VALUES);
  });

  it('a side that failed: a word in the table, the note in the section; the row tagged', () => {
    const r = summaryRow(html, 'f_failed');
    assert.equal(r.verdict, '<span class="muted" title="em failed">– (failed)</span>');
    assert.equal(r.tags, '<br><span class="tag bad">em FAILED</span>');
    assert.equal(sectionVerdict(html, 'f_failed'), '<span class="muted" title="em failed">– (em failed)</span>' + VALUES);
  });

  it('no row tagged with a warning that does not change its verdict (failed requests, close to client-bound)', () => {
    for (const scenario of ['a_win', 'b_same', 'c_one', 'd_res']) assert.equal(summaryRow(html, scenario).tags, '', scenario);
  });
});

describe('report page: what the runs and their environment say is escaped', () => {
  it('a failure, an environment value, a server\'s description and the headline', () => {
    const html = page(runs, stored, { environment: { node: 'v20 <beta>', servers: { node: { description: 'Node\'s "http" & <more>' } } }, title: 'a < b & "c"' });
    assert.ok(html.includes('<span class="muted">server &lt;exited&gt; &amp; &quot;gone&quot;</span>'), 'the failure');
    assert.ok(html.includes('<dt>Node.js</dt><dd>v20 &lt;beta&gt;</dd>'), 'the environment');
    assert.ok(html.includes('title="Node&#39;s &quot;http&quot; &amp; &lt;more&gt;"'), 'the server\'s description');
    assert.ok(html.includes('<p class="headline">a &lt; b &amp; &quot;c&quot;</p>'), 'the headline');
    assert.doesNotMatch(html, /<exited>|<beta>|<more>/);
  });
});

describe('report page: the host on the first screen', () => {
  it('the CPU, microcode, kernel and flags as the archive tells hosts apart, and the calibration, in the header\'s line', () => {
    const environment = { cpu_model: 'Intel(R) Xeon(R) <P>', cpu_microcode: '0x1', kernel: 'Linux 6.18.44-fc-v657', cpu_flags: ['sse2', 'avx2'], cpu_mitigations: {}, calibration: { cpu_ms_per_request: 0.01234 } };
    const meta = /<p class="meta">(.*?)<\/p>/.exec(page(runs, stored, { environment }))[1];
    assert.match(meta, /(^| · )on Intel\(R\) Xeon\(R\) &lt;P&gt; \(microcode 0x1, kernel 6\.18\.44-fc-v657, flags [0-9a-f]{6}\), calibration 0\.0123 ms CPU\/req · /);
    // Without a calibration (a run of other scenarios), the host alone; with no host known, nothing.
    assert.match(/<p class="meta">(.*?)<\/p>/.exec(page(runs, stored, { environment: { ...environment, calibration: null } }))[1], /\(microcode 0x1, kernel 6\.18\.44-fc-v657, flags [0-9a-f]{6}\) · /);
    assert.doesNotMatch(/<p class="meta">(.*?)<\/p>/.exec(page(runs, stored))[1], / on /);
  });
});

describe('report page: the summary table\'s frame', () => {
  it('one server: nothing to compare, said in place of the table', () => {
    const html = page([run('node', 's', 1, 100)], null);
    assert.match(html, /<section id="summary">\n<h2>Summary<\/h2>\n<p>Only one server was measured\.<\/p>\n<\/section>/);
  });

  it('how the verdicts were reached: over trials with intervals, or one trial each and no winner named', () => {
    const one = page(runs, stored);
    assert.match(one, /One trial per server: no confidence intervals, so no winner is named/);
    const three = page([1, 2, 3].flatMap((trial) => pairOf('s', { em: { trial }, node: { trial } })), null);
    assert.match(three, /Values are the centres \(geometric means\) of up to 3 trials\. Each comparison ends in one of three answers from the 95 % confidence interval of the ratio over the trials \(Student t on log values; Welch for ratios\)/);
  });

  it('the title names the runtimes the run compares, in its pairs\' order, not a reference beside them', () => {
    const environment = { servers: { nginx: { reference_for: '*' } } };
    const three = page([...pairOf('s'), run('async', 's', 3, 80), run('nginx', 's', 0.5, 400)], null, { environment });
    assert.match(three, /<h1>em-vs-node: response times, node vs em vs async<\/h1>/);
    assert.match(page([run('node', 's', 1, 100)], null), /<h1>em-vs-node: response times<\/h1>/, 'one server: nothing compared');
  });

  it('servers measured beside the pair are named under the table', () => {
    const html = page([...pairOf('s'), run('nginx', 's', 0.5, 400)], null);
    assert.match(html, /<p class="muted">Also measured \(in the charts and the table of all runs\): <span class="server"><span class="chip" style="--c:#999933" aria-hidden="true"><\/span>nginx<\/span><\/p>/);
  });
});

describe('report page: each scenario at the size it ran', () => {
  const open = (params) => [run('em', 'o', 2, 100, { params }), run('node', 'o', 1, 200, { params })];
  const base = { name: 'o', kind: 'open', rate: 20, requests_per_connection: 1, description: '2000 connections opened at 20 per second', request: { path: '/hello' } };

  it('an open loop run in slices of paired rounds: as run, and the slice of the whole count', () => {
    const html = page(open({ ...base, connections: 100, full_connections: 2000 }), null);
    assert.match(html, /<p class="about">As run: 100 connections opened at 20 per second whatever the server does \(open loop\), one request each, GET \/hello\. <span class="muted">\(each paired round a slice of 5 s of the schedule, of the scenario's 2,000 connections: “2000 connections opened at 20 per second”\)<\/span>/);
  });

  it('a whole run: its own description, no "as run"', () => {
    const html = page(open({ ...base, connections: 2000 }), null);
    assert.match(html, /<p class="about">2,000 connections opened at 20 per second whatever the server does \(open loop\), one request each, GET \/hello\.( <span class="muted">Source|<\/p>)/);
  });
});
