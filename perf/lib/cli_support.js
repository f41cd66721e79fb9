'use strict';
// What every command line of the project does alike (perf/cli.js, scripts/compare.js,
// scripts/crosscheck.js): comma-separated lists, and a bad option as one line plus the usage.

const { CommanderError, InvalidArgumentError } = require('commander');

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
function runMain(main, name) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
      setTimeout(() => process.exit(code), 500).unref();
    },
    (err) => {
      process.stderr.write(`${name}: error: ${err.message}\n`);
      process.exit(1);
    },
  );
}

module.exports = { commaList, parseCommandLine, runMain };
