'use strict';
// Paired rounds: the measuring design built to decide on a noisy shared machine. Every server
// of the plan is up at once (all pinned to the servers' CPU; only the one under load uses it),
// started afresh (0.1-0.2 s) for each visit of a scenario, so that no memory a server kept from
// an earlier scenario counts as this one's; then the load alternates between them in rounds:
// one run of each server, back to back, in a random order. Whatever the machine does during a
// round (another tenant, the hypervisor's steal) hits both sides of it, and cancels in their
// paired difference (perf/lib/rule/group_sequential.js); a disturbed run is recorded as such and
// kept, not thrown away. A light open loop (a schedule that leaves each server mostly idle)
// runs its servers at the same time instead, their arrivals interleaved: the same moment for
// both sides, half the seconds a round (togetherRound), for as long as each server's load stays
// light enough not to delay the other's replies (SHARED_LOAD_PCT). Each scenario is judged at
// looks (5, 10, 20, 40 rounds) and measured on only while one of its comparisons is still
// undecided: after every scenario's first look, the budget goes to the scenario whose next
// likely deciding look decides the most per second (nextVisit), a scenario going on at once
// where it is that one, its servers still warm. Where a lighter load generator should give the
// verdict (./lighter_engines.js), the scenario's first round decides it, and the rounds go on
// with that engine.

const { runOne, failedRun, settle } = require('./run_one');
const { lighterEngines, chooseVerdictEngines, pickLighter } = require('./lighter_engines');
const { whyNotInstalled } = require('../engines');
const { reasonCode } = require('../store/reasons');
const { expectedDurationS } = require('../store/scenario_doc');
const { roundsEstimate } = require('../plan/rounds');
const { lookToDecide } = require('../rule/group_sequential');
const { compareServers, isSuperseded, usableForVerdict } = require('../rule/compare');
const { fmtDuration } = require('../text/format');
const { METRIC_WORDS } = require('../text/metric_words');
const { withoutAdvice } = require('../text/verdict_notes');
const { runLine } = require('../text/run_log');

/**
 * How many rounds a scenario may run beyond its looks to replace rounds a side could not use:
 * enough for the odd disturbed or client-bound run, not for a side that is never usable.
 */
const REPLACED_ROUNDS = 2;

/**
 * The fewest rounds of a scenario in which both servers of a pair could be used for a verdict,
 * over its pairs (a lone server: its own usable rounds). Each pair's answer rests on its own
 * rounds (perf/lib/rule/compare.js pairs runs by round), so a round one server could not use
 * still gives the other pairs theirs.
 */
function usableRounds(st, runs) {
  const usable = runs.filter((r) => r.scenario === st.name && !isSuperseded(r) && usableForVerdict(r));
  const roundsOf = st.servers.map((server) => new Set(usable.filter((r) => r.server === server).map((r) => r.trial)));
  if (roundsOf.length < 2) return roundsOf.length ? roundsOf[0].size : 0;
  const counts = roundsOf.flatMap((a, i) => roundsOf.slice(i + 1).map((b) => [...a].filter((t) => b.has(t)).length));
  return Math.min(...counts);
}

/**
 * What measuring an open scenario on would likely buy: the first look past its rounds at which
 * one of its undecided comparisons would likely be decided (lookToDecide, from each one's
 * more_measuring), how many would be by then, and the seconds it costs: the rounds at the
 * scenario's seconds per round, and a visit's fixed seconds (servers started afresh and warmed
 * up) unless its servers are still up from its last rounds (continuing). Where none would
 * likely be decided by the last look: the next look, deciding none. null past the last look.
 * st: { name, rounds, comparisons, roundS, fixedS }.
 */
function prospect(st, looks, continuing) {
  const next = looks.find((n) => n > st.rounds);
  if (next === undefined) return null;
  const by = st.comparisons
    .filter((c) => c.decision === 'undecided')
    .map((c) => lookToDecide(c.rounds, c.more_measuring, looks))
    .filter((n) => n !== null)
    .map((n) => Math.max(n, next));
  const to = by.length ? Math.min(...by) : next;
  return { name: st.name, to, decides: by.filter((n) => n <= to).length, costS: (to - st.rounds) * st.roundS + (continuing ? 0 : st.fixedS) };
}

/**
 * How much longer than estimated the first looks so far took (their seconds over their
 * estimates; 1 before any): the first looks still to come are kept that much time, so that an
 * estimate that was short (a slow machine, a lighter engine's warm-up) does not let the
 * scenarios measured first spend the share of those measured last. Within ×0.5 to ×3.
 */
function firstLookScale(states) {
  const done = states.filter((st) => st.firstLookTookS > 0);
  if (!done.length) return 1;
  const ratio = done.reduce((t, st) => t + st.firstLookTookS, 0) / done.reduce((t, st) => t + st.firstLookS, 0);
  return Math.min(3, Math.max(0.5, ratio));
}

/**
 * Where the budget goes next. Every scenario's first look comes first, in the plan's order,
 * whatever the budget (nothing measured is no answer), and the budget those still to come
 * should take is kept for them (scaled as the first looks so far ran: firstLookScale). Of the
 * open scenarios, the prospect (above) that fits in the rest and decides the most comparisons
 * per second wins; where none would likely decide anything, the cheapest that fits, once every
 * first look is done. The scenario just measured goes on at once when it is that winner (its
 * servers are up and warm, so it will never be cheaper); before every first look is done, only
 * where that costs no more than its fixed seconds (what coming back would add) and an even
 * share of what is spare. states: [{ name, visited, open, rounds, comparisons, roundS, fixedS,
 * firstLookS (estimated), firstLookTookS (measured) }]; current: the name of the scenario whose
 * servers are up, or null. Returns { visit: { name, to, costS, first } or null, leftOut: the
 * prospects that did not fit }.
 */
function nextVisit(states, looks, leftS, current) {
  const unvisited = states.filter((st) => !st.visited);
  const spareS = leftS - unvisited.reduce((t, st) => t + st.firstLookS, 0) * firstLookScale(states);
  const prospects = states.filter((st) => st.visited && st.open).map((st) => prospect(st, looks, st.name === current)).filter(Boolean);
  const fits = prospects.filter((p) => p.costS <= spareS);
  const leftOut = prospects.filter((p) => p.costS > spareS);
  const deciding = fits.filter((p) => p.decides > 0);
  const best = deciding.length ? deciding.reduce((b, p) => (p.decides / p.costS > b.decides / b.costS ? p : b)) : fits.reduce((b, p) => (!b || p.costS < b.costS ? p : b), null);
  // Before every first look is done, going on at once is worth it only where it costs no more
  // than coming back later would add (the scenario's fixed seconds: a fresh start and warm-up),
  // and no more than an even share of what is spare: the scenarios still to come may need the
  // budget more, and estimates of their first looks are rough. Dearer rounds wait until every
  // scenario has been looked at once, and then go where they decide the most per second.
  const own = states.find((st) => st.name === current);
  const goOn = best && best.name === current && (unvisited.length ? best.decides > 0 && best.costS <= Math.min(spareS / (unvisited.length + 1), own.fixedS) : true);
  if (goOn) return { visit: best, leftOut };
  if (unvisited.length) return { visit: { name: unvisited[0].name, to: looks[0], costS: unvisited[0].firstLookS, first: true }, leftOut };
  return { visit: best, leftOut };
}

/** servers in a random order (Fisher–Yates); random() in [0, 1). */
function shuffled(servers, random = Math.random) {
  const out = [...servers];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Whether a scenario's comparisons are all settled: each pair's metric decided (a winner, the
 * same), or beyond measuring (not judged, excluded, not measured). Undecided ones keep it open.
 */
function settled(comparisons) {
  return comparisons.every((c) => c.decision !== 'undecided');
}

/**
 * Measures the plan's scenarios in paired rounds on servers already up: up is a Map server →
 * { handle, state (exit, hung, notStarted…: see runner.js), baselineFds }. session: { plan,
 * store, io, restart(server, scenario) }: restart replaces a server's entry in up with the
 * same server started afresh (each visit of a scenario starts on its own servers).
 * Resolves { interrupted, budget: { budget_s, spent_s, left_out: [{ scenario, to, cost_s }] } }.
 */
async function measureInRounds(up, { plan, store, io, restart }) {
  const { log, signal } = io;
  const { looks, budgetS } = plan.rounds;
  const startedAt = performance.now();
  const spentS = () => (performance.now() - startedAt) / 1000;
  const verdictEngines = { verdict_engines: {}, verdict_engine_reasons: {} };
  const states = plan.scenarios
    .map((scenario) => ({ name: scenario.name, scenario, random: plan.rounds.random, servers: plan.runnable.filter((s) => up.has(s) && plan.served[s].some((x) => x.name === scenario.name)), rounds: 0, visited: false, open: true, comparisons: [], engineChosen: !plan.engine.lighter, watchBottleneck: false, together: null }))
    .filter((st) => st.servers.length > 0);
  // Where each scenario starts (perf/lib/plan/rounds.js): measured rounds replace these.
  for (const st of states) {
    const planned = roundsEstimate(st.scenario, st.servers.length, { looks, probe: probesEngine(st) });
    Object.assign(st, { together: planned.together, roundS: planned.round_s, fixedS: planned.fixed_s, firstLookS: planned.first_look_s });
  }
  let leftOut = [];
  let current = null; // the scenario whose servers are up: going on with it needs no fresh start
  const interrupted = () => Boolean(signal && signal.aborted);

  while (!interrupted()) {
    const next = nextVisit(states, looks, budgetS - spentS(), current);
    leftOut = next.leftOut;
    if (!next.visit) break;
    const st = states.find((s) => s.name === next.visit.name);
    const visit = { to: next.visit.to, look: next.visit.to };
    const fresh = st.name !== current;
    const visitStart = performance.now();
    if (fresh) {
      for (const server of st.servers) await restart(server, st.scenario);
      if (interrupted()) break;
      current = st.name;
    }
    st.visited = true;
    let warm = fresh; // the first round on fresh servers warms each one up
    let ran = 0; // rounds run in this visit
    if (!st.engineChosen) {
      const outcome = await chooseEngine(st, up, { store, io, verdictEngines });
      if (outcome === 'interrupted') break;
      // Its round 1 warmed the servers up with the engine chosen.
      if (st.rounds > 0) [warm, ran] = [false, 1];
    }
    const steadyS = []; // how long each round without a warm-up took
    while (st.rounds < visit.to && !interrupted()) {
      const roundStart = performance.now();
      // A lighter engine may take over after any run, the round's others not run (lighterAfterRound).
      const watch = st.watchBottleneck ? () => lighterAfterRound(st, { store, io, verdictEngines }) : null;
      const r = await oneRound(st, st.rounds + 1, up, { store, io, warm, watch });
      if (r === 'interrupted') break;
      // A lighter engine taking over warms the servers up again, with its own exchange.
      if (r === 'switched') {
        warm = true;
        continue;
      }
      if (!warm) steadyS.push((performance.now() - roundStart) / 1000);
      st.rounds += 1;
      ran += 1;
      warm = false;
      // A round a side could not use (client-bound, not server-bound, shared, failed) gives
      // its pairs none: replaced, up to REPLACED_ROUNDS beyond the look, so that the look has
      // the pairs of the pair with the fewest (usableRounds).
      if (st.rounds === visit.to) {
        const lost = visit.look - usableRounds(st, store.runs);
        if (lost > 0 && lost <= REPLACED_ROUNDS - (visit.to - visit.look)) visit.to += 1;
      }
    }
    if (next.visit.first) st.firstLookTookS = (performance.now() - visitStart) / 1000;
    if (steadyS.length) {
      st.roundS = steadyS.reduce((t, x) => t + x, 0) / steadyS.length;
      if (fresh) st.fixedS = Math.max(0, (performance.now() - visitStart) / 1000 - st.roundS * ran);
    }
    st.comparisons = scenarioComparisons(st, store.runs, plan);
    st.open = !settled(st.comparisons) && st.rounds < looks[looks.length - 1];
    log(visitLine(st, st.comparisons, { spentS: spentS(), budgetS }));
  }
  store.setExtra(verdictEngines);
  return {
    interrupted: interrupted(),
    budget: {
      budget_s: budgetS,
      spent_s: Math.round(spentS()),
      left_out: leftOut.map((v) => ({ scenario: v.name, to: v.to, cost_s: Math.round(v.costS) })),
    },
  };
}

/** Whether a scenario's first round will run two engines to choose one (chooseEngine). */
function probesEngine(st) {
  if (st.engineChosen) return false;
  const foreseen = lighterEngines(alone(st), [])[st.name];
  return Boolean(foreseen) && !whyNotInstalled(foreseen.engine);
}

/**
 * The comparisons of one scenario so far, by the verdict rule the judge applies to the whole run
 * (perf/lib/rule/compare.js): a look decides here exactly what it will decide there. Used only to
 * choose what to measure next; results.json keeps the runs, not these.
 */
function scenarioComparisons(st, runs, plan) {
  return compareServers(runs, { servers: st.servers, scenarios: [st.name], margin: plan.margin, looks: plan.rounds.looks });
}

/** "keepalive_400x100   10 rounds: 5 of 6 decided (open: p99); 1 min 10 s of 3 min". */
function visitLine(st, comparisons, { spentS, budgetS }) {
  const judged = comparisons.filter((c) => c.decision);
  const open = [...new Set(comparisons.filter((c) => c.decision === 'undecided').map((c) => METRIC_WORDS[c.metric].short))];
  const decided = judged.length - comparisons.filter((c) => c.decision === 'undecided').length;
  const engine = st.scenario.engine ? ` (${st.scenario.engine})` : '';
  // Nothing to judge (each side's runs unusable, or never in the same round): why, in short.
  if (!judged.length && comparisons.length) return `${st.name.padEnd(20)} ${String(st.rounds).padStart(2)} rounds${engine}: nothing judged (${withoutAdvice(comparisons[0].note || { code: 'not_measured' })}); ${fmtDuration(spentS)} of ${fmtDuration(budgetS)}`;
  return `${st.name.padEnd(20)} ${String(st.rounds).padStart(2)} rounds${engine}: ${decided} of ${judged.length} decided${open.length ? ` (open: ${open.join(', ')})` : ''}; ${fmtDuration(spentS)} of ${fmtDuration(budgetS)}`;
}

/**
 * One round: each server of the scenario once, in a random order, one after the other; or, in a
 * simultaneous round (st.together), all at once. Records every run (failed ones said in a line);
 * resolves 'interrupted' when Ctrl-C cut a run short, 'switched' where watch() (called after
 * each run one after the other) says another engine takes over, the round's other runs not
 * run, else 'done'.
 */
async function oneRound(st, round, up, { store, io, warm, engines = null, watch = null }) {
  if (st.together && !engines) {
    const r = await togetherRound(st, round, up, { store, io, warm });
    return r === 'done' && watch && watch() ? 'switched' : r;
  }
  for (const server of shuffled(st.servers, st.random)) {
    for (const scenario of engines ? engines.map((e) => e(st.scenario)) : [st.scenario]) {
      if (notAvailable(server, scenario, round, up, store)) continue;
      const expected = expectedDurationS(scenario);
      io.status(`${st.name}  round ${round}  ${server}${scenario.engine ? ` (${scenario.engine})` : ''}${expected ? ` (~${Math.ceil(expected)} s)` : ''}`);
      const result = await measure(server, scenario, round, up, { io, warm });
      io.status(null);
      if (result.interrupted) return 'interrupted';
      await record(server, result, round, up, { store, io });
      if (watch && watch()) return 'switched';
    }
  }
  return 'done';
}

/**
 * A simultaneous round: every server of a light open loop under its own load at the same time,
 * their schedules interleaved (each server's arrivals offset by an equal share of the interval
 * between two), so that whatever the machine does hits both at once, and a round costs one
 * run's time. Each run measures the others' CPU over its window (run.beside); where one used
 * more than SHARED_LOAD_PCT of the servers' core the round's runs are not judged ('shared
 * core') and the scenario's later rounds take the servers one after the other.
 */
async function togetherRound(st, round, up, { store, io, warm }) {
  const servers = shuffled(st.servers, st.random).filter((server) => !notAvailable(server, st.scenario, round, up, store));
  const stepMs = arrivalIntervalMs(st.scenario) / servers.length;
  const expected = expectedDurationS(st.scenario);
  io.status(`${st.name}  round ${round}  ${servers.join(' + ')} together${expected ? ` (~${Math.ceil(expected)} s)` : ''}`);
  const results = await Promise.all(
    servers.map(async (server, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * stepMs));
      const beside = servers.filter((other) => other !== server).map((other) => ({ server: other, pid: up.get(other).handle.pid }));
      return measure(server, st.scenario, round, up, { io, warm, beside });
    }),
  );
  io.status(null);
  if (results.some((r) => r.interrupted)) return 'interrupted';
  for (const [i, server] of servers.entries()) await record(server, results[i], round, up, { store, io });
  const shared = results.flatMap((r) => r.run.not_judged_because).find((why) => reasonCode(why) === 'shared');
  if (shared) {
    st.together = false;
    io.log(`${st.name}: one server after the other from round ${round + 1} (${shared.slice(shared.indexOf(': ') + 2)})`);
  }
  return 'done';
}

/** The time between two scheduled arrivals of an open loop (its probe's, with slow clients), in ms. */
function arrivalIntervalMs(scenario) {
  return 1000 / (scenario.kind === 'slow_clients' ? scenario.probe.rate : scenario.rate);
}

/** Records a failed run where a server cannot be measured any more (exited, hung); true then. */
function notAvailable(server, scenario, round, up, store) {
  const { state } = up.get(server);
  const why = state.notStarted ? `not run: ${state.notStarted}` : state.hung ? `not run: the server stopped answering during ${state.hung}` : state.exit ? `not run: the server exited during ${state.diedDuring || 'an earlier scenario'}` : null;
  if (why) store.addRun(failedRun(server, scenario, why, { trial: round }));
  return Boolean(why);
}

/** One server's run of a round, warmed up in the visit's first round only. */
function measure(server, scenario, round, up, { io, warm, beside = [] }) {
  const u = up.get(server);
  u.state.current = scenario.name;
  const run = warm ? scenario : { ...scenario, warmup_s: 0 };
  return runOne({ server, trial: round, handle: u.handle, scenario: run, outerSignal: io.signal, serverState: u.state, paired: true, beside }).then((result) => {
    if (!result.interrupted && run !== scenario) result.run.params.warmup_s = scenario.warmup_s; // warmed up in the visit's first round
    return result;
  });
}

/** Stores a run (said in a line where it failed), and lets the server settle before the next. */
async function record(server, result, round, up, { store, io }) {
  const u = up.get(server);
  store.addRun(result.run, result.samples);
  if (!result.run.ok) io.log(`round ${round}: ${runLine(result.run)}`);
  if (!u.state.exit && !u.state.hung) await settle(u.handle.pid, u.baselineFds);
}

/**
 * Where a lighter engine should give a scenario's verdict (./lighter_engines.js). One client at
 * a time (httperf): round 1 runs both engines, and the rounds go on with the one whose cycle
 * per request is shorter (its round-1 runs are round 1). A closed loop: after each run with
 * the built-in engine (lighterAfterRound), where its load generator was the bottleneck, the
 * rounds start again with wrk (httperf where wrk cannot keep the scenario's count of requests per
 * connection). The runs not chosen stay in results.json, superseded. Sets
 * st.scenario (the engine chosen) and st.rounds; resolves 'interrupted' or 'done'.
 */
async function chooseEngine(st, up, { store, io, verdictEngines }) {
  st.engineChosen = true;
  const foreseen = lighterEngines(alone(st), [])[st.name];
  if (!foreseen) {
    st.watchBottleneck = true;
    return 'done';
  }
  const missing = whyNotInstalled(foreseen.engine);
  if (missing) {
    io.log(`${foreseen.engine}: does not run ${st.name} (${foreseen.why}): ${missing}`);
    return 'done';
  }
  const withEngine = (s) => ({ ...s, engine: foreseen.engine });
  const r = await oneRound(st, 1, up, { store, io, warm: true, engines: [(s) => s, withEngine] });
  if (r === 'interrupted') return r;
  st.rounds = 1;
  const pick = pickLighter(store.runs, st.name, foreseen.engine);
  if (pick.engine === foreseen.engine) st.scenario = withEngine(st.scenario);
  mergeEngines(verdictEngines, chooseVerdictEngines({ wanted: { [st.name]: { engine: pick.engine, why: pick.text } }, names: [st.name] }, store.runs, io.log));
  return 'done';
}

/** The plan's part lighterEngines needs, for one scenario. */
function alone(st) {
  return { runnable: st.servers, served: Object.fromEntries(st.servers.map((s) => [s, [st.scenario]])) };
}

/**
 * After a run with the built-in engine: where its load generator was the bottleneck in a run
 * of the scenario so far and a lighter engine can run it (wrk, else httperf), supersedes the
 * built-in runs and goes on with that engine from round 0 (true). Said once where it is not
 * installed.
 */
function lighterAfterRound(st, { store, io, verdictEngines }) {
  const wanted = lighterEngines(alone(st), store.runs.filter((r) => r.scenario === st.name))[st.name];
  if (!wanted) return false;
  st.watchBottleneck = false;
  const missing = whyNotInstalled(wanted.engine);
  if (missing) {
    io.log(`${wanted.engine}: does not run ${st.name} (${wanted.why}): ${missing}`);
    return false;
  }
  mergeEngines(verdictEngines, chooseVerdictEngines({ wanted: { [st.name]: wanted }, names: [st.name] }, store.runs, io.log));
  st.scenario = { ...st.scenario, ...wanted.as, engine: wanted.engine };
  st.rounds = 0;
  return true;
}

function mergeEngines(into, { verdict_engines: engines, verdict_engine_reasons: reasons }) {
  Object.assign(into.verdict_engines, engines);
  Object.assign(into.verdict_engine_reasons, reasons);
}

module.exports = { measureInRounds, nextVisit, prospect, shuffled, settled, usableRounds, REPLACED_ROUNDS };
