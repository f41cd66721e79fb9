'use strict';
// Why a run is not used for a verdict, in words: a reason as the judge decides it (a code and its
// numbers, perf/lib/run/bottleneck.js checkRun) written as results.json stores it,
// "<label>: <detail>" (perf/lib/store/reasons.js).

const { REASON_LABELS } = require('../store/reasons');

/** A reason as results.json stores it: "client-bound: the load generator used 95% of its core". */
function reasonText(code, detail) {
  if (!REASON_LABELS[code]) throw new Error(`unknown reason code '${code}'`);
  return `${REASON_LABELS[code]}: ${detail}`;
}

/**
 * Why a link-bound run or ramp step says nothing of the server (u: the run's link_usage;
 * offeredRps: a rate offered on a schedule, with demand_pct the share of the link it asks,
 * perf/lib/run/bottleneck.js linkDemandPct): "the link saturates first: it carried 97 % of its
 * 54 Mbit/s toward the client (the replies), …".
 */
function linkBoundText(u, demandPct = null) {
  const way = u.busiest === 'to_client' ? 'toward the client (the replies)' : 'toward the server (the requests)';
  const rate = `${u.rate_bits / 1e6} Mbit/s`;
  const load = demandPct !== null && demandPct > u.busiest_pct ? `the rate offered asks ${demandPct} % of its ${rate} ${way}, of which it carried ${u.busiest_pct} %` : `it carried ${u.busiest_pct} % of its ${rate} ${way}`;
  const carries = u.carries_rps ? `, about ${Math.round(u.carries_rps).toLocaleString('en-US')} of these replies a second` : '';
  return `the link saturates first: ${load}${carries}`;
}

// Each reason's detail, from the numbers the judge gives with its code.
const DETAILS = {
  failed: (r) => r.failure || 'the run did not complete',
  'client-bound': (r) => `the load generator used ${r.client_cpu_pct}% of its core (${r.limit_pct}% or more)`,
  'client-late': (r) => `the load generator ran ${r.late_ms} ms late (its event loop's p99 delay and schedule lag, or its schedule lag's p99; ${r.limit_ms} ms or more), inside the latency above the wait`,
  'link-bound': (r) => linkBoundText(r.link_usage),
  load: (r) => r.problem,
  'backend-bound': (r) => `the backend ${r.backend} used ${r.cpu_pct}% of a core (${r.limit_pct}% or more)`,
  shared: (r) => `measured beside ${r.server}, whose load used ${r.cpu_pct}% of the servers' core (over ${r.limit_pct}%)`,
  'not-server-bound': (r) => (r.middle_pct === null || r.middle_pct === undefined ? `the server used ${r.server_cpu_pct}% of its core (under ${r.limit_pct}%), so something else set the pace` : `the server used ${r.server_cpu_pct}% of its core, ${r.middle_pct}% in the middle half of the load (under ${r.limit_pct}%), so something else set the pace`),
  disturbed: (r) => `steal ${r.steal_pct}%, other processes ${r.foreign_cpu_pct ?? '?'}% of a core (over ${r.limit_pct}%)`,
};

/** A reason the judge decided ({ code, …its numbers }) as results.json stores it. */
function reasonWords(reason) {
  return reasonText(reason.code, DETAILS[reason.code](reason));
}

module.exports = { reasonText, reasonWords, linkBoundText };
