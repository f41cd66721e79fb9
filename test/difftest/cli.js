#!/usr/bin/env node
'use strict';
// The differential tester on demand: starts a pair of servers (node and em unless --pair names
// another pair of the project servers, each on its runtime or on another named SERVER@RUNTIME;
// with the tester's short limits),
// sends them cases of the grammar and prints every disagreement the contract does not document
// as a case anyone can send again. scripts/difftest.sh runs setup, then this.
//   exit 0 no undocumented disagreement   exit 1 some   exit 2 bad option   130 / 143 stopped

const { Command, InvalidArgumentError } = require('commander');
const { oneLineErrors, exitOnError, parseCommandLine, runMain, stopOnSignals } = require('../../perf/cli/support');
const { startServer, loadServerDefinitions } = require('../../perf/lib/hosts/server_process');
const { withRuntimeVariants, RuntimeError } = require('../../perf/lib/hosts/runtimes');
const { runCases, runCase, describeDisagreement, describeObservation, TESTER_LIMITS } = require('./run');

const NAME = 'difftest.sh';
const USAGE_LINE = 'usage: scripts/difftest.sh [--pair A,B] [--cases N] [--seed S] [--from I] [--concurrency C] | [--pair A,B] --seed S --case I';
const PROJECT_SERVERS = ['node', 'em', 'async'];

const serverPair = (v) => {
  const pair = v.split(',');
  if (pair.length !== 2 || pair[0] === pair[1] || !pair.every((name) => PROJECT_SERVERS.includes(name.split('@')[0]))) {
    throw new InvalidArgumentError(`must be two of ${PROJECT_SERVERS.join(', ')} (each SERVER or SERVER@RUNTIME), joined by a comma.`);
  }
  try {
    withRuntimeVariants(loadServerDefinitions(), pair);
  } catch (err) {
    if (err instanceof RuntimeError) throw new InvalidArgumentError(err.message);
    throw err;
  }
  return pair;
};

const wholeNumber = (most) => (v) => {
  if (!/^\d+$/.test(v) || Number(v) > most) throw new InvalidArgumentError(`must be a whole number up to ${most}.`);
  return Number(v);
};

function buildProgram() {
  return oneLineErrors(new Command(NAME))
    .description('Sends the same generated requests to two servers (Node and EM unless --pair) and reports where they answer differently and the contract does not say they may.')
    .option('--pair <a,b>', `the two servers (of ${PROJECT_SERVERS.join(', ')}, each on its runtime or SERVER@RUNTIME: em@ruby31; default node,em)`, serverPair, ['node', 'em'])
    .option('--cases <n>', 'how many cases (default 1000)', wholeNumber(10_000_000), 1000)
    .option('--seed <s>', 'the seed every case is made from (default 1)', wholeNumber(2 ** 32 - 1), 1)
    .option('--from <i>', 'the number of the first case (default 0)', wholeNumber(2 ** 31), 0)
    .option('--concurrency <c>', 'cases under way at once (default 150)', wholeNumber(1000), 150)
    .option('--case <i>', 'send one case and show what each server did', wholeNumber(2 ** 31));
}

function printSummary(summary, seconds, { seed, from, pair }) {
  const out = process.stdout;
  const documented = Object.entries(summary.documented).map(([id, n]) => `${id} ${n}`).join(', ');
  out.write(`\ndifftest: ${summary.cases} cases of seed ${seed} from ${from} in ${seconds.toFixed(0)} s: ${summary.agreed} alike, ` +
    `${Object.values(summary.documented).reduce((a, b) => a + b, 0)} documented differences${documented ? ` (${documented})` : ''}, ` +
    `${summary.disagreements.length} undocumented disagreements${summary.crashes.length ? `, ${summary.crashes.length} server exits` : ''}` +
    ` (${summary.retried} cases sent again after a reset)\n`);
  for (const crash of summary.crashes) {
    out.write(`\nthe ${crash.server} server exited (started again) while cases ${crash.cases.join(', ')} were under way; its last words:\n${crash.output}\n`);
  }
  if (!summary.disagreements.length) return;
  out.write('\nundocumented disagreements by class (cases):\n');
  for (const [key, n] of Object.entries(summary.classes).sort((a, b) => b[1] - a[1])) out.write(`  ${String(n).padStart(6)}  ${key}\n`);
  out.write('\nevery undocumented disagreement:\n');
  for (const result of summary.disagreements) out.write(`${describeDisagreement(result, pair)}\n`);
}

async function main(argv) {
  const program = buildProgram();
  const parsed = parseCommandLine(program, argv, NAME, USAGE_LINE);
  if (parsed !== null) return parsed;
  const opts = program.opts();
  const stop = stopOnSignals(NAME, 'the cases that finished are reported');
  const servers = {};
  const definitions = withRuntimeVariants(loadServerDefinitions(), opts.pair);
  const start = async (name) => {
    servers[name] = await startServer(name, { env: TESTER_LIMITS, definitions });
  };
  const [a, b] = opts.pair;
  const side = (name) => ({ server: definitions[name].variant_of || name, runtime: definitions[name].runtime });
  const running = {
    ports: () => ({ node: servers[a].port, em: servers[b].port }),
    on: { node: side(a), em: side(b) },
    exited: () => Object.keys(servers).filter((name) => servers[name].child.exitCode !== null || servers[name].child.signalCode !== null),
    output: (name) => servers[name].output().split('\n').slice(-20).join('\n'),
    restart: start,
  };
  try {
    await Promise.all([a, b].map(start));
    if (opts.case !== undefined) {
      const result = await runCase(running.ports(), opts.seed, opts.case, running.on);
      process.stdout.write(`${result.diffs.length ? describeDisagreement(result, [a, b]) : `case ${opts.case} of seed ${opts.seed}: alike\n  both: ${describeObservation(result.node)}`}\n`);
      if (result.documented) process.stdout.write(`  documented: ${result.documented}\n`);
      return result.diffs.length && !result.documented ? 1 : 0;
    }
    const started = performance.now();
    const step = Math.max(1, Math.round(opts.cases / 20));
    const summary = await runCases(running, {
      seed: opts.seed,
      count: opts.cases,
      first: opts.from,
      concurrency: opts.concurrency,
      signal: stop.signal,
      onProgress: (done) => {
        if (done % step === 0) process.stderr.write(`difftest: ${done}/${opts.cases} cases, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
      },
    });
    printSummary(summary, (performance.now() - started) / 1000, { seed: opts.seed, from: opts.from, pair: [a, b] });
    return stop.exitCode() ?? (summary.disagreements.length || summary.crashes.length ? 1 : 0);
  } catch (err) {
    return exitOnError(err, { name: NAME, usageLine: USAGE_LINE, isUsage: () => false, stop });
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
}

if (require.main === module) runMain(main, NAME);

module.exports = { main };
