#!/usr/bin/env node
'use strict';
// Command line of the layer-cost measurement (scripts/overhead.sh runs setup --engines, then
// this): each project server against its bare runtime on GET /hello, keep-alive and close,
// in interleaved rounds; prints the table and writes it as overhead.json. Library:
// perf/lib/studies/overhead.js.
//   exit 0   the table was written          exit 1   an error (one line)
//   exit 2   bad usage                      exit 130 / 143   interrupted (finished rounds kept)

const { Command, InvalidArgumentError, Option } = require('commander');
const { shownPath, wholeNumber, readDefinitions, commaList, oneLineErrors, exitOnError, parseCommandLine, runMain, stopOnSignals } = require('./support');
const { runOverhead, parsePair, OverheadUsageError, DEFAULT_PAIRS, DEFAULTS } = require('../lib/studies/overhead');

const NAME = 'overhead.sh';

function pairList(value) {
  try {
    return commaList(value).map(parsePair);
  } catch (err) {
    throw new InvalidArgumentError(err.message);
  }
}

function usageLine() {
  return `usage: ${NAME} [--rounds N] [--seconds N] [--pairs node:node_bare,em:em_bare,async:async_bare] [--connections N] [--out DIR] [--no-pin] [--help]`;
}

function buildProgram() {
  return oneLineErrors(new Command(NAME))
    .description('What each layer costs: each project server against its bare runtime on GET /hello (keep-alive and Connection: close), server CPU per request and req/s, in interleaved wrk rounds, with 95% intervals.')
    .option('--rounds <n>', `rounds per pair and mode, servers alternating which goes first (default ${DEFAULTS.rounds})`, wholeNumber(2))
    .option('--seconds <n>', `length of each wrk run (default ${DEFAULTS.seconds})`, wholeNumber(1))
    .option('--pairs <list>', `PROJECT:BARE pairs of perf/servers.json, comma-separated (default ${DEFAULT_PAIRS.map((p) => `${p.project}:${p.bare}`).join(',')})`, pairList)
    .option('--connections <n>', `wrk connections (default ${DEFAULTS.connections})`, wholeNumber(1))
    .option('--out <dir>', 'where to write overhead.json (default perf/results/overhead-<UTC time>)')
    .option('--no-pin', 'do not pin the servers and wrk to separate CPUs')
    .addOption(new Option('--servers-file <file>', 'server definitions (default perf/servers.json)').hideHelp())
    .addHelpText('after', `
Examples:
  scripts/${NAME}
  scripts/${NAME} --rounds 8 --seconds 5 --pairs em:em_bare,em_yjit:em_bare_yjit
Exit status: 0 the table was written, 1 an error, 2 bad usage, 130/143 interrupted.`);
}

async function main(argv) {
  const program = buildProgram();
  const parsed = parseCommandLine(program, argv, NAME, usageLine());
  if (parsed !== null) return parsed;
  const opts = program.opts();
  const stop = stopOnSignals(NAME, 'the finished rounds are kept');

  try {
    const result = await runOverhead({
      definitions: readDefinitions(opts.serversFile),
      pairs: opts.pairs,
      rounds: opts.rounds,
      seconds: opts.seconds,
      connections: opts.connections,
      pin: opts.pin,
      outDir: opts.out || null,
      signal: stop.signal,
      log: (line) => process.stdout.write(line + '\n'),
    });
    process.stdout.write(`\n${result.lines.join('\n')}\n\n`);
    process.stdout.write(`overhead: ${shownPath(result.file)}\n`);
    if (result.interrupted) return stop.exitCode();
    return 0;
  } catch (err) {
    return exitOnError(err, { name: NAME, usageLine: usageLine(), isUsage: (e) => e instanceof OverheadUsageError || e.usage, stop });
  }
}

if (require.main === module) runMain(main, NAME);

module.exports = { main, buildProgram };
