'use strict';
// The Tsung engine: the configuration it writes for each kind of scenario, how the hosts'
// requests become one run (one time line, each host's share and histogram, the merge exact),
// what keeps a distributed run from being judged, and a real open-loop run from two netns load
// hosts (as root, with Tsung installed): each host's share, CPU, clock and histogram, the merge
// exact, nothing that keeps it from being judged; a planted server stall shows in Tsung's tail
// as in the built-in open-loop engine's; the server sees both hosts' addresses. (The closed
// loop's real runs, on both servers through the CLI: test/e2e/load_hosts.test.js.)

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { tsungConfig, planLoad, whyNot, cpuBetween, recordHosts, loadProblems } = require('../../../perf/lib/engines/tsung');
const { normalizeScenario } = require('../../../perf/lib/plan/scenarios');
const { Samples, parseSamplesCsv } = require('../../../perf/lib/measure/samples');
const { summarizeSamples, mergeLatencyHistograms, histogramPercentiles } = require('../../../perf/lib/measure/stats');
const { netnsHostsUnavailableReason } = require('../../../perf/lib/hosts/load_hosts');
const { whyNotInstalled } = require('../../../perf/lib/engines');
const { runScenarios } = require('../../../perf/lib/run/runner');
const { standinDefinitions, writeScenarioDir, makeTmpDir } = require('../../support/runner_helpers');
const { assertRunFromTwoHosts } = require('../../support/tsung_runs');
const zlib = require('node:zlib');

const HOSTS = [{ name: 'evn-h1-x' }, { name: 'evn-h2-x' }];
const SERVER = { host: '198.18.0.2', port: 8080 };
const scenario = (name, body) => normalizeScenario({ name, description: name, ...body }, name);

describe('tsung engine: the configuration', () => {
  it('open loop: every user one request, arriving at the rate, the phase long enough for all of them', () => {
    const s = scenario('open', { kind: 'open', connections: 2000, rate: 100, request: { path: '/hello' } });
    const { xml, plan } = tsungConfig(s, { hosts: HOSTS, server: SERVER });
    assert.match(xml, /<users maxnumber="2000" arrivalrate="100" unit="second"\/>/);
    assert.match(xml, /<client host="evn-h1-x" weight="1" maxusers="1010"\/>\n {4}<client host="evn-h2-x" weight="1" maxusers="1010"\/>/);
    assert.match(xml, /<server host="198\.18\.0\.2" port="8080" type="tcp"\/>/);
    assert.match(xml, /dumptraffic="protocol_local"/);
    assert.doesNotMatch(xml, /<for /);
    // Each host's Poisson process at 50 a second needs about 20 s for its 1000 users; the phase
    // gives six standard deviations more, and Tsung's start-up second.
    assert.equal(plan.phaseS, Math.ceil(1 + (1000 + 6 * Math.sqrt(1000)) / 50 + 1));
    assert.equal(plan.planned, 2000);
  });

  it('keep-alive closed loop: all users at once, each a loop of its requests on one connection', () => {
    const s = scenario('ka', { kind: 'closed', concurrency: 400, keep_alive: true, requests_per_connection: 25, request: { path: '/hello' } });
    const { xml, plan } = tsungConfig(s, { hosts: HOSTS, server: SERVER });
    assert.match(xml, /<users maxnumber="400" arrivalrate="10000" unit="second"\/>/);
    assert.match(xml, /<for from="1" to="25" var="i">\n\s+<request><http url="\/hello" method="GET" version="1\.1"><\/http><\/request>\n\s+<\/for>/);
    assert.doesNotMatch(xml, /Connection/);
    assert.equal(plan.planned, 10000);
  });

  it('new connection per request: Connection: close on every request; a count the users do not divide is said', () => {
    const s = scenario('seq', { kind: 'closed', concurrency: 3, keep_alive: false, requests: 10, request: { path: '/hello' } });
    const { xml, plan } = tsungConfig(s, { hosts: HOSTS, server: SERVER });
    assert.match(xml, /<http_header name="Connection" value="close"\/>/);
    assert.match(xml, /<for from="1" to="4" var="i">/);
    assert.equal(plan.planned, 12);
    assert.match(plan.note, /3 users × 4 requests = 12 \(the scenario asks 10/);
  });

  it('duration-bounded: the load stops after the duration, the users loop until then', () => {
    const s = scenario('long', { kind: 'closed', concurrency: 256, keep_alive: true, duration_s: 10, request: { path: '/hello' } });
    const { xml, plan } = tsungConfig(s, { hosts: HOSTS, server: SERVER });
    assert.match(xml, /<load duration="10" unit="second">/);
    assert.match(xml, /<for from="1" to="100000000" var="i">/);
    assert.equal(plan.planned, null);
    // Tsung takes whole seconds; a quick run's half second becomes one, and says so.
    const quick = planLoad(scenario('short', { kind: 'closed', concurrency: 256, keep_alive: false, duration_s: 0.5, request: { path: '/hello' } }), 2);
    assert.equal(quick.loadDurationS, 1);
    assert.match(quick.note, /1 s after the load starts \(whole seconds: the scenario asks 0\.5 s\)/);
  });

  it('escapes what goes into the XML, and keeps the scenario\'s headers and method', () => {
    const s = scenario('odd', { kind: 'closed', concurrency: 1, keep_alive: true, requests: 1, request: { method: 'HEAD', path: '/a?b=1&c="2"', headers: { 'X-Test': '<v>' } } });
    const { xml } = tsungConfig(s, { hosts: HOSTS, server: SERVER });
    assert.match(xml, /url="\/a\?b=1&amp;c=&quot;2&quot;" method="HEAD"/);
    assert.match(xml, /<http_header name="X-Test" value="&lt;v&gt;"\/>/);
  });

  it('skips what it cannot run faithfully, with the reason', () => {
    const slow = scenario('slow', {
      kind: 'slow_clients',
      probe: { request: { path: '/hello' }, rate: 50, duration_s: 3 },
      slow: { mode: 'read', request: { path: '/data/random-1m.bin' }, clients: 10, bytes_per_s: 65536, start_s: 0.5, active_s: 2 },
    });
    assert.match(whyNot(slow), /slow clients/);
    assert.match(whyNot(scenario('up', { kind: 'closed', concurrency: 2, keep_alive: true, requests: 10, request: { method: 'POST', path: '/upload', upload_bytes: 1000 } })), /request bodies/);
    assert.throws(() => tsungConfig(slow, { hosts: HOSTS, server: SERVER }), /Tsung cannot run slow/);
  });

  it('spreads users over any number of hosts', () => {
    const s = scenario('open', { kind: 'open', connections: 101, rate: 50, request: { path: '/hello' } });
    assert.equal(planLoad(s, 1).users, 101);
    assert.match(tsungConfig(s, { hosts: [{ name: 'a' }, { name: 'b' }, { name: 'c' }], server: SERVER }).xml, /maxusers="44"/);
  });
});

describe('tsung engine: the hosts made one run', () => {
  // Two hosts: a's requests end at 1000.010 s and 1000.030 s, b's at 1000.020 s.
  const read = {
    hosts: {
      a: { node: 'tsung0@a', scheduleWarnings: [], rows: [{ endMs: 1000010, durationMs: 10, user: 1, status: 200 }, { endMs: 1000030, durationMs: 5, user: 2, status: 200 }] },
      b: { node: 'tsung1@b', scheduleWarnings: ['Phase duration exceeded, but not all users were launched (3 users, 50.0% of phase)'], rows: [{ endMs: 1000020, durationMs: 15, user: 1, status: 503 }] },
    },
  };
  const loadHosts = { kind: 'netns', hosts: [{ name: 'a', address: '198.18.0.3' }, { name: 'b', address: '198.18.0.4' }] };
  const cpuSeries = { a: [[1000000, 1.0], [1000010, 1.002], [1000030, 1.006]], b: [[999990, 0.5], [1000040, 0.51]] };
  const samples = new Samples();
  samples.start(50);
  const { hosts } = recordHosts({ read, loadHosts, samples, cpuSeries, offsets: { a: { offset_ms: 0.4, uncertainty_ms: 0.5 } } });

  it('puts every request on one time line, zero at the first start, whichever host sent it', () => {
    const rows = Array.from({ length: samples.length }, (_, i) => samples.row(i));
    assert.deepEqual(rows.map((r) => [r.t_ms, r.latency_ms, r.status]), [[0, 10, 200], [25, 5, 200], [5, 15, 503]]);
    assert.deepEqual(hosts.map((h) => [h.first_start_ms, h.last_end_ms]), [[0, 30], [5, 20]]);
  });

  it("gives each host its share, its latency, its clock and its launcher's complaint", () => {
    assert.deepEqual(hosts.map((h) => [h.name, h.requests, h.share_pct, h.address, h.node]), [['a', 2, 66.667, '198.18.0.3', 'tsung0@a'], ['b', 1, 33.333, '198.18.0.4', 'tsung1@b']]);
    assert.deepEqual(hosts[0].clock, { offset_ms: 0.4, uncertainty_ms: 0.5 });
    assert.equal(hosts[1].clock, null);
    assert.equal(hosts[0].behind_schedule, null);
    assert.match(hosts[1].behind_schedule, /not all users were launched/);
  });

  it("measures each host's CPU over its own load window", () => {
    // a: 6 ms of CPU over its 30 ms window = 20 %.
    assert.equal(hosts[0].client_cpu_pct, 20);
    assert.equal(cpuBetween([[0, 0], [100, 1]], 25, 75), 0.5);
    assert.equal(cpuBetween([], 0, 1), null);
  });

  it("makes the run's histogram exactly the merge of the hosts'", () => {
    const run = summarizeSamples(samples);
    const merged = mergeLatencyHistograms(hosts.map((h) => h.latency_histogram));
    const whole = mergeLatencyHistograms([run.latency_histogram]);
    assert.equal(merged.totalCount, whole.totalCount);
    assert.deepEqual(histogramPercentiles(merged), histogramPercentiles(whole));
    assert.equal(run.requests, 3);
  });

  it('does not judge a run whose hosts fell behind, started too few users or lost requests', () => {
    const plan = { users: 4, planned: 8 };
    assert.deepEqual(loadProblems({ hosts, plan, launched: 3, dumped: 6, counted: 6 }), [
      'load host b fell behind its arrival schedule (Tsung: Phase duration exceeded, but not all users were launched (3 users, 50.0% of phase))',
      'Tsung started 3 of 4 users',
      '6 of 8 planned requests completed',
    ]);
    assert.deepEqual(loadProblems({ hosts: [hosts[0]], plan: { users: 2, planned: null }, launched: 2, dumped: 2, counted: 2 }), []);
    // Without the controller's count, the dumps are all there is.
    assert.deepEqual(loadProblems({ hosts: [hosts[0]], plan, launched: 4, dumped: 7, counted: null }), ['7 of 8 planned requests completed']);
  });

  it('does not judge a run whose dumps lost replies the controller counted, and says the load itself was complete', () => {
    const plan = { users: 400, planned: 10000 };
    assert.deepEqual(loadProblems({ hosts: [hosts[0]], plan, launched: 400, dumped: 9081, counted: 10000 }), [
      "the agents' dumps hold 9081 of the 10000 replies Tsung's controller counted (an agent's node stopped before writing the rest)",
    ]);
    // Duration-bounded: nothing planned, the loss is still said.
    assert.deepEqual(loadProblems({ hosts: [hosts[0]], plan: { users: 400, planned: null }, launched: 400, dumped: 90, counted: 100 }).length, 1);
    assert.deepEqual(loadProblems({ hosts: [hosts[0]], plan, launched: 400, dumped: 10000, counted: 10000 }), []);
  });
});

/** The samples file of a run's results folder, read back. */
function samplesOf(out) {
  const dir = path.join(out, 'samples');
  const [file] = fs.readdirSync(dir);
  return parseSamplesCsv(zlib.gunzipSync(fs.readFileSync(path.join(dir, file))).toString());
}

describe('tsung engine: real runs from two netns load hosts', function () {
  this.timeout(120000);
  before(function () {
    if (netnsHostsUnavailableReason() || whyNotInstalled('tsung')) this.skip();
  });

  it('an open loop from two hosts: each host\'s share, CPU, clock and histogram, the merge exact; a planted server stall shows in Tsung\'s tail as it does in the built-in open-loop engine\'s; the server sees both hosts', async () => {
    const peers = path.join(makeTmpDir('tsung-peers-'), 'peers');
    // The stall at the 60th request, once both hosts send (Tsung starts them apart), for 1.2 s:
    // some 90 of the 150 arrive during it and wait past 300 ms. (At the 20th for 0.8 s it held
    // some 50 at 100/s, fewer while one host alone sent: Tsung's random arrivals once gave 35.)
    const definitions = standinDefinitions({ stalls: { STANDIN_STALL_AT: '60', STANDIN_STALL_MS: '1200', STANDIN_PEERS_FILE: peers } });
    const scenariosDir = writeScenarioDir({ stall_open: { description: 'open loop over a stall', kind: 'open', connections: 150, rate: 100, request: { path: '/hello' } } });
    const common = { definitions, servers: ['stalls'], scenariosDir, repeat: 1, warmup: 0, lighterEngines: false, log: () => {} };
    const outTsung = makeTmpDir('tsung-stall-');
    const outBuiltin = makeTmpDir('builtin-stall-');
    const lines = [];
    const tsung = await runScenarios({ ...common, engine: 'tsung', loadHosts: 'netns:2', outDir: outTsung, log: (l) => lines.push(l) });
    const tsungPeers = new Set(fs.readFileSync(peers, 'utf8').split('\n').filter(Boolean));
    const builtin = await runScenarios({ ...common, outDir: outBuiltin });
    for (const [name, result, out] of [['tsung', tsung, outTsung], ['built-in', builtin, outBuiltin]]) {
      const [run] = result.runs;
      assert.equal(run.ok, true, `${name}: ${run.failure}`);
      assert.equal(run.replies, 150, name);
      const rows = samplesOf(out);
      const slow = rows.filter((r) => r.latency_ms > 300).length;
      assert.ok(slow >= 40, `${name}: only ${slow} requests waited more than 300 ms`);
      assert.ok(run.latency_ms.max >= 600, `${name}: the longest wait was ${run.latency_ms.max} ms`);
      assert.ok(run.latency_ms.p99 >= 600, `${name}: p99 ${run.latency_ms.p99} ms`);
    }
    const [run] = tsung.runs;
    assertRunFromTwoHosts(run, outTsung);
    const addresses = run.load_hosts.map((h) => h.address);
    assert.deepEqual([...tsungPeers].filter((a) => addresses.includes(a)).sort(), [...addresses].sort(), `the server saw ${[...tsungPeers].join(', ')}`);
    assert.ok(lines.some((l) => /^load hosts: clocks evn-h1-\S+ [+-][\d.]+ ms/.test(l)), lines.join('\n'));
  });
});
