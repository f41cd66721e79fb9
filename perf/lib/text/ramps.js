'use strict';
// The ramps in words (results.json's `ramps`, perf/lib/run/ramp.js): a line per search while
// the run goes, and at the end one line per server (its sustainable rate over the searches,
// with its interval) and one per comparison, under the project's three answers. Decides nothing.

const { fmtNumber, fmtFactor, fmtInterval, marginText } = require('./format');
const { causeText } = require('./runtime');
const { tuningText } = require('./tuning');
const { fewPauses } = require('../method');
const { noteWords } = require('./verdict_notes');

const rate = (x) => fmtNumber(x, 'req/s');

/** "1 search per server", "3 searches per server". */
function searchesText(repeat) {
  return `${repeat} search${repeat > 1 ? 'es' : ''} per server`;
}

/** What a ramp's figures carry: "3 searches per server, 95 % intervals", or one search's bracket. */
function spreadText(repeat) {
  return repeat > 1 ? `${searchesText(repeat)}, 95 % intervals` : 'one search per server, its bracket';
}
const sloText = (objective) => `${objective.percentile} ≤ ${objective.ms} ms`;

/**
 * The rate that passed once and failed its confirming step (perf/lib/run/capacity.js confirmPass): "held
 * 4,200/s once, not on its confirming step (p99 11.2 ms over 10 ms)"; "" where none.
 */
function unconfirmedText(r) {
  if (!r.unconfirmed_rps) return '';
  const confirming = r.steps.filter((st) => st.confirming).pop();
  const why = confirming && (confirming.failure || confirming.limited);
  return `held ${rate(r.unconfirmed_rps)}/s once, not on its confirming step${why ? ` (${why})` : ''}`;
}

/**
 * The failing steps the hypervisor's steal disturbed (over the threshold) even when measured
 * again (perf/lib/run/capacity.js): "1 failing step disturbed on its repeat too (at 8,000/s:
 * steal 23 %, other processes 1.2 % of a core)"; "" where none.
 */
function disturbedText(r) {
  const still = (r.steps || []).filter((st) => st.failure && st.disturbed === true && !st.repeated);
  if (!still.length) return '';
  const worst = still.reduce((a, b) => ((b.steal_pct ?? 0) > (a.steal_pct ?? 0) ? b : a));
  const rates = [...new Set(still.map((st) => `${rate(st.rate)}/s`))].join(', ');
  return `${still.length} failing step${still.length > 1 ? 's' : ''} disturbed on ${still.length > 1 ? 'their' : 'its'} repeat too (at ${rates}: steal ${worst.steal_pct ?? '?'} %, other processes ${worst.foreign_cpu_pct ?? '?'} % of a core)`;
}

/**
 * How the search's steps met the server's long pauses (perf/lib/run/pause_window.js): "4 steps
 * judged over whole periods between loop pauses of 10 ms or more (one every ~3.0 s); 1 step
 * with one or two such pauses and no whole period, judged whole"; "" for a server that paused
 * so long in none.
 */
function windowText(r, objective) {
  const met = (r.steps || []).filter((st) => st.window && st.window.long_pauses > 0);
  if (!met.length) return '';
  const whole = met.filter((st) => st.window.periods > 0);
  const few = met.filter((st) => fewPauses(st.window));
  const irregular = met.filter((st) => st.window.periods === 0 && !fewPauses(st.window));
  const periods = whole.map((st) => (st.window.to_ms - st.window.from_ms) / st.window.periods).sort((a, b) => a - b);
  const typical = periods.length ? ` (one every ~${(periods[Math.floor(periods.length / 2)] / 1000).toFixed(1)} s)` : '';
  const n = (k) => `${k} step${k === 1 ? '' : 's'}`;
  const parts = [];
  if (whole.length) parts.push(`${n(whole.length)} judged over whole periods between loop pauses of ${objective.ms} ms or more${typical}`);
  const stood = few.filter((st) => st.window.pauses_decide === false).length;
  if (few.length) parts.push(`${n(few.length)} with one or two such pauses and no whole period, judged whole${stood ? ` (${stood} of them because their pauses could not turn their verdict)` : ''}`);
  if (irregular.length) parts.push(`${n(irregular.length)} with such pauses in no period, judged whole`);
  return parts.join('; ');
}

/**
 * One search: "hello_per_connection  node  sustains 3,900/s at p99 ≤ 10 ms (search 1 of 3); fails
 * at 4,100/s: p99 12.3 ms over 10 ms"; approximated: "hello_keepalive  node  sustains 21,300/s at
 * p99 ≤ 10 ms half the time (search 1 of 3): 12 steps from 22,627/s, 6 held, 7 reversals".
 */
function searchLine(name, server, r, objective, options = {}) {
  const notes = [unconfirmedText(r), disturbedText(r), windowText(r, objective)].filter(Boolean);
  const line = searchHead(name, server, r, objective, options);
  return r.incomplete || !notes.length ? line : `${line}; ${notes.join('; ')}`;
}

/** The connection attempts a full accept queue cost a step, in words, or null for none (or not measured). */
function overflowText(n) {
  if (!(n > 0)) return null;
  return `the kernel dropped ${fmtNumber(n, 'count')} connection attempt${n === 1 ? '' : 's'} at its full accept queue (each a reply 1 s late or more: the client's SYN sent again)`;
}

function searchHead(name, server, r, objective, { i = 1, repeat = 1, width = 5 } = {}) {
  const slo = sloText(objective);
  const of = repeat > 1 ? ` (search ${i} of ${repeat})` : '';
  const head = `${name}  ${server.padEnd(width)} `;
  if (r.incomplete) return `${head}search incomplete${of}, not counted: ${r.incomplete}${r.sustainable_rps === null ? '' : ` (held ${rate(r.sustainable_rps)}/s so far)`}`;
  if (r.sustainable_rps === null) {
    // A rate passed once, not on its confirming step: held twice at no rate (unconfirmedText says which).
    if (r.unconfirmed_rps) return `${head}held ${slo} at no rate twice${of}`;
    // Limited from its first rate on, the server was never measured: it did not fail either.
    if (r.limited) return `${head}measured at no rate${of}: ${r.limited}`;
    const first = r.steps[0];
    return `${head}held ${slo} at no rate offered${of}: ${first ? first.failure || first.limited : 'no step ran'}`;
  }
  // The approximation's answer is the middle of a slope, not the top of a bracket: its steps, not one failing rate, say how it was found.
  if (r.approximation) {
    // A disturbed step's repeat stands for it: the first is not one of the approximation's steps.
    const steps = r.steps.filter((st) => !st.repeated).slice(-r.approximation.steps);
    const held = steps.filter((st) => !st.failure).length;
    return `${head}sustains ${rate(r.sustainable_rps)}/s at ${slo} half the time${of}: ${r.approximation.steps} steps from ${rate(r.approximation.start_rps)}/s, ${held} held, ${r.approximation.reversals} reversal${r.approximation.reversals === 1 ? '' : 's'}`;
  }
  if (r.saturated) {
    const last = r.steps.filter((st) => st.rate === r.failing_rps).pop();
    const law = lawText([r]);
    const cause = [overflowText(last.listen_overflows), causeText(last.runtime, objective.percentile)].filter(Boolean).join('; ');
    return `${head}sustains ${rate(r.sustainable_rps)}/s at ${slo}${of}; fails at ${rate(r.failing_rps)}/s: ${last.failure}${cause ? `; ${cause}` : ''}${law ? `; ${law}` : ''}`;
  }
  if (r.limited) return `${head}sustains at least ${rate(r.sustainable_rps)}/s at ${slo}${of}; no higher measured: ${r.limited}${r.estimate_rps ? `; about ${rate(r.estimate_rps)}/s by the utilization law (an estimate)` : ''}`;
  return `${head}sustains at least ${rate(r.sustainable_rps)}/s at ${slo}${of}: the highest rate offered`;
}

/** A comparison of two servers' sustainable rates in words: a winner, the same, undecided, or not judged and why. */
function comparisonText(c) {
  if (c.decision === null) return `${c.a} against ${c.b}: not judged: ${noteWords(c.note)}`;
  if (c.decision === 'winner') {
    const loser = c.winner === c.a ? c.b : c.a;
    const ci = c.winner === c.a ? c.ci95 : [1 / c.ci95[1], 1 / c.ci95[0]];
    return `${c.winner} sustains ${fmtFactor(c.factor)} ${loser}'s rate ${fmtInterval(ci)}`;
  }
  if (c.decision === 'same') return `${c.a} and ${c.b} sustain the same rate within ${marginText(c.margin)} ${fmtInterval(c.ci95)}`;
  return `${c.a} against ${c.b}: undecided, ${c.a} ÷ ${c.b} ${fmtInterval(c.ci95)}`;
}

/**
 * Where the server saturated, the rate it served beside the utilization law's estimate, to show
 * how far the law is off: "served at most 7,230/s, the utilization law from its CPU per
 * request says 14,200/s, 1.96× that". "" where either is missing.
 */
function lawText(searches) {
  const both = searches.filter((r) => r.saturated && r.served_rps > 0 && r.estimate_rps > 0);
  if (!both.length) return '';
  const served = Math.max(...both.map((r) => r.served_rps));
  const estimate = Math.exp(both.reduce((t, r) => t + Math.log(r.estimate_rps), 0) / both.length);
  return `served at most ${rate(served)}/s, the utilization law from its CPU per request says ${rate(estimate)}/s, ${fmtFactor(estimate / served)} that`;
}

/**
 * A server's sustainable rate over its complete searches: "4,000/s [3,600–4,400]"; with one
 * search its bracket, said to be that; "at least …" with why where a search never saturated,
 * and the utilization law's estimate where there is one.
 */
function serverText(s) {
  const counted = s.searches.filter((r) => !r.incomplete);
  const open = counted.find((r) => !r.saturated);
  const estimate = counted.map((r) => r.estimate_rps).filter(Boolean);
  const { centre, ci95 } = s.sustainable_rps;
  const skipped = s.searches.length - counted.length;
  const note = skipped ? ` (${skipped} incomplete search${skipped > 1 ? 'es' : ''} not counted)` : '';
  if (centre === null) return counted.length && counted.every((r) => r.limited) ? `not measured: ${counted[0].limited}${note}` : `no rate held${note}`;
  // A lower bound has no interval: what it says is only that the rates it held were held.
  let value = `${rate(centre)}/s${ci95 && !open ? ` [${rate(ci95[0])}–${rate(ci95[1])}]` : ''}`;
  if (!ci95 && counted.length === 1 && counted[0].bracket) value += ` (one search: held ${rate(counted[0].bracket[0])}/s, ${counted[0].saturated ? 'failed' : 'not offered'} at ${rate(counted[0].bracket[1])}/s; --ramp-repeat 3 gives an interval)`;
  const law = lawText(counted);
  if (!open) return `${value}${law ? ` (${law})` : ''}${note}`;
  const why = open.limited || 'it held the highest rate offered';
  return `at least ${value} (${why}${estimate.length ? `; about ${rate(Math.max(...estimate))}/s by the utilization law, an estimate` : ''})${note}`;
}

/** The end's block: per ramp, each server's sustainable rate over its searches, then the comparisons. [] without ramps. */
function rampLines(results) {
  const doc = results.ramps;
  if (!doc || !doc.ramps.length) return [];
  const lines = ['', `Sustainable throughput (${sloText(doc.objective)}, no errors, the schedule kept; ${spreadText(doc.repeat)}):`];
  for (const ramp of doc.ramps) {
    const width = Math.max(5, ...Object.keys(ramp.servers).map((server) => server.length));
    for (const [server, s] of Object.entries(ramp.servers)) lines.push(`  ${ramp.name}  ${server.padEnd(width)} ${serverText(s)}`);
    for (const c of ramp.comparisons) lines.push(`  ${ramp.name}  ${comparisonText(c)}`);
    // What tuning both does to the ramp's answer, per pair (judged: perf/lib/judge/tuning.js rampTuning).
    for (const t of ramp.tuning || []) lines.push(`  ${ramp.name}  ${t.pair.join(' vs ')}: ${tuningText(t.effect, t.defaults, t.tuned)}`);
  }
  if (doc.interrupted) lines.push('  (interrupted: the searches above are those that finished)');
  return lines;
}

module.exports = { searchLine, serverText, comparisonText, rampLines, searchesText, spreadText };
