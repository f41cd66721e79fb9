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
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { chromium } = require('playwright-core');

const { buildReport } = require('../perf/report');
const { serverStyle } = require('../perf/report/style');

const FIXTURE = path.join(__dirname, 'fixtures', 'results_small');
const ARTIFACTS = path.join(__dirname, 'artifacts');
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
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-browser-'));
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
    assert.equal(figures.length, 14);
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
        if (f.kind !== 'ratio') assert.ok(f.legend.includes(server), `${f.name}: legend names ${server}`);
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

  it('shows the verdicts and the flags on the first screen', async () => {
    const visible = async (text) => page.getByText(text, { exact: false }).first().isVisible();
    assert.ok(await visible('Lower median response time: node in 1'));
    const summary = page.locator('table.summary');
    assert.ok(await summary.getByText('em FAILED', { exact: true }).isVisible());
    assert.ok(await summary.getByText('node CLIENT-BOUND', { exact: true }).isVisible());
    const box = await summary.boundingBox();
    assert.ok(box.x + box.width <= 1366, 'the summary table fits the screen width');
    assert.ok(box.y < 768, 'the summary table starts on the first screen');
  });
});
