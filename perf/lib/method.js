'use strict';
// The method's numbers: what the plan budgets for, the runner's controllers measure by (the
// sequential looks of paired rounds, the ramps' capacity search) and the judge decides with.
// One home, so that what is planned, what is measured and what is judged cannot drift apart
// (and the versions of these rules, which the archive holds each run's answers to);
// why each is what it is, the modules that use it say (perf/lib/rule/answer.js,
// perf/lib/rule/group_sequential.js, perf/lib/run/capacity.js, perf/lib/rule/confidence.js,
// perf/lib/judge/held.js).

// Every interval's level: the chance that it covers the true value.
const LEVEL = 0.95;

// The equivalence margin around a ratio of 1 (±10 %): an interval wholly within it is "the same".
const DEFAULT_MARGIN = 0.1;

// Paired rounds: the rounds after which the interval is computed and the answer decided, the
// 5 % spent over them (Bonferroni: each look at 98.75 % with these four).
const DEFAULT_LOOKS = [5, 10, 20, 40];

// The capacity search: the objective a step is held to, the ramp's factor from one rate to the
// next, the precision the bisection narrows to, the failing steps since its last pass that fail
// the rate bounding the answer,
// and the confirming steps a search's answer may take before it is unconfirmed (a second
// chance, no more: each costs a step of every search near its edge).
const DEFAULT_OBJECTIVE = { percentile: 'p99', ms: 10 };
const RAMP_FACTOR = 2;
const DEFAULT_PRECISION = 0.05;
const FAIL_CONFIRMATIONS = 3;
const CONFIRM_ATTEMPTS = 2;
// The ramps' stochastic approximation (perf/lib/run/capacity.js): its first move on the log
// scale, a quarter of the climb's factor (from the middle of the climb's last bracket, two
// moves reach either end), each later one divided by 1 + the reversals so far; a search
// answers from MIN_REVERSALS reversals (one pass and one failure among its steps at least);
// APPROXIMATION_STEPS whole steps a search (a simulated slope of width 0.1 on the log scale:
// σ 0.066 at 12 steps, 0.082 at 8).
const APPROXIMATION_STEP = Math.log(RAMP_FACTOR) / 4;
const MIN_REVERSALS = 1;
const APPROXIMATION_STEPS = 12;
// The pairs of complete searches a ramp comparison is judged from, at least: two degrees of
// freedom, as a full run's three searches give. With two, Student's t on one degree of freedom is
// 12.7 and the interval says nothing (a run stopped in its ramps, 2026-11-30: 0.03-63.8×).
const MIN_SEARCH_PAIRS = 3;

// A ramp step with at most this many long pauses and no whole period between them may have a
// period longer than itself (k pauses in a step of length L: a period over L/(k+1)), and is
// measured again longer where they could decide its verdict; with more, they are in no period,
// and a longer step would not make them one (perf/lib/run/pause_window.js).
const FEW_PAUSES = 2;
/** Whether a step's window ({ long_pauses, periods }) holds such a few pauses: one to FEW_PAUSES, no whole period. */
const fewPauses = ({ long_pauses: pauses, periods }) => periods === 0 && pauses >= 1 && pauses <= FEW_PAUSES;

// The overhead a server may add to a waiting request before it no longer "holds" it: p99 more
// than this above the wait (a timer of N ms answered within N + 10 ms). The held-count search
// holds each step to it (heldObjective), the judge each waiting run (perf/lib/judge/held.js).
const ABOVE_WAIT_BOUND_MS = 10;
/** The held-count search's objective as the capacity search reads it: p99 at most the wait plus the bound. */
const heldObjective = (waitMs) => ({ percentile: 'p99', ms: waitMs + ABOVE_WAIT_BOUND_MS });

// Whether a run may be used for a verdict (perf/lib/run/bottleneck.js checks each run against
// these; results.json's environment.thresholds records them). Shares are % of one core.
// The load generator at CLIENT_BOUND_PCT of its core: its ceiling, not the server's, may be what
// was measured; from NEAR_CLIENT_BOUND_PCT on the server may have been faster than measured
// (warned about, still judged).
const CLIENT_BOUND_PCT = 90;
const NEAR_CLIENT_BOUND_PCT = 80;
// The server's share of its core in a closed loop meant to saturate it, below which something
// else held it back (the bigfile_100k "tie" of an early run had each server at 77-84 %).
const SERVER_BOUND_PCT = 90;
// % of --link's rate carried one way. tbf queues what passes its rate (up to 50 ms): from here
// on the queue, not the server, adds the latency and sets the pace; from NEAR_LINK_BOUND_PCT on,
// a ramp's failing step may be the link's queue's doing (perf/lib/run/ramp.js).
const LINK_BOUND_PCT = 90;
const NEAR_LINK_BOUND_PCT = 80;
// Steal, or other processes' CPU, over this share of one core: the run was disturbed.
const DISTURBED_PCT = 10;
// % of the servers' core another server may use while measured beside this one. Below it a
// request finds the other server busy in under 1 of 10 arrivals, and then waits at most that
// one reply's CPU (0.2-0.8 ms on /hello): under 1 % of a 1.3 ms latency on average.
const SHARED_LOAD_PCT = 10;
// A waiting run whose load generator ran this late (its event loop's p99 delay plus how late
// it handed out what was due, both inside every latency it times) could have put half the
// bound above the wait by itself: its latency above the wait is not judged.
const CLIENT_LATE_MS = ABOVE_WAIT_BOUND_MS / 2;
// On a machine known to be shared, PERF_DISTURBED_PCT raises the disturbed threshold (the runs
// stay flagged in machine_cpu either way); the harness's own tests set it, since they check what
// the runner does with its trials, not whether the machine was quiet while they ran.
const disturbedPct = () => Number(process.env.PERF_DISTURBED_PCT) || DISTURBED_PCT;

/** The thresholds a run is checked by (results.json's environment.thresholds). */
function thresholds() {
  return { client_bound_pct: CLIENT_BOUND_PCT, near_client_bound_pct: NEAR_CLIENT_BOUND_PCT, server_bound_pct: SERVER_BOUND_PCT, link_bound_pct: LINK_BOUND_PCT, disturbed_pct: disturbedPct(), shared_load_pct: SHARED_LOAD_PCT, client_late_ms: CLIENT_LATE_MS, above_wait_bound_ms: ABOVE_WAIT_BOUND_MS };
}

// How each kind of answer is measured and judged, by version: bumped when a rule that moves the
// answer changes (the ramps' step rule: judged over the schedule, keep-alive connections warmed,
// each answer confirmed: version 2; each step as long as two of its server's pause periods and
// judged over whole periods, perf/lib/run/pause_window.js: version 3; the climb's steps at the
// base length, the answer held twice on whole steps: version 4; only the failure of the rate
// bounding the answer confirmed, perf/lib/run/capacity.js: version 5; each step led in by 2 s
// of its rate before its window, perf/lib/plan/ramps.js LEAD_S: version 6; after the climb, a
// fixed number of steps of stochastic approximation to the rate a step holds half the time
// instead of the bisection: version 7). A metric whose rule changed
// alone has its own entry, "kind metric", which its answers are held to instead of their kind's
// (memory from the runs left out only for their pace, perf/lib/rule/reasons.js doubtsPaceOnly:
// version 2). A run records the versions it measured with (perf/lib/run/environment.js); an
// archived answer of another version is marked, like one of a server changed since.
const METHOD_VERSIONS = { scenario: 1, ramp: 7, 'scenario peak_rss_mb': 2 };

module.exports = { MIN_SEARCH_PAIRS, thresholds, disturbedPct, CLIENT_BOUND_PCT, NEAR_CLIENT_BOUND_PCT, SERVER_BOUND_PCT, LINK_BOUND_PCT, NEAR_LINK_BOUND_PCT, DISTURBED_PCT, SHARED_LOAD_PCT, CLIENT_LATE_MS, METHOD_VERSIONS, heldObjective, ABOVE_WAIT_BOUND_MS, fewPauses, FEW_PAUSES, LEVEL, DEFAULT_MARGIN, DEFAULT_LOOKS, DEFAULT_OBJECTIVE, RAMP_FACTOR, DEFAULT_PRECISION, FAIL_CONFIRMATIONS, CONFIRM_ATTEMPTS, APPROXIMATION_STEP, MIN_REVERSALS, APPROXIMATION_STEPS };
