'use strict';
// The archive's two jobs, from stored files only: add a finished full run's record
// (results.json → results/archive/<id>.json), and pool every record into the answers across
// runs (README.md's block and docs/answers.md, which show them). The data flows one way:
// store reads, judge decides, text words it.

const fs = require('node:fs');
const path = require('node:path');
const { loadResults } = require('../store/results_doc');
const { judgeResults } = require('../judge/judged');
const { ARCHIVE_DIR, ArchiveError, recordOf, readArchive, writeRecord, runtimeLabel } = require('../store/archive');
const { answerKey, runAnswers, staleAnswers, poolArchive, pooledClaim, hostOf, againstPool, nextRunDecides, nextRunCheck, pooledTest } = require('../judge/meta');
const { controlFalseDiscoveries, isHeadline } = require('../judge/multiplicity');
const { withRuntimeVariants, runtimeOf, parseLabel, RuntimeError } = require('../hosts/runtimes');
const { seedClaim } = require('../judge/seeds');
const { DEFAULT_MARGIN } = require('../method');
const { serverSources } = require('../run/environment');
const { readmeBlock, answersDocument, withBlock, notJudgedWords } = require('../text/pooled');
const { headline, defaultPairs, headlineServers, eraPairs, PRIOR_DECIDES } = require('../plan/questions');
const { PROJECT_ROOT } = require('../project_root');

const README = path.join(PROJECT_ROOT, 'README.md');
const ANSWERS = path.join(PROJECT_ROOT, 'docs', 'answers.md');
const BLOCK = 'answers';

/**
 * Why a run's results cannot join the archive, or null: the archive holds full runs whose paired
 * rounds ended, measured on this machine's loopback the default way (a quick run's few rounds, a
 * run against --target, over --link or from --load-hosts, or the seeds' servers answer other
 * questions). A run interrupted after its rounds (in its ramps or its held-count search: their
 * sections exist only once the rounds are over) has every scenario's answer: it joins with them,
 * and with the answers of its searches that ended (an incomplete search is never counted).
 */
function notArchivable(results) {
  const o = results.environment.options || {};
  if (results.interrupted && !results.ramps && !results.held) return 'the run was interrupted before its paired rounds ended';
  if (results.error) return `the run stopped: ${results.error}`;
  if (o.quick) return 'a quick run (the archive holds full runs)';
  for (const [key, flag] of [['target', '--target'], ['link', '--link'], ['load_hosts', '--load-hosts']]) if (o[key]) return `a run with ${flag} (the archive holds runs on this machine's loopback)`;
  if (o.seeds) return 'a --seeds run (the archive holds the full run of node and em)';
  if (o.design !== 'rounds') return 'a run of independent trials (--repeat): the archive holds paired rounds';
  // A record names its commit, and the digests of its servers are taken there.
  if (results.environment.project_dirty) return 'the working copy differed from its commit (commit first, so that the record says what ran)';
  return null;
}

/**
 * Adds the run in dir to the archive; returns the record's path. Throws ArchiveError (one line).
 * results: the run already judged (judge/judged.js) by a reader that gives them, so that they are
 * judged once; default: read and judged here.
 */
function archiveRun(dir, { archiveDir = ARCHIVE_DIR, results: judged = null } = {}) {
  const results = judged || judgeResults(loadResults(dir));
  const why = notArchivable(results);
  if (why) throw new ArchiveError(`${results.file} is not archived: ${why}`);
  const commit = results.environment.project_commit;
  const sources = commit ? serverSources(results.definitions, { commit }) : {};
  // The record keeps why an answer is not judged in words, as every record has.
  const answers = runAnswers(results).map((a) => ({ ...a, not_judged: notJudgedWords(a.not_judged) }));
  return writeRecord(recordOf(results, { answers, sources }), archiveDir);
}

/**
 * A record (or a judged run, read as one) with its servers named SERVER@RUNTIME
 * (perf/lib/store/archive.js runtimeLabel) in its answers and sources: answers pool per
 * runtime, never across.
 */
function withRuntimeLabels(record) {
  const label = (name) => runtimeLabel(record.servers, record.software, name);
  const answers = record.answers.map((x) => {
    const [a, b] = [label(x.a), label(x.b)];
    return { ...x, key: answerKey(x.subject, x.metric, a, b), a, b, winner: x.winner ? label(x.winner) : x.winner };
  });
  const sources = record.sources ? Object.fromEntries(Object.entries(record.sources).map(([name, digest]) => [label(name), digest])) : record.sources;
  return { ...record, answers, sources };
}

/**
 * Today's digest of each SERVER@RUNTIME among labels (perf/lib/run/environment.js serverSources
 * of the server on that runtime): { label: digest }; none for a label no definition makes now
 * (a server or runtime since removed).
 */
function currentSources(labels, definitions) {
  const defs = {};
  for (const label of labels) {
    try {
      const made = withRuntimeVariants(definitions, [label]);
      if (made[label]) defs[label] = made[label];
    } catch (err) {
      if (!(err instanceof RuntimeError)) throw err;
    }
  }
  return serverSources(defs);
}

/** The servers' order for the answers' orientation (node before em), each server's runtimes together. */
function labelOrder(labels, definitions) {
  const names = Object.keys(definitions);
  const rank = (label) => names.indexOf(parseLabel(label).server);
  return [...labels].sort((x, y) => rank(x) - rank(y) || x.localeCompare(y));
}

/**
 * The archive pooled: { records, pooled (perf/lib/judge/meta.js poolArchive; beyond the headline
 * questions, a winner only where it survives the false-discovery control over the archive:
 * judge/multiplicity.js), falseDiscoveries (that control's count), nextRun (each current run
 * against the others: meta.js nextRunCheck), questions, pairs
 * (perf/lib/plan/questions.js eraPairs: today's runtimes, then history's), pooledOf(question,
 * pair), claimOf(question, pooled) }. Servers are SERVER@RUNTIME throughout; each record's
 * answers are marked stale where its servers differ from today's same server on the same
 * runtime (their sources at HEAD).
 */
function archiveAnswers({ archiveDir = ARCHIVE_DIR, withoutStale = false, definitions = null } = {}) {
  const defs = definitions || require('../../servers.json');
  const records = readArchive(archiveDir).map(withRuntimeLabels);
  const labels = new Set(records.flatMap((r) => r.answers.flatMap((x) => [x.a, x.b])));
  const current = currentSources(labels, defs);
  for (const record of records) record.stale = staleAnswers(record, current);
  // Pooled at the project's margin whatever margin a run was asked for: "the same" means one thing here.
  // Beyond the headline questions, pooled winners held to the false-discovery rate over the archive.
  const { items: pooled, summary: falseDiscoveries } = controlFalseDiscoveries(poolArchive(records, { margin: DEFAULT_MARGIN, withoutStale, order: labelOrder(labels, defs) }), {
    confirmatory: (p) => isHeadline(p.subject, p.metric, parseLabel(p.a).server, parseLabel(p.b).server),
    test: pooledTest,
  });
  const pooledOf = (q, pair) => pooled.find((p) => p.subject === q.subject && p.metric === q.metric && p.a === pair.a && p.b === pair.b) || null;
  const claimOf = (q, p) => {
    const claim = q.seed ? seedClaim(q.seed) : null;
    const base = (label) => parseLabel(label).server;
    return claim && claim.subject === p.subject && claim.metric === p.metric && claim.a === base(p.a) && claim.b === base(p.b) ? pooledClaim(p, { ...claim, winner: claim.winner === claim.a ? p.a : p.b, a: p.a, b: p.b }) : null;
  };
  const { questions } = headline();
  return { records, pooled, nextRun: nextRunCheck(pooled), falseDiscoveries, questions, pairs: eraPairs(defs), pooledOf, claimOf };
}

/** README.md's text with its answer block, and docs/answers.md's, as the archive gives them. */
function documentsWithAnswers(answers, { images = [], readme = README, answersFile = ANSWERS } = {}) {
  const runtimeLabelOf = (id) => {
    try {
      return runtimeOf(id).label;
    } catch {
      return id; // a runtime since removed from perf/runtimes.json
    }
  };
  const readmeText = withBlock(fs.readFileSync(readme, 'utf8'), BLOCK, readmeBlock({ ...answers, hostOf, images, runtimeLabelOf }));
  return [
    { file: readme, text: readmeText },
    { file: answersFile, text: `${answersDocument({ ...answers, hostOf }).join('\n')}\n` },
  ];
}

/**
 * How many answers one run likely decides of each headline question, for a quick run's order:
 * (question) => the sum, over the pairs of perf/questions.json that compare each runtime's
 * defaults among servers (default: those a run compares unless told others), of the chance one more run decides the
 * archive's pooled answer, from its predictive distribution (perf/lib/judge/meta.js
 * nextRunDecides): a gap the runs agree on is cheap to confirm, a question the runs leave on 1
 * unlikely to be settled in seconds; PRIOR_DECIDES where no run answered it. A full run's rounds
 * decide more than a quick run's: the chances rank the questions, they do not promise a quick
 * run's odds.
 */
function decidingOdds({ archiveDir = ARCHIVE_DIR, servers = null, definitions = require('../../servers.json') } = {}) {
  const { pooledOf, pairs: all } = archiveAnswers({ archiveDir, definitions });
  const pairs = defaultPairs(definitions, servers || headlineServers(definitions));
  // Each pair on the runtimes the run measures; where no full run of those answers yet, the same
  // pair on history's runtimes ranks the questions (an order, not an answer).
  const asked = (era, pair) => all.find((x) => x.era === era && x.names.a === pair.a && x.names.b === pair.b);
  return (q) => pairs.reduce((t, pair) => {
    const pooled = pooledOf(q, { a: runtimeLabel(definitions, null, pair.a), b: runtimeLabel(definitions, null, pair.b) }) || pooledOf(q, asked('history', pair) || {});
    return t + ((pooled && nextRunDecides(pooled)) ?? PRIOR_DECIDES);
  }, 0);
}

/**
 * The archive's between-run spread for a run's own answers (perf/lib/judge/meta.js acrossRuns):
 * (results, a judged run) => (answer, one of runAnswers(results)) => { tau2, k } from the
 * random-effects pool of the current full runs of the same comparison on the same runtimes, or
 * null where fewer than MIN_POOLED_RUNS of them measured it (no τ² to speak of).
 */
function betweenRunSpread({ archiveDir = ARCHIVE_DIR, definitions = require('../../servers.json') } = {}) {
  let pooled = null; // read when a run first asks: most runs' terminal has no headline answers
  return (results) => {
    const software = { node: results.environment.node, ruby: results.environment.ruby };
    const label = (name) => runtimeLabel(results.definitions, software, name);
    return (answer) => {
      const [a, b] = [label(answer.a), label(answer.b)];
      pooled = pooled || archiveAnswers({ archiveDir, definitions, withoutStale: true }).pooled;
      const p = pooled.find((x) => x.subject === answer.subject && x.metric === answer.metric && ((x.a === a && x.b === b) || (x.a === b && x.b === a)));
      return p && p.decision !== 'few' && Number.isFinite(p.tau2) ? { tau2: p.tau2, k: p.k } : null;
    };
  };
}

/**
 * Runs set against the archive, question by question (the headline questions, the first pair,
 * on the runtimes the first run measured it on): [{ question, pooled (the archive's answer, or
 * null), runs: [{ dir, answer (the run's, or null), against (judge/meta.js againstPool, or
 * null) }] }]. dirs: results folders, quick runs or full: whether a quick run contradicts the
 * full runs is what this is for.
 */
function runsAgainstArchive(dirs, { archiveDir = ARCHIVE_DIR } = {}) {
  const archived = archiveAnswers({ archiveDir });
  const { names } = archived.pairs[0];
  const runs = dirs.map((dir) => {
    const results = judgeResults(loadResults(dir));
    const software = { node: results.environment.node, ruby: results.environment.ruby };
    const label = (name) => runtimeLabel(results.definitions, software, name);
    return { dir, pair: { a: label(names.a), b: label(names.b) }, answers: withRuntimeLabels({ answers: runAnswers(results), servers: results.definitions, software }).answers };
  });
  const pair = runs.length ? runs[0].pair : archived.pairs[0];
  return archived.questions.map((question) => {
    const pooled = archived.pooledOf(question, pair);
    return {
      question,
      pooled,
      // Each run on its own runtimes: a run whose servers ran on others stands against those.
      runs: runs.map(({ dir, answers, pair: own }) => {
        const answer = answers.find((x) => x.subject === question.subject && x.metric === question.metric && [x.a, x.b].sort().join() === [own.a, own.b].sort().join()) || null;
        return { dir, answer, against: againstPool(archived.pooledOf(question, own), answer) };
      }),
    };
  });
}

module.exports = { runsAgainstArchive, decidingOdds, betweenRunSpread, archiveRun, archiveAnswers, documentsWithAnswers, notArchivable, README, ANSWERS };
