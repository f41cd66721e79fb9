'use strict';
// The held-count search's design (the search itself: perf/lib/run/held.js): how many
// waiting requests it offers each server, each step as a scenario, and how long it should take.

const { FAIL_CONFIRMATIONS } = require('../method');

// The search's design, full size and --quick: the wait (ms), the held counts it starts from and
// goes up to, each step's seconds of arrivals (after the first wait, which fills the pool), how
// close the bracket must get (a step costs seconds, a failing count three of them: one bisection
// between two doublings, the bracket within √2, is what 12 steps afford), its bound in steps,
// and the failing steps that fail the count bounding the answer (perf/lib/run/capacity.js). The full search's top, 16,000, fits this
// machine's fd limit of 20,000. The quick one is its three doubling steps and no more (about 2 s
// each with the restart: 12 s for two servers): a wait of 250 ms keeps each step at about a
// second, its 1,000-4,000 requests enough for a p99 of their slowest ten or more, and the three
// counts give the slope; one failing step fails a count there, and a search that would bisect
// further says it ran out of steps.
const HELD_SEARCH = {
  full: { wait_ms: 1000, from: 1000, to: 16000, step_s: 3, precision: 0.5, max_steps: 12, confirmations: FAIL_CONFIRMATIONS },
  quick: { wait_ms: 250, from: 250, to: 1000, step_s: 1, precision: 0.5, max_steps: 3, confirmations: 1 },
};

/** A step holding `held` connections as a scenario (kind rate, no warm-up: the steps are short and alike). */
function heldStepScenario(design, held) {
  const rate = (held * 1000) / design.wait_ms;
  return {
    name: 'held_waiting',
    description: `${held} keep-alive connections, each holding a GET /delay?ms=${design.wait_ms}`,
    source: 'the held-count search',
    kind: 'rate',
    connections: held,
    rate,
    requests: Math.max(held, Math.round(rate * design.step_s)),
    request: { method: 'GET', path: `/delay?ms=${design.wait_ms}`, headers: {}, upload_bytes: null },
    timeout_s: 10,
    warmup_s: 0,
  };
}

/** Seconds one step should take: its arrivals, the last wait, a restart and settling. */
const heldStepS = (design) => design.step_s + design.wait_ms / 1000 + 1;

/** Seconds the search should take for `servers` servers: every doubling step and two more, each. */
function estimateHeldS(design, servers) {
  let steps = 2;
  for (let h = design.from; h < design.to; h *= 2) steps += 1;
  return servers * Math.min(design.max_steps, steps + 1) * heldStepS(design);
}

module.exports = { HELD_SEARCH, heldStepScenario, heldStepS, estimateHeldS };
