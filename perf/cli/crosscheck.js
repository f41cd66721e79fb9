#!/usr/bin/env node
'use strict';
// Command line of the cross-check (scripts/crosscheck.sh runs setup --engines, then this):
// the chosen scenarios on each server with two load generators, N trials each, and a table of
// where they agree and where they differ. Library: perf/lib/judge/crosscheck.js; what the engines'
// numbers mean: perf/ENGINES.md.
//   exit 0   the comparison was written (agreements and differences are findings, not errors)
//   exit 1   a run failed (left out of the comparison), or an error (one line)
//   exit 2   bad usage          exit 130 / 143   interrupted (the finished trials are compared)

const fs = require('node:fs');
const path = require('node:path');
const { Command, Option, InvalidArgumentError } = require('commander');
const { shownPath, commaList, oneLineErrors, exitOnError, parseCommandLine, runMain, stopOnSignals } = require('./support');
const { runCrosscheck, rebuildCrosscheck } = require('../lib/studies/crosscheck_run');
const { finishLiveRuns } = require('../lib/run/runner');
const { ScenarioError } = require('../lib/plan/scenarios');

const NAME = 'crosscheck.sh';

function repeatCount(value) {
  if (!/^\d+$/.test(value) || Number(value) < 2) throw new InvalidArgumentError('must be a whole number, 2 or more.');
  return Number(value);
}

function usageLine() {
  return `usage: ${NAME} [--scenarios a,b] [--scenarios-dir DIR] [--engines autocannon,httperf] [--load-hosts netns:N] [--servers node,em] [--repeat N] [--quick] [--out DIR] [--no-pin] [--help]`;
}

function buildProgram() {
  return oneLineErrors(new Command(NAME))
    .description('Runs scenarios with two load generators on each server and reports where they agree and where they differ, beyond the spread of the trials.')
    .option('--scenarios <list>', 'comma-separated scenarios (default: every scenario both engines can run faithfully)', commaList)
    .option('--scenarios-dir <dir>', 'read the scenarios from this folder\'s JSON files instead of perf/scenarios/ (the runner\'s --scenarios-dir)')
    .option('--engines <list>', 'the two engines: autocannon (built-in engines), httperf, wrk, tsung (default: autocannon,httperf)', commaList)
    .option('--load-hosts <list>', 'where tsung runs its load (the runner\'s --load-hosts; default netns:2, two hosts made on this machine)')
    .option('--servers <list>', 'comma-separated servers (default: node,em)', commaList)
    .option('--repeat <n>', 'trials per engine, server and scenario (default: 3, or 2 with --quick)', repeatCount)
    .option('--quick', 'counts ÷20, rates kept (the runner\'s --quick)')
    .option('--out <dir>', 'where to write (default: perf/results/crosscheck-<UTC timestamp>)')
    .option('--no-pin', 'do not pin the server and the load generator to separate CPUs')
    .addOption(new Option('--servers-file <file>', 'server definitions (default perf/servers.json)').hideHelp())
    .addOption(new Option('--rebuild <dir>', 're-compute the comparison of an earlier cross-check from its saved runs').hideHelp());
}

async function main(argv) {
  const program = buildProgram();
  const parsed = parseCommandLine(program, argv, NAME, usageLine());
  if (parsed !== null) return parsed;
  const opts = program.opts();
  // A second Ctrl-C records the trial in progress as interrupted before the command exits.
  const stop = stopOnSignals(NAME, 'the finished trials are compared', finishLiveRuns);

  try {
    if (opts.rebuild) {
      const rebuilt = rebuildCrosscheck(opts.rebuild);
      process.stdout.write(rebuilt.text);
      return 0;
    }
    if (opts.serversFile && !fs.existsSync(path.resolve(opts.serversFile))) {
      const e = new Error(`cannot read server definitions ${opts.serversFile}: ENOENT`);
      e.usage = true;
      throw e;
    }
    const result = await runCrosscheck({
      engines: opts.engines,
      servers: opts.servers,
      scenarios: opts.scenarios || null,
      scenariosDir: opts.scenariosDir ? path.resolve(opts.scenariosDir) : null,
      repeat: opts.repeat,
      quick: !!opts.quick,
      outDir: opts.out || null,
      pin: opts.pin,
      loadHosts: opts.loadHosts || null,
      serversFile: opts.serversFile ? path.resolve(opts.serversFile) : null,
      signal: stop.signal,
      log: (line) => process.stdout.write(line + '\n'),
    });
    process.stdout.write('\n' + result.text + '\n');
    const shown = shownPath(result.dir);
    process.stdout.write(`crosscheck: ${path.join(shown, 'crosscheck.md')} (also .json, .txt; the runs under ${path.join(shown, 'runs')})\n`);
    if (result.interrupted) return stop.exitCode();
    return result.failures.length ? 1 : 0;
  } catch (err) {
    return exitOnError(err, { name: NAME, usageLine: usageLine(), isUsage: (e) => e.usage || e instanceof ScenarioError, stop });
  }
}

if (require.main === module) runMain(main, NAME);

module.exports = { main, buildProgram };
