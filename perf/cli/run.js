#!/usr/bin/env node
'use strict';
// Command line of the scenario runner (scripts/run_scenarios.sh runs setup, then this).
// A thin shell over perf/lib/run/runner.js: options, progress on the terminal, signals, exit codes.
//   exit 0   every run ok            exit 1   some run failed, or an error (one line), or a
//                                             file asked for (results, summary, report) not written
//   exit 2   bad option or name      exit 130 / 143  interrupted by SIGINT / SIGTERM

const path = require('node:path');
const { Command, Option, InvalidArgumentError } = require('commander');
const { shownPath, readDefinitions, commaList, oneLineErrors, exitOnError, parseCommandLine, runMain, stopOnSignals } = require('./support');
const { runScenarios, finishLiveRuns } = require('../lib/run/runner');
const { UsageError } = require('../lib/plan/run_plan');
const { headlineServers } = require('../lib/plan/questions');
const { selectEngine, engineFor, ENGINE_CHOICES, DEFAULT_ENGINE } = require('../lib/engines');
const { loadScenarios, ScenarioError, QUICK_FACTOR, MAX_WARMUP_S, DEFAULT_WARMUP_S } = require('../lib/plan/scenarios');
const { loadRamps } = require('../lib/plan/ramps');
const { DEFAULT_TRIALS } = require('../lib/plan/trial_plan');
const { systemCause } = require('../lib/store/results_store');
const { buildReport } = require('../lib/report');
const { DEFAULT_MARGIN } = require('../lib/method');
const { referenceTargets } = require('../lib/hosts/runtimes');
const { archiveRun, decidingOdds, betweenRunSpread } = require('../lib/studies/archive');
const { summarizeRun } = require('../lib/studies/run_summary');

/**
 * Whether the command line asks for the full run, the one the archive pools: every default
 * scenario, ramp and server of perf/servers.json, on this machine, not a quick one.
 */
function isFullRun(opts) {
  const chosen = ['quick', 'servers', 'scenarios', 'ramps', 'seeds', 'references', 'target', 'link', 'loadHosts', 'serversFile', 'repeat', 'slo', 'rampRepeat', 'nofile'];
  return chosen.every((k) => opts[k] === undefined || opts[k] === false) && opts.tuned !== false && opts.held !== false && opts.engine === DEFAULT_ENGINE;
}

const NAME = 'run_scenarios.sh';
// Past this, "the same" would say little: a margin of 50 % calls a 1.5× gap a tie.
const MAX_MARGIN_PCT = 50;

function positiveInt(value) {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number, 1 or more.');
  return Number(value);
}

function warmupSeconds(value) {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n > MAX_WARMUP_S) throw new InvalidArgumentError(`must be a number of seconds from 0 (none) to ${MAX_WARMUP_S}.`);
  return n;
}

// --budget: what --quick and a full run measure for, by default. A quick run's is the whole
// run's, its ramps included: with the set-up and the servers' starts, about 3 minutes (4 on a
// fresh machine, which installs first). A full run's is its paired rounds'; its ramps and the
// held-count search come after.
const DEFAULT_BUDGET_S = { quick: 165, full: 1200 };
const BUDGET_UNITS = { s: 1, sec: 1, min: 60, m: 60, h: 3600 };

/** "3min", "90s", "1.5h", "200" (seconds) → seconds. */
function budgetSeconds(value) {
  const m = /^(\d+(?:\.\d+)?)\s*(s|sec|m|min|h)?$/.exec(String(value).trim());
  const s = m ? Number(m[1]) * BUDGET_UNITS[m[2] || 's'] : NaN;
  if (!(s >= 10 && s <= 24 * 3600)) throw new InvalidArgumentError('must be a time from 10 s to 24 h, e.g. 3min, 90s or 1h.');
  return s;
}

function marginPercent(value) {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0) || n > MAX_MARGIN_PCT) throw new InvalidArgumentError(`must be a percentage above 0 and at most ${MAX_MARGIN_PCT}.`);
  return n / 100;
}

function buildProgram() {
  const program = new Command(NAME)
    .description('Benchmarks each server (perf/servers.json) with every scenario (perf/scenarios/*.json) and writes results.json, per-request samples and a summary table.')
    .option('--quick', `the headline questions (perf/questions.json) only, at smaller counts and durations (÷${QUICK_FACTOR}, or the scenario's and ramp's own quick values), rates kept: as many as its budget buys, in the order that likely decides the most per second, on each runtime's defaults; about three minutes`)
    .option('--servers <list>', `comma-separated servers to benchmark (default: ${headlineServers(readDefinitions()).join(',')}, the contenders of perf/questions.json, and in a full run each tuned as its users would tune it too where that tuning was measured on the runtime it runs on: perf/servers.json tuned_of)`, commaList)
    .option('--tuned', 'also the tuned configurations of the servers named (perf/servers.json tuned_of; the default when no servers are named)')
    .option('--no-tuned', 'no tuned configurations: each runtime with its defaults only')
    .option('--scenarios <list>', 'comma-separated scenarios to run (default: all)', commaList)
    .option('--scenarios-dir <dir>', 'read the scenarios from this folder\'s JSON files instead of perf/scenarios/ (your own, in the same format: perf/REFERENCE.md, "Scenarios")')
    .option('--budget <time>', `measuring time for the paired rounds (all servers up, alternating in a random order), spent where a comparison is still undecided, e.g. 10min; with --quick the ramps' time too (default: ${DEFAULT_BUDGET_S.quick / 60} min with --quick, ${DEFAULT_BUDGET_S.full / 60} min without)`, budgetSeconds)
    .option('--repeat <n>', `instead of a budget, a fixed number of trials per server and scenario, each server started afresh for each, servers interleaved (${DEFAULT_TRIALS} where rounds cannot be used: one server, --target, --link, --load-hosts)`, positiveInt)
    .option('--ramps <list>', 'comma-separated ramps (perf/ramps/*.json) to run after the scenarios, each server\'s rate raised until it no longer holds the objective; none: no ramps (default: all, with --quick those of the headline questions its budget buys, at their quick values; none with --scenarios or --seeds; not with --target)', commaList)
    .option('--slo <objective>', 'the ramps\' latency objective, a percentile and a time (default: p99=10ms)')
    .option('--ramp-repeat <n>', 'searches per server and ramp, their spread the sustainable rate\'s interval (default: 3; 4 with --quick; with 1 the search\'s bracket is its resolution, and no interval)', positiveInt)
    .option('--held', 'after the ramps, search the most waiting requests (GET /delay) each server holds at p99 ≤ wait + 10 ms, even with --scenarios (default: in a run of the default scenarios)')
    .option('--no-held', 'no held-count search')
    .option('--references', 'also run the reference servers of those benchmarked (perf/servers.json reference_for: node_bare, em_bare, async_bare, nginx, and async, the hand-written server on em\'s request gate)')
    .option('--seeds', 'reproduce every seed study\'s headline comparison (perf/seeds.json): Apache, libevent, libevhtp, nginx, Node and EventMachine, each on its seeds\' scenarios (the plan line says how long it takes)')
    .option('--margin <percent>', `how close two servers must be to be called the same: the whole 95 % interval of their ratio within ±PERCENT (default: ${DEFAULT_MARGIN * 100})`, marginPercent)
    .option('--warmup <seconds>', `warm-up load before every run, not counted, overriding the scenarios' warmup_s (default: ${DEFAULT_WARMUP_S} s, 1 s with --quick; 0: none)`, warmupSeconds)
    .option('--target <url>', 'benchmark a server already running at http://HOST:PORT (not started or stopped; its CPU and memory are not measured); name it with --servers NAME')
    .option('--link <rate>', 'run the servers in a network namespace behind a veth pair limited to RATE each way with tbf (e.g. 54mbit, the seed study\'s wireless link); needs root')
    .addOption(new Option('--engine <name>', 'load generator: autocannon (the built-in engines), httperf, wrk, or tsung (from --load-hosts); scenarios an engine cannot run faithfully are skipped (perf/ENGINES.md)').choices(ENGINE_CHOICES).default(DEFAULT_ENGINE))
    .option('--load-hosts <list>', 'where --engine tsung runs its load: netns:N (N hosts made on this machine, each a network namespace with an ssh daemon; needs root) or HOST,HOST,… (machines reachable by ssh with Tsung installed, against --target)')
    .option('--out <dir>', 'results directory (default: perf/results/<UTC timestamp>, and perf/results/latest points at it)')
    .option('--list', 'list the scenarios and servers, then exit')
    .option('--no-pin', 'do not pin the server and the load generator to separate CPUs')
    .option('--no-report', 'do not build report.html (npm run report -- DIR builds it later)')
    .option('--no-archive', 'do not add a full run\'s record to results/archive/ (the archive the answers across runs are pooled from)')
    .option('--no-lighter-engines', 'do not run scenarios again with httperf or wrk where they are the lighter load generator (the verdicts then come from the built-in engines)')
    .addOption(new Option('--servers-file <file>', 'server definitions (default perf/servers.json)').hideHelp())
    .addOption(new Option('--nofile <n>', 'set the open-files limit of the load generator and the servers to N (soft and hard) instead of raising it as the scenarios need; scenarios it cannot hold are skipped in one line').argParser(positiveInt).hideHelp())
    .addOption(new Option('--results-root <dir>', 'where results folders and latest go without --out (default perf/results)').hideHelp())
    .showHelpAfterError(false);
  oneLineErrors(program);
  program.addHelpText(
    'after',
    `
Examples:
  scripts/${NAME} --quick
  scripts/${NAME} --servers node --scenarios sequential_6000,concurrent_2000_20
  scripts/${NAME} --quick --references
  scripts/${NAME} --seeds
  scripts/${NAME} --engine tsung --load-hosts netns:2 --quick --scenarios concurrent_2000_100,keepalive_400x100
Exit status: 0 all runs ok, 1 a run failed or an error, 2 bad usage, 130/143 interrupted.`,
  );
  return program;
}

function usageLine() {
  return `usage: ${NAME} [--quick] [--servers node,em] [--tuned | --no-tuned] [--scenarios a,b] [--scenarios-dir DIR] [--budget TIME | --repeat N] [--ramps a,b|none] [--slo p99=10ms] [--ramp-repeat N] [--held | --no-held] [--margin PERCENT] [--warmup SECONDS] [--references | --seeds] [--engine autocannon|httperf|wrk|tsung] [--load-hosts netns:N|HOST,…] [--no-lighter-engines] [--target URL | --link RATE] [--out DIR] [--list] [--no-pin] [--help]`;
}

function printList(opts, definitions) {
  const all = loadScenarios({ dir: opts.scenariosDir ?? null, quick: !!opts.quick });
  const { scenarios, skipped } = selectEngine(all, opts.engine);
  const out = [`scenarios${opts.quick ? ' (with --quick)' : ''}:`];
  for (const s of all) {
    const chosen = scenarios.find((x) => x.name === s.name);
    out.push(`  ${s.name.padEnd(22)} ${(chosen ? engineFor(chosen) : 'skipped').padEnd(12)} ${chosen ? s.description : skipped.find((k) => k.scenario === s.name).reason}`);
  }
  out.push(`ramps${opts.quick ? ' (with --quick)' : ''}, after the scenarios (--ramps):`);
  for (const r of loadRamps({ quick: !!opts.quick })) out.push(`  ${r.name.padEnd(22)} ${`${r.from_rps}-${r.to_rps}/s`.padEnd(12)} ${r.description}`);
  out.push('servers (SERVER@RUNTIME: the same server on another runtime of perf/runtimes.json, e.g. em@ruby31):');
  for (const [name, def] of Object.entries(definitions)) {
    const targets = referenceTargets(name, definitions);
    const refFor = targets.length ? [`reference for ${targets.join(', ')} (--references)`] : [];
    const notes = [...(def.runtime ? [`on ${def.runtime}`] : []), ...(Array.isArray(def.serves) ? [`serves ${def.serves.join(', ')}`] : []), ...refFor];
    out.push(`  ${name.padEnd(22)} ${def.description || def.command}${notes.length ? ` [${notes.join('; ')}]` : ''}`);
  }
  process.stdout.write(out.join('\n') + '\n');
}

async function main(argv) {
  const program = buildProgram();
  const parsed = parseCommandLine(program, argv, NAME, usageLine());
  if (parsed !== null) return parsed;
  const opts = program.opts();

  const tty = process.stdout.isTTY;
  let statusShown = false;
  const clearStatus = () => {
    if (statusShown) process.stdout.write('\r\x1b[K');
    statusShown = false;
  };
  const log = (line) => {
    clearStatus();
    process.stdout.write(line + '\n');
  };
  const status = (text) => {
    if (!tty) {
      if (text && / running/.test(text)) process.stdout.write(text + '\n');
      return;
    }
    clearStatus();
    if (text) {
      process.stdout.write(text.slice(0, (process.stdout.columns || 100) - 1));
      statusShown = true;
    }
  };

  // The terminal's answers widened by the archive's between-run spread, where it has one.
  let spreadOf = null;
  // The run judged once (perf/lib/studies/run_summary.js): its summaries written, its answers
  // printed, where the results are, and in one line what stopped the run or was not written.
  // Returns the judged results, which the report and the archive read, and every file unwritten.
  const reportEnd = (ended) => {
    const summary = summarizeRun(ended.decoded, { spreadOf });
    process.stdout.write('\n' + summary.summaryText + '\n');
    const all = [...ended.unwritten, ...summary.unwritten];
    const unwritten = all.map((u) => u.name);
    if (!unwritten.includes('results.json')) process.stdout.write(`results: ${shownPath(ended.resultsFile)}\n`);
    if (ended.error || unwritten.length) {
      const what = ended.error ? `stopped: ${ended.error}` : all[0].message;
      const also = ended.error ? unwritten : unwritten.slice(1);
      process.stderr.write(`${NAME}: ${what}${also.length ? `; not written: ${also.join(', ')}` : ''}${opts.report ? '; report.html not built' : ''}\n`);
    }
    return { results: summary.results, unwritten: all };
  };

  // Second signal: stop at once, without orphans, but record what finished.
  const stop = stopOnSignals(NAME, 'finished runs are kept and summarised', () => {
    clearStatus();
    for (const ended of finishLiveRuns()) reportEnd(ended);
  });

  try {
    const definitions = readDefinitions(opts.serversFile);
    spreadOf = betweenRunSpread({ definitions });
    if (opts.list) {
      printList(opts, definitions);
      return 0;
    }
    // What to run; perf/lib/plan/run_plan.js resolves it into the run's plan.
    const result = await runScenarios({
      servers: opts.servers || null,
      references: !!opts.references,
      seeds: !!opts.seeds,
      scenarios: opts.scenarios || null,
      scenariosDir: opts.scenariosDir ? path.resolve(opts.scenariosDir) : null,
      ramps: opts.ramps ? (opts.ramps.length === 1 && opts.ramps[0] === 'none' ? [] : opts.ramps) : null,
      slo: opts.slo ?? null,
      rampRepeat: opts.rampRepeat ?? null,
      held: opts.held,
      tuned: opts.tuned,
      nofile: opts.nofile ?? null,
      repeat: opts.repeat ?? null,
      budget: opts.budget ?? (opts.repeat ? null : DEFAULT_BUDGET_S[opts.quick ? 'quick' : 'full']),
      warmup: opts.warmup ?? null,
      margin: opts.margin ?? DEFAULT_MARGIN,
      target: opts.target || null,
      link: opts.link || null,
      loadHosts: opts.loadHosts ?? null,
      engine: opts.engine,
      lighterEngines: opts.lighterEngines,
      quick: !!opts.quick,
      // A quick run's order: how many answers one run likely decides of each headline question, from the archive.
      decides: opts.quick ? decidingOdds({ servers: opts.servers || null, definitions }) : null,
      outDir: opts.out || null,
      resultsRoot: opts.resultsRoot ? path.resolve(opts.resultsRoot) : null,
      pin: opts.pin,
      definitions,
      signal: stop.signal,
      log,
      status,
    });
    clearStatus();
    const { results, unwritten } = reportEnd(result);
    let reportFailed = false;
    const incomplete = result.error || unwritten.length;
    if (opts.report && !incomplete) {
      // Built from the saved files alone, as `npm run report` would (judged once, above);
      // interrupted runs included.
      try {
        const report = await buildReport(result.dir, { results, log: (m) => status(`report: ${m}`) });
        clearStatus();
        process.stdout.write(`report:  ${shownPath(report.reportPath)} (open it in a browser)\n`);
      } catch (err) {
        clearStatus();
        reportFailed = true;
        const cause = err.syscall ? `${systemCause(err)}${err.path ? ` (${err.path})` : ''}` : err.message;
        process.stderr.write(`${NAME}: report not written in ${shownPath(result.dir)}: ${cause}; results.json is intact: npm run report -- ${shownPath(result.dir)} builds the report once that is fixed\n`);
      }
    }
    if (opts.archive && !incomplete && !result.interrupted && isFullRun(opts)) {
      try {
        const file = archiveRun(result.dir, { results });
        process.stdout.write(`archive: ${shownPath(file)} (npm run answers -- --write puts the answers across runs into README.md and docs/answers.md)\n`);
      } catch (err) {
        process.stderr.write(`${NAME}: not added to the archive: ${err.message}; npm run archive -- add ${shownPath(result.dir)} adds it once that is fixed\n`);
      }
    }
    if (result.interrupted) return stop.exitCode();
    if (incomplete || reportFailed) return 1;
    return result.runs.every((r) => r.ok) ? 0 : 1;
  } catch (err) {
    clearStatus();
    // A mistake in a scenario file: its one line names the file and the field; no usage.
    if (err instanceof ScenarioError && !err.usage) {
      process.stderr.write(`${NAME}: ${err.message}\n`);
      return 2;
    }
    return exitOnError(err, { name: NAME, usageLine: usageLine(), isUsage: (e) => e instanceof UsageError || e.usage, stop });
  }
}

if (require.main === module) runMain(main, NAME);

module.exports = { main, buildProgram };
