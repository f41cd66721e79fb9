'use strict';
// The ramps judged: each server's sustainable rate over its searches, and each pair of servers
// compared search by search, from what the run recorded (results.json ramps: the searches and
// their steps, perf/lib/run/ramp.js). The run records no verdict; every reader judges its
// ramps here, once (./judged.js).

const { summarizeTrials } = require('../rule/confidence');
const { pairedInterval } = require('../rule/group_sequential');
const { decide } = require('../rule/answer');
const { comparedPairs, rampTuning } = require('./tuning');
const { LEVEL, MIN_SEARCH_PAIRS } = require('../method');

// How two servers' sustainable rates are compared (a comparison's method, as 'paired' names a
// scenario's paired rounds): Student t on the log ratios of side-by-side searches, at LEVEL.
const COMPARISON_METHOD = 'paired_searches';

/** One search's resolution variance, (ln(hi ÷ lo))² ÷ 12 of its bracket (0 without one). */
function resolutionOf(search) {
  return search.bracket ? Math.log(search.bracket[1] / search.bracket[0]) ** 2 / 12 : 0;
}

/**
 * The variance of one search's sustainable rate (log scale) from its resolution alone: the
 * edge lies anywhere in its bracket, uniformly on the log scale, (ln(hi ÷ lo))² ÷ 12 (the mean
 * over the searches with a bracket; 0 without). Deterministic searches that stop at the same
 * step would otherwise agree exactly and claim a zero-width interval.
 */
function resolutionVariance(searches) {
  const widths = searches.filter((r) => r.bracket).map(resolutionOf);
  return widths.length ? widths.reduce((t, w) => t + w, 0) / widths.length : 0;
}

/**
 * A server's searches and its sustainable rate over those that ended with an answer (an
 * incomplete search is kept, not counted), each known to its bracket's resolution.
 */
function serverSummary(searches) {
  const counted = searches.filter((r) => !r.incomplete);
  return { searches, sustainable_rps: summarizeTrials(counted.map((r) => r.sustainable_rps), { minVariance: resolutionVariance(counted) }) };
}

/** Why the servers `open` never saturated, from their searches: what stopped them (the link, the load generator), or null where they held the highest rate offered. */
function openReasons(open, perServer) {
  return [...new Set(open.flatMap((s) => perServer[s].searches.filter((r) => !r.incomplete && !r.saturated).map((r) => r.limited || null)))];
}

/**
 * Each pair of servers (pairs: [[a, b]], ./tuning.js comparedPairs) compared on their
 * sustainable rates, search by search: the k-th searches of two servers ran side by side, a
 * step each in turn, so what the machine did in those minutes hit both, and their ratio is far
 * steadier than either rate (a full run: node's keep-alive rate 18,000-33,000/s over three
 * searches, its ratio to em's 1.7-2.2). Student t on the paired log ratios of the searches both
 * completed, at 95 %, each ratio known to its two brackets' resolution; then the project's rule
 * (a winner, the same within the margin, or undecided). A comparison not judged has its note
 * as a code (perf/lib/text/verdict_notes.js words it): never_saturated { servers, why (each
 * search's limit, null for the highest rate offered) }, or few_searches { pairs, min } (fewer
 * than MIN_SEARCH_PAIRS pairs of complete searches).
 */
function compareServers(pairs, perServer, margin) {
  const out = [];
  for (const [a, b] of pairs) {
    const [sa, sb] = [perServer[a].searches, perServer[b].searches];
    const counted = (r) => r && !r.incomplete && r.sustainable_rps > 0;
    const searchPairs = sa.map((r, k) => [r, sb[k]]).filter(([x, y]) => counted(x) && counted(y));
    // A side with a search that never saturated (the load generator stopped it, or it held
    // the highest rate offered) sustains at least its rate: it can be shown the faster,
    // never the slower or the same.
    const open = [[a, 0], [b, 1]].filter(([, side]) => searchPairs.some((pair) => !pair[side].saturated)).map(([s]) => s);
    const neverSaturated = { code: 'never_saturated', servers: open, why: openReasons(open, perServer) };
    const minVariance = searchPairs.reduce((t, [x, y]) => t + resolutionOf(x) + resolutionOf(y), 0) / (searchPairs.length || 1);
    const cmp = searchPairs.length >= MIN_SEARCH_PAIRS ? pairedInterval(searchPairs.map(([x, y]) => Math.log(x.sustainable_rps) - Math.log(y.sustainable_rps)), LEVEL, { minVariance }) : null;
    if (!cmp) {
      // Two lower bounds say nothing of each other, however many searches: that first.
      out.push({ a, b, ratio: null, ci95: null, decision: null, winner: null, factor: null, margin, method: COMPARISON_METHOD, note: open.length === 2 ? neverSaturated : { code: 'few_searches', pairs: searchPairs.length, min: MIN_SEARCH_PAIRS } });
      continue;
    }
    const decision = decide(cmp.ci, margin);
    const winner = decision === 'winner' ? (cmp.ratio > 1 ? a : b) : null;
    // Undecided stays undecided: a lower bound that cannot tell the two apart cannot either.
    // Two lower bounds say nothing of each other.
    const judged = open.length < 2 && (!open.length || decision === 'undecided' || (winner !== null && !open.includes(winner === a ? b : a)));
    out.push({
      a,
      b,
      ratio: cmp.ratio,
      ci95: cmp.ci,
      decision: judged ? decision : null,
      winner: judged ? winner : null,
      factor: judged && winner ? Math.max(cmp.ratio, 1 / cmp.ratio) : null,
      margin,
      method: COMPARISON_METHOD,
      note: judged ? null : neverSaturated,
    });
  }
  return out;
}

/**
 * A run's ramps (results.json ramps) judged: each ramp with every server's sustainable rate
 * (serverSummary), its pairs compared (compareServers: the pairs the run compares,
 * ./tuning.js comparedPairs) and what tuning both does to its answer (rampTuning); null for none.
 */
function judgeRamps(doc, definitions, margin) {
  if (!doc) return null;
  const ramps = doc.ramps.map((ramp) => {
    const servers = Object.fromEntries(Object.entries(ramp.servers).map(([name, s]) => [name, serverSummary(s.searches)]));
    const judged = { ...ramp, servers, comparisons: compareServers(comparedPairs(Object.keys(servers), definitions), servers, margin) };
    return { ...judged, tuning: rampTuning(judged, definitions) };
  });
  return { ...doc, ramps };
}

module.exports = { judgeRamps, compareServers, serverSummary, COMPARISON_METHOD };
