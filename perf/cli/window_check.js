#!/usr/bin/env node
'use strict';
// Command line of the window check (scripts/window_check.sh): a C stand-in pausing its loop on a
// timer searched again and again on a keep-alive ramp, its answers against the search's
// resolution (perf/lib/studies/window_check.js; the rule: perf/lib/run/pause_window.js).
//   exit 0   the check ran and its answers lie within the resolution
//   exit 1   an error (one line), or answers spread wider than the resolution
//   exit 2   bad usage                      exit 130 / 143   interrupted (finished searches kept)

const path = require('node:path');
const { Command, InvalidArgumentError } = require('commander');
const { shownPath, wholeNumber, oneLineErrors, exitOnError, parseCommandLine, runMain, stopOnSignals } = require('./support');
const { runWindowCheck, DEFAULTS } = require('../lib/studies/window_check');

const NAME = 'window_check.sh';

function positive(value) {
  const x = Number(value);
  if (!Number.isFinite(x) || x <= 0) throw new InvalidArgumentError('must be a positive number');
  return x;
}

function usageLine() {
  return `usage: ${NAME} [--searches N] [--step-s S] [--max-step-s S] [--fixed-steps] [--pause-ms MS] [--every-ms MS] [--busy-us US] [--out DIR] [--help]`;
}

function buildProgram() {
  return oneLineErrors(new Command(NAME))
    .description('The window check: a C stand-in that pauses its loop on a timer, searched again and again on a keep-alive ramp; its sustainable rate must not depend on where the pauses fall.')
    .option('--searches <n>', `searches, each on the stand-in started afresh (default ${DEFAULTS.searches})`, wholeNumber(2, 100))
    .option('--step-s <s>', `a step's seconds before the pauses are known (default ${DEFAULTS.stepS})`, positive)
    .option('--max-step-s <s>', `the most a step may grow to (default ${DEFAULTS.maxStepS})`, positive)
    .option('--fixed-steps', 'every step keeps --step-s: the steps as judged before the rule, for the comparison')
    .option('--pause-ms <ms>', `the stand-in's pause (default ${DEFAULTS.pauseMs})`, positive)
    .option('--every-ms <ms>', `how often it pauses (default ${DEFAULTS.everyMs})`, positive)
    .option('--busy-us <us>', `its CPU a request (default ${DEFAULTS.busyUs})`, positive)
    .option('--out <dir>', 'where to write window_check.json and each search\'s results (default perf/results/window-check-<UTC time>)')
    .addHelpText('after', `
Examples:
  scripts/${NAME}
  scripts/${NAME} --fixed-steps
Exit status: 0 the answers lie within the search's resolution, 1 an error or a wider spread, 2 bad usage, 130/143 interrupted.`);
}

async function main(argv) {
  const program = buildProgram();
  const parsed = parseCommandLine(program, argv, NAME, usageLine());
  if (parsed !== null) return parsed;
  const opts = program.opts();
  const stop = stopOnSignals(NAME, 'the finished searches are kept');
  const outDir = opts.out || path.join('perf', 'results', `window-check-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const asked = Object.fromEntries(Object.entries({ searches: opts.searches, stepS: opts.stepS, maxStepS: opts.maxStepS, pauseMs: opts.pauseMs, everyMs: opts.everyMs, busyUs: opts.busyUs }).filter(([, v]) => v !== undefined));
  try {
    const result = await runWindowCheck({ ...asked, fixedSteps: Boolean(opts.fixedSteps), outDir, signal: stop.signal, log: (line) => process.stdout.write(line + '\n') });
    process.stdout.write(`\n${result.line}\nwindow check: ${shownPath(result.file)}\n`);
    if (result.interrupted) return stop.exitCode();
    return result.summary.within_resolution ? 0 : 1;
  } catch (err) {
    return exitOnError(err, { name: NAME, usageLine: usageLine(), isUsage: (e) => e.usage, stop });
  }
}

if (require.main === module) runMain(main, NAME);

module.exports = { main, buildProgram };
