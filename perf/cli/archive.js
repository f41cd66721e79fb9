#!/usr/bin/env node
'use strict';
// The archive of full runs and the answers across them (perf/lib/studies/archive.js does the work).
//   archive.js add DIR        adds the finished full run in DIR to results/archive/ (a full run
//                             of scripts/run_scenarios.sh adds its own)
//   archive.js answers        prints every comparison pooled over the archive
//     --write                 and writes README.md's answer block, docs/answers.md and the
//                             forest plots README shows (docs/answers_<a>_vs_<b>.svg)
//     --check                 exits 1 when those differ from what the archive gives
//   archive.js against DIR…   each headline question's pooled answer, and each run's in DIR…
//                             beside it (quick runs against the full runs): exit 1 when one
//                             contradicts it
// Exit status: 0 done (or up to date), 1 --check found them stale, 2 bad usage or an unusable
// file (one line).

const fs = require('node:fs');
const { Command, CommanderError } = require('commander');
const { oneLineErrors, runMain, shownPath } = require('./support');
const { archiveRun, archiveAnswers, documentsWithAnswers, runsAgainstArchive } = require('../lib/studies/archive');
const { ArchiveError, ARCHIVE_DIR } = require('../lib/store/archive');
const { ResultsError } = require('../lib/store/results_doc');
const { pooledLine, againstLines, nextRunWords, falseDiscoveryWords } = require('../lib/text/pooled');
const { answersFigures } = require('../lib/report/answers_figure');

const NAME = 'archive';

function usageLine() {
  return `usage: npm run ${NAME} -- add DIR | npm run ${NAME} -- against DIR… | npm run answers [-- --write | --check] [--without-stale] [--archive DIR]`;
}

function buildProgram(io) {
  const program = oneLineErrors(new Command(NAME)).description('The archive of full runs (results/archive/) and the answers pooled across them.');
  program
    .command('add')
    .description('adds the finished full run in DIR (a results folder) to the archive')
    .argument('<DIR>', 'a results folder of scripts/run_scenarios.sh')
    .option('--archive <dir>', 'the archive folder', ARCHIVE_DIR)
    .action((dir, opts) => {
      const file = archiveRun(dir, { archiveDir: opts.archive });
      io.out(`archived: ${shownPath(file)} (npm run answers -- --write updates README.md and docs/answers.md)`);
      io.status = 0;
    });
  program
    .command('answers')
    .description('every comparison pooled over the archive (random effects); --write puts them in README.md and docs/answers.md')
    .option('--write', "write README.md's answer block, docs/answers.md and docs/answers_*.svg (a forest plot per pair of runtimes on their defaults)")
    .option('--check', 'exit 1 when README.md, docs/answers.md or docs/answers_*.svg differ from what the archive gives')
    .option('--without-stale', 'leave out the runs of servers changed since they ran')
    .option('--archive <dir>', 'the archive folder', ARCHIVE_DIR)
    .action(async (opts) => {
      const answers = archiveAnswers({ archiveDir: opts.archive, withoutStale: !!opts.withoutStale });
      const figures = await answersFigures(answers);
      const files = [...documentsWithAnswers(answers, { images: figures.map((f) => f.markdown) }), ...figures.map(({ file, svg }) => ({ file, text: svg }))];
      if (opts.check) {
        const stale = files.filter(({ file, text }) => !fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text);
        for (const { file } of stale) io.err(`${NAME}: ${shownPath(file)} differs from what results/archive/ gives: npm run answers -- --write`);
        io.status = stale.length ? 1 : 0;
        return;
      }
      if (!answers.records.length) io.out(`no full run in ${shownPath(opts.archive)} yet: scripts/run_scenarios.sh adds its own`);
      for (const p of answers.pooled) io.out(pooledLine(p));
      for (const line of [nextRunWords(answers.nextRun), falseDiscoveryWords(answers.falseDiscoveries)]) if (line) io.out(line);
      if (opts.write) {
        for (const { file, text } of files) fs.writeFileSync(file, text);
        io.out(`written: ${files.map((f) => shownPath(f.file)).join(', ')}`);
      }
      io.status = 0;
    });
  program
    .command('against')
    .description('each headline question\'s answer pooled over the archive, and each run\'s in DIR… beside it; exit 1 when one contradicts it')
    .argument('<DIR...>', 'results folders of scripts/run_scenarios.sh (quick runs, say)')
    .option('--archive <dir>', 'the archive folder', ARCHIVE_DIR)
    .action((dirs, opts) => {
      const rows = runsAgainstArchive(dirs, { archiveDir: opts.archive });
      for (const line of againstLines(rows, shownPath)) io.out(line);
      io.status = rows.some((r) => r.runs.some((x) => x.against && x.against.contradicts)) ? 1 : 0;
    });
  return program;
}

async function main(argv) {
  const io = { status: null, out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) };
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.exitCode === 0) return 0;
      // Commander shows the help, as an error, when no subcommand is named.
      const what = err.code === 'commander.help' ? 'say what to do: add DIR, against DIR…, or answers' : err.message.replace(/^error: /, '');
      process.stderr.write(`${NAME}: ${what}\n${usageLine()}\n`);
      return 2;
    }
    if (!(err instanceof ArchiveError || err instanceof ResultsError)) throw err;
    process.stderr.write(`${NAME}: ${err.message}\n`);
    return 2;
  }
  return io.status;
}

if (require.main === module) runMain(main, NAME);

module.exports = { main };
