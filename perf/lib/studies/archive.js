'use strict';
// The archive's two jobs, from stored files only: add a finished full run's record
// (results.json → results/archive/<id>.json), and pool every record into the answers across
// runs (and the blocks of README.md and RESULTS.md that show them). The data flows one way:
// store reads, judge decides, text words it.

const fs = require('node:fs');
const path = require('node:path');
const { loadResults } = require('../store/results_doc');
const { judgeResults } = require('../judge/judged');
const { ARCHIVE_DIR, ArchiveError, recordOf, readArchive, writeRecord } = require('../store/archive');
const { runAnswers, staleAnswers, poolArchive, pooledClaim, hostOf, againstPool, nextRunDecides } = require('../judge/meta');
const { seedClaim } = require('../judge/seeds');
const { DEFAULT_MARGIN } = require('../judge/answer');
const { serverSources } = require('../run/environment');
const { PROJECT_ROOT } = require('../hosts/server_process');
const { readmeBlock, resultsBlock, withBlock } = require('../text/pooled');
const { headline, defaultPairs, PRIOR_DECIDES } = require('../plan/questions');

const README = path.join(PROJECT_ROOT, 'README.md');
const RESULTS = path.join(PROJECT_ROOT, 'RESULTS.md');
const BLOCK = 'answers';

/**
 * Why a run's results cannot join the archive, or null: the archive holds full runs, ended,
 * measured on this machine's loopback the default way (a quick run's few rounds, a run against
 * --target, over --link or from --load-hosts, or the seeds' servers answer other questions).
 */
function notArchivable(results) {
  const o = results.environment.options || {};
  if (results.interrupted) return 'the run was interrupted';
  if (results.error) return `the run stopped: ${results.error}`;
  if (o.quick) return 'a quick run (the archive holds full runs)';
  for (const [key, flag] of [['target', '--target'], ['link', '--link'], ['load_hosts', '--load-hosts']]) if (o[key]) return `a run with ${flag} (the archive holds runs on this machine's loopback)`;
  if (o.seeds) return 'a --seeds run (the archive holds the full run of node and em)';
  if (o.design !== 'rounds') return 'a run of independent trials (--repeat): the archive holds paired rounds';
  // A record names its commit, and the digests of its servers are taken there.
  if (results.environment.project_dirty) return 'the working copy differed from its commit (commit first, so that the record says what ran)';
  return null;
}

/** Adds the run in dir to the archive; returns the record's path. Throws ArchiveError (one line). */
function archiveRun(dir, { archiveDir = ARCHIVE_DIR } = {}) {
  const results = judgeResults(loadResults(dir));
  const why = notArchivable(results);
  if (why) throw new ArchiveError(`${results.file} is not archived: ${why}`);
  const commit = results.environment.project_commit;
  const sources = commit ? serverSources(results.definitions, { commit }) : {};
  return writeRecord(recordOf(results, { answers: runAnswers(results), sources }), archiveDir);
}

/**
 * The archive pooled: { records, pooled (perf/lib/judge/meta.js poolArchive), questions, pairs,
 * pooledOf(question, pair), claimOf(question, pooled) }. Each record's answers are marked stale
 * where its servers differ from today's (their sources at HEAD).
 */
function archiveAnswers({ archiveDir = ARCHIVE_DIR, withoutStale = false, definitions = null } = {}) {
  const records = readArchive(archiveDir);
  const current = serverSources(definitions || require('../../servers.json'));
  for (const record of records) record.stale = staleAnswers(record, current);
  const order = Object.keys(definitions || require('../../servers.json'));
  // Pooled at the project's margin whatever margin a run was asked for: "the same" means one thing here.
  const pooled = poolArchive(records, { margin: DEFAULT_MARGIN, withoutStale, order });
  const pooledOf = (q, pair) => pooled.find((p) => p.subject === q.subject && p.metric === q.metric && p.a === pair.a && p.b === pair.b) || null;
  const claimOf = (q, p) => {
    const claim = q.seed ? seedClaim(q.seed) : null;
    return claim && claim.subject === p.subject && claim.metric === p.metric && claim.a === p.a && claim.b === p.b ? pooledClaim(p, claim) : null;
  };
  const { questions, pairs } = headline();
  return { records, pooled, questions, pairs, pooledOf, claimOf };
}

/** The README.md and RESULTS.md text with their answer blocks as the archive gives them. */
function documentsWithAnswers(answers, { images = [], readme = README, results = RESULTS } = {}) {
  const readmeText = withBlock(fs.readFileSync(readme, 'utf8'), BLOCK, readmeBlock({ ...answers, hostOf, images }));
  const resultsText = withBlock(fs.readFileSync(results, 'utf8'), BLOCK, resultsBlock({ ...answers, hostOf }));
  return [
    { file: readme, text: readmeText },
    { file: results, text: resultsText },
  ];
}

/**
 * How many answers one run likely decides of each headline question, for a quick run's order:
 * (question) => the sum, over the pairs of perf/questions.json that compare each runtime's
 * defaults among servers (default: all of them), of the chance one more run decides the
 * archive's pooled answer, from its predictive distribution (perf/lib/judge/meta.js
 * nextRunDecides): a gap the runs agree on is cheap to confirm, a question the runs leave on 1
 * unlikely to be settled in seconds; PRIOR_DECIDES where no run answered it. A full run's rounds
 * decide more than a quick run's: the chances rank the questions, they do not promise a quick
 * run's odds.
 */
function decidingOdds({ archiveDir = ARCHIVE_DIR, servers = null, definitions = require('../../servers.json') } = {}) {
  const { pooledOf } = archiveAnswers({ archiveDir, definitions });
  const pairs = defaultPairs(definitions, servers);
  return (q) => pairs.reduce((t, pair) => {
    const pooled = pooledOf(q, pair);
    return t + ((pooled && nextRunDecides(pooled)) ?? PRIOR_DECIDES);
  }, 0);
}

/**
 * Runs set against the archive, question by question (the headline questions, the first pair):
 * [{ question, pooled (the archive's answer, or null), runs: [{ dir, answer (the run's, or
 * null), against (judge/meta.js againstPool, or null) }] }]. dirs: results folders, quick runs
 * or full: whether a quick run contradicts the full runs is what this is for.
 */
function runsAgainstArchive(dirs, { archiveDir = ARCHIVE_DIR } = {}) {
  const archived = archiveAnswers({ archiveDir });
  const [pair] = archived.pairs;
  const runs = dirs.map((dir) => ({ dir, answers: runAnswers(judgeResults(loadResults(dir))) }));
  return archived.questions.map((question) => {
    const pooled = archived.pooledOf(question, pair);
    return {
      question,
      pooled,
      runs: runs.map(({ dir, answers }) => {
        const answer = answers.find((x) => x.subject === question.subject && x.metric === question.metric && [x.a, x.b].sort().join() === [pair.a, pair.b].sort().join()) || null;
        return { dir, answer, against: againstPool(pooled, answer) };
      }),
    };
  });
}

module.exports = { runsAgainstArchive, decidingOdds, archiveRun, archiveAnswers, documentsWithAnswers, notArchivable, README, RESULTS };
