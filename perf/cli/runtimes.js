#!/usr/bin/env node
'use strict';
// The runtimes the servers run on (perf/runtimes.json; perf/lib/hosts/ does the work).
//   runtimes.js list            each runtime: installed or not, its version and where it lives
//   runtimes.js install [ID…]   installs those (default: every one the project installs: Node 22
//                               and 24 from the npm registry, Ruby 3.3 built from Debian's source
//                               with YJIT, with the servers' gems), once per checkout, into .runtimes/
// Exit status: 0 done, 1 an install failed (one line says what, and what to do), 2 bad usage.

const { Command, CommanderError } = require('commander');
const { oneLineErrors, runMain, pipeSafeOut } = require('./support');
const { runtimesFile, runtimeOf, unavailable, describeRuntime, RuntimeError } = require('../lib/hosts/runtimes');
const { installRuntime, ensureGems, InstallError } = require('../lib/hosts/install_runtime');
const { nodeParts } = require('../lib/text/runtimes');

const NAME = 'runtimes';

function usageLine() {
  return `usage: npm run ${NAME} -- list | npm run ${NAME} -- install [ID…]`;
}

/** Every runtime the project installs itself (not the machine's own, not variants). */
function installable() {
  return Object.entries(runtimesFile().runtimes)
    .filter(([, def]) => !def.of && def.from !== 'system')
    .map(([id]) => id);
}

function buildProgram(io) {
  const program = oneLineErrors(new Command(NAME)).description('The runtimes the servers run on (perf/runtimes.json), installed into .runtimes/.');
  program
    .command('list')
    .description('each runtime: installed or not, its exact version, where it lives')
    .action(() => {
      for (const id of Object.keys(runtimesFile().runtimes)) {
        const runtime = runtimeOf(id);
        const why = unavailable(runtime);
        if (why) {
          io.out(`${id.padEnd(12)} ${runtime.label.padEnd(16)} not available: ${why}`);
          continue;
        }
        const d = describeRuntime(id);
        const detail = runtime.kind === 'node' ? nodeParts(d) : `YJIT ${d.yjit ? 'on' : 'off'}, io-event ${(d.gems && d.gems['io-event']) || '-'} (${d.io_event_selector || '-'})`;
        io.out(`${id.padEnd(12)} ${runtime.label.padEnd(16)} ${String(d.version).padEnd(8)} ${detail} · ${d.path}`);
      }
      io.status = 0;
    });
  program
    .command('install')
    .description('installs the runtimes named (default: all that the project installs), each once')
    .argument('[ID...]', `runtimes of perf/runtimes.json (default: ${installable().join(', ')})`)
    .action(async (ids) => {
      const wanted = ids.length ? ids : installable();
      for (const id of wanted) runtimeOf(id); // an unknown id says so before anything is installed
      const started = Date.now();
      for (const id of wanted) {
        const result = await installRuntime(id, { say: io.out });
        if (!result.installed) {
          const gems = await ensureGems(id, { say: io.out });
          io.out(`${result.id}: ${gems ? 'its gems installed' : 'installed already'}`);
        }
      }
      io.out(`runtimes: ${wanted.join(', ')} ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      io.status = 0;
    });
  return program;
}

async function main(argv = process.argv.slice(2), io = { out: pipeSafeOut(), err: (l) => process.stderr.write(`${l}\n`), status: 0 }) {
  const program = buildProgram(io);
  program.exitOverride();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return io.status;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.exitCode === 0) return 0;
      io.err(`${NAME}: ${err.message.replace(/^error: /, '')}`);
      io.err(usageLine());
      return 2;
    }
    if (err instanceof RuntimeError) {
      io.err(`${NAME}: ${err.message}`);
      return 2;
    }
    if (err instanceof InstallError) {
      io.err(`${NAME}: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

if (require.main === module) runMain(main, NAME);

module.exports = { main };
