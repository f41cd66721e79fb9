'use strict';
// Where each server's time goes, as flame graphs: scripts/profile.sh is its command line.
//
// For each server of perf/servers.json asked for (default node_tuned, em_tuned), one after the
// other, each fresh: the server is started by startServer (its own arguments and environment,
// on the server CPU) under its runtime's profiler,
//   Node   node --cpu-prof --cpu-prof-dir DIR --cpu-prof-name SERVER.cpuprofile …: V8 samples
//          the main thread about every millisecond of wall time ("(idle)": the loop outside
//          JavaScript, perf/lib/studies/flame.js says what that holds); the profile is written when the process exits, which server.js does on
//          SIGTERM (process.exit: --cpu-prof writes on it, not on a death by signal);
//   Ruby   ruby -r ruby/em/profile.rb … (StackProf, raw, as scripts/profile_em.sh): samples
//          from SIGUSR1 on, cpu mode by default (on-CPU time, at the kernel's tick: 250 a
//          second on Debian), the dump written at exit;
// warmed up with wrk (not profiled), then loaded with wrk -t1 -cC -dN on the load generator's
// CPU while profiled: StackProf from SIGUSR1 sent just before wrk starts, V8 from the start,
// so its samples are cut to wrk's window (its timestamps are CLOCK_MONOTONIC µs, the clock of
// process.hrtime here): start-up and warm-up are left out of both. Then SIGTERM, and the raw
// profile is folded ("frame;frame;… count", perf/lib/studies/flame.js; StackProf's own
// `stackprof --stackcollapse`) and drawn as a flame graph. index.html shows them one above the
// other with each one's top self-time frames and its shares of GC and idle, beside how much
// of the time the server (and its main thread) was on CPU (/proc: what is really idle);
// profile.json holds the same as data.

const fs = require('node:fs');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { startServer, loadServerDefinitions } = require('../hosts/server_process');
const { planPinning, pinProcess } = require('../hosts/pinning');
const { collectEnvironment } = require('../run/environment');
const { readCpu, cpuDelta } = require('../measure/proc_stats');
const { writeFileAtomic, RESULTS_ROOT, folderStamp } = require('../store/results_store');
const { fmtNumber } = require('../text/format');
const { wrkEngine, plan: wrkPlan, ENV_VAR: WRK_ENV_VAR } = require('../engines/wrk');
const { findBinary, shellQuote } = require('../engines/external');
const { checkClientBound } = require('../run/bottleneck');
const flame = require('./flame');
const { PROJECT_ROOT } = require('../project_root');

const execFileAsync = promisify(execFile);

const WORKLOADS = {
  hello_keepalive: { path: '/hello', keep_alive: true, serves: 'hello', what: 'GET /hello, keep-alive' },
  hello_close: { path: '/hello', keep_alive: false, serves: 'hello', what: 'GET /hello, Connection: close, a connection per request' },
  lipsum: { path: '/lipsum100k.txt', keep_alive: true, serves: 'files', what: 'GET /lipsum100k.txt, 100 KB, keep-alive' },
};
const DEFAULT_SERVERS = ['node_tuned', 'em_tuned'];
const DEFAULTS = { workload: 'hello_keepalive', seconds: 10, warmup: 1, connections: 50, mode: 'cpu' };
const MAX_SECONDS = 3600;
const RUBY_MODES = ['cpu', 'wall'];
const PROFILE_RB = path.join(PROJECT_ROOT, 'ruby', 'em', 'profile.rb');
const TOP = 15;
// Time for a server to write its profile after SIGTERM before it is killed (and has none).
const STOP_GRACE_MS = 20000;

class ProfileUsageError extends Error {}

/** 'node' or 'ruby': which profiler a server's definition runs under; null when neither. */
function runtimeOf(def) {
  const base = path.basename(def.command || '');
  if (base === 'node' || base === 'nodejs') return 'node';
  if (base === 'ruby') return 'ruby';
  return null;
}

/** Every server must be defined, run on Node or Ruby, and serve the workload. */
function checkServers(servers, definitions, workload) {
  if (!servers.length) throw new ProfileUsageError('--servers names no server');
  const seen = new Set();
  for (const name of servers) {
    if (seen.has(name)) throw new ProfileUsageError(`server '${name}' is named twice`);
    seen.add(name);
    const def = definitions[name];
    if (!def) throw new ProfileUsageError(`unknown server '${name}' (known: ${Object.keys(definitions).join(', ')})`);
    if (!runtimeOf(def)) throw new ProfileUsageError(`server '${name}' runs '${def.command}': only servers run by node (V8's --cpu-prof) or ruby (StackProf) can be profiled`);
    const need = WORKLOADS[workload].serves;
    if (Array.isArray(def.serves) && !def.serves.includes(need)) throw new ProfileUsageError(`server '${name}' does not serve the ${workload} workload (${WORKLOADS[workload].what})`);
  }
}

/** The server's definition with its profiler added; its own arguments and environment kept. */
function profiledDefinition(def, runtime, files, mode) {
  if (runtime === 'node') {
    return { ...def, args: ['--cpu-prof', '--cpu-prof-dir', path.dirname(files.raw), '--cpu-prof-name', path.basename(files.raw), ...def.args] };
  }
  return {
    ...def,
    args: ['-r', PROFILE_RB, ...def.args],
    env: { ...(def.env || {}), STACKPROF_OUT: files.raw, STACKPROF_MODE: mode },
  };
}

function filesOf(dir, name, runtime) {
  const at = (ext) => path.join(dir, `${name}${ext}`);
  return {
    raw: at(runtime === 'node' ? '.cpuprofile' : '.stackprof.dump'),
    folded: at('.folded'),
    svg: at('.svg'),
    log: at('.server.log'),
  };
}

function wrkScenario(workload, seconds, connections) {
  const w = WORKLOADS[workload];
  return { name: workload, kind: 'closed', concurrency: connections, keep_alive: w.keep_alive, duration_s: seconds, timeout_s: 5, request: { method: 'GET', path: w.path, headers: {} } };
}

/** Nanoseconds the process's main thread (its tid is its pid) has run (schedstat), or null. */
function mainThreadNs(pid) {
  try {
    const ns = Number(fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]);
    return Number.isFinite(ns) ? ns : null;
  } catch {
    return null;
  }
}

function nowUs() {
  return Number(process.hrtime.bigint() / 1000n);
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Runs `bundle exec stackprof ARGS DUMP` from the project root; its stdout. */
async function stackprof(args, dump) {
  try {
    const { stdout } = await execFileAsync('bundle', ['exec', 'stackprof', ...args, dump], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, BUNDLE_GEMFILE: path.join(PROJECT_ROOT, 'Gemfile') },
      maxBuffer: 512 * 1024 * 1024,
    });
    return stdout;
  } catch (err) {
    const why = (err.stderr || '').trim().split('\n').filter(Boolean).slice(-1)[0] || err.message;
    throw new Error(`stackprof ${args.join(' ')} could not read ${dump}: ${why}`, { cause: err });
  }
}

/**
 * Folds a server's raw profile: { stacks, kinds, samples, note }. Node: the .cpuprofile's
 * samples in [from, to] (all of them, said in note, when none fall there); Ruby:
 * `stackprof --stackcollapse` and the frames' kinds from `stackprof --json`.
 */
async function foldProfile(runtime, rawFile, window) {
  if (runtime === 'node') {
    const profile = JSON.parse(fs.readFileSync(rawFile, 'utf8'));
    let folded = flame.foldCpuProfile(profile, { root: PROJECT_ROOT, from: window.from, to: window.to });
    let note = null;
    if (folded.samples === 0 && folded.samples_in_profile > 0) {
      folded = flame.foldCpuProfile(profile, { root: PROJECT_ROOT });
      note = 'no sample fell inside wrk\'s window (another clock?): every sample of the profile is shown, start-up included';
    }
    return { stacks: folded.stacks, kinds: folded.kinds, samples: folded.samples, note, sampler: `V8's sampler (node --cpu-prof), every ${folded.interval_us ? `${fmtNumber(folded.interval_us / 1000, 'ms')} ms` : '1 ms'} of wall time on the main thread; "(idle)": the event loop outside JavaScript, waiting in epoll but also reading sockets and parsing HTTP in C++` };
  }
  const [collapsed, json] = await Promise.all([stackprof(['--stackcollapse'], rawFile), stackprof(['--json'], rawFile)]);
  const data = JSON.parse(json);
  const stacks = flame.parseStackCollapse(collapsed);
  const kinds = flame.stackprofKinds(data, PROJECT_ROOT);
  const sampler = data.mode === 'wall'
    ? 'StackProf, wall mode: every millisecond of wall time, waiting in epoll included (inside EventMachine.run_machine)'
    : 'StackProf, cpu mode: on-CPU time only, at the kernel\'s tick (250 a second on Debian); the loop waiting takes no sample, so no sample is idle';
  return { stacks, kinds, samples: flame.totalSamples(stacks), note: null, sampler, mode: data.mode };
}

/**
 * Profiles each server in turn. options: { servers (default node_tuned, em_tuned), workload
 * (default hello_keepalive), seconds (default 10), warmup (seconds of unprofiled load first,
 * default 1), connections (default 50), mode (StackProf's: cpu or wall), pin (default true),
 * outDir (default perf/results/profiles/<UTC time>), definitions, signal, log }.
 * Resolves { dir, index, file, results, interrupted, failed }: results one per server that
 * finished, with its files, wrk's figures, samples, shares and top frames.
 */
async function runProfile(options = {}) {
  const servers = options.servers || DEFAULT_SERVERS;
  const workload = options.workload || DEFAULTS.workload;
  const seconds = options.seconds ?? DEFAULTS.seconds;
  const warmup = options.warmup ?? DEFAULTS.warmup;
  const connections = options.connections ?? DEFAULTS.connections;
  const mode = options.mode || DEFAULTS.mode;
  const log = options.log || (() => {});
  const signal = options.signal || null;
  if (!WORKLOADS[workload]) throw new ProfileUsageError(`unknown workload '${workload}' (known: ${Object.keys(WORKLOADS).join(', ')})`);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_SECONDS) throw new ProfileUsageError(`seconds must be a whole number from 1 to ${MAX_SECONDS}: wrk takes whole seconds (got ${seconds})`);
  if (!Number.isInteger(warmup) || warmup < 0 || warmup > MAX_SECONDS) throw new ProfileUsageError(`warm-up must be a whole number of seconds from 0 to ${MAX_SECONDS} (got ${warmup})`);
  if (!Number.isInteger(connections) || connections < 1) throw new ProfileUsageError(`connections must be a whole number, 1 or more (got ${connections})`);
  if (!RUBY_MODES.includes(mode)) throw new ProfileUsageError(`mode must be ${RUBY_MODES.join(' or ')} (got '${mode}')`);
  const definitions = options.definitions || loadServerDefinitions();
  checkServers(servers, definitions, workload);
  findBinary({ name: 'wrk', envVar: WRK_ENV_VAR }); // not installed: one line saying how to install it

  const dir = path.resolve(options.outDir || path.join(RESULTS_ROOT, 'profiles', folderStamp()));
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new Error(`cannot create ${dir}: ${err.code || err.message}; choose a writable folder with --out`, { cause: err });
  }
  const pinning = planPinning({ want: options.pin !== false });
  const settings = { servers, workload, request: WORKLOADS[workload].what, seconds, warmup_s: warmup, connections, ruby_mode: mode };
  const environment = collectEnvironment({ pinning, options: settings });
  environment.started_at = new Date().toISOString();
  if (pinning.enabled) pinProcess(process.pid, pinning.client_cpu); // wrk runs on this process's CPUs
  log(pinning.enabled ? `pinning: servers on CPU ${pinning.server_cpu}, wrk on CPU ${pinning.client_cpu}` : `pinning: off (${pinning.reason})`);
  log(`code: commit ${environment.project_commit ? environment.project_commit.slice(0, 7) : 'unknown'}${environment.project_dirty ? ' with uncommitted changes' : ''}`);
  log(`plan: ${servers.join(', ')}, one after the other, each fresh: ${WORKLOADS[workload].what}, wrk -c${connections}, ${warmup ? `${warmup} s warm-up then ` : ''}${seconds} s profiled; about ${Math.ceil(servers.length * (seconds + warmup + 4))} s`);
  log(`results: ${dir}`);

  const results = [];
  const failed = [];
  let interrupted = false;
  for (const [i, name] of servers.entries()) {
    if (signal && signal.aborted) {
      interrupted = true;
      break;
    }
    const step = `[${i + 1}/${servers.length}] ${name}`;
    const def = definitions[name];
    const runtime = runtimeOf(def);
    const files = filesOf(dir, name, runtime);
    for (const f of Object.values(files)) fs.rmSync(f, { force: true });
    const profiler = runtime === 'node' ? 'V8 (--cpu-prof)' : `StackProf (${mode} mode)`;
    let handle = null;
    let window = null;
    let wrk = null;
    let busy = { process_pct: null, main_thread_pct: null };
    try {
      log(`${step}: starting under ${profiler}: ${def.description || def.command}`);
      handle = await startServer(name, { definitions: { [name]: profiledDefinition(def, runtime, files, mode) }, cpu: pinning.enabled ? pinning.server_cpu : null });
      if (warmup > 0) {
        log(`${step}: pid ${handle.pid} ready on ${handle.url}; warm-up, ${warmup} s of load, not profiled`);
        await wrkEngine.run({ host: handle.host, port: handle.port, scenario: wrkScenario(workload, warmup, connections), signal });
      }
      if (runtime === 'ruby') {
        process.kill(handle.pid, 'SIGUSR1');
        await sleep(200); // the trap runs on the server's next pass through Ruby code
      }
      const scenario = wrkScenario(workload, seconds, connections);
      const p = wrkPlan(scenario, { host: handle.host, port: handle.port });
      log(`${step}: profiling under load: ${shellQuote(['wrk', ...p.args, p.url])}`);
      const cpuBefore = readCpu(handle.pid);
      const mainBefore = mainThreadNs(handle.pid);
      window = { from: nowUs(), to: null };
      wrk = await wrkEngine.run({ host: handle.host, port: handle.port, scenario, signal });
      // wrk measures its CPU; whether that made it the bottleneck is the judge's, as in a run.
      Object.assign(wrk, checkClientBound(wrk));
      window.to = nowUs();
      const mainAfter = mainThreadNs(handle.pid);
      const cpu = cpuDelta(cpuBefore, readCpu(handle.pid));
      const wallS = (window.to - window.from) / 1e6;
      busy = {
        process_pct: cpu ? Math.round((cpu.total_s / wallS) * 1000) / 10 : null,
        main_thread_pct: mainBefore !== null && mainAfter !== null ? Math.round(((mainAfter - mainBefore) / 1e9 / wallS) * 1000) / 10 : null,
      };
      const se = wrk.engine_errors;
      const errors = se.connect + se.read + se.write + se.timeout;
      log(`${step}: wrk ${fmtNumber(wrk.engine_totals.requests_per_sec, 'req/s')} req/s, ${fmtNumber(wrk.engine_totals.requests, 'count')} requests${errors ? `, socket errors ${errors} (connect ${se.connect}, read ${se.read}, write ${se.write}, timeout ${se.timeout})` : ', no socket errors'}${wrk.engine_totals.non_2xx_3xx ? `, ${wrk.engine_totals.non_2xx_3xx} replies ≥ 400` : ''}; on CPU: the server ${fmtNumber(busy.process_pct, 'count')}% of the time (all its threads), its main thread ${fmtNumber(busy.main_thread_pct, 'count')}%${wrk.client_bound ? ' (wrk used its whole CPU: the server was not the bottleneck)' : ''}`);
    } catch (err) {
      if (signal && signal.aborted) interrupted = true;
      else {
        failed.push({ server: name, error: err.message });
        log(`${step}: failed: ${err.message}`);
      }
    }
    if (handle) {
      log(`${step}: stopping (SIGTERM): the profiler writes ${path.basename(files.raw)}`);
      const exit = await handle.stop(STOP_GRACE_MS);
      fs.writeFileSync(files.log, handle.output() + '\n');
      if (exit.signal === 'SIGKILL') log(`${step}: did not exit within ${STOP_GRACE_MS / 1000} s of SIGTERM: killed`);
    }
    if (interrupted) {
      if (fs.existsSync(files.raw)) log(`${step}: interrupted: its raw profile is kept (${path.basename(files.raw)}), not folded`);
      break;
    }
    if (!wrk) continue;
    if (!fs.existsSync(files.raw) || fs.statSync(files.raw).size === 0) {
      const last = handle.output().split('\n').filter(Boolean).slice(-1)[0];
      const error = `no profile written (${path.basename(files.raw)})${last ? `: ${last}` : ''}`;
      failed.push({ server: name, error });
      log(`${step}: failed: ${error}`);
      continue;
    }
    try {
      log(`${step}: folding ${path.basename(files.raw)}${runtime === 'ruby' ? ' (stackprof --stackcollapse)' : ` (the ${fmtNumber((window.to - window.from) / 1e6, 's')} s of wrk's load)`}`);
      const folded = await foldProfile(runtime, files.raw, window);
      fs.writeFileSync(files.folded, flame.formatFolded(folded.stacks));
      const shares = flame.kindShares(folded.stacks, folded.kinds);
      const top = flame.selfTime(folded.stacks, folded.kinds, TOP);
      const subtitle = `${WORKLOADS[workload].what}; wrk -c${connections} ${seconds} s: ${fmtNumber(wrk.engine_totals.requests_per_sec, 'req/s')} req/s; ${folded.samples} samples; GC ${shares.gc_pct.toFixed(1)}%${runtime === 'node' ? `, (idle) ${shares.idle_pct.toFixed(1)}%` : ''}; on CPU ${fmtNumber(busy.process_pct, 'count')}% of the time`;
      const graph = flame.renderFlameGraph(folded.stacks, folded.kinds, { title: `${name}: ${profiler}`, subtitle });
      fs.writeFileSync(files.svg, graph.svg);
      log(`${step}: ${folded.samples} samples in ${folded.stacks.size} stacks → ${path.basename(files.folded)}, ${path.basename(files.svg)} (${graph.frames} frames)${folded.note ? `; ${folded.note}` : ''}`);
      results.push({
        server: name,
        description: def.description || null,
        runtime,
        mode: runtime === 'ruby' ? folded.mode : null,
        profiler,
        sampler: folded.sampler,
        note: folded.note,
        files: Object.fromEntries(Object.entries(files).map(([k, f]) => [k, path.basename(f)])),
        wrk: {
          command: wrk.engine_command,
          requests: wrk.engine_totals.requests,
          requests_per_sec: wrk.engine_totals.requests_per_sec,
          socket_errors: wrk.engine_errors,
          non_2xx_3xx: wrk.engine_totals.non_2xx_3xx,
          client_cpu_pct: wrk.client_cpu_pct,
          client_bound: wrk.client_bound,
        },
        on_cpu: busy,
        samples: folded.samples,
        stacks: folded.stacks.size,
        shares,
        top,
        svg: graph.svg,
      });
    } catch (err) {
      failed.push({ server: name, error: err.message });
      log(`${step}: failed: ${err.message}`);
    }
  }

  const doc = {
    kind: 'profile',
    environment: { ...environment, finished_at: new Date().toISOString() },
    settings,
    interrupted,
    failed,
    servers: results.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'svg'))),
  };
  const file = path.join(dir, 'profile.json');
  writeFileAtomic(file, JSON.stringify(doc, null, 2) + '\n');
  const index = path.join(dir, 'index.html');
  writeFileAtomic(index, indexHtml(doc, results));
  return { dir, index, file, results, interrupted, failed };
}

// ---------------------------------------------------------------------------------------------
// What is said about a server's shares (the summary lines and index.html)

function onCpuText(r) {
  return `the server was on CPU ${fmtNumber(r.on_cpu.process_pct, 'count')}% of the time, its main thread ${fmtNumber(r.on_cpu.main_thread_pct, 'count')}%`;
}

/** "GC 1.5%, idle …": GC's share of the samples, and what can be said of idle. */
function sharesText(r) {
  const gc = `GC ${r.shares.gc_pct.toFixed(1)}%`;
  if (r.runtime === 'node') return `${gc}, V8's "(idle)" ${r.shares.idle_pct.toFixed(1)}% (the loop outside JavaScript, not only waiting: ${onCpuText(r)})`;
  if (r.mode === 'wall') return `${gc}, idle not told apart (StackProf's wall mode counts waiting in EventMachine.run_machine; ${onCpuText(r)})`;
  return `${gc}, idle not sampled (StackProf's cpu mode; ${onCpuText(r)})`;
}

// ---------------------------------------------------------------------------------------------
// index.html

function pct(v) {
  return `${v < 10 ? v.toFixed(2) : v.toFixed(1)}%`;
}

/** The page: each server's flame graph (inline SVG), one above the other, with its tables. */
function indexHtml(doc, results) {
  const e = flame.escapeXml;
  const s = doc.settings;
  const env = doc.environment;
  const commit = env.project_commit ? `${env.project_commit.slice(0, 7)}${env.project_dirty ? ' with uncommitted changes' : ''}` : 'unknown';
  const pin = env.pinning && env.pinning.enabled ? `servers on CPU ${env.pinning.server_cpu}, wrk on CPU ${env.pinning.client_cpu}` : `not pinned${env.pinning && env.pinning.reason ? ` (${env.pinning.reason})` : ''}`;
  const legend = flame.KINDS.map((k) => `<span class="kind"><i style="background:${flame.frameColour(k, k)}"></i>${e(flame.KIND_LABELS[k])}</span>`).join(' ');
  const sections = results.map((r) => {
    const errors = r.wrk.socket_errors.connect + r.wrk.socket_errors.read + r.wrk.socket_errors.write + r.wrk.socket_errors.timeout;
    const byKind = flame.KINDS.filter((k) => r.runtime === 'node' || k !== 'idle').map((k) => `${e(flame.KIND_LABELS[k])} ${pct(r.shares.by_kind[k])}`).join(' · ');
    const rows = r.top.map((t, i) => `<tr><td class="n">${i + 1}</td><td class="frame"><i style="background:${flame.frameColour(t.frame, t.kind)}"></i>${e(t.frame)}</td><td>${e(t.kind)}</td><td class="n">${t.samples}</td><td class="n">${pct(t.pct)}</td></tr>`).join('\n');
    return `<section id="${e(r.server)}">
<h2>${e(r.server)} <small>${e(r.profiler)}</small></h2>
<p>${e(r.description || '')}</p>
<p class="figures"><b>wrk</b> ${fmtNumber(r.wrk.requests_per_sec, 'req/s')} req/s (${fmtNumber(r.wrk.requests, 'count')} requests${errors ? `, ${errors} socket errors` : ''}${r.wrk.non_2xx_3xx ? `, ${r.wrk.non_2xx_3xx} replies ≥ 400` : ''}${r.wrk.client_bound ? '; wrk used its whole CPU: the server was not the bottleneck' : ''}) ·
<b>${r.samples}</b> samples · <b>GC ${pct(r.shares.gc_pct)}</b> of them · <b>idle</b>: ${r.runtime === 'node' ? `V8's "(idle)" ${pct(r.shares.idle_pct)} of the samples, the loop outside JavaScript (waiting, but also reading sockets and parsing HTTP in C++)` : r.mode === 'wall' ? 'not told apart from the reactor\'s work (wall mode: inside EventMachine.run_machine)' : 'not sampled (cpu mode)'}; ${e(onCpuText(r))} (so ${fmtNumber(Math.max(0, 100 - (r.on_cpu.process_pct ?? 100)), 'count')}% of its CPU was left unused)</p>
<p class="small">Samples by the kind of the frame on top (self): ${byKind}. Sampler: ${e(r.sampler)}.${r.note ? ` <b>Note:</b> ${e(r.note)}.` : ''}</p>
<div class="graph">${r.svg.replace(/^<svg /, `<svg aria-label="flame graph of ${e(r.server)}" `)}</div>
<h3>Top ${r.top.length} frames by self time</h3>
<table><thead><tr><th>#</th><th>frame</th><th>kind</th><th>samples</th><th>of all samples</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<p class="small">Files: <a href="${e(r.files.svg)}">${e(r.files.svg)}</a> (the flame graph alone) · <a href="${e(r.files.folded)}">${e(r.files.folded)}</a> (folded stacks: flamegraph.pl, speedscope, inferno read them) · <a href="${e(r.files.raw)}">${e(r.files.raw)}</a> (the raw profile${r.runtime === 'node' ? ': Chrome DevTools\' Performance panel and speedscope open it' : ': BUNDLE_WITHOUT=test bundle exec stackprof FILE --text, --method NAME'}) · <a href="${e(r.files.log)}">${e(r.files.log)}</a></p>
</section>`;
  });
  const missing = [
    ...doc.failed.map((f) => `<p class="warn">${e(f.server)}: failed: ${e(f.error)}</p>`),
    doc.interrupted ? '<p class="warn">Interrupted: the servers not shown here were not profiled, or their raw profile is kept unfolded.</p>' : '',
  ].join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Profiles: ${e(s.servers.join(' vs '))}, ${e(s.workload)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 1240px; padding: 0 10px; color: #222 }
h1 { font-size: 1.35em } h2 { margin-top: 2em; border-bottom: 1px solid #ccc } h2 small { font-weight: normal; color: #666; font-size: 0.7em }
.small { font-size: 0.9em; color: #444 } .warn { color: #a00 }
.graph { overflow-x: auto } .graph svg { display: block }
table { border-collapse: collapse; font-size: 0.92em } th, td { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: left }
td.n { text-align: right; font-variant-numeric: tabular-nums } td.frame { font-family: ui-monospace, monospace; word-break: break-all }
i { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.4em; vertical-align: -0.1em; border: 1px solid #0002 }
.kind { margin-right: 1em; white-space: nowrap }
</style>
</head>
<body>
<h1>Where each server's time goes: ${e(s.workload)} (${e(s.request)})</h1>
<p>${e(s.servers.join(', '))}, one after the other, each started fresh on the server CPU; wrk -t1 -c${s.connections}, ${s.warmup_s ? `${s.warmup_s} s warm-up (not profiled), then ` : ''}${s.seconds} s profiled. Commit ${e(commit)}; ${e(pin)}; ${e(env.cpu_model || '')}, Node ${e(env.node)}, Ruby ${e(env.ruby || '?')}; ${e(env.started_at)}.</p>
<p class="small">How to read a flame graph: each box is a function; the one below it is its caller; its width is its share of the samples (time), whether spent in it (self) or in what it called. The order left to right is by name, not time. Hover a box for its numbers; click it to zoom, click "all" to zoom out.<br>
Colours: ${legend}<br>
Shares are of all samples in the profiled window. V8 samples wall time and calls "(idle)" the whole of the event loop's poll phase outside JavaScript: waiting in epoll, but also reading the sockets and parsing HTTP in C++, so a saturated server still shows it; how much of the time the server really ran is measured beside it (/proc: all its threads, and its main thread, where both runtimes run the loop). StackProf's cpu mode samples on-CPU time only, so no Ruby sample is idle; EventMachine.run_machine's self time is the reactor's C++ (epoll, accept, read, write). GC is what ran on the main thread (V8 does part of its marking and scavenging on helper threads, unseen here; Ruby's GC runs on the main thread).</p>
${missing}
${sections.join('\n')}
</body>
</html>
`;
}

module.exports = { runProfile, sharesText, checkServers, profiledDefinition, runtimeOf, foldProfile, indexHtml, ProfileUsageError, WORKLOADS, DEFAULT_SERVERS, DEFAULTS, RUBY_MODES, MAX_SECONDS };
