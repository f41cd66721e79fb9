'use strict';
// The numbers a reader wants first: per scenario, which server was faster and by how much,
// and which runs must not be trusted (failed, client-bound, missing). The comparisons and
// warnings are the judged results' (perf/lib/judge/judged.js judgeResults): each comparison
// carries its answer; this module only picks the pair's, fills the gaps and words them.

const { runsOf } = require('../store/results_doc');
const { METRIC_NAMES, metricValue } = require('../rule/metrics');
const { findComparison } = require('../judge/verdicts');
const { fmtFactor, trialsLabel, marginText } = require('../text/format');
const { verdictWords } = require('../text/verdict_words');
const { noteWords } = require('../text/verdict_notes');
const { warningText } = require('../text/warnings');

const HEADLINE_METRICS = ['p50_ms', 'p99_ms', 'throughput_rps'];

/**
 * The run that stands for a server in a scenario (its charts): the first trial a verdict may use
 * (neither client-bound nor left out by the runner: `judged`), else the first that finished and
 * was not superseded (so that both servers' charts show the engine that gave the verdict), else
 * the first that finished, else the first.
 */
function representative(results, scenario, server) {
  const runs = runsOf(results, scenario, server);
  return runs.find((r) => r.usable) || runs.find((r) => r.ok && !r.superseded) || runs.find((r) => r.ok) || runs[0] || null;
}

/** A comparison with what the page shows beside it: the lead (the better-looking side) and its factor, its note in words. */
function withLead(c) {
  return { ...c, note: noteWords(c.note), factor: c.answer.factor ?? null, lead: c.answer.lead ?? null };
}

/**
 * What the page shows of a scenario and metric without a stored comparison (a server with no
 * run, or a failed one): the values of the runs that stand for each server, and why nothing
 * is compared. Also the caveat of a comparison left out because a run was client-bound.
 */
function uncompared(results, scenario, metric, a, b) {
  const ra = representative(results, scenario, a);
  const rb = representative(results, scenario, b);
  const va = ra && ra.ok ? metricValue(ra, metric) : null;
  const vb = rb && rb.ok ? metricValue(rb, metric) : null;
  let note = null;
  if (!ra || !rb) note = `no ${!ra ? a : b} run`;
  else if (!ra.ok || !rb.ok) note = `${!ra.ok ? a : b} failed`;
  else if (va === null || vb === null) note = 'not measured';
  const caveat = [ra, rb].filter((r) => r && r.ok && r.client_bound).map((r) => `${r.server} client-bound`);
  return { scenario, metric, a, b, value_a: va, value_b: vb, ratio: null, ci95: null, significant: null, winner: null, factor: null, lead: null, note, caveat, excluded: null, answer: { kind: 'not_measured', why: note || 'not measured' } };
}

/**
 * Comparisons for every scenario and headline metric, from results.json's own list when given,
 * each of those with its verdict in words (words).
 */
function comparisons(results) {
  const pair = results.pair;
  if (!pair) return [];
  const [a, b] = pair;
  const out = [];
  for (const scenario of results.scenarios) {
    for (const metric of METRIC_NAMES) {
      const shown = uncompared(results, scenario, metric, a, b);
      // Stored either way round (--servers em,node stores em vs node): oriented as the pair.
      const g = findComparison(results.comparisons, scenario, metric, a, b);
      if (!g) {
        out.push(shown);
        continue;
      }
      // Values of excluded comparisons (client-bound) are still shown, from the first run.
      const values = { value_a: g.value_a ?? shown.value_a, value_b: g.value_b ?? shown.value_b };
      // Client-bound trials are already left out of a given verdict: no caveat on it.
      const caveat = g.excluded === 'client-bound' ? shown.caveat : [];
      out.push(withLead({ ...shown, ...g, ...values, caveat, ratio: g.ratio === null || g.ratio === undefined ? null : Number(g.ratio), words: verdictWords(g) }));
    }
  }
  return out;
}

/**
 * Everything a reader must be warned about, one entry per problem: the runs' warnings
 * (perf/lib/judge/warnings.js runWarnings: failed, missing, errors, client-bound or close to it,
 * behind schedule; in words by perf/lib/text/warnings.js) and, for information, the scenarios
 * a server does not serve.
 */
function flags(results) {
  const { skipped } = results;
  const out = [];
  for (const scenario of results.scenarios) {
    for (const server of results.servers) {
      const skip = skipped.find((k) => k.server === server && k.scenario === scenario);
      if (skip && !skip.unplanned && runsOf(results, scenario, server).length === 0) out.push({ scenario, server, kind: 'skipped', severity: 'info', text: `${server} does not serve this scenario (${String(skip.reason).split(';')[0]}): not run` });
    }
  }
  for (const w of results.warnings) out.push({ ...w, text: `${w.server}${trialsLabel(w.trials, results.trials)}: ${warningText(w)}` });
  return out;
}

/** Why a comparison names nothing, in a few words: "node client-bound", "not measured". */
function whyUndecided(c) {
  if (!c) return 'a server has no run';
  if (c.excluded === 'failed' || c.excluded === 'missing') return `${c.excluded} runs`;
  // "em not judged in all 3 trials (disturbed)": the runner's reasons, not the category's name.
  if (c.excluded === 'not-judged') return noteWords(c.note);
  if (c.excluded) return c.excluded;
  return c.no_verdict || noteWords(c.note) || 'not measured';
}

/**
 * One sentence: who answered faster (median) in how many scenarios, where and by how much
 * ("node in 2 (keepalive_400x100 2.4×, big_upload 4.4×)"), and where nothing was decided.
 */
function headline(results, comps) {
  const pair = results.pair;
  if (!pair) return `Only ${results.servers[0]} was measured; nothing to compare.`;
  const p50 = comps.filter((c) => c.metric === 'p50_ms' && c.factor !== null);
  const wins = Object.fromEntries(pair.map((s) => [s, []]));
  const count = { same: 0, undecided: 0, no_interval: 0 };
  for (const c of p50) if (c.winner) wins[c.winner].push(c); else count[c.answer.kind]++;
  const where = (cs) => (cs.length ? ` (${[...cs].sort((x, y) => y.factor - x.factor).map((c) => `${c.scenario} ${fmtFactor(c.factor)}`).join(', ')})` : '');
  const parts = pair.map((s) => `${s} in ${wins[s].length}${where(wins[s])}`);
  const notComparable = results.scenarios.filter((sc) => !p50.some((c) => c.scenario === sc));
  let text = `Lower median response time: ${parts.join(', ')} of ${results.scenarios.length} scenarios`;
  if (count.same) text += `; the same within ${marginText(p50.find((c) => c.answer.kind === 'same').answer.margin)} in ${count.same}`;
  if (count.undecided) text += `; undecided in ${count.undecided}`;
  const noInterval = count.no_interval;
  // With several trials, one judged trial on a side means the others were not judged.
  const single = (results.environment.options && results.environment.options.repeat) > 1 ? 'the other trials were not judged' : 'run with --repeat 3';
  if (noInterval) text += `; no winner named from a single judged trial in ${noInterval} (no interval: ${single})`;
  if (notComparable.length) text += `; not comparable in ${notComparable.length} (${notComparable.map((sc) => `${sc}: ${whyUndecided(comps.find((c) => c.scenario === sc && c.metric === 'p50_ms'))}`).join('; ')})`;
  return `${text}.`;
}

module.exports = { HEADLINE_METRICS, representative, comparisons, flags, headline };
