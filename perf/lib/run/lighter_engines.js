'use strict';
// A verdict wherever the machine can give one: after the trials, the scenarios whose verdict
// a lighter load generator installed here can give (httperf for one client at a time, wrk
// where the built-in one was the bottleneck) are run again with it (runsAgain: the runner runs
// them), and the verdict is taken from one engine per scenario (chooseVerdictEngines)
// (perf/README.md, "A verdict wherever the machine can give one"). Each function takes the
// part of the run's plan it needs (perf/lib/plan/run_plan.js): { runnable, served, trials }.

const { ENGINES, DEFAULT_ENGINE, whyNotInstalled } = require('../engines');
const { reasonText } = require('../text/reasons');
const { trialPlan, estimatePlanS } = require('../plan/trial_plan');
const { fmtDuration } = require('../text/format');
const { median } = require('../measure/stats');

/**
 * The engine each scenario's verdict should come from, where another than the built-in one is
 * installed and can run it faithfully: { scenario: { engine, why } }.
 *   one client at a time (sequential_6000): the load generator's own time per request is part
 *     of every figure, so it is run again with httperf (C, the seed's own tool); the verdict
 *     then uses whichever engine's cycle per request is shorter (pickLighter)
 *   a closed loop where the built-in load generator was the bottleneck in some run
 *     (client-bound, or the server not saturated): run again with wrk (C, one thread); where
 *     wrk cannot run it (a count of requests per connection: keepalive_400x100), with httperf
 *     (--wsess), whose runs then count only where the server was saturated (bottleneck.js)
 * byCycle marks the choice chooseVerdictEngines makes only after both engines ran (pickLighter).
 */
function lighterEngines({ runnable, served }, runs) {
  const bottlenecked = (r) => r.ok && !ENGINES[r.engine]?.external && (r.client_bound || r.server_bound === false);
  const wanted = {};
  for (const s of runnable.flatMap((server) => served[server])) {
    if (wanted[s.name]) continue;
    const why = 'the built-in load generator was the bottleneck';
    if (oneClientAtATime(s) && ENGINES.httperf.whyNot(s) === null) {
      wanted[s.name] = { engine: 'httperf', why: 'one client at a time: the load generator\'s own time per request is part of every figure', byCycle: true };
    } else if (!runs.some((r) => r.scenario === s.name && bottlenecked(r))) {
      continue;
    } else if (ENGINES.wrk.whyNot(s) === null) {
      wanted[s.name] = { engine: 'wrk', why };
    } else {
      const timed = asTimed(s, runs);
      if (timed && ENGINES.wrk.whyNot({ ...s, ...timed }) === null) {
        wanted[s.name] = { engine: 'wrk', why: `${why}; wrk stops after a duration, so it runs for ${timed.duration_s} s, the time the built-in runs took, instead of ${s.requests} requests`, as: timed };
      } else if (s.kind === 'closed' && ENGINES.httperf.whyNot(s) === null) {
        wanted[s.name] = { engine: 'httperf', why: `${why}; wrk cannot run it (${ENGINES.wrk.whyNot(s)})` };
      }
    }
  }
  return wanted;
}

/**
 * A closed loop bounded by a total count of requests, as one bounded by time, for an engine
 * that only stops after a duration (wrk): the same connections and requests for the whole
 * seconds the built-in runs took (median, rounded up). The count only sets the run's length:
 * every connection stays open throughout either way. null for a count per connection (wrk
 * would keep a connection past it) or when no built-in run finished.
 */
function asTimed(s, runs) {
  if (s.kind !== 'closed' || s.requests === null || s.requests_per_connection !== null) return null;
  const took = median(runs.filter((r) => r.scenario === s.name && r.ok && r.engine !== 'wrk').map((r) => r.duration_s));
  return took ? { requests: null, duration_s: Math.max(1, Math.ceil(took)) } : null;
}

/**
 * The runs again with other engines, of the scenarios named: { order, served }, as in the plan,
 * and estimate_s, the seconds they should take.
 */
function againPlan({ runnable, served, trials }, wanted, names) {
  const again = Object.fromEntries(runnable.map((server) => [server, served[server].filter((s) => names.includes(s.name)).map((s) => ({ ...s, ...wanted[s.name].as, engine: wanted[s.name].engine }))]));
  const order = trialPlan(runnable.filter((server) => again[server].length), trials);
  return { order, served: again, estimate_s: estimatePlanS(order, again) };
}

/**
 * Seconds the runs again with other engines will take that can be foreseen before any run: the
 * one-client-at-a-time scenarios (httperf). wrk's depend on what the runs find.
 */
function foreseenAgainS(plan) {
  const wanted = lighterEngines(plan, []);
  const names = Object.keys(wanted).filter((name) => !whyNotInstalled(wanted[name].engine));
  if (!names.length) return 0;
  return againPlan(plan, wanted, names).estimate_s;
}

function oneClientAtATime(s) {
  return s.kind === 'closed' && s.concurrency === 1;
}

/**
 * Of the built-in engine's runs and `engine`'s runs of a one-client-at-a-time scenario, the
 * engine whose own time per request is smaller: { engine, text }. Each request's cycle is the
 * server's time plus the load generator's, one after the other, so against the same server the
 * engine with the shorter cycle (1 / req/s, median of its runs) spends less of its own; it must
 * be shorter on every server. (CPU time cannot tell: httperf busy-polls a whole core.)
 */
function pickLighter(runs, scenario, engine) {
  const mine = runs.filter((r) => r.scenario === scenario && r.ok);
  const builtInName = mine.find((r) => r.engine !== engine)?.engine || DEFAULT_ENGINE;
  const cycleMs = (server, isOther) => {
    const rps = median(mine.filter((r) => r.server === server && (r.engine === engine) === isOther).map((r) => r.throughput_rps));
    return rps ? 1000 / rps : null;
  };
  const servers = [...new Set(mine.map((r) => r.server))];
  const cycles = servers.map((server) => ({ server, other: cycleMs(server, true), builtIn: cycleMs(server, false) }));
  const figures = cycles.map((c) => `${c.server} ${fmtMs(c.other)} vs ${fmtMs(c.builtIn)}`).join(', ');
  const shorter = cycles.every((c) => c.other !== null && (c.builtIn === null || c.other < c.builtIn));
  return shorter
    ? { engine, text: `${engine}'s cycle per request is shorter than ${builtInName}'s on every server (${figures} ms)` }
    : { engine: builtInName, text: `${engine}'s cycle per request is not shorter than ${builtInName}'s on every server (${figures} ms)` };
}

const fmtMs = (x) => (x === null ? '?' : x.toFixed(3));

/**
 * A verdict wherever the machine can give one, from the lightest engine that runs the scenario
 * faithfully (lighterEngines): after the trials (runs), those scenarios are to be run again in
 * full, every trial of every server, with that engine. Says which, and why, through log.
 * Returns the runs again ({ order, served }, as in the plan, with wanted and names: the
 * scenarios and their engines), or null when there are none.
 */
function runsAgain(plan, runs, log) {
  const wanted = lighterEngines(plan, runs);
  const names = Object.keys(wanted).filter((name) => {
    const why = whyNotInstalled(wanted[name].engine);
    if (why) log(`${wanted[name].engine}: does not run ${name} again (${wanted[name].why}): ${why}`);
    return !why;
  });
  if (!names.length) return null;
  const again = againPlan(plan, wanted, names);
  for (const name of names) log(`${wanted[name].engine}: runs ${name} again: ${wanted[name].why}`);
  log(`plan: ${again.order.length} more server starts; expected to take about ${fmtDuration(again.estimate_s)} more`);
  return { ...again, wanted, names };
}

/**
 * Once the runs again (runsAgain) have been made: both sets of runs are kept; a verdict uses one
 * engine per scenario, so that both its sides are measured alike; the other engine's runs are
 * marked superseded (superseded_by, in runs). Says which through log. Returns results.json's
 * { verdict_engines, verdict_engine_reasons }: which engine each scenario's verdict uses, and why.
 */
function chooseVerdictEngines({ wanted, names }, runs, log) {
  const verdictEngines = {};
  const reasons = {};
  for (const name of names) {
    const { engine, why, byCycle } = wanted[name];
    const pick = byCycle ? pickLighter(runs, name, engine) : { engine, text: why };
    verdictEngines[name] = pick.engine;
    reasons[name] = pick.text;
    log(`${name}: the verdict uses ${pick.engine}'s runs (${pick.text})`);
    for (const r of runs) {
      if (r.scenario !== name || r.engine === pick.engine || !r.ok) continue;
      r.judged = false;
      r.superseded_by = pick.engine;
      r.not_judged_because.push(reasonText('superseded', `${pick.engine} ran ${name} again (${pick.text}); the verdict uses ${pick.engine}'s runs`));
    }
  }
  return { verdict_engines: verdictEngines, verdict_engine_reasons: reasons };
}

module.exports = { lighterEngines, asTimed, foreseenAgainS, runsAgain, chooseVerdictEngines, pickLighter };
