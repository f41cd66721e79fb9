'use strict';
// The report page: one self-contained HTML file (inline CSS and inline SVG charts, no scripts,
// no network), laid out for a laptop screen: the answers first (node vs em as a forest plot,
// forest.js; then in words), then the environment, the charts
// across scenarios, one section per scenario, and every number in a table at the end.

const { serverStyle } = require('./style');
const { HEADLINE_METRICS } = require('./headline');
const { OVERHEAD_METRICS } = require('../judge/verdicts');
const { percentileResolved, fewestReplies, MIN_TAIL_SAMPLES } = require('../rule/compare');
const { RATE_SET, TOO_FEW } = require('../store/no_verdict');
const { noteWords } = require('../text/verdict_notes');
const { METRICS } = require('../rule/metrics');
const { METRIC_WORDS } = require('../text/metric_words');
const { moreText, notKeptText, intervalMethodText } = require('../text/verdict_words');
const { fmtNumber, fmtFactor, fmtInterval, marginText, calibrationWords } = require('../text/format');
const { runtimeWords } = require('../text/runtimes');
const { hostName } = require('../judge/meta');
const { scenarioLine, decidedShare, budgetAdvice } = require('../text/answers');
const { runsOf } = require('../store/results_doc');
const { describeRun } = require('./describe');
const { STUDY } = require('./seed');
const { profilesSection } = require('./profiles');

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}
const { seedCells, notHereLines, SEEDS_TITLE, SEEDS_HEAD } = require('../text/seeds');
const { serverText, comparisonText, spreadText } = require('../text/ramps');
const { waitingLines } = require('../text/held');
const { rateUnit } = require('../plan/ramps');

/** Environment keys in reading order, with labels; keys not listed follow in their own order. */
const ENV_LABELS = {
  hostname: 'machine',
  os: 'OS',
  kernel: 'kernel',
  arch: 'architecture',
  cpu_model: 'CPU',
  cores: 'cores',
  cores_available: 'cores available',
  memory_gb: 'memory (GB)',
  node: 'Node.js',
  ruby: 'Ruby',
  eventmachine: 'EventMachine',
  eventmachine_httpserver: 'eventmachine_httpserver',
  npm_packages: 'npm packages',
  commit: 'commit',
  project_commit: 'commit',
  project_dirty: 'uncommitted changes',
  pinning: 'CPU pinning',
  options: 'runner options',
  started_at: 'started',
  finished_at: 'finished',
  servers: 'servers',
  gems: 'gems',
  runtimes: 'runtimes',
};

const CSS = `
:root { --fg:#1b1b1b; --muted:#555; --line:#d0d0d0; --bad:#b00020; --bad-bg:#fdecee; --warn:#7a4b00; --warn-bg:#fff4d6; --info-bg:#eef3f8; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 "Segoe UI", "Helvetica Neue", Arial, "Liberation Sans", sans-serif; color: var(--fg); background: #fafafa; }
main { max-width: 1240px; margin: 0 auto; padding: 16px 20px 48px; background: #fff; }
h1 { font-size: 1.55rem; margin: 0.2em 0 0.1em; }
h2 { font-size: 1.2rem; margin: 1.6em 0 0.5em; padding-bottom: 0.2em; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.2em 0 0.4em; }
a { color: #0b57a3; }
.meta, .muted { color: var(--muted); font-size: 0.9rem; }
.headline { font-size: 1.1rem; font-weight: 600; margin: 0.6em 0; }
nav { position: sticky; top: 0; z-index: 2; background: #fff; border-bottom: 1px solid var(--line); padding: 4px 0; font-size: 0.82rem; line-height: 1.6; }
nav a { margin-right: 0.6em; white-space: nowrap; }
/* A jumped-to section starts below the sticky navigation, whose height this must exceed. */
section { scroll-margin-top: 4.5em; }
.unit { font-weight: normal; color: var(--muted); font-size: 0.85em; }
th .server { margin-right: 0.2em; }
/* The summary table fits a 1280 px screen (test/e2e/report_browser.test.js): headers and verdicts
   wrap between words, never inside a value, an interval, a server's name or a side with its factor. */
table.summary td .muted, table.summary .caveat-text, .nowrap { white-space: nowrap; }
table.summary .engine { font-size: 0.8rem; color: var(--muted); }
p.engine { border-left: 5px solid #7aa0c8; background: var(--info-bg); padding: 0.35em 0.6em; }
.care { margin: 0.5em 0; border: 1px solid #e0c680; background: var(--warn-bg); padding: 0.3em 0.6em; }
.care summary { cursor: pointer; }
.care ul { list-style: none; padding: 0; margin: 0.3em 0 0; font-size: 0.85rem; }
.care li { padding: 1px 0; }
.care li .tag { min-width: 7.5em; text-align: center; }
.seed { display: flex; flex-wrap: wrap; gap: 12px 24px; align-items: flex-start; }
.seed table td.holds { font-weight: 700; }
.seed table td.fails { font-weight: 700; color: var(--bad); }
ul.seed-lines { margin: 0.4em 0; padding-left: 1.2em; }
ul.answers { margin: 0.4em 0; padding-left: 1.2em; }
ul.answers b { display: inline-block; min-width: 11em; }
.servers { margin: 0.4em 0; }
.chip { display: inline-block; width: 0.9em; height: 0.9em; border: 1px solid #333; vertical-align: -0.1em; margin-right: 0.3em; background: var(--c); }
.server { white-space: nowrap; margin-right: 1.2em; }
.servers .muted { margin-left: -0.6em; }
.server-runtime { color: var(--muted); white-space: nowrap; margin: 0 1.2em 0 -0.8em; }
.about { margin: 0.2em 0 0.4em; }
.flags { list-style: none; padding: 0; margin: 0.6em 0; }
.flags li { padding: 0.35em 0.6em; margin: 0.25em 0; border-left: 5px solid; }
.flags li.bad { background: var(--bad-bg); border-color: var(--bad); }
.flags li.warn { background: var(--warn-bg); border-color: #d99a00; }
.flags li.info { background: var(--info-bg); border-color: #7aa0c8; }
.flag-fold { margin: 0.6em 0; }
.flag-fold summary { cursor: pointer; }
.tag { display: inline-block; font-size: 0.75rem; font-weight: 700; letter-spacing: 0.03em; padding: 0 0.4em; border-radius: 3px; margin-right: 0.3em; white-space: nowrap; }
.tag.bad { background: var(--bad); color: #fff; }
.tag.warn { background: #f2c14e; color: #2b1d00; }
.tag.info { background: #cfdff0; color: #12324f; }
table { border-collapse: collapse; font-size: 0.88rem; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 8px; border-bottom: 1px solid #e4e4e4; text-align: right; vertical-align: top; }
th { background: #f3f3f3; font-weight: 600; }
th.l, td.l { text-align: left; }
tbody tr:nth-child(even) { background: #fbfbfb; }
td.win { font-weight: 700; }
td.verdict { text-align: left; border-right: 2px solid #e4e4e4; }
td.verdict .ci { display: block; }
.ci { color: var(--muted); font-size: 0.8rem; }
.caveat { color: #8a5a00; font-weight: 700; cursor: help; }
.caveat-text { color: #8a5a00; }
.ns { font-style: italic; }
.scroll { overflow-x: auto; }
dl.env { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; font-size: 0.88rem; margin: 0; }
dl.env dt { color: var(--muted); }
dl.env dd { margin: 0; word-break: break-word; }
.figs { display: flex; flex-wrap: wrap; gap: 12px 20px; align-items: flex-start; }
figure.chart { margin: 0; max-width: 100%; }
figure.chart svg { display: block; max-width: 100%; height: auto; }
figcaption { font-size: 0.85rem; color: var(--muted); margin-top: 2px; }
figcaption .links { display: block; margin-top: 2px; }
.verdicts { margin: 0.3em 0; }
details.steps { margin: 0.6em 0; }
details.steps summary { cursor: pointer; }
figure.flame { margin: 0.6em 0; max-width: 100%; }
figure.flame svg { display: block; max-width: 100%; height: auto; }
/* The page runs no scripts: the inlined flame graphs show their numbers on hover, no zoom. */
figure.flame svg.flamegraph g.f { cursor: default; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.4em; vertical-align: -0.1em; border: 1px solid #0002; }
@media screen { table.profile-shares td, table.profile-top td { white-space: nowrap; } }
table.profile-top td.frame { font-family: ui-monospace, monospace; word-break: break-all; white-space: normal; }
table.profile-top caption { text-align: left; font-weight: 600; padding: 0.3em 0; }
footer { margin-top: 3em; font-size: 0.85rem; color: var(--muted); }
code { font-size: 0.9em; background: #f2f2f2; padding: 0 3px; border-radius: 3px; }
/* A phone: the navigation stays one line (scrolling sideways), so its height, and the room a
   jumped-to heading needs below it, stay small. */
@media (max-width: 700px) {
  main { padding: 8px 10px 32px; }
  nav { white-space: nowrap; overflow-x: auto; }
  section { scroll-margin-top: 3em; }
}
/* Paper: nothing sticky, and every table fits the page width: smaller type, cells that wrap
   anywhere (so no column is wider than its content allows), nothing scrolled out of sight. */
@media print {
  nav { position: static; white-space: normal; }
  body { background: #fff; }
  main { max-width: none; padding: 0; }
  .scroll { overflow: visible; }
  table { font-size: 6.5pt; width: 100%; }
  th, td { padding: 1px 2px; overflow-wrap: anywhere; white-space: normal; }
  td.verdict, .server, .tag { white-space: normal; }
  figure.chart, tr { break-inside: avoid; }
}
`;

function chip(server) {
  return `<span class="chip" style="--c:${serverStyle(server).colour}" aria-hidden="true"></span>`;
}

function serverName(server) {
  return `<span class="server">${chip(server)}${esc(server)}</span>`;
}

function tag(severity, text) {
  return `<span class="tag ${severity}">${esc(text)}</span>`;
}

const TAG_TEXT = { failed: 'FAILED', missing: 'MISSING', 'client-bound': 'CLIENT-BOUND', 'near-client-bound': 'NEAR CLIENT-BOUND', 'not-judged': 'NOT JUDGED', 'schedule-lag': 'BEHIND SCHEDULE', errors: 'ERRORS', skipped: 'NOT RUN', superseded: 'SUPERSEDED' };
/** Flags that leave a scenario without (some of) its verdicts: tagged in the summary table too. */
const VERDICT_FLAGS = ['failed', 'missing', 'client-bound'];

/** A column's unit, in the header. */
function unit(u) {
  return `<span class="unit">${esc(u)}</span>`;
}

/** The 95% interval of the factor by which the lead (the better-looking side) is better. */
function ciText(c) {
  const ci = c.answer && c.answer.ci;
  if (!ci) return '';
  return ` <span class="ci">95% CI <span class="nowrap">${fmtFactor(ci[0]).replace('×', '')}–${fmtFactor(ci[1])}</span></span>`;
}

/**
 * "node 2.4× faster 95% CI …", "same within ±10 % …", "undecided (…)", "no verdict (… 1 trial …)",
 * "– (em failed)". compact (the summary table): the short form of the "1 trial" remark.
 */
function verdictText(c, { compact = false } = {}) {
  if (!c) return '–';
  if (c.no_verdict) {
    // Decided in perf/lib/rule/compare.js: the schedule set the rate, or too few requests for a p99.
    return `<span class="muted" title="${esc(noteWords(c.note) || '')}">${esc(c.no_verdict)}</span>`;
  }
  if (c.factor === null) {
    if (c.excluded === 'client-bound') {
      const who = c.caveat && c.caveat.length ? c.caveat.join(', ') : 'client-bound';
      const text = compact ? 'not judged' : `not judged: ${who}, the load generator set the pace (try --engine wrk)`;
      return `<span class="caveat-text" title="${esc(noteWords(c.note) || '')}">– ${esc(text)} <span class="caveat">⚠</span></span>`;
    }
    // In the summary table a word (the row's tags name the server); the whole note on hover.
    const why = compact && c.excluded ? c.excluded.replace('-', ' ') : noteWords(c.note);
    return `<span class="muted" title="${esc(noteWords(c.note) || '')}">– ${why ? `(${esc(why)})` : ''}</span>`;
  }
  const caveat = c.caveat && c.caveat.length ? ` <span class="caveat" title="${esc(c.caveat.join('; '))}: the load generator set the pace, so this comparison understates the server">⚠</span>` : '';
  const { word } = METRIC_WORDS[c.metric];
  if (c.answer.kind === 'same') {
    return `<span class="ns">same within ${esc(marginText(c.answer.margin))}</span> <span class="ci">95% CI <span class="nowrap">${fmtInterval(c.ci95).slice(1, -1)}</span></span>${caveat}`;
  }
  if (c.answer.kind === 'undecided') {
    // In its section, with what would decide it; the table keeps to the interval.
    const more = compact ? '' : c.answer.fdr ? ` <span class="ci">${esc(notKeptText(c.answer.fdr))} over the run</span>` : ` <span class="ci">${esc(moreText(c.answer.more))} would decide</span>`;
    return `<span class="ns">undecided</span> <span class="ci">(<span class="nowrap">${esc(c.lead)} ${fmtFactor(c.factor)}</span> ${word})</span>${ciText(c)}${more}${caveat}`;
  }
  if (c.answer.kind === 'no_interval') {
    // One trial on a side: no interval, so no winner (perf/lib/rule/compare.js).
    const why = compact ? '1 trial' : '1 trial: no interval, no winner';
    return `<span class="ns">no verdict</span> <span class="ci">(<span class="nowrap">${esc(c.lead)} ${fmtFactor(c.factor)}</span> ${word}; ${why})</span>${caveat}`;
  }
  return `<span class="nowrap">${chip(c.winner)}<b>${esc(c.winner)}</b> ${fmtFactor(c.factor)}</span> ${word}${ciText(c)}${caveat}`;
}

function find(comps, scenario, metric) {
  return comps.find((c) => c.scenario === scenario && c.metric === metric);
}

/** "verdict from wrk" under a scenario's name, where another engine than the built-in one gave its verdict. */
function engineLine(engines, scenario) {
  return engines[scenario] ? `<br><span class="engine">verdict from ${esc(engines[scenario])}</span>` : '';
}

function summaryTable(model) {
  const { results, comparisons: comps, flags } = model;
  const { engines } = results;
  const pair = results.pair;
  if (!pair) return '<p>Only one server was measured.</p>';
  const [a, b] = pair;
  const head1 = HEADLINE_METRICS.map((m) => `<th colspan="3" class="l">${esc(METRIC_WORDS[m].long)} (${esc(METRICS[m].unit)})</th>`).join('');
  const head2 = HEADLINE_METRICS.map((m) => `<th>${serverName(a)} ${unit(METRICS[m].unit)}</th><th>${serverName(b)} ${unit(METRICS[m].unit)}</th><th class="l">better</th>`).join('');
  const rows = results.scenarios.map((scenario) => {
    const cells = HEADLINE_METRICS.map((metric) => {
      const c = find(comps, scenario, metric);
      // A p99 from too few requests, judged or not (e.g. beside a failed run), is not shown.
      const tail = METRICS[metric].tail ? METRICS[metric].quantile : null;
      const few = (server) => tail !== null && ((c && c.no_verdict === TOO_FEW) || !percentileResolved(fewestReplies(runsOf(results, scenario, server).filter((r) => r.ok)), tail));
      const value = (server, v) => (few(server) ? `<span class="muted">${TOO_FEW}</span>` : fmtNumber(v, METRICS[metric].unit));
      return `<td class="${c && c.winner === a ? 'win' : ''}">${value(a, c ? c.value_a : null)}</td><td class="${c && c.winner === b ? 'win' : ''}">${value(b, c ? c.value_b : null)}</td><td class="verdict">${verdictText(c, { compact: true })}</td>`;
    }).join('');
    // The flags that change a verdict; the rest are in "Read with care" above.
    // Once per server and kind (trials repeat them), and only the compared pair's; one a line,
    // so that the column is no wider than its longest flag and the verdicts keep the room.
    const notes = [...new Set(flags.filter((f) => f.scenario === scenario && pair.includes(f.server) && VERDICT_FLAGS.includes(f.kind)).map((f) => tag(f.severity, `${f.server} ${TAG_TEXT[f.kind]}`)))].join('<br>');
    return `<tr><td class="l"><a href="#s-${esc(slugId(scenario))}">${esc(scenario)}</a>${engineLine(engines, scenario)}${notes ? `<br>${notes}` : ''}</td>${cells}</tr>`;
  }).join('\n');
  const others = results.servers.filter((s) => !pair.includes(s));
  const otherNote = others.length ? `<p class="muted">Also measured (in the charts and the table of all runs): ${others.map(serverName).join(' ')}</p>` : '';
  return `<div class="scroll"><table class="summary">
<thead><tr><th rowspan="2" class="l">scenario</th>${head1}</tr><tr>${head2}</tr></thead>
<tbody>
${rows}
</tbody></table></div>
<p class="muted">Bold: the better value. “Better” compares ${esc(a)} with ${esc(b)}: response times (lower is better) and throughput (higher is better). ${trialsNote(results)} Client-bound runs are never judged; nor is throughput where the schedule sets the rate (open-loop ramp-ups, the slow-client scenarios' probe: “${RATE_SET}”), nor a p99 with fewer than ${MIN_TAIL_SAMPLES} requests above it (“${TOO_FEW}”).${Object.keys(engines).length ? ' “Verdict from wrk” (or another engine): the values and the verdict come from that engine\'s runs; where another engine ran the scenario too, its runs are kept for information, marked superseded.' : ''} Every comparison as CSV: <a href="charts/comparisons.csv">charts/comparisons.csv</a>.</p>${otherNote}`;
}

/** Servers asked for that could not run at all (e.g. nginx not installed). */
function skippedServers(results) {
  const list = results.skipped.filter((k) => k && k.scenario === null);
  if (!list.length) return '';
  return `<p class="muted">Not run: ${list.map((k) => `${esc(k.server)} (${esc(k.reason)})`).join('; ')}.</p>`;
}

/**
 * The answers first, as the terminal ends with them (perf/lib/text/answers.js): a line per
 * scenario, what was decided, what a larger budget would likely decide. '' without a pair.
 */
function answersSection(results, { headline = null, forests = [] } = {}) {
  if (!results.pair) return '';
  const [a, b] = results.pair;
  const t = decidedShare(results);
  const advice = budgetAdvice(results);
  // Another pair of runtimes (node vs async, em vs async) has its lines under its forest.
  const linesOf = (f) => {
    const p = results.pairs.slice(1).find((x) => x.pair[0] === f.a && x.pair[1] === f.b);
    return p ? `\n<ul class="answers">${results.scenarios.map((scenario) => `<li><b>${esc(scenario)}</b> ${esc(scenarioLine(results, scenario, p.pair, p.comparisons))}</li>`).join('\n')}</ul>` : '';
  };
  const others = forests.map((f) => `<h3>${esc(f.a)} vs ${esc(f.b)}</h3>
<p class="muted">${esc(forestLine(f))}</p>
<div class="figs">${f.figures.map(figure).join('\n')}</div>${linesOf(f)}`).join('\n');
  return `<section id="answers">
<h2>Answers, ${esc(a)} vs ${esc(b)}</h2>
${headline ? `<p class="headline">${esc(headline)}</p>` : ''}
<ul class="answers">${results.scenarios.map((scenario) => `<li><b>${esc(scenario)}</b> ${esc(scenarioLine(results, scenario))}</li>`).join('\n')}</ul>
<p>Decided ${t.decided} of ${t.judgeable} comparisons${t.judgeable ? ` (${Math.round((100 * t.decided) / t.judgeable)} %)` : ''}; undecided ${t.undecided}: a winner where the ${esc(intervalMethodText(results.looks).replace(/^95 % confidence intervals/, '95 % interval'))} excludes 1, the same where it lies within the margin. ${esc(advice)}</p>
${others}
</section>`;
}

/**
 * Under a forest plot, what it shows in one line: "node better in 3, em better in 25, undecided
 * in 40 of the 68 comparisons with an interval."
 */
function forestLine({ a, b, margin, rows }) {
  const count = (test) => rows.filter(test).length;
  const parts = [
    `${a} better in ${count((r) => r.decision === 'winner' && r.winner === a)}`,
    `${b} better in ${count((r) => r.decision === 'winner' && r.winner === b)}`,
    ...[['same', `the same within ${marginText(margin)}`], ['undecided', 'undecided'], ['depends', 'depending on the machine']]
      .map(([decision, words]) => [words, count((r) => r.decision === decision)])
      .filter(([, n]) => n)
      .map(([words, n]) => `${words} in ${n}`),
  ];
  return `${parts.join(', ')} of the ${rows.length} comparison${rows.length === 1 ? '' : 's'} with an interval.`;
}

/** How the verdicts were reached: over trials with intervals, or from one run each. */
function trialsNote(results) {
  const { trials } = results;
  if (trials > 1) {
    return `Values are the centres (geometric means) of up to ${trials} ${results.looks ? 'rounds' : 'trials'}. Each comparison ends in one of three answers from the ${intervalMethodText(results.looks).replace(/^95 % confidence intervals/, '95 % confidence interval of the ratio')}: a winner where it excludes 1; “same within ±m” where it lies wholly within the margin (an equivalence test); else “undecided”, with roughly how much more measuring would decide.`;
  }
  return 'One trial per server: no confidence intervals, so no winner is named (1 trial: no interval; run with --repeat 3 for them).';
}

/** Overhead factor with its interval and answer: "1.32× 1.2–1.45", "1.0× 0.98–1.02 same ±10 %", "1.1× 0.8–1.4 undecided". */
function overheadCell(m) {
  if (!m) return '<td class="muted">–</td>';
  if (m.excluded) return `<td class="muted" title="${esc(noteWords(m.note) || '')}">not compared (${esc(m.excluded)})</td>`;
  if (m.no_verdict) return `<td class="muted" title="${esc(noteWords(m.note) || '')}">${esc(m.no_verdict)}</td>`;
  if (m.overhead === null || m.overhead === undefined) return '<td class="muted">–</td>';
  const ci = m.ci95 ? ` <span class="ci">${fmtFactor(m.ci95[0]).replace('×', '')}–${fmtFactor(m.ci95[1])}</span>` : ' <span class="ci">1 trial: no interval</span>';
  const ns = m.decision === 'same' ? ` <span class="ci ns">same ${esc(marginText(m.margin))}</span>` : m.decision === 'undecided' ? ' <span class="ci ns">undecided</span>' : '';
  return `<td${m.significant ? ' class="win"' : ''}>${fmtFactor(m.overhead)}${ci}${ns}</td>`;
}

/**
 * "Overhead against references": each project server as a multiple of its bare runtime (what
 * the routing and file layer cost) and of nginx (the machine's ceiling on this work). Appears
 * when reference servers (servers.json `reference_for`) ran.
 */
function overheadSection(results) {
  const rows = results.overheads;
  if (!rows.length) return '';
  const head = OVERHEAD_METRICS.map((m) => `<th>${esc(METRIC_WORDS[m].short)} ${unit('×')}</th>`).join('');
  const body = rows.map((o) => `<tr><td class="l"><a href="#s-${esc(slugId(o.scenario))}">${esc(o.scenario)}</a></td><td class="l">${serverName(o.server)}</td><td class="l">${serverName(o.reference)} <span class="muted">${esc(o.role)}</span></td>${OVERHEAD_METRICS.map((m) => overheadCell(o.metrics[m])).join('')}</tr>`).join('\n');
  return `<section id="overhead">
<h2>Overhead against references</h2>
<p>Each server as a multiple of a reference doing the same work: against its <b>bare runtime</b> (the same runtime answering <code>/hello</code> with nothing else) the factor is what the project's routing, request handling and file layer cost; against <b>nginx</b> (one worker) it is the distance to what this machine can do. 1.00× = no overhead; above 1 the server is slower, serves fewer requests per second or spends more CPU per request. Response times: server ÷ reference; throughput: reference ÷ server. Bold: a cost or a saving (the 95% interval excludes 1); “same”: within the margin of no overhead; undecided: neither. References serve less than the project servers, so they ran only the scenarios they can serve.</p>
<div class="scroll"><table class="overhead"><thead><tr><th class="l">scenario</th><th class="l">server</th><th class="l">reference</th>${head}</tr></thead><tbody>
${body}
</tbody></table></div>
</section>`;
}

function slugId(s) {
  return String(s).toLowerCase().replace(/[^a-z0-9_-]+/g, '-');
}

/** A value of the environment as text: lists joined, flat objects as "key: value" pairs. */
function envText(v) {
  if (v === null || v === undefined) return '–';
  if (Array.isArray(v)) return v.map(envText).join(', ');
  if (typeof v === 'object') return Object.entries(v).map(([k, x]) => `${k}: ${typeof x === 'object' && x !== null && !Array.isArray(x) ? JSON.stringify(x) : envText(x)}`).join(' · ');
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return String(v);
}

function envValue(key, v) {
  if (key === 'pinning' && v && typeof v === 'object' && 'enabled' in v) {
    if (!v.enabled) return esc(`off${v.reason ? ` (${v.reason})` : ''}`);
    return esc(`server on CPU ${v.server_cpu ?? '?'}, load generator on CPU ${v.client_cpu ?? '?'}`);
  }
  if ((key === 'gems' || key === 'npm_packages') && v && typeof v === 'object') {
    return esc(Object.entries(v).map(([name, version]) => `${name} ${version}`).join(', '));
  }
  if (key === 'servers' && v && typeof v === 'object') {
    return Object.entries(v).map(([name, def]) => `${serverName(name)} ${esc(def && def.description ? def.description : envText(def))}`).join('<br>');
  }
  return esc(envText(v));
}

function environment(env) {
  const keys = [...Object.keys(ENV_LABELS).filter((k) => k in env), ...Object.keys(env).filter((k) => !(k in ENV_LABELS))];
  if (!keys.length) return '<p class="muted">results.json records no environment.</p>';
  return `<dl class="env">${keys.map((k) => `<dt>${esc(ENV_LABELS[k] || k.replace(/_/g, ' '))}</dt><dd>${envValue(k, env[k])}</dd>`).join('')}</dl>`;
}

/**
 * What a scenario did, at the size it ran (describe.js); a --quick run also names the full size
 * its scenario file describes.
 */
function aboutScenario(params, quick) {
  const asRun = describeRun(params) || params.description;
  if (!asRun) return '';
  const sliced = Number.isFinite(params.full_connections);
  const whole = sliced ? `each paired round a slice of ${+(params.connections / params.rate).toFixed(2)} s of the schedule, of the scenario's ${fmtNumber(params.full_connections, 'count')} connections` : '';
  // "the full scenario, “…”" names it; "of the scenario's N connections: “…”" then says what they are.
  const full = (quick || sliced) && params.description ? ` <span class="muted">(${[quick ? '--quick: a shorter load than the full scenario' : '', whole].filter(Boolean).join('; ')}${sliced ? ':' : ','} “${esc(params.description)}”)</span>` : '';
  const source = params.source ? ` <span class="muted">Source: ${esc(params.source)}.</span>` : '';
  return `<p class="about">${quick || sliced ? 'As run: ' : ''}${esc(asRun)}.${full}${source}</p>`;
}

/** Slow-client scenarios: the probe's latency before, during and after the slow clients. */
function probePhases(runs) {
  const rows = runs.filter((r) => r.probe_by_phase && typeof r.probe_by_phase === 'object');
  if (!rows.length) return '';
  const phases = ['before', 'during', 'after'];
  const head = phases.map((p) => `<th colspan="2">${p}</th>`).join('');
  const sub = phases.map(() => `<th>replies</th><th>p50 ${unit('ms')}</th><th>p99 ${unit('ms')}</th>`).join('');
  const body = rows.map((r) => `<tr><td class="l">${serverName(r.server)}</td>${phases.map((p) => {
    const x = r.probe_by_phase[p] || {};
    const n = x.replies ?? null;
    return `<td>${fmtNumber(n, 'count')}</td><td>${percentileCell(x.p50 ?? null, n, 0.5)}</td><td>${percentileCell(x.p99 ?? null, n, 0.99)}</td>`;
  }).join('')}</tr>`).join('');
  return `<h3>Fast probe before, during and after the slow clients</h3>
<div class="scroll"><table class="phases"><thead><tr><th rowspan="2" class="l">server</th>${head}</tr><tr>${sub}</tr></thead><tbody>${body}</tbody></table></div>`;
}

function figure(f) {
  const links = [
    `<a href="${esc(f.files.csv)}">data (CSV)</a>`,
    `<a href="${esc(f.files.spec)}">Vega-Lite spec</a>`,
    `<a href="${esc(f.files.svg)}">SVG</a>`,
    f.files.png ? `<a href="${esc(f.files.png)}">PNG</a>` : null,
  ].filter(Boolean).join(' · ');
  const colours = f.colourServers.map((s) => `${s}:${serverStyle(s).colour}`).join(' ');
  const counts = f.counts ? ` data-n="${esc(Object.entries(f.counts).map(([s, n]) => `${s}:${n}`).join(' '))}"` : '';
  const width = /<svg[^>]* width="([\d.]+)"/.exec(f.svg);
  const style = width ? ` style="width:${Math.ceil(Number(width[1]))}px"` : '';
  return `<figure class="chart" id="fig-${esc(f.name)}"${style} data-chart="${esc(f.name)}" data-kind="${esc(f.kind)}" data-servers="${esc(f.servers.join(' '))}" data-missing="${esc(f.missing.join(' '))}" data-colours="${esc(colours)}"${counts}>
${f.svg}
<figcaption>${esc(f.caption)}<span class="links">${links}</span></figcaption>
</figure>`;
}

/** Which engine's runs a scenario's verdicts use, where the reader must be told, and what became of the others. */
function engineNote(engine, runs) {
  if (!engine) return '';
  const others = [...new Set(runs.filter((r) => r.superseded).map((r) => r.engine))];
  const kept = others.length ? ` The ${others.map(esc).join(' and ')} runs it was chosen over are kept for information (superseded), not used for a verdict.` : '';
  return `<p class="engine"><b>Verdict from ${esc(engine)}</b>: the verdicts, the numbers they rest on and the charts use ${esc(engine)}'s runs.${kept}</p>`;
}

function scenarioVerdicts(comps, scenario) {
  const parts = HEADLINE_METRICS.map((m) => {
    const c = find(comps, scenario, m);
    if (!c) return null;
    const unit = METRICS[m].unit;
    // A p99 from too few requests is their slowest few: its values are not shown either.
    const values = c.value_a !== null && c.value_b !== null && c.no_verdict !== TOO_FEW ? ` <span class="ci">(${esc(c.a)} ${fmtNumber(c.value_a, unit)} vs ${esc(c.b)} ${fmtNumber(c.value_b, unit)} ${esc(unit)})</span>` : '';
    return `<li>${esc(METRIC_WORDS[m].long)}: ${verdictText(c)}${values}</li>`;
  }).filter(Boolean);
  return parts.length ? `<ul class="verdicts">${parts.join('')}</ul>` : '';
}

/**
 * A percentile of n requests, or "n too small" where fewer than MIN_TAIL_SAMPLES lie above it
 * (perf/lib/rule/compare.js): a small run's "p99" is its slowest request.
 */
function percentileCell(value, n, p) {
  if (value !== null && !percentileResolved(n, p)) return `<span class="muted" title="${esc(`${fmtNumber(n, 'count')} requests: p${+(p * 100).toFixed(1)} needs ${fmtNumber(Math.ceil(MIN_TAIL_SAMPLES / (1 - p) - 1e-9), 'count')}`)}">${TOO_FEW}</span>`;
  return fmtNumber(value, 'ms');
}

// [header, unit, long title, cell, cell title]
const RUN_COLUMNS = [
  ['requests', '', 'requests', (r) => fmtNumber(r.requests, 'count')],
  ['replies', '', 'replies', (r) => fmtNumber(r.replies, 'count')],
  ['errors', '', 'errors', (r) => fmtNumber(r.error_count, 'count'), (r) => Object.entries(r.errors).map(([k, v]) => `${k}: ${v}`).join(', ')],
  ['throughput', 'req/s', 'throughput (req/s)', (r) => fmtNumber(r.throughput_rps, 'req/s')],
  ['mean', 'ms', 'mean response time (ms)', (r) => fmtNumber(r.latency_ms.mean, 'ms')],
  ['p50', 'ms', 'median response time (ms)', (r) => fmtNumber(r.latency_ms.p50, 'ms')],
  ['p90', 'ms', 'p90 response time (ms)', (r) => fmtNumber(r.latency_ms.p90, 'ms')],
  ['p99', 'ms', 'p99 response time (ms)', (r) => percentileCell(r.latency_ms.p99, r.replies, 0.99)],
  ['p99.9', 'ms', 'p99.9 response time (ms)', (r) => percentileCell(r.latency_ms.p999, r.replies, 0.999)],
  ['max', 'ms', 'slowest response (ms)', (r) => fmtNumber(r.latency_ms.max, 'ms')],
  ['connect', 'ms', 'mean connect time (ms)', (r) => fmtNumber(r.connect_ms.mean, 'ms')],
  ['CPU', 'ms/req', 'server CPU (user + system) per request (ms)', (r) => fmtNumber(r.server_cpu.ms_per_request, 'ms')],
  ['RSS', 'MB', 'server peak resident memory (MB)', (r) => fmtNumber(r.server_peak_rss_mb, 'MB')],
  ['client CPU', '%', 'load generator CPU (% of one core)', (r) => fmtNumber(r.client_cpu_pct, '%')],
  ['duration', 's', 'run duration (s)', (r) => fmtNumber(r.duration_s, 's')],
];

function runsTable(runs, { withScenario }) {
  const trials = runs.some((r) => r.trial !== null);
  const head = [
    withScenario ? '<th class="l">scenario</th>' : '',
    '<th class="l">server</th>',
    trials ? '<th>trial</th>' : '',
    '<th class="l">engine</th>',
    '<th class="l">status</th>',
    ...RUN_COLUMNS.map(([short, u, long]) => `<th title="${esc(long)}">${esc(short)}${u ? ` ${unit(u)}` : ''}</th>`),
  ].join('');
  const body = runs.map((r) => {
    // A superseded run is kept for information: why it was replaced is on hover, not a warning.
    const status = !r.ok ? `${tag('bad', 'FAILED')}<span class="muted">${esc(r.failure)}</span>` : r.superseded ? `<span title="${esc((r.not_judged_because || []).join('; '))}">${tag('info', TAG_TEXT.superseded)}</span>` : r.client_bound ? tag('warn', 'CLIENT-BOUND') : 'ok';
    return `<tr>${withScenario ? `<td class="l">${esc(r.scenario)}</td>` : ''}<td class="l">${serverName(r.server)}</td>${trials ? `<td>${esc(r.trial ?? '')}</td>` : ''}<td class="l">${esc(r.engine ?? '–')}</td><td class="l">${status}</td>${RUN_COLUMNS.map(([, , , get, title]) => `<td${title ? ` title="${esc(title(r))}"` : ''}>${get(r)}</td>`).join('')}</tr>`;
  }).join('\n');
  return `<div class="scroll"><table class="runs"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

/**
 * Each load host's part of a distributed run (--engine tsung): its share of the requests, its
 * own latency and agent CPU, its clock, and whether it kept its arrival schedule. The run's
 * numbers above are all hosts' requests merged.
 */
function loadHostsTable(runs) {
  const withHosts = runs.filter((r) => Array.isArray(r.load_hosts) && r.load_hosts.length);
  if (!withHosts.length) return '';
  const trials = withHosts.some((r) => r.trial !== null);
  const rows = withHosts.flatMap((r) => r.load_hosts.map((h, i) => {
    const clock = h.clock ? `${h.clock.offset_ms >= 0 ? '+' : ''}${fmtNumber(h.clock.offset_ms, 'ms')} ±${fmtNumber(h.clock.uncertainty_ms, 'ms')}` : '–';
    const schedule = h.behind_schedule ? tag('warn', 'BEHIND') : 'kept';
    const cpu = h.client_bound ? tag('warn', `${fmtNumber(h.client_cpu_pct, '%')} %`) : fmtNumber(h.client_cpu_pct, '%');
    const first = i === 0;
    return `<tr>${first ? `<td class="l" rowspan="${r.load_hosts.length}">${serverName(r.server)}</td>${trials ? `<td rowspan="${r.load_hosts.length}">${esc(r.trial ?? '')}</td>` : ''}` : ''}<td class="l">${esc(h.name)}</td><td class="l">${esc(h.address || '–')}</td><td>${fmtNumber(h.requests, 'count')}</td><td>${fmtNumber(h.share_pct, '%')}</td><td>${fmtNumber(h.latency_ms && h.latency_ms.p50, 'ms')}</td><td>${fmtNumber(h.latency_ms && h.latency_ms.p99, 'ms')}</td><td>${cpu}</td><td>${clock}</td><td class="l"${h.behind_schedule ? ` title="${esc(h.behind_schedule)}"` : ''}>${schedule}</td></tr>`;
  })).join('\n');
  const head = `<th class="l">server</th>${trials ? '<th>trial</th>' : ''}<th class="l">load host</th><th class="l">address</th><th>requests</th><th>share ${unit('%')}</th><th>p50 ${unit('ms')}</th><th>p99 ${unit('ms')}</th><th title="the host's Tsung agent, % of one core, over its load">agent CPU ${unit('%')}</th><th title="its clock minus this machine's, ± half the round trip">clock ${unit('ms')}</th><th class="l">arrivals</th>`;
  return `<h3>Load hosts</h3>
<p class="muted">Each host's Tsung agent wrote every request it made; the numbers above are all hosts' requests merged (their histograms add exactly).</p>
<div class="scroll"><table class="runs"><thead><tr>${head}</tr></thead><tbody>\n${rows}\n</tbody></table></div>`;
}

/**
 * The charts of --timeline for this scenario: each server's run with its pauses
 * ({ figures, notes }), '' when not asked for.
 */
function pauseCharts(pauses) {
  if (!pauses) return '';
  const notes = pauses.notes.length ? `<p class="muted">${pauses.notes.map(esc).join(' ')}</p>` : '';
  return `<h3>Response time with the server's pauses</h3>
<p class="muted">Each server's last trial with samples (one run a chart: each run has its own pauses), its requests over time over the GC pauses and loop stalls the server recorded in the same window.</p>
${pauses.figures.length ? `<div class="figs">${pauses.figures.map(figure).join('\n')}</div>` : ''}${notes}`;
}

/** A median count of a table cell: whole where it is, else to a tenth ("2.5" of two runs). */
function countCell(x) {
  return x === null ? '–' : Number.isInteger(x) ? fmtNumber(x, 'count') : x.toFixed(1);
}

/**
 * The runtime table of a scenario (runtime_table.js runtimeRows): per server its GC, its loop's
 * stalls, its allocations per request and what the p99 tail coincided with. '' without rows.
 */
function runtimeTable(rows) {
  if (!rows.length) return '';
  const body = rows.map((r) => `<tr><td class="l">${serverName(r.server)}</td><td>${fmtNumber(r.runs, 'count')}</td><td>${countCell(r.minor)} / ${countCell(r.major)}</td><td>${fmtNumber(r.gc_share_pct, '%')}</td><td${r.heartbeat_gc ? ' title="Ruby times no single collection: the most GC time in one heartbeat"' : ''}>${fmtNumber(r.longest_gc_ms, 'ms')}</td><td>${countCell(r.stalls)}</td><td>${fmtNumber(r.longest_stall_ms, 'ms')}</td><td>${esc(r.alloc ?? '–')}</td><td class="l">${esc(r.tail ?? '–')}</td></tr>`).join('\n');
  const stallMs = esc(String(rows[0].stall_ms));
  return `<h3>Runtime: GC and event-loop stalls</h3>
<div class="scroll"><table class="runtime"><thead><tr><th class="l">server</th><th title="the runs the medians are over">runs</th><th title="collections begun in the run: minor (Node's scavenges, Ruby's minor GCs) / major (mark-compacts, Ruby's major GCs)">GC minor / major</th><th title="the GC's time over the run's window">GC time ${unit('%')}</th><th title="the longest collection">longest GC ${unit('ms')}</th><th title="heartbeats ${stallMs} ms late or later">stalls ≥ ${stallMs} ms</th><th>longest stall ${unit('ms')}</th><th title="Node: bytes; Ruby: objects">allocations per request</th><th class="l" title="what the requests above the run's p99 coincided with, and the share of the p99's excess over the median that taking those pauses' time out removes">p99 tail coincided with: share explained ${unit('%')}</th></tr></thead><tbody>
${body}
</tbody></table></div>
<p class="muted">Medians over each server's runs a verdict may use (the column “runs” counts them), from the server's own records of its GC and its event loop's heartbeat (results.json <code>runtime</code>). Allocations: bytes for Node, objects for Ruby. The p99 tail: what the requests above each run's p99 coincided with, GC pauses, other loop stalls or neither, and the share of the p99's excess over the median that taking those pauses' time out removes (perf/lib/measure/attribution.js; for “neither”, the larger of the two), the median over the runs with that answer, over the runs whose replies resolve a p99.</p>
`;
}

// Up to this many warnings are listed open on the first screen, under the forest plot; more
// are folded (counted by kind), so that they do not push the rest of the page far down.
const FLAGS_SHOWN_OPEN = 4;

/** "Read with care": every warning, one line each, above the summary table. */
function readWithCare(serious) {
  if (!serious.length) return '';
  const byKind = {};
  for (const f of serious) byKind[TAG_TEXT[f.kind]] = (byKind[TAG_TEXT[f.kind]] || 0) + 1;
  const kinds = Object.entries(byKind).map(([kind, n]) => `${n} ${esc(kind.toLowerCase())}`).join(', ');
  const open = serious.length <= FLAGS_SHOWN_OPEN ? ' open' : '';
  const items = serious.map((f) => `<li>${tag(f.severity, TAG_TEXT[f.kind])} <a href="#s-${esc(slugId(f.scenario))}">${esc(f.scenario)}</a> — ${esc(f.text)}</li>`).join('');
  return `<details class="care" id="care"${open}><summary><b>Read with care:</b> ${serious.length} warning${serious.length === 1 ? '' : 's'} (${kinds})</summary><ul>${items}</ul></details>`;
}

/** A claim's outcome cell: bold where confirmed, marked where the claim does not stand here. */
function outcomeClass(outcome) {
  if (outcome === 'confirmed') return 'l holds';
  return ['reversed', 'gone', 'differ'].includes(outcome) ? 'l fails' : 'l';
}

// Up to this many charts of a server's failed steps are shown open; more are folded under one line.
const STEP_CHARTS_SHOWN_OPEN = 4;

/**
 * A ramp's failed steps, each a chart of its requests over time with the server's pauses
 * (pause_charts.js), a fold per server; steps: { figures, notes } ('' without either).
 */
function failedStepCharts(steps) {
  if (!steps || (!steps.figures.length && !steps.notes.length)) return '';
  const servers = [...new Set(steps.figures.map((f) => f.servers[0]))];
  const folds = servers.map((server) => {
    const figures = steps.figures.filter((f) => f.servers[0] === server);
    const open = figures.length <= STEP_CHARTS_SHOWN_OPEN ? ' open' : '';
    return `<details class="steps"${open}><summary>${serverName(server)} ${figures.length} failed step${figures.length === 1 ? '' : 's'} with the server's GC pauses and loop stalls</summary>
<div class="figs">${figures.map(figure).join('\n')}</div></details>`;
  });
  const notes = steps.notes.length ? `<p class="muted">${steps.notes.map(esc).join(' ')}</p>` : '';
  return `${folds.join('\n')}${notes}`;
}

/**
 * Each ramp's answer (each server's sustainable rate, the comparison), its latency–load chart
 * and the charts of its failed steps (stepCharts[i]: { figures, notes }); '' without ramps.
 */
function rampsSection(results, figures, stepCharts = []) {
  const doc = results.ramps;
  if (!doc || !doc.ramps.length) return '';
  const body = doc.ramps.map((ramp, i) => {
    const lines = [...Object.entries(ramp.servers).map(([server, s]) => `${serverName(server)} ${esc(serverText(s))}`), ...ramp.comparisons.map((c) => esc(comparisonText(c)))];
    return `<h3>${esc(ramp.name)}</h3>
<p class="muted">${esc(ramp.description)}; the rate counts ${esc(rateUnit(ramp))} a second.</p>
<ul class="seed-lines">${lines.map((l) => `<li>${l}</li>`).join('')}</ul>
${figures[i] ? `<div class="figs">${figure(figures[i])}</div>` : ''}
${failedStepCharts(stepCharts[i])}`;
  }).join('\n');
  return `<section id="ramps">
<h2>Sustainable throughput</h2>
<p>The highest offered rate each server held at ${esc(doc.objective.percentile)} ≤ ${esc(String(doc.objective.ms))} ms, with no errors and its schedule kept; ${spreadText(doc.repeat)}, the servers searched side by side.${doc.interrupted ? ' Interrupted: only the searches that finished.' : ''}</p>
${body}
</section>`;
}

/**
 * Waiting requests: per waiting scenario and server the latency above the wait and
 * errors, each server's memory per connection (its slope, with its interval) and the held
 * count; the chart of latency above the wait against connections held. '' when nothing waited.
 */
function waitingSection(results, figureOfIt) {
  const w = results.waiting;
  if (!w || (!w.scenarios.length && !results.held)) return '';
  const lines = waitingLines(results).slice(2).map((l) => `<li>${esc(l.trim())}</li>`).join('');
  return `<section id="waiting">
<h2>Waiting requests</h2>
<p>Requests that wait on the server's timer (<code>GET /delay?ms=N</code>) held by many connections at once: what the wait costs on top of the wait (p50 − N and p99 − N, the medians of the usable runs), memory per open connection (the least-squares slope of the server's peak RSS against the connections it held, with its 95 % interval), and the most waiting requests each server held at p99 − N ≤ ${esc(String(w.bound_ms))} ms with no errors.</p>
<ul class="seed-lines">${lines}</ul>
${figureOfIt ? `<div class="figs">${figure(figureOfIt)}</div>` : ''}
</section>`;
}

/**
 * Backends: what a call to the upstream or Redis costs each server, its route against
 * the baseline of the same load with no call (CPU per request, p50, p99: both, the difference,
 * and the ratio with its interval), with the backend's own CPU. '' when no backend scenario ran.
 */
function backendsSection(results) {
  const b = results.backends;
  if (!b || !b.scenarios.length) return '';
  const cell = (c) => (c && c.route !== null && c.baseline !== null ? `${esc(fmtNumber(c.route, 'ms'))} / ${esc(fmtNumber(c.baseline, 'ms'))}<br><b>${c.extra < 0 ? '−' : '+'}${esc(fmtNumber(Math.abs(c.extra), 'ms'))}</b> ${esc(fmtFactor(c.ratio))} ${esc(fmtInterval(c.ci95))}` : '–');
  const rows = b.scenarios.flatMap((s) => Object.entries(s.servers).map(([server, x]) => {
    const judged = x.runs && x.baseline_runs;
    const backendCpu = Object.keys(x.backend_cpu_ms).map((name) => `${esc(name)} ${esc(fmtNumber(x.backend_cpu_ms[name], 'ms'))} ms/req (${esc(fmtNumber(x.backend_cpu_pct[name], '%'))} %)`).join('<br>');
    const metrics = judged ? [cell(x.cpu_ms), cell(x.p50_ms), cell(x.p99_ms)].map((c) => `<td class="num">${c}</td>`).join('') : `<td colspan="3" class="muted">not judged: ${!x.runs ? 'no usable run of the route' : `no usable run of ${esc(s.baseline)}`}</td>`;
    return `<tr><td><code>${esc(s.scenario)}</code> against <code>${esc(s.baseline)}</code></td><td>${serverName(server)}</td>${metrics}<td>${backendCpu}</td></tr>`;
  })).join('\n');
  return `<section id="backends">
<h2>Backends</h2>
<p>Requests that wait on a real service: <code>GET /upstream?ms=N</code> calls the upstream HTTP service (which answers after N ms) through the server's own HTTP client and keep-alive pool; <code>GET /db</code> reads one row from Redis through the server's own event-driven client (TechEmpower's single query). Each is measured against its baseline, the same load with no call (<code>/delay?ms=N</code>, the same wait on the server's timer; <code>/hello</code>, answered at once): route / baseline, then <b>what the call adds</b> and route ÷ baseline with its 95 % interval (Welch, on the usable runs). The backend's CPU is measured beside the server's; a run whose backend used 90 % of a core is not judged. Which server answers these routes faster is in the answers above, as for every scenario.</p>
<table><thead><tr><th>scenario</th><th>server</th><th>CPU per request, ms</th><th>p50, ms</th><th>p99, ms</th><th>backend's CPU</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</section>`;
}

/** The seed study's four tests then and now: chart, table, and a line per test. */
function seedSection(seed) {
  if (!seed) return '';
  const ms = (x) => fmtNumber(x, 'ms');
  const nowCell = (n) => (n ? `${ms(n.ms)}${n.ci95 ? ` <span class="ci">[${ms(n.ci95[0])}–${ms(n.ci95[1])}]</span>` : ''}` : '<span class="muted">not run</span>');
  const scenario = (r) => (r.now.node || r.now.em ? `<a href="#s-${esc(slugId(r.scenario))}">${esc(r.scenario)}</a>` : esc(r.scenario));

  const body = seed.rows.map((r) => `<tr><td class="l">${r.test}</td><td class="l">${scenario(r)}</td><td>${ms(r.then.em_ms)}</td><td>${ms(r.then.node_ms)}</td><td class="l">${esc(r.said)}</td><td>${nowCell(r.now.em)}</td><td>${nowCell(r.now.node)}</td><td class="l">${esc(r.found)}</td><td class="${outcomeClass(r.outcome)}">${esc(r.conclusion)}</td></tr>`).join('\n');
  return `<section id="seed">
<h2>The 2011 study, then and now</h2>
<ul class="seed-lines">${seed.rows.map((r) => `<li>${esc(r.line)}</li>`).join('')}</ul>
<div class="seed">
${seed.figure ? figure(seed.figure) : ''}
<div class="scroll"><table class="seed-table"><thead><tr><th rowspan="2" class="l">test</th><th rowspan="2" class="l">scenario</th><th colspan="3" class="l">2011</th><th colspan="3" class="l">this run</th><th rowspan="2" class="l">conclusion</th></tr>
<tr><th>${serverName('em')} ${unit('ms')}</th><th>${serverName('node')} ${unit('ms')}</th><th class="l">said</th><th>${serverName('em')} ${unit('ms')}</th><th>${serverName('node')} ${unit('ms')}</th><th class="l">finds</th></tr></thead>
<tbody>
${body}
</tbody></table></div>
</div>
<p class="muted">The 2011 study measured the mean response time of each server in four tests (${esc(STUDY.tests.setup)}) and concluded: “${esc(STUDY.tests.conclusion)}” Source: <code>${esc(STUDY.tests.source)}</code>. This run's numbers are the means of the same tests on this machine's loopback, with their 95 % intervals: the absolute times are not comparable (a wireless LAN then), the gap between the servers is. Each test's answer is on ${esc(STUDY.tests.list.map((t) => `${t.test}: ${METRIC_WORDS[t.here.metric].long}`).join(', '))}.</p>
</section>`;
}

/** Every seed study's headline ratio, published and here (perf/lib/judge/seeds.js, in words: perf/lib/text/seeds.js), where its pair ran. */
function seedsReproducedSection(rows) {
  if (!rows || !rows.length) return '';
  const body = rows.map((r) => {
    const [seed, title, figures, ratio, found, holds] = seedCells(r);
    return `<tr><td class="l">${esc(seed)}</td><td class="l" title="${esc(r.study)}">${esc(title)}</td><td class="l">${esc(figures)}</td><td>${esc(ratio)}</td><td class="l">${esc(found)}</td><td class="${outcomeClass(r.outcome)}">${esc(holds)}</td></tr>`;
  }).join('\n');
  const notHere = notHereLines(rows);
  return `<section id="seeds">
<h2>Seeds reproduced</h2>
<p class="muted">${esc(SEEDS_TITLE)}</p>
<div class="scroll"><table class="seed-table seeds-table"><thead><tr>${SEEDS_HEAD.map((h, i) => `<th class="${i === 3 ? '' : 'l'}">${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${body}
</tbody></table></div>
${notHere.length ? `<p class="muted">Not run here: ${notHere.map(esc).join(' ')}</p>` : ''}
</section>`;
}

function flagList(flags, { withScenario = true, severities = ['bad', 'warn', 'info'] } = {}) {
  const shown = flags.filter((f) => severities.includes(f.severity));
  if (!shown.length) return '';
  return `<ul class="flags">${shown.map((f) => `<li class="${f.severity}">${tag(f.severity, TAG_TEXT[f.kind])} ${withScenario ? `<a href="#s-${esc(slugId(f.scenario))}">${esc(f.scenario)}</a> — ` : ''}${esc(f.text)}</li>`).join('')}</ul>`;
}

/** The whole page. */
function renderHtml(model) {
  const { results, comparisons: comps, flags, headline, overview, sections, generatedAt, fonts } = model;
  const env = results.environment;
  const started = env.started_at ? String(env.started_at) : null;
  const title = `em-vs-node report${started ? ` — ${started}` : ''}`;
  const commit = env.commit || env.project_commit;
  const metaBits = [
    started ? `run started ${esc(started)}` : null,
    commit ? `commit <code>${esc(String(commit).slice(0, 12))}</code>${env.project_dirty ? ' (with uncommitted changes)' : ''}` : null,
    // The host on the first screen: hosts sold under one CPU name have reversed answers here.
    env.cpu_model || env.kernel ? `on ${esc(hostName(env))}${env.calibration && Number.isFinite(env.calibration.cpu_ms_per_request) ? `, ${calibrationWords([env.calibration.cpu_ms_per_request])}` : ''}` : null,
    `${results.runs.length} runs in ${results.scenarios.length} scenarios`,
    `results folder <code>${esc(results.dir)}</code>`,
  ].filter(Boolean).join(' · ');
  const serious = flags.filter((f) => f.severity !== 'info');
  const seedHtml = seedSection(model.seed);
  const seedsHtml = seedsReproducedSection(results.seeds);
  const overheadHtml = overheadSection(results);
  // The primary pair's forest plot opens the page; the headline sentence then leads the answers.
  const [primary, ...otherForests] = (model.forests || []).filter((f) => f.figures.length);
  const drawn = primary && results.pair && primary.a === results.pair[0] && primary.b === results.pair[1] ? primary : null;
  const answersHtml = answersSection(results, { headline: drawn ? headline : null, forests: drawn ? otherForests : model.forests || [] });
  const rampsHtml = rampsSection(results, model.ramps || [], model.rampSteps || []);
  const waitingHtml = waitingSection(results, model.waiting || null);
  const backendsHtml = backendsSection(results);
  const profilesHtml = profilesSection(model.profiles || null, { runCommit: env.commit || env.project_commit || null });
  const nav = [
    answersHtml ? '<a href="#answers">Answers</a>' : '',
    rampsHtml ? '<a href="#ramps">Sustainable throughput</a>' : '',
    waitingHtml ? '<a href="#waiting">Waiting requests</a>' : '',
    backendsHtml ? '<a href="#backends">Backends</a>' : '',
    '<a href="#summary">Summary</a>',
    seedHtml ? '<a href="#seed">2011 study</a>' : '',
    seedsHtml ? '<a href="#seeds">Seeds reproduced</a>' : '',
    '<a href="#environment">Environment</a>',
    overheadHtml ? '<a href="#overhead">Overhead against references</a>' : '',
    overview.length ? '<a href="#overview">Across scenarios</a>' : '',
    ...sections.map((s) => `<a href="#s-${esc(slugId(s.scenario))}">${esc(s.scenario)}</a>`),
    profilesHtml ? '<a href="#profiles">Profiles</a>' : '',
    '<a href="#runs">All runs</a>',
  ].join('\n');
  const sectionHtml = sections.map((s) => {
    const runs = results.runs.filter((r) => r.scenario === s.scenario);
    const sFlags = flags.filter((f) => f.scenario === s.scenario);
    const figs = s.figures.length ? `<div class="figs">${s.figures.map(figure).join('\n')}</div>` : `<p class="muted">No chart: ${esc(s.notes.join('; ') || 'no data')}.</p>`;
    const noCurve = s.figures.length && s.noCurve && s.noCurve.length ? `<p class="muted">No percentile curve: ${esc(s.noCurve.join(' '))}</p>` : '';
    const params = runs.map((r) => r.params).find((p) => p && typeof p === 'object');
    const about = params ? aboutScenario(params, env.options && env.options.quick) : '';
    return `<section id="s-${esc(slugId(s.scenario))}">
<h2>${esc(s.scenario)}${s.slow ? ' <span class="muted">(slow clients + fast probe)</span>' : ''}</h2>
${about}
${engineNote(results.engines[s.scenario], runs)}
${scenarioVerdicts(comps, s.scenario)}
${flagList(sFlags, { withScenario: false })}
${figs}${noCurve}
${pauseCharts(s.pauses)}
${runtimeTable(s.runtime || [])}
<h3>Numbers</h3>
${runsTable(runs, { withScenario: false })}
${loadHostsTable(runs)}
${probePhases(runs)}
</section>`;
  }).join('\n');
  // The runtimes the run compares, in its pairs' order (node vs em vs async), not every server it ran.
  const compared = [...new Set((results.pairs || []).flatMap((p) => p.pair))];
  const fontNote = fonts && fonts.family ? `PNG text in ${esc(fonts.family)}.` : 'PNG text in the first system font found.';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<header>
<h1>em-vs-node: response times${compared.length ? `, ${esc(compared.join(' vs '))}` : ''}</h1>
<p class="meta">${metaBits}</p>
<p class="servers">${results.servers.map((name) => {
    // One line, so the verdicts stay on the first screen: what each server is, on hover and under Environment.
    const def = env.servers && env.servers[name];
    const on = def && def.runtime && env.runtimes ? runtimeWords(env.runtimes[def.runtime]) : null;
    const shown = `${serverName(name)}${on ? `<span class="server-runtime">on ${esc(on)}</span>` : ''}`;
    return def && def.description ? `<span title="${esc(def.description)}">${shown}</span>` : shown;
  }).join('')}<a class="muted" href="#environment">what each is</a></p>
${skippedServers(results)}
${results.interrupted ? '<p class="interrupted"><span class="tag bad">INTERRUPTED</span> The run was stopped before it finished: runs that had not finished are missing.</p>' : ''}
${drawn ? `<div class="figs forest" id="at-a-glance">${drawn.figures.map(figure).join('\n')}</div>
<p class="headline">${esc(forestLine(drawn))} <a href="#answers">Every answer in words</a>.</p>` : `<p class="headline">${esc(headline)}</p>`}
${readWithCare(serious)}
</header>
<nav aria-label="sections">${nav}</nav>
${answersHtml}
${rampsHtml}
${waitingHtml}
${backendsHtml}
<section id="summary">
<h2>Summary</h2>
${summaryTable(model)}
</section>
${seedHtml}
${seedsHtml}
${overheadHtml}
<section id="environment">
<h2>Environment</h2>
${environment(env)}
</section>
${overview.length ? `<section id="overview">\n<h2>Across scenarios</h2>\n<div class="figs">${overview.map(figure).join('\n')}</div>\n</section>` : ''}
${sectionHtml}
${profilesHtml}
<section id="runs">
<h2>All runs</h2>
${flagList(flags.filter((f) => f.severity === 'info'))}
${runsTable(results.runs, { withScenario: true })}
<p class="muted">The runner's own numbers: <a href="results.json">results.json</a>.</p>
</section>
<footer>
Generated ${esc(generatedAt)} from the files in this folder by <code>npm run report -- ${esc(results.dir)}</code>. Charts: Vega-Lite, rendered to SVG in Node; ${fontNote} Each chart links its data (CSV), its Vega-Lite spec, and SVG/PNG copies in <code>charts/</code>.
</footer>
</main>
</body>
</html>
`;
}

module.exports = { renderHtml };
