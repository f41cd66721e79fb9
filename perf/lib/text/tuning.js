'use strict';
// What tuning both runtimes does to an answer, in words (perf/lib/judge/tuning.js decides it):
// the defaults' answer beside the tuned pair's, and whether the difference belongs to the
// defaults or remains once both are tuned. Decides nothing.

const { fmtFactor, fmtInterval } = require('./format');

/** One side's answer: "node 2.4× [1.6–3.7]", "the same", "undecided", "not judged". */
function sideText(a) {
  if (a.kind === 'winner') return `${a.lead} ${fmtFactor(a.factor)} ${fmtInterval(a.ci)}`;
  if (a.kind === 'same') return 'the same within the margin';
  return a.kind === 'undecided' ? 'undecided' : 'not judged';
}

/**
 * "remains once both are tuned: node 2.4× [1.6–3.7] with the defaults, node 1.3× [1.1–1.5] tuned".
 * effect from tuningEffect; defaults and tuned { kind, lead, factor, ci } (lead: a base server).
 */
function tuningText(effect, defaults, tuned) {
  const both = `${sideText(defaults)} with the defaults, ${sideText(tuned)} tuned`;
  const head = {
    remains: `${defaults.lead}'s lead remains once both are tuned`,
    gone: `${defaults.lead}'s lead belongs to the defaults: gone once both are tuned`,
    reversed: `reversed once both are tuned: ${tuned.lead} leads`,
    appears: `${tuned.lead} leads only once both are tuned`,
    same: 'the same with the defaults and tuned',
    undecided: 'what tuning both does is undecided',
  }[effect];
  return `${head} (${both})`;
}

module.exports = { tuningText };
