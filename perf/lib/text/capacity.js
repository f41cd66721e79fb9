'use strict';
// A capacity search (perf/lib/run/capacity.js searchCapacity) in words: why each step failed
// and why the search ended before its answer, as results.json stores them (ramps, held).

/** Why a step failed its objective, from the judge's code: "3 errors", "p99 12 ms over 10 ms"; null for none. */
function failureText(failure) {
  if (failure === null) return null;
  if (failure.code === 'fatal') return failure.failure;
  if (failure.code === 'errors') return `${failure.errors} errors`;
  if (failure.code === 'schedule') return `schedule not kept (${failure.achieved_rps} of ${failure.offered_rps}/s)`;
  if (failure.code === 'not_measured') return `${failure.percentile} not measured`;
  return `${failure.percentile} ${failure.ms} ms over ${failure.limit_ms} ms`;
}

/** Why a search ended before its answer, from the judge's code; null for a search that has one. */
function incompleteText(incomplete) {
  if (incomplete === null) return null;
  if (incomplete.code === 'stopped') return incomplete.reason;
  if (incomplete.code === 'client') return `the load generator, not the server, by the edge: ${incomplete.reason}`;
  if (incomplete.code === 'unsettled') return `its steps ${incomplete.reversals ? 'reversed once' : 'never reversed'}: the edge lies beyond where they walked`;
  const before = { confirmed: 'its answer was confirmed', approximated: 'its approximation ended' }[incomplete.before] ?? `the bracket narrowed to ${incomplete.precision_pct} %`;
  return `out of steps (${incomplete.max_steps}) before ${before}`;
}

/** A search's result with its steps' failures and its incompleteness in words. */
function searchWords(search) {
  return { ...search, incomplete: incompleteText(search.incomplete), steps: search.steps.map((st) => ({ ...st, failure: failureText(st.failure) })) };
}

module.exports = { failureText, incompleteText, searchWords };
