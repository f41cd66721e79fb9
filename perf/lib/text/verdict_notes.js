'use strict';
// Why a comparison has no verdict, or no interval, in words: the note the judge gives as a code
// with its numbers (perf/lib/rule/compare.js compareOne), as results.json stores it and every
// output shows it. A note read from a results.json is its words already, and stays as it is.

const { MIN_TAIL_SAMPLES } = require('../rule/compare');
const { RATE_SET, SIZE_SET, TOO_FEW, BELOW_RESOLUTION } = require('../store/no_verdict');
const { reasonLabel } = require('../store/reasons');

/** What to suggest when every trial was client-bound. */
const CLIENT_BOUND_ADVICE = 'the load generator set the pace; re-run with a lighter engine, e.g. --engine wrk';
/** What to suggest when even the lightest engine here (wrk, httperf: one core) was the bottleneck. */
const CLIENT_BOUND_LIGHTEST = 'the load generator set the pace even with the lightest engine here on one core; more load cores would decide (--engine tsung --load-hosts)';

/** "n too small (300 requests; p99 needs 10,000)". */
function tooFewText(n, p) {
  const need = Math.ceil(MIN_TAIL_SAMPLES / (1 - p) - 1e-9);
  return `${TOO_FEW} (${Math.round(n).toLocaleString('en-US')} requests; p${+(p * 100).toFixed(2)} needs ${need.toLocaleString('en-US')})`;
}

/** Two significant digits, enough for a step and the value it is held against. */
const fmtStep = (x) => Number(x.toPrecision(2));

/** One side's exclusion: "node client-bound in all 5 trials: <advice>", "em failed". */
function exclusionText(x, advice) {
  if (x.reason === 'missing') return `no ${x.server} run`;
  if (x.reason === 'failed') return x.total === 1 ? `${x.server} failed` : `${x.server} failed in all ${x.total} ${x.unit}s`;
  const all = x.finished_only ? ` in every ${x.unit} that finished` : x.total === 1 ? '' : ` in all ${x.total} ${x.unit}s`;
  if (x.reason === 'client-bound') return `${x.server} client-bound${all}${advice ? `: ${x.lightest ? CLIENT_BOUND_LIGHTEST : CLIENT_BOUND_ADVICE}` : ''}`;
  return `${x.server} not judged${all} (${x.kinds.map(reasonLabel).join(', ')})`;
}

// Each note's words, from the numbers the judge gives with its code.
const NOTE_WORDS = {
  rate_set: (n) => `${RATE_SET}: the schedule sends ${n.rate} requests/s whatever the server does`,
  size_set: (n) => `${SIZE_SET}: memory grows with the slow clients held at once, ${n.clients} here against the full run's ${n.full_clients}`,
  too_few: (n) => tooFewText(n.n, n.quantile),
  below_resolution: (n) => `${BELOW_RESOLUTION}: ${n.source === 'cpu_clock' ? 'the CPU clock' : n.source} gives ${fmtStep(n.step_ms)} ms steps, too coarse for ${fmtStep(n.smallest_ms)} ms (judged from ${fmtStep(n.judged_from_ms)} ms)`,
  not_measured: () => 'not measured',
  zero: () => 'a value of 0 (below the measurement resolution): no interval',
  one_trial: (n) => (n.sides.length ? `${n.sides.join(', ')}: 1 trial: no interval` : '1 trial: no interval'),
  no_round: (n) => `${n.rounds === 0 ? 'no round' : `${n.rounds} round`} in which both sides could be used${n.others.length ? ` (the others: ${n.others.map(reasonLabel).join(', ')})` : ''}: no interval`,
  early_look: (n) => `${n.rounds} paired rounds, short of the first look (${n.first_look}): no answer yet`,
  // A ramp's comparison (perf/lib/judge/ramps.js compareServers).
  never_saturated: (n) => `${n.servers.join(' and ')} never saturated (${n.why.map((w) => w ?? 'it held the highest rate offered').join('; ')})`,
  few_searches: (n) => `${n.pairs ?? 'too few'} pair${n.pairs === 1 ? '' : 's'} of complete searches with a sustainable rate, fewer than ${n.min ?? 2}: no interval`,
};

/** A note without an exclusion's advice: "node client-bound in all 5 trials" (a stored note, or the judge's). */
function withoutAdvice(note) {
  if (note && typeof note === 'object') return note.code === 'excluded' ? note.sides.map((x) => exclusionText(x, false)).join('; ') : noteWords(note);
  return [CLIENT_BOUND_ADVICE, CLIENT_BOUND_LIGHTEST].reduce((text, advice) => text.split(`: ${advice}`).join(''), note);
}

/** A comparison's note in words: the judge's code with its numbers, or a stored note as it is; null for none. */
function noteWords(note) {
  if (note === null || note === undefined || typeof note === 'string') return note ?? null;
  if (note.code === 'excluded') return note.sides.map((x) => exclusionText(x, true)).join('; ');
  return NOTE_WORDS[note.code](note);
}

module.exports = { noteWords, withoutAdvice, tooFewText, CLIENT_BOUND_ADVICE, CLIENT_BOUND_LIGHTEST };
