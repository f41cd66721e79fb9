'use strict';
// A run's warnings (perf/lib/judge/warnings.js runWarnings: kinds and figures) in words, as the
// terminal, summary.md and the report's flags write them: each warning's runs said alike but for
// their figures become one text, each figure its range over the trials.

const { CLIENT_BOUND_ADVICE } = require('./verdict_notes');
const { reasonText } = require('./reasons');

// A figure in a warning's text: what differs from trial to trial.
const FIGURE = /\d+(?:\.\d+)?/g;
const HOLE = '\u0000';

/**
 * Texts of several trials as one: texts alike but for their figures become one, each figure its
 * range ("the load generator used 84–88 % of its core"); texts that differ otherwise are kept
 * apart, joined by "; ".
 */
function foldTexts(texts) {
  const bySkeleton = new Map();
  for (const t of texts) {
    const skeleton = t.replace(FIGURE, HOLE);
    if (!bySkeleton.has(skeleton)) bySkeleton.set(skeleton, []);
    bySkeleton.get(skeleton).push(t.match(FIGURE) || []);
  }
  return [...bySkeleton].map(([skeleton, figures]) => {
    let i = 0;
    return skeleton.replace(new RegExp(HOLE, 'g'), () => {
      const column = figures.map((f) => f[i]);
      i++;
      const sorted = [...column].sort((x, y) => Number(x) - Number(y));
      return Number(sorted[0]) === Number(sorted[sorted.length - 1]) ? column[0] : `${sorted[0]}–${sorted[sorted.length - 1]}`;
    });
  }).join('; ');
}

// What one run's facts of each kind say (judge/warnings.js perRunWarnings).
const FACT_WORDS = {
  missing: () => 'no run (interrupted?)',
  failed: ({ failure }) => `FAILED: ${failure}`,
  superseded: ({ reason, by }) => `${reason || reasonText('superseded', `${by} ran it again`)}; kept for information`,
  errors: ({ failed, requests, kinds }) => `${failed} of ${requests} requests failed (${kinds.map(([kind, n]) => `${kind} ${n}`).join(', ')})`,
  'client-bound': ({ client_cpu_pct: cpu }) => `client-bound${cpu === null ? '' : ` (load generator at ${cpu} % of its core)`}, not used for a verdict: ${CLIENT_BOUND_ADVICE}`,
  'near-client-bound': ({ client_cpu_pct: cpu }) => `the load generator used ${cpu} % of its core, close to client-bound: the server may be faster than measured`,
  'not-judged': ({ reason }) => `not used for a verdict: ${reason}`,
  'schedule-lag': ({ lag_ms: lag }) => `connections opened up to ${lag} ms behind schedule; that delay counts in the latency`,
};

/**
 * A warning in words, as it reads after "<server> <scenario> (trials …): ": its runs' texts
 * folded (foldTexts); a superseded run's own problems once each, in brackets after it.
 */
function warningText(w) {
  const details = w.facts.flatMap((f) => f.details || []);
  return `${foldTexts(w.facts.map(FACT_WORDS[w.kind]))}${details.length ? ` (${foldTexts(details)})` : ''}`;
}

module.exports = { warningText };
