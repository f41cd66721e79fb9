'use strict';
// Everything a reader must be warned about in a run's results, one entry per server, scenario
// and problem, its trials folded together, as kinds and figures: perf/lib/text/warnings.js says
// them, under the terminal's and summary.md's tables and in the report's "Read with care" block.
// The reasons come from the runs themselves (perf/lib/store/reasons.js), the thresholds from
// perf/lib/method.js.

const { isSuperseded } = require('../rule/compare');
const { NEAR_CLIENT_BOUND_PCT } = require('../method');
const { reasonCode } = require('../store/reasons');
const { errorCount } = require('../measure/samples');

// Open-loop runs whose connections opened later than this behind schedule get a warning.
const LAG_NOTE_MS = 20;


/**
 * [{ scenario, server, kind, severity, trials, facts }], kind one of failed, missing, errors,
 * client-bound, near-client-bound, not-judged (the runner's other reasons), schedule-lag;
 * severity bad | warn; and, for information (severity info), superseded: a run another engine
 * replaced, whose own problems (it was client-bound, …) are why, not warnings against the
 * verdict. trials: the trials it happened in; facts: what each of its runs gave to say, in
 * order (perRunWarnings), which perf/lib/text/warnings.js puts in words, their figures folded
 * into ranges. missing: a server that ran other scenarios has no run of this one and was not
 * skipped on purpose (the run was interrupted).
 */
function runWarnings(runs, { skipped = [] } = {}) {
  const folded = new Map();
  for (const w of perRunWarnings(runs, { skipped })) {
    const key = `${w.scenario}\u0000${w.server}\u0000${w.kind}`;
    if (!folded.has(key)) folded.set(key, { scenario: w.scenario, server: w.server, kind: w.kind, severity: w.severity, trials: [], facts: [] });
    const f = folded.get(key);
    // Each trial once, in order: several runs of one trial (another engine's, another round's) are one trial.
    if (w.trial !== null && !f.trials.includes(w.trial)) f.trials.push(w.trial);
    f.facts.push(w.facts);
  }
  return [...folded.values()].map((w) => ({ ...w, trials: w.trials.sort((a, b) => a - b) }));
}

/**
 * runWarnings before folding: one entry per run and problem, with its trial and its facts, by
 * kind: missing {}; failed { failure }; superseded { reason (the runner's, as stored, or null),
 * by (the engine that ran it again), details (its other stored reasons) }; errors { failed,
 * requests, kinds: [[kind, count]] (the kinds with any) }; client-bound { client_cpu_pct (whole,
 * or null) }; near-client-bound { client_cpu_pct }; not-judged { reason (as stored) };
 * schedule-lag { lag_ms (the most, whole) }.
 */
function perRunWarnings(runs, { skipped = [] } = {}) {
  const servers = [...new Set(runs.map((r) => r.server))];
  const scenarios = [...new Set(runs.map((r) => r.scenario))];
  const out = [];
  for (const scenario of scenarios) {
    for (const server of servers) {
      const rs = runs.filter((r) => r.server === server && r.scenario === scenario);
      const isSkipped = skipped.some((k) => k.server === server && (k.scenario === scenario || k.scenario === null));
      if (!rs.length && !isSkipped) out.push({ scenario, server, trial: null, kind: 'missing', severity: 'bad', facts: {} });
      for (const r of rs) {
        const w = (kind, severity, facts) => out.push({ scenario, server, trial: Number.isInteger(r.trial) ? r.trial : null, kind, severity, facts });
        const reasons = Array.isArray(r.not_judged_because) ? r.not_judged_because : [];
        if (!r.ok) {
          w('failed', 'bad', { failure: r.failure });
          continue;
        }
        if (isSuperseded(r)) {
          const reason = reasons.find((why) => reasonCode(why) === 'superseded') || null;
          w('superseded', 'info', { reason, by: r.superseded_by || null, details: reasons.filter((why) => why !== reason) });
          continue;
        }
        const errs = errorCount(r);
        if (errs > 0) w('errors', 'warn', { failed: errs, requests: r.requests, kinds: Object.entries(r.errors).filter(([, n]) => n > 0) });
        const cpu = Number.isFinite(r.client_cpu_pct) ? Math.round(r.client_cpu_pct) : null;
        if (r.client_bound) w('client-bound', 'warn', { client_cpu_pct: cpu });
        // client_bound null: the engine's CPU says nothing of its load (httperf busy-polls a core).
        else if (r.client_bound === false && cpu !== null && cpu >= NEAR_CLIENT_BOUND_PCT) w('near-client-bound', 'warn', { client_cpu_pct: cpu });
        // The runner's other reasons to leave a run out (not server-bound, disturbed, load).
        for (const why of reasons) {
          if (!['client-bound', 'failed'].includes(reasonCode(why))) w('not-judged', 'warn', { reason: why });
        }
        if (r.schedule_lag_ms && r.schedule_lag_ms.max > LAG_NOTE_MS) w('schedule-lag', 'warn', { lag_ms: Math.round(r.schedule_lag_ms.max) });
      }
    }
  }
  return out;
}

module.exports = { runWarnings };
