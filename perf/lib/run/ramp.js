'use strict';
// Ramps: each server's sustainable throughput (issue 21). After the paired rounds, on servers
// started afresh for it, each ramp (perf/ramps/*.json, perf/lib/plan/ramps.js) searches every
// server's highest rate holding the objective (perf/lib/judge/capacity.js searchCapacity), in
// open-loop steps of one request per new connection, measured like any run (./run_one.js). The
// servers' searches run side by side, one step at a time in turn, so that what the shared
// machine does in a minute hits each search alike; each search is made `repeat` times, and the
// sustainable rates compared with the project's rule on the repeats (Welch's interval on log
// values, perf/lib/judge/confidence.js; decide, answer.js). A step whose load generator was the
// bottleneck, or near it while the step failed, is a rate the client could not offer (limited):
// the search goes on below it, and where no rate failed the server's capacity is only estimated
// from its CPU per request (the utilization law), marked so.

const { runOne, settle } = require('./run_one');
const { stepScenario, stepSeconds } = require('../plan/ramps');
const { searchCapacity, stepFailure } = require('../judge/capacity');
const { summarizeTrials, compareTrials } = require('../judge/confidence');
const { decide } = require('../judge/answer');
const { NEAR_CLIENT_BOUND_PCT } = require('../judge/bottleneck');
const { shuffled } = require('./rounds');
const { searchLine } = require('../text/ramps');

/** A measured step as the search reads it, from the run of one step (results.json's run fields). */
function stepOf(run, rate) {
  const errors = run.errors ? Object.values(run.errors).reduce((t, n) => t + (n || 0), 0) : 0;
  const step = {
    offered_rps: rate,
    achieved_rps: run.throughput_rps ?? 0,
    p50_ms: run.latency_ms ? run.latency_ms.p50 : null,
    p99_ms: run.latency_ms ? run.latency_ms.p99 : null,
    p999_ms: run.latency_ms ? run.latency_ms.p999 : null,
    errors,
    server_cpu_pct: run.server_cpu_pct ?? null,
    server_cpu_ms_per_request: run.server_cpu ? run.server_cpu.ms_per_request ?? null : null,
    client_cpu_pct: run.client_cpu_pct ?? null,
    limited: null,
  };
  // A run that failed (no reply, the server gone) failed its rate: the server's failure, not the client's.
  if (!run.ok) step.errors = Math.max(errors, 1);
  else if (run.client_bound) step.limited = `the load generator was the bottleneck (${Math.round(run.client_cpu_pct)} % of its core)`;
  return step;
}

/**
 * Whether a step that failed may have failed for the load generator: it used
 * NEAR_CLIENT_BOUND_PCT of its core or more, where it falls behind its schedule and its own
 * event loop delays the replies it times. Such a step is a rate the client could not offer
 * (limited), so that a client near its limit never passes for the server saturating.
 */
function clientNearLimit(step) {
  return step.client_cpu_pct !== null && step.client_cpu_pct >= NEAR_CLIENT_BOUND_PCT;
}

/**
 * Runs the plan's ramps: for each, every server started afresh (restart(server, scenario) puts
 * it in up, a Map server → { handle, state, baselineFds }). session: { plan, io, restart }.
 * Resolves the results.json section { objective, repeat, ramps: [{ name, description, servers:
 * { server: { searches: [search], sustainable_rps: { n, centre, ci95 } } }, comparisons }],
 * interrupted }.
 */
async function measureRamps(up, { plan, io, restart }) {
  const { objective, repeat } = plan.rampOptions;
  const out = { objective, repeat, ramps: [], interrupted: false };
  for (const ramp of plan.ramps) {
    for (const server of plan.runnable) await restart(server, stepScenario(ramp, ramp.from_rps));
    const servers = plan.runnable.filter((s) => up.has(s) && !up.get(s).state.notStarted);
    const searches = Object.fromEntries(servers.map((s) => [s, []]));
    for (let i = 0; i < repeat && !out.interrupted; i++) {
      const turn = turnstile();
      const results = await Promise.all(shuffled(servers).map((server) => searchCapacity(measureStep(ramp, server, up, { io, turn, out, objective }), { from: ramp.from_rps, to: ramp.to_rps, objective, maxSteps: ramp.max_steps }).then((r) => [server, r])));
      // Kept also when Ctrl-C cut a search short (limited: 'interrupted'): its steps were measured.
      for (const [server, r] of results) {
        searches[server].push(r);
        io.log(searchLine(ramp.name, server, r, objective, { i: i + 1, repeat }));
      }
    }
    const perServer = Object.fromEntries(servers.map((s) => [s, { searches: searches[s], sustainable_rps: summarizeTrials(searches[s].map((r) => r.sustainable_rps)) }]));
    out.ramps.push({ name: ramp.name, description: ramp.description, servers: perServer, comparisons: compareServers(servers, perServer, plan.margin) });
    if (out.interrupted) break;
  }
  return out;
}

/** Steps one at a time: each search's next step waits for the one before it, whoever's it was. */
function turnstile() {
  let chain = Promise.resolve();
  return (fn) => {
    const next = chain.then(fn);
    chain = next.catch(() => {});
    return next;
  };
}

/** measure(rate) for one server's search: a step measured in its turn, the server settled after it. */
function measureStep(ramp, server, up, { io, turn, out, objective }) {
  return (rate) =>
    turn(async () => {
      const u = up.get(server);
      if (out.interrupted || u.state.exit || u.state.hung) return { offered_rps: rate, achieved_rps: 0, p99_ms: null, errors: 0, stop: out.interrupted ? 'interrupted' : 'the server stopped' };
      const scenario = stepScenario(ramp, rate);
      u.state.current = `${ramp.name} at ${Math.round(rate)}/s`;
      io.status(`${ramp.name}  ${server}  ${Math.round(rate)}/s (~${Math.ceil(stepSeconds(ramp, rate))} s)`);
      const result = await runOne({ server, handle: u.handle, scenario, outerSignal: io.signal, serverState: u.state, paired: true });
      io.status(null);
      if (result.interrupted) {
        out.interrupted = true;
        return { offered_rps: rate, achieved_rps: 0, p99_ms: null, errors: 0, stop: 'interrupted' };
      }
      if (!u.state.exit && !u.state.hung) await settle(u.handle.pid, u.baselineFds);
      return stepOf(result.run, rate);
    }).then((step) => {
      if (!step.limited && !step.stop && clientNearLimit(step) && stepFailure(step, objective)) step.limited = `the load generator used ${Math.round(step.client_cpu_pct)} % of its core while the step failed: it may not have offered the rate, or delayed the replies`;
      return step;
    });
}

/** Every pair of servers compared on their repeats' sustainable rates: Welch on log values, the project's rule. */
function compareServers(servers, perServer, margin) {
  const out = [];
  for (let i = 0; i < servers.length; i++) {
    for (let j = i + 1; j < servers.length; j++) {
      const [a, b] = [servers[i], servers[j]];
      const va = perServer[a].searches.map((r) => r.sustainable_rps);
      const vb = perServer[b].searches.map((r) => r.sustainable_rps);
      // A side with a search that never saturated (the load generator stopped it, or it held
      // the highest rate offered) sustains at least its rate: it can be shown the faster,
      // never the slower or the same.
      const open = [a, b].filter((s) => perServer[s].searches.some((r) => !r.saturated));
      const cmp = compareTrials(va, vb);
      if (!cmp) {
        out.push({ a, b, ratio: null, ci95: null, decision: null, winner: null, factor: null, margin, method: 'welch', note: 'fewer than two searches with a sustainable rate on a side' });
        continue;
      }
      const decision = decide(cmp.ci95, margin);
      const winner = decision === 'winner' ? (cmp.ratio > 1 ? a : b) : null;
      const judged = !open.length || (winner !== null && !open.includes(winner === a ? b : a));
      out.push({
        a,
        b,
        ratio: cmp.ratio,
        ci95: cmp.ci95,
        decision: judged ? decision : null,
        winner: judged ? winner : null,
        factor: judged && winner ? Math.max(cmp.ratio, 1 / cmp.ratio) : null,
        margin,
        method: 'welch',
        note: judged ? null : `not judged: ${open.join(' and ')} never saturated (a search held the highest rate offered, or the load generator stopped it)`,
      });
    }
  }
  return out;
}

module.exports = { measureRamps, stepOf, compareServers, turnstile };
