'use strict';
// What each layer costs: a project server against its bare runtime (node ÷ node_bare, em ÷
// em_bare) on GET /hello, in server CPU per request and in throughput, with keep-alive and
// with a connection per request (Connection: close). scripts/overhead.sh is its command line.
//
// Per pair both servers run side by side (perf/servers.json, on the server CPU) and are warmed
// up; then each round runs wrk -t1 -c<connections> -d<seconds>s (the wrk engine, on the load
// generator's CPU) against one server and then the other, the order alternating from round to
// round so that drift and order effects hit both alike. Server CPU is /proc/<pid>/stat before
// and after wrk (10 ms ticks) divided by the requests wrk completed. Centres are geometric means
// of the rounds and ratios project ÷ bare with Welch's 95% interval on log values
// (perf/lib/rule/confidence.js), as the runner's overheads against references.

const fs = require('node:fs');
const path = require('node:path');
const { startServer, loadServerDefinitions } = require('../hosts/server_process');
const { planPinning, pinProcess } = require('../hosts/pinning');
const { readCpu, cpuDelta } = require('../measure/proc_stats');
const { summarizeTrials, compareTrials } = require('../rule/confidence');
const { checkContract } = require('../run/contract_check');
const { collectEnvironment } = require('../run/environment');
const { describeRuntimes } = require('../run/runtimes');
const { writeFileAtomic, RESULTS_ROOT, folderStamp } = require('../store/results_store');
const { fmtNumber, fmtFactor, fmtInterval, alignedTable } = require('../text/format');
const { wrkEngine, ENV_VAR: WRK_ENV_VAR } = require('../engines/wrk');
const { findBinary } = require('../engines/external');
const { checkClientBound } = require('../run/bottleneck');
const { CLIENT_BOUND_PCT, SERVER_BOUND_PCT } = require('../method');

const DEFAULT_PAIRS = [
  { project: 'node', bare: 'node_bare' },
  { project: 'em', bare: 'em_bare' },
  { project: 'async', bare: 'async_bare' },
];
const MODES = [
  { name: 'keep-alive', keep_alive: true },
  { name: 'close', keep_alive: false },
];
const DEFAULTS = { rounds: 5, seconds: 3, connections: 50 };
const WARMUP_S = 1;
const PATH = '/hello';

class OverheadUsageError extends Error {}

/** 'node:node_bare' → { project: 'node', bare: 'node_bare' }; a usage error otherwise. */
function parsePair(text) {
  const m = /^([\w.-]+):([\w.-]+)$/.exec(text);
  if (!m) throw new OverheadUsageError(`a pair is PROJECT:BARE, e.g. em:em_bare (got '${text}')`);
  if (m[1] === m[2]) throw new OverheadUsageError(`pair '${text}' compares a server with itself`);
  return { project: m[1], bare: m[2] };
}

/** Every server of the pairs must be defined and answer GET /hello. */
function checkPairs(pairs, definitions) {
  for (const name of pairs.flatMap((p) => [p.project, p.bare])) {
    const def = definitions[name];
    if (!def) throw new OverheadUsageError(`unknown server '${name}' (known: ${Object.keys(definitions).join(', ')})`);
    if (Array.isArray(def.serves) && !def.serves.includes('hello')) throw new OverheadUsageError(`server '${name}' does not serve GET /hello`);
  }
}

/** The wrk engine's scenario for one mode (the same command line as the runner's wrk engine). */
function wrkScenario(mode, seconds, connections) {
  return {
    name: `hello_${mode.name}`,
    kind: 'closed',
    concurrency: connections,
    keep_alive: mode.keep_alive,
    duration_s: seconds,
    timeout_s: 5,
    request: { method: 'GET', path: PATH, headers: {} },
  };
}

function unsaturated(m) {
  return m.server_busy_pct !== null && m.server_busy_pct < SERVER_BOUND_PCT;
}

/** Rounds whose req/s is not the server's capacity: wrk was the bottleneck or the server was held back. */
function heldBackRounds(r) {
  return r.client_bound_rounds.project + r.client_bound_rounds.bare + r.unsaturated_rounds.project + r.unsaturated_rounds.bare;
}

function socketErrorTotal(e) {
  return e.connect + e.read + e.write + e.timeout;
}

/** One wrk run against a running server, with the server's CPU around it. */
async function measure(handle, scenario, signal) {
  const before = readCpu(handle.pid);
  const run = await wrkEngine.run({ host: handle.host, port: handle.port, scenario, signal });
  const cpu = cpuDelta(before, readCpu(handle.pid));
  if (!cpu) throw new Error(`${handle.name} (pid ${handle.pid}) is gone: its CPU time cannot be read`);
  const requests = run.engine_totals.requests;
  const cpuS = cpu.total_s;
  const wallS = run.summary.last_end_ms / 1000;
  return {
    requests,
    requests_per_sec: run.engine_totals.requests_per_sec,
    server_cpu_s: Math.round(cpuS * 1000) / 1000,
    server_busy_pct: wallS > 0 ? Math.round((cpuS / wallS) * 1000) / 10 : null,
    cpu_us_per_request: requests > 0 ? (cpuS * 1e6) / requests : null,
    socket_errors: run.engine_errors,
    non_2xx_3xx: run.engine_totals.non_2xx_3xx,
    client_cpu_pct: run.client_cpu_pct,
    // wrk measures its CPU; whether that made it the bottleneck is the judge's, as in a run.
    client_bound: checkClientBound(run).client_bound,
    command: run.engine_command,
  };
}

/** Centres, intervals and ratio project ÷ bare of one metric over the rounds. */
function metricSummary(projectValues, bareValues) {
  const ratio = compareTrials(projectValues, bareValues);
  return {
    project: summarizeTrials(projectValues),
    bare: summarizeTrials(bareValues),
    ratio: ratio ? { value: ratio.ratio, ci95: ratio.ci95, significant: ratio.significant } : null,
  };
}

/** The table's rows: one per pair and mode, from the measurements of the rounds. */
function summarize(pairs, measurements) {
  const rows = [];
  for (const { project, bare } of pairs) {
    for (const mode of MODES) {
      const of = (server) => measurements.filter((m) => m.pair === `${project}:${bare}` && m.mode === mode.name && m.server === server);
      const p = of(project);
      const b = of(bare);
      if (!p.length || !b.length) continue;
      const sum = (list, f) => list.reduce((n, m) => n + f(m), 0);
      rows.push({
        pair: `${project}:${bare}`,
        project,
        bare,
        mode: mode.name,
        rounds: Math.min(p.length, b.length),
        cpu_us_per_request: metricSummary(p.map((m) => m.cpu_us_per_request), b.map((m) => m.cpu_us_per_request)),
        requests_per_sec: metricSummary(p.map((m) => m.requests_per_sec), b.map((m) => m.requests_per_sec)),
        socket_errors: { project: sum(p, (m) => socketErrorTotal(m.socket_errors)), bare: sum(b, (m) => socketErrorTotal(m.socket_errors)) },
        non_2xx_3xx: { project: sum(p, (m) => m.non_2xx_3xx), bare: sum(b, (m) => m.non_2xx_3xx) },
        client_bound_rounds: { project: p.filter((m) => m.client_bound).length, bare: b.filter((m) => m.client_bound).length },
        unsaturated_rounds: { project: p.filter(unsaturated).length, bare: b.filter(unsaturated).length },
      });
    }
  }
  return rows;
}

function fmtRatio(r) {
  return r ? `${fmtFactor(r.value)} ${fmtInterval(r.ci95)}` : '– (needs 2 rounds)';
}

/** The table as aligned text lines, with what the columns mean. */
function formatTable(rows) {
  const head = ['pair', 'mode', 'CPU µs/req', 'bare µs/req', 'CPU ÷ bare [95% CI]', 'req/s', 'bare req/s', 'req/s ÷ bare [95% CI]', 'socket errors'];
  const body = rows.map((r) => {
    const cpu = r.cpu_us_per_request;
    const rps = r.requests_per_sec;
    return [
      r.pair,
      r.mode,
      fmtNumber(cpu.project.centre, 'µs'),
      fmtNumber(cpu.bare.centre, 'µs'),
      fmtRatio(cpu.ratio),
      fmtNumber(rps.project.centre, 'req/s'),
      fmtNumber(rps.bare.centre, 'req/s'),
      fmtRatio(rps.ratio) + (heldBackRounds(r) ? ' *' : ''),
      `${r.socket_errors.project} / ${r.socket_errors.bare}`,
    ];
  });
  const lines = alignedTable(head, body, ['l', 'l', 'r', 'r', 'l', 'r', 'r', 'l', 'r']);
  lines.push(
    '',
    'pair = PROJECT:BARE; ratios are project ÷ bare (centres: geometric means of the rounds; 95% CI: Welch\'s t on log values).',
    'CPU: the server process\'s CPU time (its threads\' schedstat, ns) per request wrk completed; socket errors: wrk\'s, project / bare.',
  );
  for (const r of rows.filter(heldBackRounds)) {
    const of = (counts) => `${counts.project} ${r.project}, ${counts.bare} ${r.bare}`;
    lines.push(`* ${r.pair} ${r.mode}: rounds where wrk used ≥ ${CLIENT_BOUND_PCT}% of its CPU: ${of(r.client_bound_rounds)}; where the server was busy < ${SERVER_BOUND_PCT}% of the time (held back by another process or the client): ${of(r.unsaturated_rounds)}. There req/s is not the server's capacity; CPU per request still holds.`);
  }
  return lines;
}

/**
 * Measures each pair. options: { pairs (default node:node_bare, em:em_bare), rounds (≥ 2),
 * seconds (whole, ≥ 1), connections, pin (default true), outDir (default
 * perf/results/overhead-<UTC time>), definitions (default perf/servers.json), signal, log }.
 * Pinning moves this process (the load generator) to its CPU. Resolves { dir, file, doc,
 * lines, interrupted }; doc is what overhead.json holds.
 */
async function runOverhead(options = {}) {
  const pairs = options.pairs || DEFAULT_PAIRS;
  const rounds = options.rounds ?? DEFAULTS.rounds;
  const seconds = options.seconds ?? DEFAULTS.seconds;
  const connections = options.connections ?? DEFAULTS.connections;
  const log = options.log || (() => {});
  const signal = options.signal || null;
  if (!Number.isInteger(rounds) || rounds < 2) throw new OverheadUsageError(`rounds must be a whole number, 2 or more, for an interval (got ${rounds})`);
  if (!Number.isInteger(seconds) || seconds < 1) throw new OverheadUsageError(`seconds must be a whole number, 1 or more: wrk takes whole seconds (got ${seconds})`);
  const definitions = options.definitions || loadServerDefinitions();
  checkPairs(pairs, definitions);
  findBinary({ name: 'wrk', envVar: WRK_ENV_VAR }); // not installed: one line saying how to install it

  const pinning = planPinning({ want: options.pin !== false });
  const settings = { rounds, seconds, connections, path: PATH, pairs: pairs.map((p) => `${p.project}:${p.bare}`), modes: MODES.map((m) => m.name), warmup_s: WARMUP_S };
  const environment = collectEnvironment({ pinning, options: settings });
  environment.started_at = new Date().toISOString();
  // What each measured server runs on (doc.servers, and each runtime as results.json describes
  // it): a layer's cost on one runtime is not its cost on another.
  const measured = Object.fromEntries(pairs.flatMap((p) => [p.project, p.bare]).map((name) => [name, definitions[name]]));
  environment.runtimes = describeRuntimes(measured);
  if (pinning.enabled) pinProcess(process.pid, pinning.client_cpu); // wrk runs on this process's CPUs
  const dir = path.resolve(options.outDir || path.join(RESULTS_ROOT, `overhead-${folderStamp()}`));
  fs.mkdirSync(dir, { recursive: true });
  log(pinning.enabled ? `pinning: servers on CPU ${pinning.server_cpu}, wrk on CPU ${pinning.client_cpu}` : `pinning: off (${pinning.reason})`);
  log(`code: commit ${environment.project_commit ? environment.project_commit.slice(0, 7) : 'unknown'}${environment.project_dirty ? ' with uncommitted changes' : ''}`);
  const total = pairs.length * MODES.length * rounds * 2;
  log(`plan: ${pairs.length} pair${pairs.length > 1 ? 's' : ''} × ${MODES.length} modes × ${rounds} rounds × 2 servers = ${total} wrk runs of ${seconds} s (-c${connections}), plus warm-ups; about ${Math.ceil((total * seconds + pairs.length * 4 * WARMUP_S + pairs.length * 3) / 60)} min`);

  const measurements = [];
  let interrupted = false;
  let done = 0;
  for (const pair of pairs) {
    if (interrupted) break;
    const handles = {};
    try {
      for (const name of [pair.project, pair.bare]) {
        log(`${name}: starting (${definitions[name].description || definitions[name].command})`);
        handles[name] = await startServer(name, { definitions, cpu: pinning.enabled ? pinning.server_cpu : null });
        const check = await checkContract({ host: handles[name].host, port: handles[name].port }, [], { serves: ['hello'], short: true });
        if (!check.ok) throw new Error(`${name} does not answer GET /hello as the contract says: ${check.failure}`);
      }
      for (const mode of MODES) {
        for (const name of [pair.project, pair.bare]) {
          log(`${name}: warm-up, ${mode.name}, ${WARMUP_S} s`);
          await measure(handles[name], wrkScenario(mode, WARMUP_S, connections), signal);
        }
      }
      for (let round = 1; round <= rounds && !interrupted; round++) {
        const order = round % 2 === 1 ? [pair.project, pair.bare] : [pair.bare, pair.project];
        for (const mode of MODES) {
          for (const name of order) {
            if (signal && signal.aborted) {
              interrupted = true;
              break;
            }
            const m = await measure(handles[name], wrkScenario(mode, seconds, connections), signal);
            measurements.push({ pair: `${pair.project}:${pair.bare}`, server: name, role: name === pair.project ? 'project' : 'bare', mode: mode.name, round, ...m });
            done++;
            const errors = socketErrorTotal(m.socket_errors);
            log(`[${done}/${total}] round ${round} ${mode.name.padEnd(10)} ${name.padEnd(12)} ${fmtNumber(m.cpu_us_per_request, 'µs').padStart(7)} µs/req  ${fmtNumber(m.requests_per_sec, 'req/s').padStart(6)} req/s  server busy ${fmtNumber(m.server_busy_pct, 'count')}%${errors ? `  socket errors ${errors}` : ''}${m.client_bound ? '  (wrk-bound)' : ''}`);
          }
        }
      }
    } catch (err) {
      if (!err.aborted) throw err;
      interrupted = true;
    } finally {
      await Promise.all(Object.values(handles).map((h) => h.stop()));
    }
  }

  const rows = summarize(pairs, measurements);
  const lines = formatTable(rows);
  const servers = Object.fromEntries(Object.entries(measured).map(([name, def]) => [name, { runtime: def.runtime ?? null }]));
  const doc = { kind: 'overhead', environment: { ...environment, finished_at: new Date().toISOString() }, settings, servers, interrupted, rows, table: lines, measurements };
  const file = path.join(dir, 'overhead.json');
  writeFileAtomic(file, JSON.stringify(doc, null, 2) + '\n');
  return { dir, file, doc, lines, interrupted };
}

module.exports = { runOverhead, parsePair, summarize, formatTable, OverheadUsageError, DEFAULT_PAIRS, DEFAULTS, MODES };
