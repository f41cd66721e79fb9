'use strict';
// The held-count search: the largest number of waiting requests each server holds
// before it refuses, errs or its overhead passes the bound (p99 more than ABOVE_WAIT_BOUND_MS
// above the wait: perf/lib/method.js). The same search as the ramps' (capacity.js
// searchCapacity: doubling, then bisection, a failing level confirmed, a step whose load
// generator was the bottleneck a level it could not offer), over the held count instead of the
// rate: a step holding H connections sends GET /delay?ms=N over H keep-alive connections at
// H ÷ N requests a second (kind rate), so that about H requests wait at once. Each step runs on
// a server started afresh, so that its peak RSS is its own load's, not a larger step's before
// it: the steps it answered without an error give the slope of RSS against connections held
// (the judge's: judge/held.js heldMemory), whether or not their latency kept the bound.
// Bounded in steps (HELD_SEARCH.max_steps) and so in time; the servers' searches run side by
// side, a step each in turn (ramp.js turnstile), as the ramps' do.

const { stepOf, stepMeasurer, turnstile } = require('./ramp');
const { searchCapacity } = require('./capacity');
const { searchWords } = require('../text/capacity');
const { heldObjective, ABOVE_WAIT_BOUND_MS } = require('../method');
const { shuffled } = require('./rounds');
const { heldLine } = require('../text/held');
const { heldStepScenario, heldStepS } = require('../plan/held');

/**
 * measure(held) for one server's search: a step on the server started afresh for it, measured in
 * its turn (./ramp.js stepMeasurer). Its achieved rate counts the arrivals' seconds only (the
 * run's last wait is no shortfall of the schedule), and its RSS is kept for the slope.
 */
function measureHeld(design, server, up, context) {
  const measure = stepMeasurer(server, up, context, {
    scenarioAt: (count) => heldStepScenario(design, count),
    current: (count) => `the held-count search at ${count}`,
    status: (count) => `held  ${server}  ${count} waiting (~${Math.ceil(heldStepS(design))} s)`,
    fresh: true,
    read: (run, count, scenario) => {
      // The search's levels are held counts: the step is offered and achieved in them.
      const step = { ...stepOf(run, scenario.rate, scenario.requests / scenario.rate), held: count };
      step.achieved_rps = run.duration_s > design.wait_ms / 1000 ? run.replies / (run.duration_s - design.wait_ms / 1000) : 0;
      step.above_wait_p99_ms = run.above_wait_ms ? run.above_wait_ms.p99 : null;
      step.peak_rss_mb = run.server_peak_rss_mb;
      step.failure_detail = run.ok ? null : run.failure;
      return step;
    },
  });
  return (held) => measure(Math.round(held));
}

/**
 * One server's search (searchCapacity's, in words: perf/lib/text/capacity.js) as results.json
 * keeps it: { held (the most waiting requests it held, or
 * null), failing (the fewest it failed), bracket, saturated, limited, incomplete, steps }. Each
 * step keeps its peak RSS: memory per held connection is the judge's (judge/held.js heldMemory).
 */
function heldSummary(coded) {
  const search = searchWords(coded);
  const count = (x) => (x === null ? null : Math.round(x));
  return {
    held: count(search.sustainable_rps),
    failing: count(search.failing_rps),
    bracket: search.bracket && search.bracket.map(Math.round),
    saturated: search.saturated,
    limited: search.limited,
    incomplete: search.incomplete,
    steps: search.steps,
  };
}

/**
 * Runs the held-count search on the plan's servers that serve /delay (plan.held.servers), side by side, each step on a server
 * started afresh (restart(server, scenario) puts it in up). session: { plan, io, restart,
 * record }. Resolves results.json's `held` section: { design, bound_ms, objective, servers:
 * { server: heldSummary }, interrupted }.
 */
async function measureHeldCounts(up, { plan, io, restart, record = () => {} }) {
  const design = plan.held;
  const objective = heldObjective(design.wait_ms);
  const out = { design, bound_ms: ABOVE_WAIT_BOUND_MS, objective, servers: {}, interrupted: false };
  const turn = turnstile();
  const { servers } = design;
  const results = await Promise.all(
    shuffled(servers).map((server) =>
      searchCapacity(measureHeld(design, server, up, { io, turn, out, restart, objective }), { from: design.from, to: design.to, objective, precision: design.precision, maxSteps: design.max_steps, confirmations: design.confirmations }).then((r) => [server, r]),
    ),
  );
  for (const server of servers) {
    const summary = heldSummary(results.find(([s]) => s === server)[1]);
    out.servers[server] = summary;
    io.log(heldLine(server, summary, out));
  }
  record(out);
  return out;
}

module.exports = { heldSummary, measureHeldCounts };
