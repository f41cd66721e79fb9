'use strict';
// Why a run is not used for a verdict: each reason has a code, and its one wording here. A run
// records its reasons in results.json (`not_judged_because`) as "<label>: <detail>", the label
// this table gives its code; everything that acts on a reason asks reasonCode, never the text.
//   failed            the run did not complete
//   client-bound      the load generator was the bottleneck (perf/lib/judge/bottleneck.js)
//   link-bound        behind --link, the link was full one way (perf/lib/judge/bottleneck.js)
//   backend-bound     a backend the requests call (Redis, the upstream) used a core
//                     (perf/lib/judge/bottleneck.js)
//   client-late       a waiting run's load generator ran late enough to make its latency above
//                     the wait (perf/lib/judge/waiting.js)
//   load              the load hosts could not keep the schedule or lost requests (Tsung)
//   not-server-bound  a saturating closed loop whose server was not busy
//   disturbed         steal or other processes took CPU
//   shared            measured together with another server whose load was too heavy to share
//                     the servers' core (perf/lib/run/rounds.js: simultaneous rounds)
//   superseded        another engine ran the scenario again and gave the verdict

const LABELS = {
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
// The reasons that doubt a run's pace only: something else set its pace (the load generator,
// the link, a backend, the load hosts, a server not saturated) or took its CPU (steal, other
// processes, the other server's load beside it). Its times, rates and CPU per request are then
// not the server's own; the memory the server held under that load still is (keepalive_400x100's
// httperf runs at 59-69 % of the server's core: node 97-121 MB, em 44.5-44.8 MB in every round,
// server-bound or not). A run that failed, or whose verdict another engine gave, doubts all.
const PACE_ONLY = new Set(['client-bound', 'link-bound', 'backend-bound', 'client-late', 'load', 'not-server-bound', 'disturbed', 'shared']);

/** Whether a stored reason doubts only the run's pace (PACE_ONLY), not what it held. */
function doubtsPaceOnly(text) {
  return PACE_ONLY.has(reasonCode(text));
}

const CODE_OF_LABEL = Object.fromEntries(Object.entries(LABELS).map(([code, label]) => [label, code]));

/** A reason as results.json stores it: "client-bound: the load generator used 95% of its core". */
function reasonText(code, detail) {
  if (!LABELS[code]) throw new Error(`unknown reason code '${code}'`);
  return `${LABELS[code]}: ${detail}`;
}

/** The code of a stored reason (its label, before the first ': '), or null for another text. */
function reasonCode(text) {
  const colon = String(text).indexOf(': ');
  return CODE_OF_LABEL[colon === -1 ? String(text) : String(text).slice(0, colon)] || null;
}

/** The label of a code, as a word in a sentence ("not server-bound"). */
function reasonLabel(code) {
  return LABELS[code] || code;
}

module.exports = { reasonText, reasonCode, reasonLabel, doubtsPaceOnly };
