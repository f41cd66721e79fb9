#!/usr/bin/env node
'use strict';
// Rebuilds a results folder's report.html and charts/ from its saved files.
// Usage: npm run report -- <results dir> [--timeline <scenario>] [--profiles <dir>]    (or: node perf/cli/report.js …)
//   exit 0 written   exit 1 the folder cannot be read, or the report not written
//   exit 2 bad option, --timeline names no scenario of the folder, or --profiles a folder without profile.json

const { Command } = require('commander');
const { oneLineErrors, parseCommandLine, runMain } = require('./support');
const { buildReport, ResultsError, UnknownScenario, NoProfiles } = require('../lib/report');
const { systemCause } = require('../lib/store/results_store');

const NAME = 'report';
const USAGE_LINE = 'usage: npm run report -- <results-dir> [--timeline <scenario>] [--profiles <dir>] [--no-png] [--quiet]';

function buildProgram() {
  return oneLineErrors(new Command('npm run report --'))
    .description('Draw the response-time charts and report.html of a results folder, from its results.json and samples alone.')
    .argument('<results-dir>', 'folder written by the scenario runner (holds results.json)')
    .option('--timeline <scenario>', "also draw, in that scenario's section, each server's last run with samples over time with the server's GC pauses and loop stalls")
    .option('--profiles <dir>', 'show the flame graphs of this scripts/profile.sh folder (holds profile.json; default: <results-dir>/profiles when it exists)')
    .option('--no-png', 'skip the PNG copies of the charts (faster)')
    .option('-q, --quiet', 'print only the final line');
}

async function main(argv) {
  const program = buildProgram();
  const parsed = parseCommandLine(program, argv, NAME, USAGE_LINE);
  if (parsed !== null) return parsed;
  const [dir] = program.args;
  const opts = program.opts();
  const started = Date.now();
  // Progress lines go to stderr; on a terminal every step, otherwise only once it is slow.
  const log = opts.quiet
    ? () => {}
    : (msg) => {
      if (process.stderr.isTTY || Date.now() - started > 2000) process.stderr.write(`${NAME}: ${msg}\n`);
    };
  try {
    const out = await buildReport(dir, { log, png: opts.png, timeline: opts.timeline ?? null, profiles: opts.profiles ?? null });
    for (const w of out.warnings) process.stderr.write(`${NAME}: warning: ${w}\n`);
    process.stdout.write(`${NAME}: wrote ${out.reportPath} (${out.charts.length} charts, ${(out.ms / 1000).toFixed(1)} s)\n`);
    return 0;
  } catch (e) {
    // A scenario the folder does not have, or a profiles folder without profile.json, is a
    // usage error: one line.
    if (e instanceof UnknownScenario || e instanceof NoProfiles) {
      process.stderr.write(`${NAME}: ${e.message}\n`);
      return 2;
    }
    let msg = `${e.message.split('\n')[0]} (set REPORT_DEBUG=1 for the stack)`;
    if (e instanceof ResultsError) msg = e.message;
    else if (e.syscall) msg = `report not written in ${dir}: ${systemCause(e)}${e.path ? ` (${e.path})` : ''}`; // e.g. a full disk
    process.stderr.write(`${NAME}: error: ${msg}\n`);
    if (process.env.REPORT_DEBUG) process.stderr.write(`${e.stack}\n`);
    return 1;
  }
}

if (require.main === module) runMain(main, NAME);

module.exports = { main };
