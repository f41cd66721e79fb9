'use strict';
// The archive's jobs (perf/lib/studies/archive.js): a finished full run added as a record, other
// runs refused in one line saying why; the archive pooled; README.md's answer block and
// docs/answers.md written from it; and the committed ones and the figures are what
// results/archive/ gives.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const studies = require('../../../perf/lib/studies/archive');
const { readArchive, writeRecord, ArchiveError } = require('../../../perf/lib/store/archive');
const { answersFigures } = require('../../../perf/lib/report/answers_figure');
const { around, resultsDir } = require('../../support/made_up_archive');
const { PRIOR_DECIDES } = require('../../../perf/lib/plan/questions');
const { makeTmpDir } = require('../../support/runner_helpers');

describe('archive: adding runs and pooling them', () => {
  let root;
  beforeEach(() => {
    root = makeTmpDir('archive-study-');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('adds a finished full run as a record named by its start and commit', () => {
    const archiveDir = path.join(root, 'archive');
    const file = studies.archiveRun(resultsDir(root, { quick: false, design: 'rounds' }), { archiveDir });
    assert.equal(path.basename(file), '2024-06-01T12-00-00Z__0123456.json');
    const [record] = readArchive(archiveDir);
    assert.ok(record.answers.some((x) => x.key === 'short_conn_256 throughput_rps node:em'));
  });

  it('refuses, saying why, a quick run, an interrupted one, one against --target, one of trials, one of a changed working copy', () => {
    const archiveDir = path.join(root, 'archive');
    const refused = (dir, why) => assert.throws(() => studies.archiveRun(dir, { archiveDir }), (e) => e instanceof ArchiveError && e.message.includes(`is not archived: ${why}`));
    refused(resultsDir(root, { quick: true }), 'a quick run (the archive holds full runs)');
    refused(resultsDir(root, { quick: false, design: 'rounds' }, { interrupted: true }), 'the run was interrupted before its paired rounds ended');
    refused(resultsDir(root, { quick: false, target: 'http://127.0.0.1:8080' }), "a run with --target (the archive holds runs on this machine's loopback)");
    refused(resultsDir(root, { quick: false }), 'a run of independent trials (--repeat): the archive holds paired rounds');
    const dirty = resultsDir(root, { quick: false, design: 'rounds' });
    const doc = JSON.parse(fs.readFileSync(path.join(dirty, 'results.json'), 'utf8'));
    doc.environment.project_dirty = true;
    fs.writeFileSync(path.join(dirty, 'results.json'), JSON.stringify(doc));
    refused(dirty, 'the working copy differed from its commit (commit first, so that the record says what ran)');
    assert.deepEqual(readArchive(archiveDir), []);
  });

  it('adds a run interrupted after its rounds (in its ramps): every scenario\'s answer, and a ramp\'s only from searches that ended', () => {
    const archiveDir = path.join(root, 'archive');
    const search = (rps, incomplete = null) => ({ sustainable_rps: rps, saturated: true, failing_rps: rps * 1.05, bracket: [rps, rps * 1.05], limited: null, incomplete, steps: [] });
    const ramps = { objective: { percentile: 'p99', ms: 10 }, repeat: 3, interrupted: true, ramps: [{ name: 'hello_keepalive', servers: { node: { searches: [search(30000), search(9000, 'interrupted')] }, em: { searches: [search(32000), search(8000, 'interrupted')] } } }] };
    const [record] = readArchive(path.dirname(studies.archiveRun(resultsDir(root, { quick: false, design: 'rounds' }, { interrupted: true, ramps }), { archiveDir })));
    assert.equal(record.interrupted, true);
    assert.ok(record.answers.some((x) => x.key === 'short_conn_256 throughput_rps node:em'), 'its scenarios\' answers');
    const ramp = record.answers.find((x) => x.subject === 'hello_keepalive');
    assert.deepEqual([ramp.decision, ramp.log_se], [null, null], 'one search that ended a side: no answer to pool');
  });

  it('pools the archive, and writes README.md\'s block between its markers and docs/answers.md whole', () => {
    const archiveDir = path.join(root, 'archive');
    for (const r of around('AMD EPYC', [0.56, 0.57, 0.55])) writeRecord({ ...r, id: `${r.id}`, sources: {} }, archiveDir);
    const answers = studies.archiveAnswers({ archiveDir });
    assert.equal(answers.records.length, 3);
    const p = answers.pooledOf({ subject: 'short_conn_256', metric: 'throughput_rps' }, { a: 'node@node24', b: 'em@ruby33_yjit' });
    assert.equal(p.decision, 'winner');
    assert.equal(p.winner, 'em@ruby33_yjit');
    const readme = path.join(root, 'README.md');
    const answersFile = path.join(root, 'answers.md');
    fs.writeFileSync(readme, '# x\n<!-- answers:begin: generated -->\n<!-- answers:end -->\nend\n');
    const [r1, r2] = studies.documentsWithAnswers(answers, { images: ['![x](docs/answers_node_vs_em.svg)'], readme, answersFile });
    assert.match(r1.text, /\*\*Today's runtimes: Node 24 and Ruby 3\.3 \+ YJIT\.\*\* Pooled over 3 full runs/);
    assert.match(r1.text, /\| A new connection per request: throughput of 256 clients \| em 1\.\d+× \[[\d.]+–[\d.]+\] · 3 runs, 1 host \|/);
    assert.match(r1.text, /\*\*History: Node 20 and Ruby 3\.1\.\*\*\nNo full run of them is in the archive yet/);
    assert.match(r1.text, /!\[x\]\(docs\/answers_node_vs_em\.svg\)\n<!-- answers:end -->\nend\n$/);
    assert.equal(r2.file, answersFile);
    assert.match(r2.text, /^# Answers across runs\n/);
    assert.match(r2.text, /\n- \[node@node24 vs em@ruby33_yjit\]\(#nodenode24-vs-emruby33_yjit\)\n/);
    assert.match(r2.text, /\n## node@node24 vs em@ruby33_yjit\n/);
  });

  it('pools per runtime, never across: the same servers on Node 20 and Ruby 3.1 (a record from before runtimes were data: the machine\'s, of the versions it recorded) answer apart', () => {
    const archiveDir = path.join(root, 'eras');
    for (const r of around('AMD EPYC', [0.56, 0.57, 0.55])) writeRecord({ ...r, sources: {} }, archiveDir);
    const history = (r) => ({ ...r, id: `old-${r.id}`, servers: { node: { command: 'node' }, em: { command: 'ruby' } }, software: { node: 'v20.20.2', ruby: '3.1.2p20' }, sources: {} });
    for (const r of around('AMD EPYC', [1.6, 1.7, 1.65])) writeRecord(history(r), archiveDir);
    const answers = studies.archiveAnswers({ archiveDir });
    const q = { subject: 'short_conn_256', metric: 'throughput_rps' };
    const today = answers.pooledOf(q, answers.pairs.find((x) => x.era === 'today' && x.names.a === 'node' && x.names.b === 'em'));
    const then = answers.pooledOf(q, answers.pairs.find((x) => x.era === 'history' && x.names.a === 'node' && x.names.b === 'em'));
    assert.deepEqual([today.k, today.winner, then.k, then.winner], [3, 'em@ruby33_yjit', 3, 'node@node20']);
    // The tuned pairs, measured on Node 20 and Ruby 3.1, are asked in history's era only.
    assert.deepEqual(answers.pairs.filter((x) => x.label === 'both tuned' && x.era === 'history').map((x) => [x.era, x.a, x.b]).slice(0, 1), [['history', 'node_tuned@node20', 'em_tuned@ruby31']]);
    const readme = path.join(root, 'README.md');
    fs.writeFileSync(readme, '<!-- answers:begin -->\n<!-- answers:end -->\n');
    const [{ text }] = studies.documentsWithAnswers(answers, { readme, answersFile: path.join(root, 'answers.md') });
    assert.match(text, /Today's runtimes: Node 24 and Ruby 3\.3 \+ YJIT\.\*\* Pooled over 3 full runs[\s\S]*\| em 1\.\d+× \[[\s\S]*History: Node 20 and Ruby 3\.1\.\*\* Pooled over 3 full runs[\s\S]*\| node 1\.\d+× \[/);
  });

  it('a quick run\'s odds: per question, the chances one more run decides each default pair among the servers, summed; the prior where no run answered', () => {
    const archiveDir = path.join(root, 'odds');
    // node vs em on a new connection per request: three runs agree, em 1.79×; nothing else archived.
    for (const r of around('AMD EPYC', [0.56, 0.57, 0.55])) writeRecord({ ...r, id: `${r.id}`, sources: {} }, archiveDir);
    const q = { subject: 'short_conn_256', metric: 'throughput_rps' };
    const nodeEm = studies.decidingOdds({ archiveDir, servers: ['node', 'em'] })(q);
    assert.ok(nodeEm > 0.9 && nodeEm <= 1, `a gap three runs agree on is nearly sure to be decided again (${nodeEm})`);
    // With async: node vs async and em vs async have no archived run, each the prior.
    assert.ok(Math.abs(studies.decidingOdds({ archiveDir })(q) - (nodeEm + 2 * PRIOR_DECIDES)) < 1e-12);
    assert.equal(studies.decidingOdds({ archiveDir, servers: ['em', 'async'] })(q), PRIOR_DECIDES);
    // Where no run of today's runtimes answers, the same pair on history's ranks the question.
    const historyDir = path.join(root, 'odds-history');
    for (const r of around('AMD EPYC', [0.56, 0.57, 0.55], 0.05, { on: { node: 'node20', em: 'ruby31' } })) writeRecord({ ...r, sources: {} }, historyDir);
    assert.equal(studies.decidingOdds({ archiveDir: historyDir, servers: ['node', 'em'] })(q), nodeEm);
  });

  it('README.md, docs/answers.md and docs/answers_*.svg hold what results/archive/ gives (npm run answers -- --write)', async () => {
    const answers = studies.archiveAnswers();
    const figures = await answersFigures(answers);
    const expected = [...studies.documentsWithAnswers(answers, { images: figures.map((f) => f.markdown) }), ...figures.map(({ file, svg }) => ({ file, text: svg }))];
    for (const { file, text } of expected) {
      assert.ok(fs.existsSync(file), `${file} is missing: npm run answers -- --write`);
      assert.ok(fs.readFileSync(file, 'utf8') === text, `${path.relative(process.cwd(), file)} differs from what results/archive/ gives: npm run answers -- --write`);
    }
  });
});
