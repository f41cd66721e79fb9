#!/usr/bin/env node
'use strict';
// The differential tester on demand: starts a pair of servers (node and em unless --pair names
// another pair of the project servers, each on its runtime or on another named SERVER@RUNTIME;
// with the tester's short limits),
// sends them cases of the grammar (or, with --corpus, llhttp's own request tests from a checkout
// of it) and prints every disagreement the contract does not document as a case anyone can send
// again. scripts/difftest.sh runs setup, then this.
//   exit 0 no undocumented disagreement   exit 1 some   exit 2 bad option   130 / 143 stopped

const { Command, InvalidArgumentError } = require('commander');
const { oneLineErrors, exitOnError, parseCommandLine, runMain, stopOnSignals } = require('../../perf/cli/support');
const { startServer, loadServerDefinitions } = require('../../perf/lib/hosts/server_process');
const { withRuntimeVariants, RuntimeError } = require('../../perf/lib/hosts/runtimes');
const { runCases, runCase, warmServers, describeDisagreement, describeObservation, TESTER_LIMITS, WARM_CASES } = require('./run');
const { makeCase } = require('./grammar');
const { corpusCases } = require('./corpus');

const NAME = 'difftest.sh';
const USAGE_LINE = 'usage: scripts/difftest.sh [--pair A,B] [--cases N] [--seed S] [--from I] [--concurrency C] | [--pair A,B] --seed S --case I | [--pair A,B] --corpus DIR [--case I]';
// async_http: async-http's own server, whose parser's differences the contract documents (CONTRACT.md).
const PROJECT_SERVERS = ['node', 'em', 'async', 'async_http'];

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

// llhttp's request tests, read when the option is: a folder without them is a bad option.
const corpusOption = (dir) => {
  try {
    return { dir, ...corpusCases(dir) };
  } catch (err) {
    throw new InvalidArgumentError(err.message);
  }
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
    .option('--case <i>', 'send one case and show what each server did', wholeNumber(2 ** 31))
    .option('--corpus <dir>', 'instead of the grammar\'s cases, every request test of an llhttp checkout (its test/request/*.md)', corpusOption);
}

function printSummary(summary, seconds, { source, pair }) {
  const out = process.stdout;
  const documented = Object.entries(summary.documented).map(([id, n]) => `${id} ${n}`).join(', ');
  out.write(`\ndifftest: ${summary.cases} cases of ${source} in ${seconds.toFixed(0)} s: ${summary.agreed} alike, ` +
    `${Object.values(summary.documented).reduce((a, b) => a + b, 0)} documented differences${documented ? ` (${documented})` : ''}, ` +
    `${summary.disagreements.length} undocumented disagreements${summary.crashes.length ? `, ${summary.crashes.length} server exits` : ''}` +
    ` (${summary.retried} cases sent again: a reset, a close's moment or a 408 on one side)\n`);
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
  const corpus = opts.corpus || null;
  if (corpus && opts.case !== undefined && opts.case >= corpus.cases.length) {
    process.stderr.write(`${NAME}: --case ${opts.case}: llhttp's request tests in ${corpus.dir} are numbered 0 to ${corpus.cases.length - 1}\n${USAGE_LINE}\n`);
    return 2;
  }
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
    const caseAt = corpus ? (index) => corpus.cases[index] : (index) => makeCase(opts.seed, index);
    await Promise.all([a, b].map(start));
    if (opts.case !== undefined) {
      const result = await runCase(running.ports(), caseAt(opts.case), running.on);
      process.stdout.write(`${result.diffs.length ? describeDisagreement(result, [a, b]) : `case ${opts.case}: alike\n  both: ${describeObservation(result.node)}`}\n`);
      if (result.documented) process.stdout.write(`  documented: ${result.documented}\n`);
      return result.diffs.length && !result.documented ? 1 : 0;
    }
    process.stderr.write(`difftest: warming both servers (${WARM_CASES} cases each, unjudged)\n`);
    await warmServers([servers[a].port, servers[b].port], { concurrency: opts.concurrency, signal: stop.signal });
    const started = performance.now();
    const count = corpus ? corpus.cases.length : opts.cases;
    const step = Math.max(1, Math.round(count / 20));
    const summary = await runCases(running, {
      seed: opts.seed,
      caseAt,
      count,
      first: corpus ? 0 : opts.from,
      concurrency: opts.concurrency,
      signal: stop.signal,
      onProgress: (done) => {
        if (done % step === 0) process.stderr.write(`difftest: ${done}/${count} cases, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
      },
    });
    const source = corpus ? `llhttp's request tests in ${corpus.dir} (${corpus.computed} computed by code left out)` : `seed ${opts.seed} from ${opts.from}`;
    printSummary(summary, (performance.now() - started) / 1000, { source, pair: [a, b] });
    return stop.exitCode() ?? (summary.disagreements.length || summary.crashes.length ? 1 : 0);
  } catch (err) {
    return exitOnError(err, { name: NAME, usageLine: USAGE_LINE, isUsage: () => false, stop });
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
}

if (require.main === module) runMain(main, NAME);

module.exports = { main };
