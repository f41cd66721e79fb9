'use strict';
// The answers across runs in words (perf/lib/judge/meta.js poolArchive decides them): one line
// per comparison for the terminal, the headline questions' table written into README.md between
// markers, and every comparison's table, the whole of docs/answers.md, so that
// `npm run answers -- --write` can write them and a test can tell when they are stale.

const { METRICS } = require('../rule/metrics');
const { parseLabel } = require('../hosts/runtimes');
const { DEFAULT_MARGIN } = require('../method');
const { MIN_POOLED_RUNS } = require('../judge/meta');
const { fmtFactor, fmtInterval, markdownTable, markdownAnchor, marginText, calibrationWords } = require('./format');
const { keptWords, RELATION_WORDS } = require('./verdict_words');
const { noteWords } = require('./verdict_notes');
const { METRIC_WORDS } = require('./metric_words');

const RAMP_METRIC = 'sustainable_rps';

/** What a factor of this metric says, after "node 1.5×": "faster mean", "more req/s"… */
function metricWord(metric) {
  if (metric === RAMP_METRIC) return 'the sustainable rate';
  const m = METRICS[metric];
  const w = METRIC_WORDS[metric];
  return m ? (m.latency ? `${w.word} ${w.short}` : w.word) : metric;
}

/** The metric as a table's label: "mean", "req/s", "sustainable rate". */
function metricLabel(metric) {
  return metric === RAMP_METRIC ? 'sustainable rate' : METRIC_WORDS[metric] ? METRIC_WORDS[metric].short : metric;
}

/** The interval of side's factor (> 1 where side is better) from an interval of a ÷ b. */
function sideInterval({ a, better }, ci, side) {
  const aBetter = better === 'higher' ? ci : [1 / ci[1], 1 / ci[0]];
  return side === a ? aBetter : [1 / aBetter[1], 1 / aBetter[0]];
}

/** One host's answer in a "depends" line: "em 1.5× on 3 runs of AMD EPYC". */
function hostWords(p, host) {
  const where = `${host.k} run${host.k === 1 ? '' : 's'} of ${host.host}`;
  if (host.decision === 'winner') return `${host.winner} ${fmtFactor(host.factor)} on ${where}`;
  if (host.decision === 'same') return `the same on ${where}`;
  return `undecided on ${where}`;
}

/** One answer (x: decision, winner, factor, ci95 of comparison p) in words, its interval in the winner's favour (or a's, when none wins). */
function decisionWords(p, x) {
  if (x.decision === 'winner') return `${x.winner} ${fmtFactor(x.factor)} ${metricWord(p.metric)} ${fmtInterval(sideInterval(p, x.ci95, x.winner))}`;
  const ofA = fmtInterval(sideInterval(p, x.ci95, p.a));
  if (x.decision === 'same') return `the same within ${marginText(p.margin)} ${ofA}`;
  return `undecided: ${p.a} ${ofA.slice(1, -1)}× as good${x.fdr ? ' (a winner at 95 % alone, not kept with false discoveries held at 5 %)' : ''}`;
}

/**
 * The pooled answer in words; fewer runs than pool (judge/meta.js MIN_POOLED_RUNS), each run's
 * own answer with its day (basisWords says they are not pooled).
 */
function answerWords(p) {
  if (p.decision === null) return `not judged in ${p.runs.length === 1 ? 'its one run' : `any of ${p.runs.length} runs`}`;
  if (p.decision === 'depends') return `depends on the machine: ${p.hosts.map((h) => hostWords(p, h)).join(', ')}`;
  if (p.decision === 'few') return p.each.map((x) => `${decisionWords(p, x)} (${String(x.started_at).slice(0, 10)})`).join('; ');
  return decisionWords(p, p);
}

/** Why a run's answer is not judged, in words: a stored reason as it is, or the judge's code (judge/meta.js runAnswers). */
function notJudgedWords(notJudged) {
  return notJudged && notJudged.code === 'short_of_first_look' ? `${notJudged.rounds} rounds, short of the first look` : noteWords(notJudged);
}

/**
 * What a pooled answer rests on: "3 runs, 2 hosts, I² 40 %" (and the runs of changed servers);
 * for one no run judged, why the latest did not, unless why is false (a table's narrow cell).
 */
function basisWords(p, { why = true } = {}) {
  if (p.k === 0) {
    const latest = notJudgedWords(p.runs[p.runs.length - 1].answer.not_judged);
    return `${p.runs.length} run${p.runs.length === 1 ? '' : 's'}, none judged${why && latest ? ` (the latest: ${latest})` : ''}`;
  }
  const hosts = p.hosts.length;
  const parts = [`${p.k} run${p.k === 1 ? '' : 's'}${p.decision === 'few' && p.k > 1 ? ' (not pooled)' : ''}`, `${hosts} host${hosts === 1 ? '' : 's'}`];
  if (p.i2 !== null && p.i2 !== undefined) parts.push(`I² ${Math.round(p.i2 * 100)} %`);
  if (p.stale_runs) parts.push(`${p.stale_runs === p.k ? 'all' : p.stale_runs} measured before a change to its server or method (history)`);
  if (p.earlier_runs) parts.push(`${p.earlier_runs} earlier run${p.earlier_runs === 1 ? '' : 's'}, before a change to its server or method, not pooled`);
  return parts.join(', ');
}

/** One answer in a table's short cell: "node 1.61× [1.28–2.04]", "same [0.94–1.05]", "undecided: node 0.62–1.08×". */
function shortDecision(p, x) {
  if (x.decision === 'winner') return `${x.winner} ${fmtFactor(x.factor)} ${fmtInterval(sideInterval(p, x.ci95, x.winner))}`;
  const ofA = fmtInterval(sideInterval(p, x.ci95, p.a));
  if (x.decision === 'same') return `same ${ofA}`;
  return `undecided: ${p.a} ${ofA.slice(1, -1)}×`;
}

/**
 * The pooled answer in a short cell (the factor and its interval only; the question says of
 * what): fewer runs than pool, each run's own answer; "depends on the host" with each host's.
 */
function shortAnswer(p) {
  if (p.decision === null) return 'not judged';
  if (p.decision === 'depends') return `depends on the host: ${p.hosts.map((h) => (h.decision === 'winner' ? `${h.winner} ${fmtFactor(h.factor)}` : h.decision === 'same' ? 'same' : 'undecided')).join(', ')}`;
  if (p.decision === 'few') return p.each.map((x) => shortDecision(p, x)).join('; ');
  return shortDecision(p, p);
}

/**
 * What a pooled answer rests on, in a short cell: "4 runs, 1 host", then "history" where all its
 * runs were measured before a change to its server or method ("1 history" where some were), and
 * "+2 earlier" for such runs left out beside current ones. SHORT_LEGEND says so once.
 */
function shortBasis(p, { i2 = false } = {}) {
  if (p.k === 0) return `${p.runs.length} run${p.runs.length === 1 ? '' : 's'}`;
  const hosts = p.hosts.length;
  const parts = [`${p.k} run${p.k === 1 ? '' : 's'}`, `${hosts} host${hosts === 1 ? '' : 's'}`];
  if (i2 && p.i2 !== null && p.i2 !== undefined) parts.push(`I² ${Math.round(p.i2 * 100)} %`);
  if (p.stale_runs) parts.push(p.stale_runs === p.k ? 'history' : `${p.stale_runs} history`);
  if (p.earlier_runs) parts.push(`+${p.earlier_runs} earlier`);
  return parts.join(', ');
}

/** What a short cell's words mean, said once under a table of them. */
const HISTORY_LEGEND = '"history": measured before a change to its server or method (the answer stands until current runs replace it); "+N earlier": N such runs left out beside current ones.';

/** One pooled comparison as a terminal line. */
function pooledLine(p) {
  return `${p.subject} ${metricLabel(p.metric)} (${p.a} vs ${p.b}): ${answerWords(p)} · ${basisWords(p)}`;
}

/** The seed study's claim judged on the pooled answer, in words (claimOutcome's). */
const CLAIM_WORDS = {
  confirmed: 'confirmed',
  less: 'still wins, by less',
  more: 'still wins, by more',
  gone: 'gone: the same here',
  reversed: 'reversed',
  smaller: 'smaller, size unknown',
  undecided: 'undecided',
  differ: 'they differ',
};

/** The archive's runs in a phrase: "3 full runs (2026-11-27 to 2026-11-28) on 2 hosts (AMD EPYC: 2, Intel Xeon: 1)". */
function archiveWords(records, hostOf, { brief = false } = {}) {
  const days = [...new Set(records.map((r) => String(r.started_at).slice(0, 10)))].sort();
  const hosts = new Map();
  for (const r of records) {
    const h = hosts.get(hostOf(r)) || { n: 0, yardstick: [] };
    h.n++;
    if (r.calibration && Number.isFinite(r.calibration.cpu_ms_per_request)) h.yardstick.push(r.calibration.cpu_ms_per_request);
    hosts.set(hostOf(r), h);
  }
  const span = days.length > 1 ? `${days[0]} to ${days[days.length - 1]}` : days[0];
  if (brief) return `${records.length} full run${records.length === 1 ? '' : 's'} (${span}) on ${hosts.size} host${hosts.size === 1 ? '' : 's'}`;
  // The host's calibration (perf/lib/run/calibration.js), where its runs measured one.
  const yardstick = ({ yardstick: y }) => (y.length ? `, ${calibrationWords(y)}` : '');
  return `${records.length} full run${records.length === 1 ? '' : 's'} (${span}) on ${hosts.size} host${hosts.size === 1 ? '' : 's'} (${[...hosts].map(([h, x]) => `${h}: ${x.n}${yardstick(x)}`).join(', ')})`;
}

// More pairs than this in the README's table, and it is split into a table per label.
const MAX_README_COLUMNS = 3;

/** A pooled answer with its servers by name alone (node, not node@node24), for a table whose heading names the runtimes. */
function byServerName(p) {
  const name = (label) => (label ? parseLabel(label).server : label);
  const named = (x) => ({ ...x, winner: name(x.winner) });
  return { ...p, a: name(p.a), b: name(p.b), winner: name(p.winner), hosts: p.hosts && p.hosts.map(named), each: p.each && p.each.map(named) };
}

/** "Node 24 and Ruby 3.3 + YJIT": the runtimes of an era's pairs, by their labels (runtimeLabelOf(id)). */
function eraRuntimes(pairs, runtimeLabelOf) {
  const ids = [...new Set(pairs.flatMap((x) => [x.a, x.b]).map((label) => parseLabel(label).runtime))];
  const labels = ids.map(runtimeLabelOf);
  return labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}` : labels.join('');
}

// Each era's heading (perf/lib/plan/questions.js ERAS).
const ERA_WORDS = { today: "Today's runtimes", history: 'History' };

/**
 * The README's block: for each era of runtimes (today's, then history's), one row per headline
 * question (perf/questions.json), a column per pair some archived run measured on that era's
 * runtimes (a table per label where there are more than MAX_README_COLUMNS). pooledOf(question,
 * pair) gives the pooled answer or null; claimOf(question, pooled) the seed's claim outcome or
 * null; runtimeLabelOf(id) a runtime's label.
 */
function readmeBlock({ questions, pairs, records, hostOf, pooledOf, claimOf, runtimeLabelOf, images = [] }) {
  if (!records.length) return ['No full run is in the archive yet: `scripts/run_scenarios.sh` adds its own to results/archive/, then `npm run answers -- --write` writes them here.'];
  const table = (columns) => {
    const head = ['question', ...columns.map((x) => `${x.label}: ${x.names.a} vs ${x.names.b}`)];
    const body = questions.map((q) => {
      const cells = columns.map((pair) => {
        const p = pooledOf(q, pair);
        if (!p) return 'not measured';
        const claim = claimOf(q, p);
        return `${shortAnswer(byServerName(p))}${claim ? ` (the study's claim: ${CLAIM_WORDS[claim]})` : ''} · ${shortBasis(p)}`;
      });
      return [q.topic ? `${q.topic}: ${q.question}` : q.question, ...cells];
    });
    return markdownTable(head, body, head.map(() => 'l'));
  };
  const out = [];
  for (const era of [...new Set(pairs.map((x) => x.era))]) {
    const ofEra = pairs.filter((x) => x.era === era);
    const measured = ofEra.filter((pair) => questions.some((q) => pooledOf(q, pair)));
    const heading = `**${ERA_WORDS[era]}: ${eraRuntimes(measured.length ? measured : ofEra.filter((x) => x.label === ofEra[0].label), runtimeLabelOf)}.**`;
    if (!measured.length) {
      out.push(heading, `No full run of them is in the archive yet: \`scripts/run_scenarios.sh\` makes one (it installs them first).`, '');
      continue;
    }
    const eraRecords = records.filter((r) => r.answers.some((x) => measured.some((pair) => x.a === pair.a && x.b === pair.b)));
    const labels = [...new Set(measured.map((x) => x.label))];
    const runs = archiveWords(eraRecords, hostOf, { brief: true });
    const tables = measured.length > MAX_README_COLUMNS ? labels.map((label) => measured.filter((x) => x.label === label)) : [measured];
    out.push(`${heading} ${eraRecords.length < MIN_POOLED_RUNS ? `From ${runs}: each cell lists each run's own answer.` : `Pooled over ${runs}.`}`, ...tables.flatMap((columns) => ['', ...table(columns)]), '');
  }
  const legend = `Each cell: the winner, how many times better it is at what the question asks, and the 95 % interval of that factor; "same": within ${marginText(DEFAULT_MARGIN)}; "undecided": neither, with the interval of the first server's factor. Then the runs and hosts it rests on: each run's answer with its own interval, pooled with a random-effects model whose 95 % interval includes the spread between runs ([perf/README.md](perf/README.md#answers-across-runs-the-archive)); with fewer than ${MIN_POOLED_RUNS} runs, each run's own answer, not pooled. ${HISTORY_LEGEND} Every comparison, with its hosts and the spread between its runs: [docs/answers.md](docs/answers.md).`;
  return [legend, '', ...out.slice(0, -1), ...images.flatMap((image) => ['', image])];
}

/**
 * The false-discovery control over the archive's pooled answers beyond the headline questions
 * (judge/multiplicity.js) in one sentence, or null where none was tested.
 */
function falseDiscoveryWords(f) {
  if (!f || !f.tested) return null;
  const dropped = f.winners - f.kept;
  return `Beyond the headline questions, ${f.winners} pooled winners at 95 % among ${f.tested} pooled comparisons; ${keptWords(f, Math.round)}${dropped ? `; the other ${dropped} read "undecided (a winner at 95 % alone …)"` : ''}. The headline questions are judged each at 95 %, as asked; a cell of fewer than ${MIN_POOLED_RUNS} runs lists each run's own answer, judged at 95 %.`;
}

/**
 * Each current run against the others (judge/meta.js nextRunCheck) in one sentence, or null
 * where no comparison has three current runs.
 */
function nextRunWords({ n, beyond, beyondOwn }) {
  if (!n) return null;
  const share = (x) => `${x} of ${n} (${((100 * x) / n).toFixed(1)} %)`;
  return `Each current run's answer set against the pool of the other runs of its comparison: ${share(beyond)} beyond their 95 % across runs (the between-run τ² added, as a quick run's "across runs" interval adds it; about 5 % expected), ${share(beyondOwn)} beyond each run's own noise alone.`;
}

/**
 * docs/answers.md, whole: the archive's runs and hosts, how the answers are checked, then every
 * pooled comparison, a table per pair of servers, with a list of the pairs first.
 */
function answersDocument({ pooled, records, hostOf, nextRun, falseDiscoveries }) {
  const out = [
    '# Answers across runs',
    '',
    '<!-- written by `npm run answers -- --write` from results/archive/; a test fails when it differs -->',
    '',
    "What the archive of full runs (results/archive/) says today: every comparison of each pair of servers, pooled across the runs that measured it. The headline questions in short are in [README.md](../README.md#what-the-runs-found); each measurement as it was made, dated, with why the answers come out as they do, in [RESULTS.md](../RESULTS.md); how runs are pooled and judged, in [perf/README.md](../perf/README.md#answers-across-runs-the-archive).",
  ];
  if (!records.length) return [...out, '', 'No full run is in the archive yet.'];
  const byPair = new Map();
  for (const p of pooled) {
    const k = `${p.a} vs ${p.b}`;
    if (!byPair.has(k)) byPair.set(k, []);
    byPair.get(k).push(p);
  }
  out.push('', `Pooled over ${archiveWords(records, hostOf)}; random effects (DerSimonian–Laird τ², Hartung–Knapp 95 % interval), the project's rule on the pooled interval; with fewer than ${MIN_POOLED_RUNS} runs, each run's own answer. Each run's own answers are in its record under results/archive/.`);
  const check = nextRun && nextRunWords(nextRun);
  if (check) out.push('', check);
  const control = falseDiscoveryWords(falseDiscoveries);
  if (control) out.push('', control);
  out.push('', `"rests on": the runs and hosts an answer pools, and I², the share of their spread that lies between runs rather than within them; ${HISTORY_LEGEND}`);
  out.push('', ...[...byPair.keys()].map((pair) => `- [${pair}](#${markdownAnchor(pair)})`));
  for (const [pair, list] of byPair) {
    out.push('', `## ${pair}`, '', ...markdownTable(['scenario or ramp', 'metric', 'answer', 'rests on'], list.map((p) => [p.subject, metricLabel(p.metric), answerWords(p), p.k === 0 ? basisWords(p) : shortBasis(p, { i2: true })]), ['l', 'l', 'l', 'l']));
  }
  return out;
}

/**
 * text with the lines between `<!-- name:begin … -->` and `<!-- name:end -->` replaced by block.
 * Throws when the markers are missing: the document says where its generated part goes.
 */
function withBlock(text, name, block) {
  const begin = new RegExp(`(<!-- ${name}:begin[^>]*-->\\n)[\\s\\S]*?(<!-- ${name}:end -->)`);
  if (!begin.test(text)) throw new Error(`no <!-- ${name}:begin --> … <!-- ${name}:end --> markers`);
  return text.replace(begin, (_, open, close) => `${open}${block.join('\n')}\n${close}`);
}

/**
 * Runs set against the archive (studies/archive.js runsAgainstArchive) in words: per question
 * the pooled answer and what it rests on, then each run's answer and how it stands against it
 * ("contradicts" where it names the opposite winner, or the same against a clear one); the
 * last line counts the contradictions.
 */
function againstLines(rows, label = (dir) => dir) {
  const lines = [];
  let contradictions = 0;
  for (const { question, pooled, runs } of rows) {
    lines.push(`${question.topic}, ${question.question}: the full runs: ${pooled ? `${answerWords(pooled)} · ${basisWords(pooled)}` : 'no run measured it'}`);
    for (const { dir, answer, against } of runs) {
      const words = !answer ? 'not measured' : answer.decision === null ? `not judged (${notJudgedWords(answer.not_judged)})` : answerWords({ ...answer, runs: [answer] });
      if (against && against.contradicts) contradictions++;
      lines.push(`  ${label(dir)}  ${words}${against ? `  [${against.contradicts ? 'CONTRADICTS: ' : ''}${RELATION_WORDS[against.relation]}]` : ''}`);
    }
  }
  lines.push(`${contradictions} contradiction${contradictions === 1 ? '' : 's'} of the full runs' answers.`);
  return lines;
}

module.exports = { notJudgedWords, againstLines, pooledLine, answerWords, basisWords, byServerName, metricLabel, sideInterval, readmeBlock, answersDocument, shortAnswer, shortBasis, HISTORY_LEGEND, nextRunWords, falseDiscoveryWords, withBlock, CLAIM_WORDS };
