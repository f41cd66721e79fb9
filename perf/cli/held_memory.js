#!/usr/bin/env node
'use strict';
// Command line of the held-memory study (scripts/held_memory.sh): what one more held connection
// costs each server and what holds it (perf/lib/studies/held_memory.js).
//   exit 0   measured            exit 1   an error (one line)
//   exit 2   bad usage           exit 130 / 143   interrupted (nothing written)

const fs = require('node:fs');
const path = require('node:path');
const { Command, InvalidArgumentError } = require('commander');
const { shownPath, wholeNumber, commaList, oneLineErrors, exitOnError, parseCommandLine, runMain, stopOnSignals } = require('./support');
const { runHeldMemory, DEFAULTS } = require('../lib/studies/held_memory');
const { heldMemoryLines } = require('../lib/text/held_memory');
const { writeFileAtomic, folderStamp, RESULTS_ROOT } = require('../lib/store/results_store');
const contract = require('../../contract.json');

const NAME = 'held_memory.sh';
const DEFAULT_SERVERS = ['node', 'em', 'async_http', 'async'];

function usageLine() {
  return `usage: ${NAME} [--servers LIST] [--counts LIST] [--wait-ms MS] [--env NAME=VALUE]... [--out DIR] [--help]`;
}

function counts(value) {
  const list = commaList(value).map(Number);
  if (list.length < 2 || list.some((n) => !Number.isInteger(n) || n < 0 || n > 16000)) throw new InvalidArgumentError('must list two or more whole numbers from 0 to 16000.');
  return list;
}

function envPair(value, previous = {}) {
  const at = value.indexOf('=');
  if (at < 1) throw new InvalidArgumentError('must be NAME=VALUE.');
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

function buildProgram() {
  return oneLineErrors(new Command(NAME))
    .description('What one more held connection (a keep-alive connection waiting on GET /delay) costs each server, and what holds it: resident memory by kind of mapping, the runtime\'s objects by class, fibers.')
    .option('--servers <list>', `servers of perf/servers.json, SERVER@RUNTIME allowed (default ${DEFAULT_SERVERS.join(',')})`, commaList)
    .option('--counts <list>', `held connections at each point (default ${DEFAULTS.counts.join(',')})`, counts)
    .option('--wait-ms <ms>', `each request's wait, at most the contract's delay_max_ms (default ${DEFAULTS.waitMs})`, wholeNumber(1, contract.delay_max_ms))
    .option('--env <NAME=VALUE>', 'a variable for every server (repeat for more): RUBY_FIBER_MACHINE_STACK_SIZE=65536', envPair)
    .option('--out <dir>', 'where to write held_memory.json (default perf/results/held-memory-<UTC time>)')
    .addHelpText('after', `
Examples:
  scripts/${NAME}
  scripts/${NAME} --servers async --env RUBY_FIBER_MACHINE_STACK_SIZE=131072
Exit status: 0 measured, 1 an error, 2 bad usage, 130/143 interrupted.`);
}

async function main(argv) {
  const program = buildProgram();
  const parsed = parseCommandLine(program, argv, NAME, usageLine());
  if (parsed !== null) return parsed;
  const opts = program.opts();
  const stop = stopOnSignals(NAME, 'nothing is written');
  const outDir = path.resolve(opts.out || path.join(RESULTS_ROOT, `held-memory-${folderStamp()}`));
  try {
    const study = await runHeldMemory({ servers: opts.servers || DEFAULT_SERVERS, counts: opts.counts, waitMs: opts.waitMs, env: opts.env || {}, signal: stop.signal, log: (line) => process.stdout.write(`${line}\n`) });
    fs.mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, 'held_memory.json');
    writeFileAtomic(file, `${JSON.stringify(study, null, 2)}\n`);
    process.stdout.write(`\n${heldMemoryLines(study).join('\n')}\nheld memory: ${shownPath(file)}\n`);
    return 0;
  } catch (err) {
    return exitOnError(err, { name: NAME, usageLine: usageLine(), isUsage: (e) => e.usage, stop });
  }
}

if (require.main === module) runMain(main, NAME);

module.exports = { main, buildProgram };
