#!/usr/bin/env node
'use strict';
// Soak test: mixed load for a while against each server, then checks that its memory came
// back near where it started. scripts/soak.sh runs setup, then this.
//   exit 0 every server alive and bounded   exit 1 a server died or grew   exit 2 bad option
//   exit 130 / 143 stopped by SIGINT / SIGTERM (the server being soaked is reported first)

const { Command, InvalidArgumentError } = require('commander');
const { commaList, oneLineErrors, exitOnError, parseCommandLine, runMain, stopOnSignals } = require('./support');
const { startServer, loadServerDefinitions } = require('../lib/hosts/server_process');
const { soakServer, memoryBounded } = require('../lib/studies/soak');

const NAME = 'soak.sh';
const USAGE_LINE = 'usage: scripts/soak.sh [--servers node,em] [--seconds N | --short]';

function seconds(v) {
  if (!/^\d+$/.test(v) || Number(v) < 2 || Number(v) > 3600) throw new InvalidArgumentError('must be a whole number of seconds from 2 to 3600.');
  return Number(v);
}

function buildProgram() {
  return oneLineErrors(new Command(NAME))
    .description('Mixed load (keep-alive GETs, uploads, /delay, 500 idle connections, readers that reset, stalled headers) for a while; exit 1 when a server died or its RSS did not come back near its start.')
    .option('--servers <list>', 'comma-separated servers (default: node,em)', commaList, ['node', 'em'])
    .option('--seconds <n>', 'how long each server is soaked (default 180)', seconds, 180)
    .option('--short', 'a 6-second soak per server (what the tests run)');
}

/** A line for one server's soak. */
function resultLine(name, result, alive, bounded) {
  return `  ${name}: ${alive && bounded ? 'ok' : 'FAILED'}  requests ${result.requests}, errors ${result.errors}, non-2xx ${result.non_2xx}; ` +
    `RSS baseline ${result.baseline_mb} MB, peak ${result.peak_mb} MB, after ${result.final_mb} MB (${result.growth_mb >= 0 ? '+' : ''}${result.growth_mb} MB)` +
    `${alive ? '' : '; the server died'}`;
}

async function main(argv) {
  const program = buildProgram();
  const parsed = parseCommandLine(program, argv, NAME, USAGE_LINE);
  if (parsed !== null) return parsed;
  const opts = program.opts();
  const soakSeconds = opts.short ? 6 : opts.seconds;
  const known = loadServerDefinitions();
  const unknown = opts.servers.filter((s) => !known[s]);
  if (unknown.length) {
    process.stderr.write(`${NAME}: unknown server ${unknown.join(', ')} (known: ${Object.keys(known).join(', ')})\n${USAGE_LINE}\n`);
    return 2;
  }
  const stop = stopOnSignals(NAME, 'the server being soaked is reported');
  let failed = false;
  try {
    process.stdout.write(`soak: ${soakSeconds} s per server: ${opts.servers.join(', ')}\n`);
    for (const name of opts.servers) {
      if (stop.signal.aborted) break;
      // A short header timeout, so stalled clients come and go during the soak.
      const server = await startServer(name, { env: { HEADERS_TIMEOUT_MS: '2000' } });
      try {
        const result = await soakServer({
          pid: server.pid,
          port: server.port,
          seconds: soakSeconds,
          signal: stop.signal,
          onProgress: (elapsed, rss) => process.stdout.write(`\r  ${name}: ${elapsed.toFixed(0)}/${soakSeconds} s, RSS ${rss.toFixed(1)} MB   `),
        });
        const alive = server.child.exitCode === null && server.child.signalCode === null;
        const bounded = memoryBounded(result);
        process.stdout.write(`\n${resultLine(name, result, alive, bounded)}\n`);
        failed = failed || !alive || !bounded;
      } finally {
        await server.stop();
      }
    }
  } catch (err) {
    return exitOnError(err, { name: NAME, usageLine: USAGE_LINE, isUsage: () => false, stop });
  }
  return stop.exitCode() ?? (failed ? 1 : 0);
}

if (require.main === module) runMain(main, NAME);

module.exports = { main };
