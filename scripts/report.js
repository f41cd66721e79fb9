#!/usr/bin/env node
'use strict';
// Rebuilds a results folder's report.html and charts/ from its saved files.
// Usage: npm run report -- <results dir>    (or: node scripts/report.js <results dir>)

const { Command } = require('commander');
const { buildReport, ReportError } = require('../perf/report');
const { systemCause } = require('../perf/lib/results_store');

const program = new Command()
  .name('npm run report --')
  .description('Draw the response-time charts and report.html of a results folder, from its results.json and samples alone.')
  .argument('<results-dir>', 'folder written by the scenario runner (holds results.json)')
  .option('--no-png', 'skip the PNG copies of the charts (faster)')
  .option('-q, --quiet', 'print only the final line')
  .showHelpAfterError('(run with --help for usage)')
  .action(async (dir, opts) => {
    const started = Date.now();
    // Progress lines go to stderr; on a terminal every step, otherwise only once it is slow.
    const log = opts.quiet
      ? () => {}
      : (msg) => {
        if (process.stderr.isTTY || Date.now() - started > 2000) process.stderr.write(`report: ${msg}\n`);
      };
    try {
      const out = await buildReport(dir, { log, png: opts.png });
      for (const w of out.warnings) process.stderr.write(`report: warning: ${w}\n`);
      process.stdout.write(`report: wrote ${out.reportPath} (${out.charts.length} charts, ${(out.ms / 1000).toFixed(1)} s)\n`);
    } catch (e) {
      let msg = `${e.message.split('\n')[0]} (set REPORT_DEBUG=1 for the stack)`;
      if (e instanceof ReportError) msg = e.message;
      else if (e.syscall) msg = `report not written in ${dir}: ${systemCause(e)}${e.path ? ` (${e.path})` : ''}`; // e.g. a full disk
      process.stderr.write(`report: error: ${msg}\n`);
      if (process.env.REPORT_DEBUG) process.stderr.write(`${e.stack}\n`);
      process.exitCode = 1;
    }
  });

program.parseAsync(process.argv).catch((e) => {
  process.stderr.write(`report: error: ${e.message}\n`);
  process.exitCode = 2;
});
