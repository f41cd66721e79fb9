'use strict';
// The answer first: one short line per scenario with what the comparisons of the pair decided
// (the winners with factor and interval, what is the same within the margin, what stayed
// undecided, what was not judged), then a count of what was decided. The terminal ends with
// it; the full tables are summary.md's and the report's. Formats the judged results' answers
// (perf/lib/judge/judged.js: each pair's comparisons, what tuning does, the budget's outlook);
// decides nothing.

const { METRICS, METRIC_NAMES } = require('../rule/metrics');
const { METRIC_WORDS } = require('./metric_words');
const { withoutAdvice, noteWords } = require('./verdict_notes');
const { marginText, fmtFactor, fmtInterval, fmtDuration } = require('./format');
const { toText, overheadLines, seedLines, falseDiscoveryLines } = require('./summary');
const { rampLines } = require('./ramps');
const { waitingLines } = require('./held');
const { backendLines } = require('./backends');
const { tuningText } = require('./tuning');
const { whyText } = require('./runtime');
const { headlineLines } = require('./questions');

/** A winner's metric in a few words: "1.5× faster p50 [1.3–1.7]", "1.4× less CPU/req [1.2–1.6]". */
function winText(a) {
  const w = METRIC_WORDS[a.metric];
  return `${fmtFactor(a.factor)} ${METRICS[a.metric].latency ? `faster ${w.short}` : w.word} ${fmtInterval(a.ci)}`;
}

/**
 * A pair's answers in one scenario, grouped: { wins: { server: [answer…] }, same: [metric…],
 * undecided: [metric…], notJudged: [{ metric, why }] } (answers: the comparisons' `answer`,
 * each with its metric). comparisons: the pair's, as judged (pairComparisons, tunedComparisons).
 */
function scenarioAnswers(pair, comparisons, scenario) {
  const [a, b] = pair;
  const out = { wins: { [a]: [], [b]: [] }, same: [], undecided: [], notJudged: [], margin: null };
  for (const metric of METRIC_NAMES) {
    const c = comparisons.find((x) => x.scenario === scenario && x.metric === metric);
    if (!c) continue;
    // The answer names its lead by server, so a flipped (b-vs-a) comparison reads the same.
    const { answer } = c;
    if (answer.kind === 'winner') out.wins[answer.lead].push({ ...answer, metric });
    else if (answer.kind === 'same') {
      out.same.push(metric);
      out.margin = answer.margin;
    } else if (answer.kind === 'undecided') out.undecided.push(metric);
    // Why in a few words: what verdictWords says, an exclusion's note without its advice ("em
    // client-bound in all 5 trials"), a rule's code ("n too small", "set by the rate").
    else out.notJudged.push({ metric, why: answer.kind === 'no_interval' ? noteWords(answer.why) : answer.kind === 'excluded' ? withoutAdvice(answer.why) : answer.code || noteWords(answer.why) });
  }
  return out;
}

/**
 * One scenario's line: "em 1.5× more req/s [1.3–1.7], 1.4× less CPU/req [1.2–1.6]; p50 same
 * ±10 %; p99 undecided". pair and comparisons: the primary pair's unless given.
 */
function scenarioLine(results, scenario, pair = results.pair, comparisons = results.pairComparisons) {
  const s = scenarioAnswers(pair, comparisons, scenario);
  const short = (metrics) => metrics.map((m) => METRIC_WORDS[m].short).join(', ');
  const parts = [];
  for (const [server, wins] of Object.entries(s.wins)) if (wins.length) parts.push(`${server} ${wins.map(winText).join(', ')}`);
  if (s.same.length) parts.push(`${short(s.same)} same ${marginText(s.margin)}`);
  if (s.undecided.length) parts.push(`${short(s.undecided)} undecided`);
  const whys = [...new Set(s.notJudged.map((n) => n.why))];
  if (s.notJudged.length) parts.push(`not judged: ${whys.map((why) => `${short(s.notJudged.filter((n) => n.why === why).map((n) => n.metric))} (${why})`).join(', ')}`);
  const wait = results.runs.find((r) => r.scenario === scenario && r.above_wait_ms);
  if (wait && parts.length) parts.push(`latencies above the ${wait.above_wait_ms.wait_ms} ms wait`);
  return parts.join('; ') || 'nothing compared';
}

/**
 * How many of a pair's comparisons were decided (a winner, or the same within the margin),
 * of those that can be judged at all (not set by the schedule, resolved, both sides measured):
 * { decided, judgeable, undecided }. pair and comparisons: the primary pair's unless given.
 */
function decidedShare(results, pair = results.pair, comparisons = results.pairComparisons) {
  const tally = { decided: 0, judgeable: 0, undecided: 0 };
  for (const scenario of results.scenarios) {
    const s = scenarioAnswers(pair, comparisons, scenario);
    const decided = Object.values(s.wins).reduce((n, w) => n + w.length, 0) + s.same.length;
    tally.decided += decided;
    tally.undecided += s.undecided.length;
    tally.judgeable += decided + s.undecided.length;
  }
  return tally;
}

/** One pair's block (comparisons: the pair's, as judged): a line per scenario, then what was decided. */
function pairBlock(results, pair, comparisons, title) {
  const width = Math.max(...results.scenarios.map((s) => s.length));
  const lines = [`${title} (95 % intervals of the factor):`];
  for (const scenario of results.scenarios) {
    lines.push(`  ${scenario.padEnd(width)}  ${scenarioLine(results, scenario, pair, comparisons)}`);
    // Where a latency was decided, what the tails coincided with.
    const s = scenarioAnswers(pair, comparisons, scenario);
    const why = Object.values(s.wins).some((wins) => wins.some((w) => METRICS[w.metric].latency)) ? whyText(results, scenario, pair) : '';
    if (why) lines.push(`  ${' '.repeat(width)}  why: ${why}`);
  }
  const t = decidedShare(results, pair, comparisons);
  lines.push(`Decided ${t.decided} of ${t.judgeable} comparisons${t.judgeable ? ` (${Math.round((100 * t.decided) / t.judgeable)} %)` : ''}; undecided ${t.undecided}.`);
  return lines;
}

/**
 * What tuning both runtimes does to each answer a winner was named in (the defaults' or the
 * tuned pair's: a judged pair's tuning): a line per scenario and metric; [] without the tuned
 * pair.
 */
function tuningLines(results, { tunedPair, tuning }) {
  if (!tuning.length) return [];
  const defs = results.definitions;
  const [ta, tb] = tunedPair;
  const [a, b] = [defs[ta].tuned_of, defs[tb].tuned_of];
  const width = Math.max(...results.scenarios.map((s) => s.length));
  const lines = tuning.map((t) => `  ${t.scenario.padEnd(width)}  ${METRIC_WORDS[t.metric].short.padEnd(7)} ${tuningText(t.effect, t.defaults, t.tuned)}`);
  return [`What tuning both does to each winner named (${a} and ${b} with their defaults against ${ta} and ${tb}):`, ...lines];
}

/**
 * The answer block: for each pair of runtimes (judged results' pairs), a block of its defaults,
 * and of both tuned where they ran, with what tuning does; then the budget's advice; [] without
 * a pair.
 */
function answerLines(results) {
  if (!results.pair) return [];
  const lines = [];
  for (const p of results.pairs) {
    lines.push(...pairBlock(results, p.pair, p.comparisons, `Answers, ${p.pair.join(' vs ')}`));
    if (p.tunedPair) lines.push(...pairBlock(results, p.tunedPair, p.tunedComparisons, `Answers, both tuned, ${p.tunedPair.join(' vs ')}`), ...tuningLines(results, p));
  }
  const advice = budgetAdvice(results);
  if (advice) lines.push(advice);
  return lines;
}

/**
 * With paired rounds, what a larger budget would likely buy (the judged results' budget: the
 * pair's undecided comparisons at the look that would likely decide them, and what those
 * rounds cost), in words; "" without rounds or undecided ones.
 */
function budgetAdvice(results) {
  if (!results.budget) return '';
  const { likely, beyond, extra_s: extraS } = results.budget;
  const spent = results.doc.rounds_budget;
  const { looks, headline } = results.environment.options;
  // A quick run's --budget is the whole run's: its ramps' share comes on top of the rounds'.
  const ramps = headline ? Math.max(0, headline.budget_s - spent.budget_s) : 0;
  const parts = [];
  if (likely) parts.push(`--budget ${Math.ceil((spent.spent_s + extraS + ramps) / 60)}min would likely decide ${likely} of the ${likely + beyond} undecided (this one: ${fmtDuration(spent.budget_s + ramps)}, ${fmtDuration(spent.spent_s)} spent${ramps ? ' on the scenarios' : ''})`);
  if (beyond) parts.push(`${beyond} would need more than ${looks[looks.length - 1]} rounds: a gap smaller than this machine's noise can show`);
  return `${parts.join('; ')}.`;
}

/**
 * What the terminal ends with: the answer block, the ramps', the waiting requests' and the backends' lines, then the overheads against references and the
 * seeds table where those ran (their answers), and where the rest is. A run without a pair
 * (one server, or one with its references) gets the whole summary table instead.
 */
function terminalText(results, { spreadOf = null } = {}) {
  if (!results.pair) return toText(results);
  // A quick run of the headline questions answers them, a line each; the rest is in the tables.
  const quick = headlineLines(results, budgetAdvice(results), spreadOf);
  const lines = quick.length ? quick : [...answerLines(results), ...falseDiscoveryLines(results), ...rampLines(results), ...waitingLines(results), ...backendLines(results), ...overheadLines(results), ...seedLines(results)];
  const warnings = results.warnings.filter((w) => w.severity !== 'info').length;
  lines.push('', `Tables, every verdict with its interval${quick.length ? ', the ramps\' searches' : ''}${warnings ? `, and ${warnings} warning${warnings > 1 ? 's' : ''}` : ''}: summary.txt and summary.md, beside results.json.`);
  return `${lines.join('\n')}\n`;
}

module.exports = { answerLines, scenarioLine, decidedShare, budgetAdvice, terminalText };
