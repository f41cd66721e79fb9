'use strict';
/* global document, getComputedStyle -- used inside page.evaluate(), which runs in the browser */
// The report as a person sees it: built from the small fixture, opened from disk in headless
// Chromium (Debian's chromium, driven by playwright-core), with no network. Every chart must
// show marks for each server it has data for, nothing may be logged as an error, and the
// screenshots land in test/artifacts/ for a human to look at.
//
// Needs Chromium: `bash scripts/setup.sh --browser` (as root it runs `apt-get install chromium`),
// or set CHROMIUM_PATH to another Chromium/Chrome binary.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { chromium } = require('playwright-core');

const { buildReport } = require('../../perf/lib/report');
const { serverStyle } = require('../../perf/lib/report/style');
const { makeTmpDir } = require('../support/runner_helpers');

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'results_small');
const ARTIFACTS = path.join(__dirname, '..', 'artifacts');
const SERVERS = ['node', 'em'];

/** '#0072B2' -> 'rgb(0, 114, 178)', as the browser reports computed colours. */
function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
}

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter(Boolean);
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) {
    throw new Error(`no Chromium found (looked at ${candidates.join(', ')}); install it with `
      + '`sudo apt-get install chromium` (or `bash scripts/setup.sh --browser`), or set CHROMIUM_PATH');
  }
  return found;
}

describe('report: in a browser', function () {
  this.timeout(60000);
  let dir;
  let browser;
  let page;
  const problems = [];
  const requests = [];
  let figures;

  before(async () => {
    dir = makeTmpDir('report-browser-');
    fs.cpSync(FIXTURE, dir, { recursive: true });
    const { reportPath } = await buildReport(dir);
    browser = await chromium.launch({
      executablePath: findChromium(),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--disable-component-update', '--disable-sync'],
    });
    // A laptop screen.
    page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(reportPath).href, { waitUntil: 'load' });
    figures = await page.evaluate(() => [...document.querySelectorAll('figure.chart')].map((f) => {
      const svg = f.querySelector('svg');
      const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
      // The colours as drawn (computed style: inherited from the mark group or set on the element).
      const colourOf = (el) => {
        const style = getComputedStyle(el);
        return [style.fill, style.stroke].filter((c) => c && c !== 'none');
      };
      return {
        name: f.dataset.chart,
        kind: f.dataset.kind,
        servers: f.dataset.servers.split(' ').filter(Boolean),
        missing: f.dataset.missing.split(' ').filter(Boolean),
        width: box.width,
        height: box.height,
        // Every drawn data mark (not axes, legends or titles) with its colours.
        marks: svg ? [...svg.querySelectorAll('g.role-mark > *')].map(colourOf) : [],
        legend: svg ? [...svg.querySelectorAll('.role-legend-label')].map((t) => t.textContent) : [],
        text: svg ? [...svg.querySelectorAll('text')].map((t) => t.textContent).join(' | ') : '',
        n: f.dataset.n || null,
        links: [...f.querySelectorAll('figcaption a')].map((a) => a.getAttribute('href')),
      };
    }));
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'report_small_top.png') });
    await page.screenshot({ path: path.join(ARTIFACTS, 'report_small.png'), fullPage: true });
  });

  after(async () => {
    if (browser) await browser.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads from disk alone, without errors or warnings', () => {
    assert.deepEqual(problems, []);
    const elsewhere = requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'));
    assert.deepEqual(elsewhere, [], 'nothing fetched from the network');
  });

  it('shows every chart, at a readable size, with its data files linked', () => {
    assert.equal(figures.length, 16);
    for (const f of figures) {
      assert.ok(f.width >= 300 && f.width <= 1240, `${f.name}: ${f.width} px wide`);
      assert.ok(f.height >= 150, `${f.name}: ${f.height} px high`);
      assert.deepEqual(f.links.map((l) => path.extname(l)), ['.csv', '.json', '.svg', '.png'], f.name);
      for (const l of f.links) assert.ok(fs.existsSync(path.join(dir, l)), `${f.name}: ${l} exists`);
    }
  });

  it('draws marks for both servers in every chart that has data for both', () => {
    for (const f of figures) {
      assert.deepEqual([...f.servers, ...f.missing].sort(), [...SERVERS].sort(), `${f.name}: every server drawn or listed as missing`);
      // Only the failed run (em in bigfile_100k, no samples) may be missing.
      if (f.name.startsWith('bigfile_100k_')) assert.deepEqual(f.missing, ['em'], f.name);
      else assert.deepEqual(f.missing, [], f.name);
      for (const server of f.servers) {
        const colour = rgb(serverStyle(server).colour);
        const count = f.marks.filter((c) => c.includes(colour)).length;
        assert.ok(count > 0, `${f.name}: no marks in ${server}'s colour ${colour}`);
        // The forest plot places its own legend (forest.js): "node better", "em better".
        if (f.kind === 'forest') assert.ok(f.text.includes(`${server} better`), `${f.name}: legend names ${server}`);
        else if (f.kind !== 'ratio') assert.ok(f.legend.includes(server), `${f.name}: legend names ${server}`);
      }
    }
  });

  it('draws one mark per request for a small run and the slow clients\' activity', () => {
    const timeline = figures.find((f) => f.name === 'concurrent_2000_20_timeline');
    for (const server of SERVERS) {
      const colour = rgb(serverStyle(server).colour);
      const dots = timeline.marks.filter((c) => c.includes(colour)).length;
      assert.ok(dots >= 1990 && dots <= 2000, `${server}: ${dots} dots for 2000 requests`);
    }
    const probe = figures.find((f) => f.name === 'slow_read_probe');
    assert.ok(probe.legend.includes('slow clients active'));
    assert.equal(probe.marks.filter((c) => c.includes(rgb('#dcdcdc'))).length, 2, 'one shaded span per server');
  });

  it('opens on the forest plot of node vs em, what it shows in a line under it, and the flags', async () => {
    const plot = page.locator('#at-a-glance figure.chart');
    assert.equal(await plot.count(), 1, 'the fixture\'s 14 comparisons with an interval fit one plot');
    const box = await plot.boundingBox();
    assert.ok(box.y < 200 && box.y + box.height <= 768, `the whole plot on the first screen (${box.y}–${box.y + box.height} px)`);
    const forest = figures.find((f) => f.kind === 'forest');
    for (const text of ['← node better', 'em better →', 'sequential_6000', 'slow_read', 'short_conn_256']) assert.ok(forest.text.includes(text), text);
    for (const text of ['bigfile_100k', 'concurrent_2000_20']) assert.ok(!forest.text.includes(text), `${text}: nothing judged, no line`);
    assert.match(await page.locator('header p.headline').innerText(), /^node better in \d+, em better in \d+(, [^,]+)* of the 14 comparisons with an interval\. Every answer in words\.$/);
    // The sentences stay, below: the headline leads the answers in words.
    assert.match(await page.locator('#answers p.headline').innerText(), /^Lower median response time: node in 1/);
    const summary = page.locator('table.summary');
    assert.ok(await summary.getByText('em FAILED', { exact: true }).isVisible());
    assert.ok(await summary.getByText('node CLIENT-BOUND', { exact: true }).isVisible());
    const table = await summary.boundingBox();
    assert.ok(table.x + table.width <= 1366, 'the summary table fits the screen width');
  });

  it('fits the summary table in a 1280 px wide screen, even with long server names and an interval in every verdict', async () => {
    // The widest the table gets: a pair with long names (servers.json has em_yjit and
    // em_bare_yjit), and three trials' "undecided (…) 95% CI …" in every verdict.
    const wide = makeTmpDir('report-wide-');
    const screen = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      fs.cpSync(FIXTURE, wide, { recursive: true });
      const file = path.join(wide, 'results.json');
      const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
      const rename = { node: 'em_bare_yjit', em: 'em_yjit' };
      for (const r of doc.runs) r.server = rename[r.server];
      for (const a of doc.aggregates) a.server = rename[a.server];
      doc.comparisons = doc.comparisons.map((c) => ({
        ...c, a: rename[c.a], b: rename[c.b],
        ...(c.excluded || c.no_verdict ? {} : { ratio: 1.0317, ci95: [0.7512, 1.3921], significant: false, winner: null, note: null }),
      }));
      fs.writeFileSync(file, JSON.stringify(doc));
      const { reportPath } = await buildReport(wide, { png: false });
      for (const [what, url] of [['the fixture', page.url()], ['long names, intervals everywhere', pathToFileURL(reportPath).href]]) {
        await screen.goto(url, { waitUntil: 'load' });
        const { table, container, page: pageWidth, verdicts } = await screen.evaluate(() => {
          const t = document.querySelector('table.summary');
          return {
            table: t.scrollWidth,
            container: t.parentElement.clientWidth,
            page: document.documentElement.scrollWidth,
            verdicts: [...t.querySelectorAll('td.verdict')].map((td) => td.innerText.replace(/\s+/g, ' ').trim()),
          };
        });
        assert.ok(table <= container, `${what}: the summary table is ${table} px wide, its container ${container} px`);
        assert.ok(pageWidth <= 1280, `${what}: the page scrolls sideways (${pageWidth} px)`);
        if (what !== 'the fixture') assert.ok(verdicts.includes('undecided (em_yjit 1.03× faster) 95% CI 0.75–1.39×'), verdicts.join('\n'));
      }
      await screen.screenshot({ path: path.join(ARTIFACTS, 'report_wide_1280.png') });
    } finally {
      await screen.close();
      fs.rmSync(wide, { recursive: true, force: true });
    }
  });

  it('says "set by the rate" where the schedule set the throughput, and names no winner there', async () => {
    const row = page.locator('table.summary tbody tr', { hasText: 'slow_read' });
    assert.equal((await row.locator('td.verdict').nth(2).innerText()).trim(), 'set by the rate');
    assert.equal(await page.getByText('≈ same').count(), 0);
    const probe = page.locator('#s-slow_read ul.verdicts');
    assert.match(await probe.innerText(), /throughput: set by the rate/);
  });

  it('warns in a "Read with care" block on the first screen, under the plot and above the summary table', async () => {
    const care = page.locator('#care');
    const box = await care.boundingBox();
    const table = await page.locator('table.summary').boundingBox();
    const plot = await page.locator('#at-a-glance').boundingBox();
    assert.ok(box.y >= plot.y + plot.height && box.y + box.height <= table.y && box.y < 768, 'under the plot, above the table, on the first screen');
    assert.match(await care.locator('summary').innerText(), /^Read with care: 5 warnings \(/);
    await care.locator('summary').click();
    const lines = await care.locator('li').allInnerTexts();
    assert.equal(lines.length, 5);
    assert.ok(lines.some((l) => /BEHIND SCHEDULE\s+concurrent_2000_20 — em \(trials 1–3\): connections opened up to 35 ms behind schedule/.test(l)), lines.join('\n'));
    assert.ok(lines.some((l) => /NEAR CLIENT-BOUND\s+sequential_6000 — node \(trials 1–3\): the load generator used 84 %/.test(l)), lines.join('\n'));
    await care.locator('summary').click();
  });

  it('shows n on every distribution chart, and no percentile beyond what n resolves', () => {
    const curves = figures.filter((f) => f.kind === 'percentiles');
    assert.equal(curves.length, 5);
    for (const f of curves) {
      const n = Object.fromEntries(f.n.split(' ').map((kv) => kv.split(':')).map(([k, v]) => [k, Number(v)]));
      for (const server of f.servers) assert.ok(f.text.includes(`${n[server].toLocaleString('en-US')} (${server})`), `${f.name}: n of ${server} shown`);
      assert.match(f.text, /n = /, f.name);
    }
    const probe = figures.find((f) => f.name === 'slow_read_percentiles');
    assert.match(probe.text, /\| ends at 66\.7 % \(n = 300\)/);
    assert.doesNotMatch(probe.text, /\b99%/, 'no 99 % tick where 300 requests cannot show one');
  });

  it('shows the 2011 study beside this run: chart, table and a line per test', async () => {
    const seed = figures.find((f) => f.name === 'seed_002');
    assert.ok(seed.width > 300 && seed.height > 150);
    assert.match(seed.text, /Test 1: sequential_6000/);
    assert.match(seed.text, /2011 \(study\)/);
    const table = page.locator('table.seed-table:not(.seeds-table)');
    assert.equal(await table.locator('tbody tr').count(), 4);
    const first = await table.locator('tbody tr').first().innerText();
    assert.match(first, /^1\s+sequential_6000\s+20\.9\s+4\.30\s+Node 4\.86× faster\s+[\d.]+ \[[\d.]+–[\d.]+\]\s+[\d.]+ \[[\d.]+–[\d.]+\]\s+node [\d.]+× more req\/s \[[\d.]+–[\d.]+\]/);
    assert.match(first, /Node still wins, by less$/);
    const lines = await page.locator('ul.seed-lines li').allInnerTexts();
    assert.equal(lines.length, 4);
    assert.match(lines[1], /^Test 2 \(concurrent_2000_20\): 2011 really close; .*: not judged\.$/);
  });

  it('on a 390 px phone, the forest plot fits the width at a readable size, and a jumped-to section keeps its heading below the sticky navigation', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await phone.goto(page.url(), { waitUntil: 'load' });
      const { pageWidth, drawn, natural } = await phone.evaluate(() => {
        const svg = document.querySelector('#at-a-glance svg');
        return { pageWidth: document.documentElement.scrollWidth, drawn: svg.getBoundingClientRect().width, natural: Number(svg.getAttribute('width')) };
      });
      assert.ok(pageWidth <= 390, `the page scrolls sideways (${pageWidth} px)`);
      // 12 px labels drawn at 80 % or more: no smaller than 9.6 px.
      assert.ok(drawn / natural >= 0.8, `the plot drawn at ${drawn} of its ${natural} px`);
      await phone.screenshot({ path: path.join(ARTIFACTS, 'report_phone_top.png') });
      for (const target of ['s-slow_read', 's-sequential_6000', 'seed']) {
        await phone.locator(`nav a[href="#${target}"]`).click();
        const { heading, nav } = await phone.evaluate((id) => ({
          heading: document.querySelector(`#${id} h2`).getBoundingClientRect().toJSON(),
          nav: document.querySelector('nav').getBoundingClientRect().toJSON(),
        }), target);
        assert.ok(heading.top >= nav.bottom - 0.5, `#${target}: heading at ${heading.top} px, navigation ends at ${nav.bottom} px`);
        assert.ok(heading.bottom <= 844, `#${target}: heading on screen`);
      }
    } finally {
      await phone.close();
    }
  });

  it('printed, no table is wider than the page', async () => {
    // An A4 page at 96 dpi less Chromium's default margins.
    const paper = await browser.newPage({ viewport: { width: 718, height: 1000 } });
    try {
      await paper.emulateMedia({ media: 'print' });
      await paper.goto(page.url(), { waitUntil: 'load' });
      const { width, tables } = await paper.evaluate(() => ({
        width: document.documentElement.clientWidth,
        tables: [...document.querySelectorAll('table')].map((t) => ({ cls: t.className, right: t.getBoundingClientRect().right, scroll: t.parentElement.scrollWidth - t.parentElement.clientWidth })),
      }));
      assert.ok(tables.length >= 7, 'summary, 2011 study, a runs table per scenario, all runs');
      for (const t of tables) {
        assert.ok(t.right <= width + 0.5, `table.${t.cls} ends at ${t.right} px, the page at ${width} px`);
        assert.ok(t.scroll <= 0, `table.${t.cls}: nothing hidden beyond a scroll edge`);
      }
    } finally {
      await paper.close();
    }
  });
});
