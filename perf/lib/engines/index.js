'use strict';
// The load engines, by name, and which one runs a scenario. Every engine has one interface:
//   supports(s)  whether it can run scenario s faithfully (external engines also say why not:
//                whyNot(s), and are marked `external`)
//   run(ctx)     ctx = { host, port, scenario, samples, signal, onProgress }; resolves with extra
//                fields for the run object
//   samplesOnSchedule(s)  (the engines of a schedule) whether each sample of scenario s starts
//                when its request was due, time zero the schedule's: a ramp step's rate is then
//                judged over its schedule (perf/lib/run/ramp.js stepOf)
// The built-in engines (this process, per-request samples) are chosen by scenario kind:
// autocannon (closed loops over keep-alive connections), sequential (a new connection per
// request), open_loop (connections on a schedule), constant_rate (requests on a schedule over
// keep-alive connections; rate_client, in C, wherever it is built: rateClientBuilt),
// slow_clients. httperf and wrk are external
// programs, used with --engine or to run a scenario again (perf/lib/run/lighter_engines.js);
// they keep no samples: run() resolves { summary, ...fields } and the summary stands in for the
// samples' statistics; client_cpu_pct is the engine process's own CPU (perf/ENGINES.md). tsung
// is external and distributed (ctx.loadHosts: perf/lib/hosts/load_hosts.js); it fills the
// samples with every request its load hosts made.
//
// --engine: 'autocannon' (the default) is the built-in choice: autocannon where it is faithful,
// the other built-in engines elsewhere. 'httperf' and 'wrk' run every scenario they can express
// faithfully; the others are skipped with a reason, never approximated.

const { autocannonEngine } = require('./autocannon');
const { sequentialEngine } = require('./sequential');
const { openLoopEngine } = require('./open_loop');
const { constantRateEngine } = require('./constant_rate');
const { slowClientsEngine } = require('./slow_clients');
const { httperfEngine } = require('./httperf');
const { wrkEngine } = require('./wrk');
const { tsungEngine } = require('./tsung');
const { rateClientEngine } = require('./rate_client');
const { findBinary } = require('./external');

const ENGINES = {
  autocannon: autocannonEngine,
  sequential: sequentialEngine,
  open_loop: openLoopEngine,
  constant_rate: constantRateEngine,
  rate_client: rateClientEngine,
  slow_clients: slowClientsEngine,
  httperf: httperfEngine,
  wrk: wrkEngine,
  tsung: tsungEngine,
};

const ENGINE_CHOICES = ['autocannon', 'httperf', 'wrk', 'tsung'];
const DEFAULT_ENGINE = 'autocannon';

/** The engine that runs scenario s: --engine's choice (s.engine), else the built-in one. */
function engineFor(s) {
  if (s.engine) return s.engine;
  if ((s.kind === 'rate' || s.ramp_step) && ENGINES.rate_client.supports(s) && rateClientBuilt()) return 'rate_client';
  const name = Object.keys(ENGINES).find((n) => !ENGINES[n].external && ENGINES[n].supports(s));
  if (!name) throw new Error(`no engine can run scenario '${s.name}'`);
  return name;
}

/**
 * Whether the C rate_client is built here. It then sends every scenario of kind rate and every
 * ramp step (about half the CPU a request of constant_rate and open_loop, which send them
 * otherwise with the same schedule and samples: a ramp reaches where a server saturates before
 * the load generator does). The seed scenarios of kind open (20-200 connections a second) keep
 * open_loop, whose runs their cross-checks and verdicts were made with.
 */
function rateClientBuilt() {
  return whyNotInstalled('rate_client') === null;
}

/** The one line a run with scenarios of kind rate or ramps prints when rate_client is not built, or null. */
function rateClientLine(needed) {
  if (!needed || rateClientBuilt()) return null;
  return `rate_client: the built-in Node engines send kind rate and the ramps' steps, at about twice its CPU a request, so a ramp may find the load generator's limit before a server's (${whyNotInstalled('rate_client')})`;
}

/** Why an external engine cannot be started here (its binary is missing), or null. */
function whyNotInstalled(engine) {
  try {
    if (ENGINES[engine].binary) ENGINES[engine].binary();
    else findBinary({ name: engine, envVar: ENGINES[engine].envVar });
    return null;
  } catch (err) {
    return err.message;
  }
}

function usageError(message) {
  const err = new Error(message);
  err.usage = true; // perf/cli/run.js prints it with the usage line, exit 2
  return err;
}

/**
 * Applies --engine to loaded scenarios. Returns { scenarios, skipped: [{ engine, scenario,
 * reason }] }; each kept scenario of an external engine is a copy with `engine` set (engineFor
 * honours it). Throws a usage error for an unknown engine or when the engine can run none of
 * the scenarios.
 */
function selectEngine(scenarios, engine) {
  const name = engine || DEFAULT_ENGINE;
  if (!ENGINE_CHOICES.includes(name)) throw usageError(`unknown engine '${name}' (known: ${ENGINE_CHOICES.join(', ')})`);
  if (name === DEFAULT_ENGINE) return { scenarios, skipped: [] };
  const def = ENGINES[name];
  const kept = [];
  const skipped = [];
  for (const s of scenarios) {
    const reason = def.whyNot(s);
    if (reason) skipped.push({ engine: name, scenario: s.name, reason });
    else kept.push({ ...s, engine: name });
  }
  if (!kept.length) {
    throw usageError(`--engine ${name} can run none of the selected scenarios (${skipped.map((k) => `${k.scenario}: ${k.reason}`).join('; ')})`);
  }
  return { scenarios: kept, skipped };
}

/** One line per skipped scenario, for the log. */
function skippedLine(k) {
  return `${k.engine}: skips ${k.ramp ? 'the ramp ' : ''}${k.scenario} (cannot run it faithfully: ${k.reason})`;
}

module.exports = { ENGINES, ENGINE_CHOICES, DEFAULT_ENGINE, engineFor, rateClientBuilt, rateClientLine, whyNotInstalled, selectEngine, skippedLine };
