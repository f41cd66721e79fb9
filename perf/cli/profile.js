#!/usr/bin/env node
'use strict';
// Command line of the profiles (scripts/profile.sh runs setup --lighter-engines, then this):
// each server under its runtime's profiler (V8's --cpu-prof, StackProf) on the same wrk
// workload, one after the other, folded and drawn as flame graphs, with index.html showing
// them one above the other. Library: perf/lib/studies/profile.js (and flame.js).
//   exit 0   every server was profiled      exit 1   an error, or a server failed (one line each)
//   exit 2   bad usage                      exit 130 / 143   interrupted (what was written is kept)

const { Command, InvalidArgumentError, Option } = require('commander');
const { shownPath, wholeNumber, readDefinitions, commaList, oneLineErrors, exitOnError, parseCommandLine, runMain, stopOnSignals } = require('./support');
const { runProfile, sharesText, ProfileUsageError, WORKLOADS, DEFAULT_SERVERS, DEFAULTS, RUBY_MODES, MAX_SECONDS } = require('../lib/studies/profile');

const NAME = 'profile.sh';

function oneOf(names) {
  return (value) => {
    if (!names.includes(value)) throw new InvalidArgumentError(`must be one of ${names.join(', ')} (got '${value}').`);
    return value;
  };
}

function usageLine() {
  return `usage: ${NAME} [--servers ${DEFAULT_SERVERS.join(',')}] [--workload ${Object.keys(WORKLOADS).join('|')}] [--seconds N] [--warmup N] [--connections N] [--mode cpu|wall] [--out DIR] [--no-pin] [--help]`;
}

function buildProgram() {
  return oneLineErrors(new Command(NAME))
    .description('Where each server\'s time goes: each server profiled (Node: V8\'s --cpu-prof; Ruby: StackProf) under the same wrk load, one after the other, drawn as flame graphs (SERVER.svg, SERVER.folded, the raw profile) and index.html with both, their top self-time frames and their shares of GC and idle.')
    .option('--servers <list>', `servers of perf/servers.json run by node or ruby, comma-separated (default ${DEFAULT_SERVERS.join(',')})`, commaList)
    .option('--workload <name>', `${Object.entries(WORKLOADS).map(([k, w]) => `${k} (${w.what})`).join('; ')} (default ${DEFAULTS.workload})`, oneOf(Object.keys(WORKLOADS)))
    .option('--seconds <n>', `profiled load per server (default ${DEFAULTS.seconds})`, wholeNumber(1, MAX_SECONDS))
    .option('--warmup <n>', `seconds of load before profiling, not profiled (default ${DEFAULTS.warmup}; 0: none)`, wholeNumber(0, MAX_SECONDS))
    .option('--connections <n>', `wrk connections (default ${DEFAULTS.connections})`, wholeNumber(1, 100000))
    .option('--mode <mode>', `StackProf's mode for Ruby servers: cpu (on-CPU time) or wall (default ${DEFAULTS.mode})`, oneOf(RUBY_MODES))
    .option('--out <dir>', 'where to write the files (default perf/results/profiles/<UTC time>)')
    .option('--no-pin', 'do not pin the servers and wrk to separate CPUs')
    .addOption(new Option('--servers-file <file>', 'server definitions (default perf/servers.json)').hideHelp())
    .addHelpText('after', `
Examples:
  scripts/${NAME}
  scripts/${NAME} --servers node,em --workload hello_close --seconds 5
Exit status: 0 every server was profiled, 1 an error or a server failed, 2 bad usage, 130/143 interrupted.`);
}

async function main(argv) {
  const program = buildProgram();
  const parsed = parseCommandLine(program, argv, NAME, usageLine());
  if (parsed !== null) return parsed;
  const opts = program.opts();
  const stop = stopOnSignals(NAME, 'the servers are stopped, what was written is kept');
  const log = (line) => process.stdout.write(line + '\n');

  try {
    const result = await runProfile({
      definitions: readDefinitions(opts.serversFile),
      servers: opts.servers,
      workload: opts.workload,
      seconds: opts.seconds,
      warmup: opts.warmup,
      connections: opts.connections,
      mode: opts.mode,
      pin: opts.pin,
      outDir: opts.out || null,
      signal: stop.signal,
      log,
    });
    for (const r of result.results) {
      log('');
      log(`${r.server}: ${r.samples} samples; ${sharesText(r)}; top self time:`);
      for (const t of r.top.slice(0, 8)) log(`  ${t.pct.toFixed(1).padStart(5)}%  ${t.frame}  (${t.kind})`);
    }
    log('');
    log(`flame graphs: ${shownPath(result.index)}`);
    if (result.interrupted) return stop.exitCode() ?? 130;
    if (result.failed.length) {
      for (const f of result.failed) process.stderr.write(`${NAME}: ${f.server}: ${f.error}\n`);
      return 1;
    }
    return 0;
  } catch (err) {
    return exitOnError(err, { name: NAME, usageLine: usageLine(), isUsage: (e) => e instanceof ProfileUsageError || e.usage, stop });
  }
}

if (require.main === module) runMain(main, NAME);

module.exports = { main, buildProgram };
