#!/usr/bin/env node
'use strict';
// Compares two runs of the scenario runner: per server, scenario and metric, the change from
// RUN_A to RUN_B with its 95% confidence interval, and a non-zero exit status on a significant
// regression beyond a threshold, for use in CI (perf/lib/judge/compare_runs.js does the work).
//   exit 0  no significant regression beyond the threshold
//   exit 1  at least one
//   exit 2  bad usage, or a results directory that is missing or unusable (one line)

const path = require('node:path');
const { Command, InvalidArgumentError } = require('commander');
const { commaList, oneLineErrors, parseCommandLine, runMain } = require('./support');
const cr = require('../lib/judge/compare_runs');
const { judgeResults } = require('../lib/judge/judged');
const { compareVerdicts, CONTRADICTIONS } = require('../lib/judge/compare_verdicts');
const { formatComparison, describeRun, formatVerdictAgreement } = require('../lib/text/compare_format');
const { RESULTS_ROOT } = require('../lib/store/results_store');
const { resolveResultsFile, loadResultsFile, ResultsError } = require('../lib/store/results_doc');

const NAME = 'compare.sh';

function usageLine() {
  return `usage: ${NAME} RUN_A RUN_B [--threshold PCT] [--metric m1,m2] (RUN: a results directory, its results.json, or latest)`;
}

function threshold(value) {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a number of percent, 0 or more.');
  return n;
}

function metrics(value, previous) {
  return [...(previous || []), ...commaList(value)];
}

function buildProgram() {
  return oneLineErrors(new Command(NAME))
    .description('Compares two results of scripts/run_scenarios.sh: the change from RUN_A to RUN_B per server, scenario and metric, with its 95% confidence interval; exits 1 on a significant regression beyond the threshold.')
    .argument('<RUN_A>', 'the baseline: a results directory, its results.json, latest, or a directory name under perf/results')
    .argument('<RUN_B>', 'the run to judge, the same way')
    .option('--threshold <pct>', `a regression must be worse by more than this many percent (default ${cr.DEFAULT_THRESHOLD_PCT})`, threshold)
    .option('--verdicts', 'instead: do A and B give the same answers? (exit 1 when they contradict: opposite winners, or the same in one where the other has a winner beyond the margin)')
    .option('--metric <list>', `metrics to judge, comma-separated or repeated (default ${cr.DEFAULT_METRICS.join(',')}; also p50_ms, peak_rss_mb)`, metrics)
    .addHelpText('after', `
Examples:
  scripts/${NAME} perf/results/2026-01-10T08-00-00Z latest
  scripts/${NAME} baseline/results.json latest --threshold 5 --metric p99,rps
  scripts/${NAME} --verdicts quick_1 quick_2        (A/A: two runs in a row name the same winners?)
Exit status: 0 no significant regression beyond the threshold (--verdicts: no contradicting answers), 1 at least one, 2 bad usage or unusable results.`);
}

function main(argv) {
  const program = buildProgram();
  const parsed = parseCommandLine(program, argv, NAME, usageLine());
  if (parsed !== null) return parsed;
  const opts = program.opts();
  const [argA, argB] = program.args;
  try {
    const metricNames = [...new Set((opts.metric && opts.metric.length ? opts.metric : cr.DEFAULT_METRICS).map(cr.metricName))];
    const A = judgeResults(loadResultsFile(resolveResultsFile(argA, { root: RESULTS_ROOT })));
    const B = judgeResults(loadResultsFile(resolveResultsFile(argB, { root: RESULTS_ROOT })));
    if (path.resolve(A.file) === path.resolve(B.file)) process.stderr.write(`${NAME}: note: RUN_A and RUN_B are the same results\n`);
    if (opts.verdicts) {
      const agreement = compareVerdicts(A.comparisons, B.comparisons);
      process.stdout.write([describeRun('A', A), describeRun('B', B), ...formatVerdictAgreement(agreement)].join('\n') + '\n');
      return CONTRADICTIONS.some((k) => agreement.tally[k]) ? 1 : 0;
    }
    const result = cr.compareRuns(A, B, { metrics: metricNames, thresholdPct: opts.threshold ?? cr.DEFAULT_THRESHOLD_PCT });
    process.stdout.write(formatComparison(A, B, result).join('\n') + '\n');
    return result.regressions.length ? 1 : 0;
  } catch (err) {
    if (err instanceof cr.CompareError || err instanceof ResultsError) {
      process.stderr.write(`${NAME}: ${err.message}\n${err.usage ? `${usageLine()}\n` : ''}`);
      return 2;
    }
    throw err;
  }
}

if (require.main === module) runMain(async (argv) => main(argv), NAME);

module.exports = { main };
