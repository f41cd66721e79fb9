#!/usr/bin/env node
'use strict';
// Soak test: mixed load for a while against each server, then checks that its memory came
// back near where it started. scripts/soak.sh runs setup, then this.

const { Command, CommanderError } = require('commander');
const { startServer, loadServerDefinitions } = require('../perf/lib/server_process');
const { soakServer, memoryBounded } = require('../perf/lib/soak');

function parseArgs(argv) {
  const program = new Command('soak.sh')
    .description('Mixed load (keep-alive GETs, uploads, /delay, 500 idle connections, readers that reset, stalled headers) for a while; exit 1 when a server died or its RSS did not come back near its start.')
    .option('--servers <list>', 'comma-separated servers (default: node,em)', (v) => v.split(',').filter(Boolean), ['node', 'em'])
    .option('--seconds <n>', 'how long each server is soaked (default 180)', (v) => {
      if (!/^\d+$/.test(v) || Number(v) < 2 || Number(v) > 3600) throw new CommanderError(2, 'soak.seconds', `--seconds takes a whole number from 2 to 3600, got '${v}'`);
      return Number(v);
    }, 180)
    .option('--short', 'a 6-second soak per server (what the tests run)')
    .exitOverride()
    .configureOutput({ writeErr: () => {} });
  program.parse(argv, { from: 'user' });
  const options = program.opts();
  return { servers: options.servers, seconds: options.short ? 6 : options.seconds };
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help') process.exit(0);
    console.error(`soak.sh: ${err.message.replace(/^error: /, '')}\nusage: scripts/soak.sh [--servers node,em] [--seconds N | --short]`);
    process.exit(2);
  }
  const known = loadServerDefinitions();
  const unknown = options.servers.filter((s) => !known[s]);
  if (unknown.length) {
    console.error(`soak.sh: unknown server ${unknown.join(', ')} (known: ${Object.keys(known).join(', ')})`);
    process.exit(2);
  }
  let failed = false;
  let current = null;
  const stopCurrent = async () => {
    if (current) await current.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, async () => {
      console.error(`\nsoak.sh: interrupted; stopping ${current ? current.name : 'nothing'}`);
      await stopCurrent();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
  console.log(`soak: ${options.seconds} s per server: ${options.servers.join(', ')}`);
  for (const name of options.servers) {
    // A short header timeout, so stalled clients come and go during the soak.
    current = await startServer(name, { env: { HEADERS_TIMEOUT_MS: '2000' } });
    try {
      const result = await soakServer({
        pid: current.pid,
        port: current.port,
        seconds: options.seconds,
        onProgress: (elapsed, rss) => process.stdout.write(`\r  ${name}: ${elapsed.toFixed(0)}/${options.seconds} s, RSS ${rss.toFixed(1)} MB   `),
      });
      const alive = current.child.exitCode === null && current.child.signalCode === null;
      const bounded = memoryBounded(result);
      process.stdout.write('\n');
      console.log(
        `  ${name}: ${alive && bounded ? 'ok' : 'FAILED'}  requests ${result.requests}, errors ${result.errors}, non-2xx ${result.non_2xx}; ` +
          `RSS baseline ${result.baseline_mb} MB, peak ${result.peak_mb} MB, after ${result.final_mb} MB (${result.growth_mb >= 0 ? '+' : ''}${result.growth_mb} MB)` +
          `${alive ? '' : '; the server died'}`,
      );
      failed = failed || !alive || !bounded;
    } finally {
      await stopCurrent();
      current = null;
    }
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(`soak.sh: ${err.message}`);
  process.exit(1);
});
