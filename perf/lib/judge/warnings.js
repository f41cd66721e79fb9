'use strict';
// Everything a reader must be warned about in a run's results, one entry per server, scenario
// and problem, its trials folded together. Shown under the terminal's and summary.md's tables
// and in the report's "Read with care" block; the reasons come from the runs themselves
// (perf/lib/judge/reasons.js), the thresholds from perf/lib/judge/bottleneck.js.

const { CLIENT_BOUND_ADVICE, isSuperseded } = require('./verdicts');
const { NEAR_CLIENT_BOUND_PCT } = require('./bottleneck');
const { reasonCode, reasonText } = require('./reasons');

// Open-loop runs whose connections opened later than this behind schedule get a warning.
const LAG_NOTE_MS = 20;

/** The failed requests of a run, all kinds together. */
const errorCount = (r) => (r.errors ? Object.values(r.errors).reduce((a, b) => a + (Number(b) || 0), 0) : 0);

/**
 * [{ scenario, server, trials, kind, severity, text }], kind one of failed, missing, errors,
 * client-bound, near-client-bound, not-judged (the runner's other reasons), schedule-lag;
 * severity bad | warn; and, for information (severity info), superseded: a run another engine
 * replaced, whose own problems (it was client-bound, …) are why, not warnings against the
 * verdict. trials: the trials it happened in; text reads after "<server> <scenario> (trials …): ",
 * its figures as ranges over those trials (foldTexts). missing: a server that ran other
 * scenarios has no run of this one and was not skipped on purpose (the run was interrupted).
 */
function runWarnings(runs, { skipped = [] } = {}) {
  const folded = new Map();
  for (const w of perRunWarnings(runs, { skipped })) {
    const key = `${w.scenario}\u0000${w.server}\u0000${w.kind}`;
    if (!folded.has(key)) folded.set(key, { scenario: w.scenario, server: w.server, trials: [], kind: w.kind, severity: w.severity, texts: [], details: [] });
    const f = folded.get(key);
    // Each trial once, in order: several runs of one trial (another engine's, another round's) are one trial.
    if (w.trial !== null && !f.trials.includes(w.trial)) f.trials.push(w.trial);
    f.texts.push(w.text);
    f.details.push(...(w.details || []));
  }
  // The details (a superseded run's own problems) once each, in brackets after the text.
  return [...folded.values()].map(({ texts, details, ...w }) => ({ ...w, trials: w.trials.sort((a, b) => a - b), text: `${foldTexts(texts)}${details.length ? ` (${foldTexts(details)})` : ''}` }));
}

// A figure in a warning's text: what differs from trial to trial.
const FIGURE = /\d+(?:\.\d+)?/g;
const HOLE = '\u0000';

/**
 * Warnings of several trials as one text: texts alike but for their figures become one, each
 * figure its range ("the load generator used 84–88 % of its core"); texts that differ otherwise
 * are kept apart, joined by "; ".
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

/** runWarnings before folding: one entry per run and problem, with its trial. */
function perRunWarnings(runs, { skipped = [] } = {}) {
  const servers = [...new Set(runs.map((r) => r.server))];
  const scenarios = [...new Set(runs.map((r) => r.scenario))];
  const out = [];
  for (const scenario of scenarios) {
    for (const server of servers) {
      const rs = runs.filter((r) => r.server === server && r.scenario === scenario);
      const isSkipped = skipped.some((k) => k.server === server && (k.scenario === scenario || k.scenario === null));
      if (!rs.length && !isSkipped) out.push({ scenario, server, trial: null, kind: 'missing', severity: 'bad', text: 'no run (interrupted?)' });
      for (const r of rs) {
        const w = (kind, severity, text, details = []) => out.push({ scenario, server, trial: Number.isInteger(r.trial) ? r.trial : null, kind, severity, text, details });
        const reasons = Array.isArray(r.not_judged_because) ? r.not_judged_because : [];
        if (!r.ok) {
          w('failed', 'bad', `FAILED: ${r.failure}`);
          continue;
        }
        if (isSuperseded(r)) {
          const superseded = reasons.find((why) => reasonCode(why) === 'superseded') || reasonText('superseded', `${r.superseded_by} ran it again`);
          w('superseded', 'info', `${superseded}; kept for information`, reasons.filter((why) => why !== superseded));
          continue;
        }
        const errs = errorCount(r);
        if (errs > 0) {
          const kinds = Object.entries(r.errors).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
          w('errors', 'warn', `${errs} of ${r.requests} requests failed (${kinds})`);
        }
        const cpu = Number.isFinite(r.client_cpu_pct) ? Math.round(r.client_cpu_pct) : null;
        if (r.client_bound) w('client-bound', 'warn', `client-bound${cpu === null ? '' : ` (load generator at ${cpu} % of its core)`}, not used for a verdict: ${CLIENT_BOUND_ADVICE}`);
        // client_bound null: the engine's CPU says nothing of its load (httperf busy-polls a core).
        else if (r.client_bound === false && cpu !== null && cpu >= NEAR_CLIENT_BOUND_PCT) w('near-client-bound', 'warn', `the load generator used ${cpu} % of its core, close to client-bound: the server may be faster than measured`);
        // The runner's other reasons to leave a run out (not server-bound, disturbed, load).
        for (const why of reasons) {
          if (!['client-bound', 'failed'].includes(reasonCode(why))) w('not-judged', 'warn', `not used for a verdict: ${why}`);
        }
        if (r.schedule_lag_ms && r.schedule_lag_ms.max > LAG_NOTE_MS) {
          w('schedule-lag', 'warn', `connections opened up to ${Math.round(r.schedule_lag_ms.max)} ms behind schedule; that delay counts in the latency`);
        }
      }
    }
  }
  return out;
}

module.exports = { runWarnings, errorCount };
