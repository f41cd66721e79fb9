'use strict';
// The method's numbers: what the plan budgets for, the runner's controllers measure by (the
// sequential looks of paired rounds, the ramps' capacity search) and the judge decides with.
// One home, so that what is planned, what is measured and what is judged cannot drift apart
// (and the versions of these rules, which the archive holds each run's answers to);
// why each is what it is, the modules that use it say (perf/lib/judge/answer.js,
// perf/lib/judge/group_sequential.js, perf/lib/run/capacity.js, perf/lib/judge/confidence.js,
// perf/lib/judge/waiting.js).

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

// A ramp step with at most this many long pauses and no whole period between them may have a
// period longer than itself (k pauses in a step of length L: a period over L/(k+1)), and is
// measured again longer where they could decide its verdict; with more, they are in no period,
// and a longer step would not make them one (perf/lib/run/pause_window.js).
const FEW_PAUSES = 2;
/** Whether a step's window ({ long_pauses, periods }) holds such a few pauses: one to FEW_PAUSES, no whole period. */
const fewPauses = ({ long_pauses: pauses, periods }) => periods === 0 && pauses >= 1 && pauses <= FEW_PAUSES;

// The overhead a server may add to a waiting request before it no longer "holds" it: p99 more
// than this above the wait (a timer of N ms answered within N + 10 ms). The held-count search
// holds each step to it (heldObjective), the judge each waiting run (perf/lib/judge/waiting.js).
const ABOVE_WAIT_BOUND_MS = 10;
/** The held-count search's objective as the capacity search reads it: p99 at most the wait plus the bound. */
const heldObjective = (waitMs) => ({ percentile: 'p99', ms: waitMs + ABOVE_WAIT_BOUND_MS });

// How each kind of answer is measured and judged, by version: bumped when a rule that moves the
// answer changes (the ramps' step rule: judged over the schedule, keep-alive connections warmed,
// each answer confirmed: version 2; each step as long as two of its server's pause periods and
// judged over whole periods, perf/lib/run/pause_window.js: version 3; the climb's steps at the
// base length, the answer held twice on whole steps: version 4; only the failure of the rate
// bounding the answer confirmed, perf/lib/run/capacity.js: version 5). A metric whose rule changed
// alone has its own entry, "kind metric", which its answers are held to instead of their kind's
// (memory from the runs left out only for their pace, perf/lib/judge/reasons.js doubtsPaceOnly:
// version 2). A run records the versions it measured with (perf/lib/run/environment.js); an
// archived answer of another version is marked, like one of a server changed since.
const METHOD_VERSIONS = { scenario: 1, ramp: 5, 'scenario peak_rss_mb': 2 };

module.exports = { METHOD_VERSIONS, heldObjective, ABOVE_WAIT_BOUND_MS, fewPauses, FEW_PAUSES, LEVEL, DEFAULT_MARGIN, DEFAULT_LOOKS, DEFAULT_OBJECTIVE, RAMP_FACTOR, DEFAULT_PRECISION, FAIL_CONFIRMATIONS, CONFIRM_ATTEMPTS };
