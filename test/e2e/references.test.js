'use strict';
// The reference servers for real: nginx started from perf/servers.json (the launcher execs
// nginx, so the pid measured is nginx's; the contract's Content-Types), then
// scripts/run_scenarios.sh --quick --servers node --references on three small scenarios: the
// references run what they can serve, skip the rest, and the summary and the report show node's
// overhead against them. Where nginx is not installed, the runner must say so in one line.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const { startServer, loadServerDefinitions } = require('../../perf/lib/hosts/server_process');
const { missingRequirement } = require('../../perf/lib/plan/trial_plan');
const { makeTmpDir, alive, runCommand, smallerScenarioDir } = require('../support/runner_helpers');
const { PROJECT_ROOT } = require('../../perf/lib/project_root');

const definitions = loadServerDefinitions();
const NGINX_MISSING = missingRequirement(definitions.nginx);
const CONTRACT = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'contract.json'), 'utf8'));

function get(port, urlPath, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, method, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function siteFiles(dir, prefix = '') {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    if (e.isDirectory()) out.push(...siteFiles(path.join(dir, e.name), `${prefix}/${e.name}`));
    else if (e.isFile()) out.push(`${prefix}/${e.name}`);
  }
  return out;
}

describe('references: nginx as a server of perf/servers.json', function () {
  this.timeout(30000);
  let handle;
  before(async function () {
    if (NGINX_MISSING) this.skip();
    handle = await startServer('nginx', { definitions, readyTimeoutMs: 10000 });
  });
  after(async () => {
    if (handle) await handle.stop(3000);
  });

  it('the pid the runner measures is nginx itself', () => {
    assert.equal(fs.readFileSync(`/proc/${handle.pid}/comm`, 'utf8').trim(), 'nginx');
  });

  it('answers /hello like the contract, and every file with the contract\'s Content-Type', async () => {
    const hello = await get(handle.port, '/hello');
    assert.equal(hello.status, 200);
    assert.equal(hello.body.toString(), CONTRACT.hello_body);
    assert.equal(hello.headers['content-type'], CONTRACT.hello_type);
    assert.equal(hello.headers['content-length'], '10');
    const files = siteFiles(path.join(PROJECT_ROOT, 'shared_www'));
    assert.ok(files.length > 5);
    for (const f of files) {
      const res = await get(handle.port, f.split('/').map(encodeURIComponent).join('/'));
      const type = CONTRACT.content_types[path.extname(f).toLowerCase()] || CONTRACT.default_content_type;
      assert.equal(res.status, 200, f);
      assert.equal(res.headers['content-type'], type, f);
      assert.equal(res.body.length, fs.statSync(path.join(PROJECT_ROOT, 'shared_www', f)).size, f);
    }
    assert.equal((await get(handle.port, '/')).headers['content-type'], CONTRACT.content_types['.html']);
    assert.equal((await get(handle.port, '/no-such-file')).status, 404);
  });

  it('stops on SIGTERM', async () => {
    const pid = handle.pid;
    await handle.stop(3000);
    handle = null;
    assert.equal(alive(pid), false);
  });
});

describe('references: scripts/run_scenarios.sh --quick --servers node --references', function () {
  this.timeout(180000);
  const out = makeTmpDir('refs-e2e-');
  const SCENARIOS = ['sequential_6000', 'bigfile_100k', 'slow_upload'];
  let result;
  let doc;

  before(async () => {
    // The three scenarios at a tenth and a fifth of their quick counts: what runs where, and
    // which engine runs it again, does not depend on the count.
    const scenariosDir = smallerScenarioDir({ sequential_6000: { requests: 200 }, bigfile_100k: { requests: 1000 }, slow_upload: {} });
    result = await runCommand('bash', [path.join(PROJECT_ROOT, 'scripts', 'run_scenarios.sh'), '--quick', '--repeat', '1', '--warmup', '0', '--servers', 'node', '--references', '--scenarios', SCENARIOS.join(','), '--scenarios-dir', scenariosDir, '--out', out], { timeoutMs: 150000 });
    doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
  });

  it('runs each server on what it can serve and says what it skips', () => {
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    // Only the references of the servers chosen: em_bare is em's, so it does not run here.
    const expected = ['node:sequential_6000', 'node:bigfile_100k', 'node:slow_upload', 'node_bare:sequential_6000'];
    if (!NGINX_MISSING) expected.push('nginx:sequential_6000', 'nginx:bigfile_100k');
    const builtIn = doc.runs.filter((r) => r.engine !== 'httperf' && r.engine !== 'wrk');
    assert.deepEqual(builtIn.map((r) => `${r.server}:${r.scenario}`), expected);
    // Then sequential_6000 again with httperf, on every server (one client at a time).
    const again = NGINX_MISSING ? ['node', 'node_bare'] : ['node', 'node_bare', 'nginx'];
    assert.deepEqual(doc.runs.filter((r) => r.engine === 'httperf').map((r) => `${r.server}:${r.scenario}`), again.map((server) => `${server}:sequential_6000`));
    // And bigfile_100k with wrk where the built-in load generator was its bottleneck (this
    // machine's speed decides), on every server that serves it, for the time it took.
    const wrk = doc.runs.filter((r) => r.engine === 'wrk');
    if (wrk.length) {
      assert.deepEqual(wrk.map((r) => `${r.server}:${r.scenario}`), expected.filter((k) => k.endsWith(':bigfile_100k')));
      assert.equal(doc.verdict_engines.bigfile_100k, 'wrk');
    }
    for (const r of doc.runs) assert.equal(r.ok, true, `${r.server} ${r.scenario}: ${r.failure}`);
    assert.match(result.stdout, /^node_bare: skips bigfile_100k \(needs files; node_bare serves hello\)$/m);
    assert.match(result.stdout, /^node_bare: skips slow_upload \(needs upload; node_bare serves hello\)$/m);
    if (NGINX_MISSING) {
      assert.match(result.stdout, /^nginx: skipped: nginx is not installed \(scripts\/setup\.sh --references installs it/m);
    } else {
      assert.match(result.stdout, /^nginx: skips slow_upload \(needs upload; nginx serves hello, files\)$/m);
      assert.ok(doc.skipped.some((k) => k.server === 'nginx' && k.scenario === 'slow_upload'));
      const nginx = doc.runs.find((r) => r.server === 'nginx' && r.scenario === 'bigfile_100k');
      assert.ok(nginx.server_cpu.user_s !== null && nginx.server_peak_rss_mb > 1, 'nginx\'s own CPU and RSS are measured');
    }
  });

  // A ratio, or "not compared" when the load generator, not the server, set the pace (nginx
  // may outrun it; a quick bigfile_100k may leave a server under 90 % of its core).
  const RATIO = '([\\d.]+×|not compared \\((client-bound|not-judged)\\))';

  it('prints node\'s overhead against its references', () => {
    assert.match(result.stdout, /^Overhead against references/m);
    // p50 and p99 are "–" where httperf gave the verdict (it measures neither); req/s is a ratio.
    assert.match(result.stdout, new RegExp(`^sequential_6000\\s+node\\s+node_bare\\s+((–|${RATIO}.*)\\s+){2}${RATIO}`, 'm'));
    if (!NGINX_MISSING) assert.match(result.stdout, new RegExp(`^bigfile_100k\\s+node\\s+nginx\\s+${RATIO}`, 'm'));
    assert.doesNotMatch(result.stdout, /em_bare/, 'em_bare is a reference for em, which was not chosen');
  });

  it('the report has an "Overhead against references" section with the ratios', () => {
    const html = fs.readFileSync(path.join(out, 'report.html'), 'utf8');
    const start = html.indexOf('<section id="overhead">');
    assert.ok(start > 0, 'overhead section');
    const section = html.slice(start, html.indexOf('</section>', start));
    assert.match(section, /<h2>Overhead against references<\/h2>/);
    const rows = section.split('<tr>').slice(2);
    const pairs = rows.map((r) => [...r.matchAll(/<span class="server">.*?<\/span>([a-z_]+)<\/span>/g)].map((m) => m[1]).join('/'));
    const expected = ['node/node_bare'];
    if (!NGINX_MISSING) expected.push('node/nginx', 'node/nginx');
    assert.deepEqual(pairs, expected);
    for (const r of rows) assert.match(r, new RegExp(`<td[^>]*>${RATIO}`));
    assert.ok(rows.some((r) => /<td[^>]*>[\d.]+×/.test(r)), 'at least one ratio');
    assert.match(html, /nginx does not serve this scenario \(needs upload\): not run|nginx: skipped/);
  });
});
