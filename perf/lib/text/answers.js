'use strict';
// The answer first: one short line per scenario with what the comparisons of the pair decided
// (the winners with factor and interval, what is the same within the margin, what stayed
// undecided, what was not judged), then a count of what was decided. The terminal ends with
// it; the full tables are summary.md's and the report's. Formats the judged results' answers
// (perf/lib/judge/judged.js); decides nothing.

const { METRICS, METRIC_NAMES } = require('../judge/metrics');
const { findComparison, isSuperseded, withoutAdvice } = require('../judge/verdicts');
const { marginText } = require('../judge/answer');
const { lookToDecide } = require('../judge/sequential');
const { fmtDuration } = require('../plan/trial_plan');
const { fmtFactor, fmtInterval } = require('./format');
const { toText, overheadLines, seedLines } = require('./summary');
const { rampLines } = require('./ramps');
const { waitingLines } = require('./waiting');
const { backendLines } = require('./backends');
const { tuningText } = require('./tuning');
const { whyText } = require('./runtime');
const { baseOf, tuningEffect } = require('../judge/tuning');

/** A winner's metric in a few words: "1.5× faster p50 [1.3–1.7]", "1.4× less CPU/req [1.2–1.6]". */
function winText(a) {
  const m = METRICS[a.metric];
  return `${fmtFactor(a.factor)} ${m.latency ? `faster ${m.short}` : m.word} ${fmtInterval(a.ci)}`;
}

/**
 * The pair's answers in one scenario, grouped: { wins: { server: [answer…] }, same: [metric…],
 * undecided: [metric…], notJudged: [{ metric, why }] } (answers: the comparisons' `answer`,
 * each with its metric).
 */
function scenarioAnswers(results, scenario, pair = results.pair) {
  const [a, b] = pair;
  const out = { wins: { [a]: [], [b]: [] }, same: [], undecided: [], notJudged: [], margin: null };
  for (const metric of METRIC_NAMES) {
    const c = findComparison(results.comparisons, scenario, metric, a, b);
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
    else out.notJudged.push({ metric, why: answer.kind === 'no_interval' ? answer.why : answer.kind === 'excluded' ? withoutAdvice(answer.why) : answer.code || answer.why });
  }
  return out;
}

/** One scenario's line: "em 1.5× more req/s [1.3–1.7], 1.4× less CPU/req [1.2–1.6]; p50 same ±10 %; p99 undecided". */
function scenarioLine(results, scenario, pair = results.pair) {
  const s = scenarioAnswers(results, scenario, pair);
  const short = (metrics) => metrics.map((m) => METRICS[m].short).join(', ');
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
 * How many of the pair's comparisons were decided (a winner, or the same within the margin),
 * of those that can be judged at all (not set by the schedule, resolved, both sides measured):
 * { decided, judgeable, undecided }.
 */
function decidedShare(results, pair = results.pair) {
  const tally = { decided: 0, judgeable: 0, undecided: 0 };
  for (const scenario of results.scenarios) {
    const s = scenarioAnswers(results, scenario, pair);
    const decided = Object.values(s.wins).reduce((n, w) => n + w.length, 0) + s.same.length;
    tally.decided += decided;
    tally.undecided += s.undecided.length;
    tally.judgeable += decided + s.undecided.length;
  }
  return tally;
}

/** One pair's block: a line per scenario, then what was decided. */
function pairBlock(results, pair, title) {
  const width = Math.max(...results.scenarios.map((s) => s.length));
  const lines = [`${title} (95 % intervals of the factor):`];
  for (const scenario of results.scenarios) {
    lines.push(`  ${scenario.padEnd(width)}  ${scenarioLine(results, scenario, pair)}`);
    // Where a latency was decided, what the tails coincided with.
    const s = scenarioAnswers(results, scenario, pair);
    const why = Object.values(s.wins).some((wins) => wins.some((w) => METRICS[w.metric].latency)) ? whyText(results, scenario, pair) : '';
    if (why) lines.push(`  ${' '.repeat(width)}  why: ${why}`);
  }
  const t = decidedShare(results, pair);
  lines.push(`Decided ${t.decided} of ${t.judgeable} comparisons${t.judgeable ? ` (${Math.round((100 * t.decided) / t.judgeable)} %)` : ''}; undecided ${t.undecided}.`);
  return lines;
}

/** A scenario comparison's answer as tuningEffect reads it: { kind, lead (a base server), factor, ci }. */
function answerOf(c, definitions) {
  if (!c) return { kind: null };
  const { answer } = c;
  if (answer.kind === 'winner') return { kind: 'winner', lead: baseOf(answer.lead, definitions), factor: answer.factor, ci: answer.ci };
  return { kind: answer.kind === 'same' || answer.kind === 'undecided' ? answer.kind : null };
}

/**
 * What tuning both runtimes does to each answer a winner was named in (the defaults' or the
 * tuned pair's): a line per scenario and metric; [] without the tuned pair.
 */
function tuningLines(results) {
  if (!results.tunedPair) return [];
  const defs = results.definitions;
  const [ta, tb] = results.tunedPair;
  const [a, b] = [defs[ta].tuned_of, defs[tb].tuned_of];
  const width = Math.max(...results.scenarios.map((s) => s.length));
  const lines = [];
  for (const scenario of results.scenarios) {
    for (const metric of METRIC_NAMES) {
      const defaults = answerOf(findComparison(results.comparisons, scenario, metric, a, b), defs);
      const tuned = answerOf(findComparison(results.comparisons, scenario, metric, ta, tb), defs);
      if (defaults.kind !== 'winner' && tuned.kind !== 'winner') continue;
      lines.push(`  ${scenario.padEnd(width)}  ${METRICS[metric].short.padEnd(7)} ${tuningText(tuningEffect(defaults, tuned), defaults, tuned)}`);
    }
  }
  return lines.length ? [`What tuning both does to each winner named (${a} and ${b} with their defaults against ${ta} and ${tb}):`, ...lines] : [];
}

/** The answer block: a block per pair (the defaults', and both tuned where they ran), what tuning does, the budget's advice; [] without a pair. */
function answerLines(results) {
  if (!results.pair) return [];
  const [a, b] = results.pair;
  const lines = pairBlock(results, results.pair, `Answers, ${a} vs ${b}`);
  if (results.tunedPair) lines.push(...pairBlock(results, results.tunedPair, `Answers, both tuned, ${results.tunedPair.join(' vs ')}`), ...tuningLines(results));
  const advice = budgetAdvice(results);
  if (advice) lines.push(advice);
  return lines;
}

/**
 * With paired rounds, what a larger budget would likely buy: the pair's undecided comparisons,
 * each at the look where its interval would likely be narrow enough (lookToDecide), costed at
 * its scenario's seconds per round so far; "" without rounds or undecided ones.
 */
function budgetAdvice(results) {
  const options = results.environment.options || {};
  const spent = results.doc.rounds_budget;
  if (options.design !== 'rounds' || !spent || !results.pair) return '';
  const [a, b] = results.pair;
  let extraS = 0;
  let likely = 0;
  let beyond = 0;
  for (const scenario of results.scenarios) {
    const open = METRIC_NAMES.map((m) => findComparison(results.comparisons, scenario, m, a, b)).filter((c) => c && c.decision === 'undecided');
    if (!open.length) continue;
    const rounds = Math.max(...open.map((c) => c.rounds || 0));
    const to = open.map((c) => lookToDecide(c.rounds, c.more_measuring, options.looks));
    likely += to.filter((n) => n !== null).length;
    beyond += to.filter((n) => n === null).length;
    const furthest = Math.max(0, ...to.filter((n) => n !== null));
    if (furthest > rounds) extraS += (furthest - rounds) * secondsPerRound(results.runs, scenario, rounds);
  }
  if (!likely && !beyond) return '';
  const parts = [];
  if (likely) parts.push(`--budget ${Math.ceil((spent.spent_s + extraS) / 60)}min would likely decide ${likely} of the ${likely + beyond} undecided (this one: ${fmtDuration(spent.budget_s)}, ${fmtDuration(spent.spent_s)} spent)`);
  if (beyond) parts.push(`${beyond} would need more than ${options.looks[options.looks.length - 1]} rounds: a gap smaller than this machine's noise can show`);
  return `${parts.join('; ')}.`;
}

/**
 * Seconds one round of a scenario took: its judged engine's runs, with warm-ups, over its
 * rounds; runs measured together (beside) share their seconds.
 */
function secondsPerRound(runs, scenario, rounds) {
  const mine = runs.filter((r) => r.scenario === scenario && !isSuperseded(r));
  const total = mine.reduce((t, r) => t + ((r.duration_s || 0) + ((r.warmup && r.warmup.seconds) || 0) + 0.1) / (r.beside ? r.beside.length + 1 : 1), 0);
  return rounds > 0 ? total / rounds : 0;
}

/**
 * What the terminal ends with: the answer block, the ramps', the waiting requests' and the backends' lines, then the overheads against references and the
 * seeds table where those ran (their answers), and where the rest is. A run without a pair
 * (one server, or one with its references) gets the whole summary table instead.
 */
function terminalText(results) {
  if (!results.pair) return toText(results);
  const lines = [...answerLines(results), ...rampLines(results), ...waitingLines(results), ...backendLines(results), ...overheadLines(results), ...seedLines(results)];
  const warnings = results.warnings.filter((w) => w.severity !== 'info').length;
  lines.push('', `Tables, every verdict with its interval${warnings ? `, and ${warnings} warning${warnings > 1 ? 's' : ''}` : ''}: summary.txt and summary.md, beside results.json.`);
  return `${lines.join('\n')}\n`;
}

module.exports = { answerLines, scenarioLine, decidedShare, budgetAdvice, terminalText };
