'use strict';
// What a reason not to judge a run (perf/lib/store/reasons.js, its codes and stored form) says of
// the run's numbers.

const { reasonCode } = require('../store/reasons');

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

module.exports = { doubtsPaceOnly };
