'use strict';
// What a backend call costs each server (results.json's `backends`): every scenario
// that names a baseline (perf/scenarios/backend_*.json: the same load, its request making no
// call: the same wait on the server's own timer, or none) against it, server by server. The
// route and its baseline ran in blocks of their own, not side by side, so their ratio is
// Welch's interval on the log values (./confidence.js compareTrials); the difference is of the
// geometric means. The servers' comparison on the route itself is the usual verdict's
// (perf/lib/rule/compare.js): this says where each one's cost comes from.

const { summarizeTrials, compareTrials } = require('../rule/confidence');
const { waitMs, scenarioNeeds } = require('../store/scenario_doc');
const { backendsFor } = require('../hosts/backends');
const { median } = require('../measure/stats');

const round3 = (x) => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : null);

/** Each metric: what it reads off a run. */
const METRICS = {
  cpu_ms: (r) => r.server_cpu && r.server_cpu.ms_per_request,
  p50_ms: (r) => r.latency_ms && r.latency_ms.p50,
  p99_ms: (r) => r.latency_ms && r.latency_ms.p99,
};

/** { route, baseline (geometric means), extra (route − baseline), ratio, ci95 (route ÷ baseline) }. */
function costOf(routeRuns, baseRuns, read) {
  const a = routeRuns.map(read);
  const b = baseRuns.map(read);
  const route = summarizeTrials(a).centre;
  const baseline = summarizeTrials(b).centre;
  const ratio = compareTrials(a, b);
  return {
    route: round3(route),
    baseline: round3(baseline),
    extra: route !== null && baseline !== null ? round3(route - baseline) : null,
    ratio: ratio ? round3(ratio.ratio) : null,
    ci95: ratio ? ratio.ci95.map(round3) : null,
  };
}

/**
 * results.json's `backends`: { scenarios: [{ scenario, baseline, backends (['upstream'] or
 * ['redis']), wait_ms (the upstream's N, or null), servers: { server: { runs, baseline_runs
 * (usable ones), cpu_ms, p50_ms, p99_ms (costOf), backend_cpu_ms, backend_cpu_pct (medians over
 * the route's usable runs, per backend: { name: value }) } } }] }, or null when no scenario with
 * a baseline ran. usable(run): whether a verdict may use it (perf/lib/rule/compare.js); order: the servers
 * in the order they were asked for (the runs' order is the rounds' random one).
 */
function analyzeBackends(runs, usable, order = []) {
  const withBaseline = [...new Map(runs.filter((r) => r.params && r.params.baseline).map((r) => [r.scenario, r.params])).values()];
  if (!withBaseline.length) return null;
  const scenarios = withBaseline.map((params) => {
    const servers = {};
    const ran = [...new Set(runs.filter((r) => r.scenario === params.name).map((r) => r.server))];
    for (const server of [...order.filter((s) => ran.includes(s)), ...ran.filter((s) => !order.includes(s))]) {
      const route = runs.filter((r) => r.server === server && r.scenario === params.name && usable(r));
      const base = runs.filter((r) => r.server === server && r.scenario === params.baseline && usable(r));
      const perBackend = (field) => Object.fromEntries(backendsFor(scenarioNeeds(params)).map((name) => [name, median(route.map((r) => (r.backends || []).find((b) => b.name === name)?.[field]))]));
      servers[server] = {
        runs: route.length,
        baseline_runs: base.length,
        ...Object.fromEntries(Object.entries(METRICS).map(([metric, read]) => [metric, costOf(route, base, read)])),
        backend_cpu_ms: perBackend('ms_per_request'),
        backend_cpu_pct: perBackend('cpu_pct'),
      };
    }
    return { scenario: params.name, baseline: params.baseline, backends: backendsFor(scenarioNeeds(params)), wait_ms: waitMs(params), servers };
  });
  return { scenarios };
}

module.exports = { analyzeBackends };
