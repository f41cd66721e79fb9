'use strict';
// Why a run is not used for a verdict, as results.json stores it (`not_judged_because`):
// "<label>: <detail>", the label this table gives the reason's code. The judge decides a reason
// as a code with its numbers (perf/lib/run/bottleneck.js), perf/lib/text/reasons.js writes it
// in this form, and everything that acts on a stored reason asks reasonCode, never the text.
//   failed            the run did not complete
//   client-bound      the load generator was the bottleneck (perf/lib/run/bottleneck.js)
//   link-bound        behind --link, the link was full one way (perf/lib/run/bottleneck.js)
//   backend-bound     a backend the requests call (Redis, the upstream) used a core
//                     (perf/lib/run/bottleneck.js)
//   client-late       a waiting run's load generator ran late enough to make its latency above
//                     the wait (perf/lib/judge/held.js)
//   load              the load hosts could not keep the schedule or lost requests (Tsung)
//   not-server-bound  a saturating closed loop whose server was not busy
//   disturbed         steal or other processes took CPU
//   shared            measured together with another server whose load was too heavy to share
//                     the servers' core (perf/lib/run/rounds.js: simultaneous rounds)
//   superseded        another engine ran the scenario again and gave the verdict

const REASON_LABELS = {
  failed: 'failed',
  'client-bound': 'client-bound',
  'link-bound': 'link-bound',
  'backend-bound': 'backend-bound',
  'client-late': 'client late',
  load: 'load',
  'not-server-bound': 'not server-bound',
  disturbed: 'disturbed',
  shared: 'shared core',
  superseded: 'superseded',
};

const CODE_OF_LABEL = Object.fromEntries(Object.entries(REASON_LABELS).map(([code, label]) => [label, code]));

/** The code of a stored reason (its label, before the first ': '), or null for another text. */
function reasonCode(text) {
  const colon = String(text).indexOf(': ');
  return CODE_OF_LABEL[colon === -1 ? String(text) : String(text).slice(0, colon)] || null;
}

/** The label of a code, as a word in a sentence ("not server-bound"). */
function reasonLabel(code) {
  return REASON_LABELS[code] || code;
}

module.exports = { REASON_LABELS, reasonCode, reasonLabel };
