'use strict';
// What every command line of the project does alike (perf/cli/run.js, perf/cli/compare.js,
// perf/cli/crosscheck.js, perf/cli/overhead.js, perf/cli/report.js, perf/cli/soak.js): one commander
// setup, comma-separated lists, a bad option as one line plus the usage, an error that ends a
// command, the process's exit, and stopping on Ctrl-C.

const { CommanderError, InvalidArgumentError } = require('commander');
const fs = require('node:fs');
const path = require('node:path');
const { killLiveServers, loadServerDefinitions } = require('../lib/hosts/server_process');

/**
 * An option value 'a, b,c' as ['a', 'b', 'c']. An empty element ('a,', 'a,,b', '') is a usage
 * error: a stray comma more often hides a name left out than it means nothing.
 */
function commaList(value) {
  const list = value.split(',').map((s) => s.trim());
  if (list.some((s) => s === '')) throw new InvalidArgumentError('must not hold an empty name: separate names with single commas, none at either end.');
  return list;
}

/**
 * The settings every command shares: -h/--help, no stray arguments, and commander's errors
 * thrown to main(), which prints them as one line (parseCommandLine), never commander's own.
 */
function oneLineErrors(program) {
  return program.helpOption('-h, --help', 'show this help').allowExcessArguments(false).exitOverride().configureOutput({ writeErr: () => {} });
}

/**
 * The exit status of a long command that ended on err, once it has said so in one line: a
 * usage error (isUsage) with the usage line, 2; any other as "NAME: error: …" (its stack too
 * with DEBUG set), 1, or 130/143 when a signal had stopped the command.
 */
function exitOnError(err, { name, usageLine, isUsage, stop }) {
  if (isUsage(err)) {
    process.stderr.write(`${name}: ${err.message}\n${usageLine}\n`);
    return 2;
  }
  process.stderr.write(`${name}: error: ${err.message}\n`);
  if (process.env.DEBUG) process.stderr.write(`${err.stack}\n`);
  return stop.exitCode() ?? 1;
}

/**
 * Parses argv with a commander program built with exitOverride(). Returns null when the
 * command should go on, or the exit status to end with: 0 after --help, 2 after a bad option
 * (written to stderr as "NAME: what is wrong" and the usage line).
 */
function parseCommandLine(program, argv, name, usageLine) {
  try {
    program.parse(argv, { from: 'user' });
    return null;
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help' || err.exitCode === 0) return 0;
    process.stderr.write(`${name}: ${err.message.replace(/^error: /, '')}\n${usageLine}\n`);
    return 2;
  }
}

/**
 * Runs an async main(argv) → exit status as the process's entry point. Sockets still closing
 * must not keep a finished command alive, so it exits half a second after main returns.
 */
/**
 * A writer of lines to stdout that stops writing, quietly, once its reader has closed the pipe
 * (`| head`): the reader has what it wanted, and the command's work goes on and ends as it would.
 */
function pipeSafeOut(stream = process.stdout) {
  let closed = false;
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
    closed = true;
  });
  return (line) => {
    if (!closed) stream.write(`${line}\n`);
  };
}

function runMain(main, name) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
      setTimeout(() => process.exit(code), 500).unref();
    },
    (err) => {
      process.stderr.write(`${name}: error: ${err.message}\n`);
      if (process.env.DEBUG) process.stderr.write(`${err.stack}\n`);
      process.exit(1);
    },
  );
}

const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 };

/**
 * Ctrl-C and SIGTERM for a long command: the first says `stopping` and aborts the returned
 * controller's signal, so the command ends its work and keeps what finished; a second kills
 * every server at once and exits (after `onSecond`, which may record what finished). No server
 * outlives the command either way. `exitCode()` is 130/143 once a signal came, else null.
 */
function stopOnSignals(name, keptWhat, onSecond = () => {}) {
  const controller = new AbortController();
  let received = null;
  const onSignal = (sig) => {
    if (received) {
      killLiveServers('SIGKILL');
      onSecond();
      process.exit(SIGNAL_EXIT_CODES[sig]);
    }
    received = sig;
    process.stderr.write(`\n${name}: ${sig}: stopping; ${keptWhat} (again to stop at once)\n`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', () => killLiveServers('SIGKILL'));
  return { signal: controller.signal, exitCode: () => (received ? SIGNAL_EXIT_CODES[received] : null) };
}

/**
 * The server definitions of --servers-file (default perf/servers.json); a file that cannot be
 * read or parsed is a usage error (one line, exit 2): an error with usage set.
 */
function readDefinitions(file) {
  if (!file) return loadServerDefinitions();
  try {
    return JSON.parse(fs.readFileSync(path.resolve(file), 'utf8'));
  } catch (err) {
    throw Object.assign(new Error(`cannot read server definitions ${file}: ${err.code || err.message}`), { usage: true });
  }
}

/**
 * A commander parser of a whole number within [min, max]: "must be a whole number, MIN or more."
 * (no max) or "… from MIN to MAX." otherwise, as commander's one-line usage error.
 */
function wholeNumber(min, max = Infinity) {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(Number.isFinite(max) ? `must be a whole number from ${min} to ${max}.` : `must be a whole number, ${min} or more.`);
    }
    return Number(value);
  };
}

/** A path as the terminal shows it: relative to the working folder, or whole where it lies outside. */
function shownPath(file) {
  const rel = path.relative(process.cwd(), file);
  return rel.startsWith('..') ? file : rel;
}

module.exports = { shownPath, wholeNumber, readDefinitions, commaList, oneLineErrors, exitOnError, parseCommandLine, runMain, stopOnSignals, pipeSafeOut };
