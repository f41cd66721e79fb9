'use strict';
// Each runtime as its users tune it (perf/servers.json: a server with `tuned_of` is another's
// tuned configuration): which servers a run compares, and what tuning both sides does to an
// answer, defaults against both tuned. The one home of both rules; text and report render them.
// Which server tunes which (tunedOf, baseOf) is the definitions' own: perf/lib/hosts/runtimes.js.

const { primaryPair, runtimePairs, findComparison } = require('./verdicts');
const { METRIC_NAMES } = require('../rule/metrics');
const { tunedOf, baseOf } = require('../hosts/runtimes');

/** A pair with both sides tuned ([node, em] → [node_tuned, em_tuned]) when both ran, else null. */
function tunedOfPair(pair, servers, definitions = {}) {
  if (!pair) return null;
  const tuned = pair.map((s) => tunedOf(s, definitions));
  return tuned.every((t) => t && servers.includes(t)) ? tuned : null;
}

/**
 * The primary pair with both sides tuned ([node_tuned, em_tuned]) when both ran, else null.
 * (primaryPair: node vs em, or the first two servers that are no reference.)
 */
function tunedPair(servers, definitions = {}) {
  return tunedOfPair(primaryPair(untuned(servers, definitions), definitions), servers, definitions);
}

/** The servers that are no tuned configuration of another. */
function untuned(servers, definitions) {
  return servers.filter((s) => !(definitions[s] && definitions[s].tuned_of));
}

/**
 * The pairs a comparison of many servers answers: where tuned configurations ran, each pair of
 * runtimes with their defaults (runtimePairs), each such pair both tuned, and each server against
 * its tuned self (what tuning buys it); else every pair, in order.
 */
function comparedPairs(servers, definitions = {}) {
  if (!tunedPair(servers, definitions)) return servers.flatMap((a, i) => servers.slice(i + 1).map((b) => [a, b]));
  const defaults = runtimePairs(untuned(servers, definitions), definitions);
  const tuned = defaults.map((p) => tunedOfPair(p, servers, definitions)).filter(Boolean);
  const selves = untuned(servers, definitions).filter((s) => tunedOf(s, definitions) && servers.includes(tunedOf(s, definitions)));
  return [...defaults, ...tuned, ...selves.map((s) => [s, tunedOf(s, definitions)])];
}

/**
 * What tuning both sides does to an answer: defaults and tuned, each { kind: 'winner' | 'same'
 * | 'undecided' | null (not judged), lead (the winner's base server, for a winner) }. One of
 *   remains     the same side wins both ways
 *   gone        a winner with the defaults, the same within the margin once both are tuned: the
 *               difference belongs to the defaults
 *   reversed    the other side wins once both are tuned
 *   appears     the same within the margin with the defaults, a winner once both are tuned
 *   same        the same within the margin both ways
 *   undecided   either side undecided (or not judged): nothing to say yet
 */
function tuningEffect(defaults, tuned) {
  const d = defaults.kind;
  const t = tuned.kind;
  if (d === 'winner' && t === 'winner') return defaults.lead === tuned.lead ? 'remains' : 'reversed';
  if (d === 'winner' && t === 'same') return 'gone';
  if (d === 'same' && t === 'winner') return 'appears';
  if (d === 'same' && t === 'same') return 'same';
  return 'undecided';
}

/** A scenario comparison's answer as tuningEffect reads it: { kind, lead (a base server), factor, ci }. */
function sideOf(c, definitions) {
  if (!c) return { kind: null };
  const { answer } = c;
  if (answer.kind === 'winner') return { kind: 'winner', lead: baseOf(answer.lead, definitions), factor: answer.factor, ci: answer.ci };
  return { kind: answer.kind === 'same' || answer.kind === 'undecided' ? answer.kind : null };
}

/**
 * What tuning both runtimes does to each answer a winner was named in (the defaults' or the
 * tuned pair's), per scenario and metric: [{ scenario, metric, defaults, tuned (sideOf each),
 * effect (tuningEffect) }]; [] without the tuned pair. comparisons: each with its answer.
 */
function tuningEffects(comparisons, { tunedPair: tuned, definitions, scenarios }) {
  if (!tuned) return [];
  const [ta, tb] = tuned;
  const [a, b] = [definitions[ta].tuned_of, definitions[tb].tuned_of];
  const out = [];
  for (const scenario of scenarios) {
    for (const metric of METRIC_NAMES) {
      const defaults = sideOf(findComparison(comparisons, scenario, metric, a, b), definitions);
      const both = sideOf(findComparison(comparisons, scenario, metric, ta, tb), definitions);
      if (defaults.kind === 'winner' || both.kind === 'winner') out.push({ scenario, metric, defaults, tuned: both, effect: tuningEffect(defaults, both) });
    }
  }
  return out;
}

/** A ramp comparison as tuningEffect reads it: { kind, lead (the winner's base server), factor, ci (the winner's) }. */
function rampSideOf(c, definitions) {
  if (!c || c.decision !== 'winner') return { kind: c ? c.decision : null };
  return { kind: 'winner', lead: baseOf(c.winner, definitions), factor: c.factor, ci: c.winner === c.a ? c.ci95 : [1 / c.ci95[1], 1 / c.ci95[0]] };
}

/**
 * What tuning both sides does to a ramp's answer, per pair of runtimes whose tuned pair it
 * searched (node vs em, node vs async, em vs async): [{ pair, tunedPair, effect, defaults,
 * tuned }]; [] where none was.
 */
function rampTuning(ramp, definitions = {}) {
  const servers = Object.keys(ramp.servers);
  const find = ([a, b]) => ramp.comparisons.find((c) => c.a === a && c.b === b);
  return runtimePairs(untuned(servers, definitions), definitions).flatMap((pair) => {
    const tuned = tunedOfPair(pair, servers, definitions);
    if (!tuned) return [];
    const defaults = rampSideOf(find(pair), definitions);
    const both = rampSideOf(find(tuned), definitions);
    return [{ pair, tunedPair: tuned, effect: tuningEffect(defaults, both), defaults, tuned: both }];
  });
}

module.exports = { tunedPair, tunedOfPair, comparedPairs, tuningEffect, tuningEffects, rampTuning };
