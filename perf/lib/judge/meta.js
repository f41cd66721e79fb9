'use strict';
// Answers across runs: what the archive of full runs (results/archive/, perf/lib/store/archive.js)
// says of each comparison, when each run's own interval describes only that run's noise.
//
// Each run gives a log ratio y and its standard error s (from its stored interval and the
// quantile that built it: logStandardError). Runs differ by more than their own noise (another
// host, another day, another neighbour on the machine), so the runs are pooled with a
// random-effects model: y_i = μ + u_i + e_i, u_i ~ N(0, τ²) the run's own offset, e_i ~ N(0, s_i²).
//   τ²        DerSimonian–Laird's moment estimate, from Cochran's Q about the fixed-effect mean
//   μ         the mean weighted by 1/(s_i² + τ²)
//   interval  Hartung–Knapp(–Sidik–Jonkman): the weighted spread of the runs about μ, scaled,
//             with Student t on k − 1 degrees of freedom. DerSimonian–Laird's own interval
//             (normal quantile, τ² taken as known) covers far less than 95 % with a few runs
//             (IntHout, Ioannidis & Borm 2014); Hartung–Knapp's scale factor is held at ≥ 1
//             (the "modified" form), so that runs that happen to agree closely do not give an
//             interval narrower than their own noise allows. test/unit/judge/meta.test.js
//             checks the coverage by simulation, with a between-run variance.
//   I²        the share of the spread between runs that is not their own noise (Higgins &
//             Thompson 2002): max(0, (Q − (k − 1)) / Q)
// The answer is then the project's one rule (perf/lib/rule/answer.js decide) on the pooled
// interval. Where the hosts the runs ran on answer differently, each host's runs pooled on their
// own, the answer is 'depends' and names them, instead of choosing between them: runs on one
// host are compared side by side in time, runs on two hosts are not (Laaber, Scheuner & Leitner
// 2019).

const crypto = require('node:crypto');
const { jStat } = require('jstat');
const { decide, claimOutcome, relate, CONTRADICTIONS } = require('../rule/answer');
const { lookLevel } = require('../rule/group_sequential');
const { LEVEL, DEFAULT_MARGIN, METHOD_VERSIONS } = require('../method');
const { median } = require('../measure/stats');

// Paired rounds short of the first look (5 rounds: 4 degrees of freedom) carry a spread known to
// no precision: one such run could outweigh several full ones. They are kept in the record, not pooled.
const MIN_POOLED_DF = 4;

// Fewer runs than this are listed, each with its own answer, not pooled: with two, Hartung–Knapp's
// t on one degree of freedom is 12.7 (an interval of "0.03–45×" from two runs that agree), and
// one run has no spread between runs at all; two runs that name one winner are two runs, not a
// pooled answer.
const MIN_POOLED_RUNS = 3;

// How a pooled answer was made (its method): 'random-effects' (DerSimonian–Laird τ², the
// Hartung–Knapp interval on t with k − 1 degrees of freedom, at LEVEL), or 'few-runs' (fewer than
// MIN_POOLED_RUNS runs: each run's own answer, not pooled).
const RANDOM_EFFECTS = 'random-effects';
const FEW_RUNS = 'few-runs';
const Z95 = jStat.normal.inv(1 - (1 - LEVEL) / 2, 0, 1);

/** Student's t quantile of a two-sided interval at level with df degrees of freedom. */
function tQuantile(level, df) {
  return jStat.studentt.inv(1 - (1 - level) / 2, df);
}

/**
 * The standard error of a stored comparison's log ratio, from its interval and the quantile that
 * built it: paired rounds (perf/lib/rule/group_sequential.js) at each look's level with rounds − 1
 * degrees of freedom; paired ramp searches at 95 % with searches − 1; anything else at the
 * normal quantile (wider than the truth when its interval used a t quantile: the run then
 * weighs less, never more, than it should). null without an interval.
 */
function logStandardError({ ci95, method, rounds = null, searches = null }, { looks = null } = {}) {
  if (!ci95 || !(ci95[0] > 0) || !(ci95[1] >= ci95[0])) return null;
  let quantile = Z95;
  if (method === 'paired' && Number.isInteger(rounds) && rounds >= 2) quantile = tQuantile(looks ? lookLevel(looks) : LEVEL, rounds - 1);
  else if (Number.isInteger(searches) && searches >= 2) quantile = tQuantile(LEVEL, searches - 1);
  return Math.log(ci95[1] / ci95[0]) / (2 * quantile);
}

/** The key an answer is pooled by across runs: what it compares, on what, between whom. */
function answerKey(subject, metric, a, b) {
  return `${subject} ${metric} ${a}:${b}`;
}

/**
 * A run's answers in the archive's one shape (judged results, perf/lib/judge/judged.js):
 * every comparison of the scenarios and of the ramps' sustainable rates, each { key, kind
 * ('scenario' | 'ramp'), subject (the scenario or ramp), metric, a, b, better, ratio (a ÷ b),
 * ci95, log_se, decision, winner, factor, margin, method, not_judged (why there is no answer: the
 * stored no_verdict or note, or { code: 'short_of_first_look', rounds } for an answer not pooled
 * (perf/lib/text/pooled.js notJudgedWords); or null) }.
 */
function runAnswers(results) {
  const looks = results.looks || null;
  const shortOfFirstLook = (c) => c.method === 'paired' && Number.isInteger(c.rounds) && c.rounds < MIN_POOLED_DF + 1;
  const scenario = results.comparisons.map((c) => ({
    key: answerKey(c.scenario, c.metric, c.a, c.b),
    kind: 'scenario',
    subject: c.scenario,
    metric: c.metric,
    a: c.a,
    b: c.b,
    better: c.better,
    ratio: c.ratio,
    ci95: c.ci95,
    // A comparison the run left unjudged (a lower bound, a figure below its resolution), or judged
    // short of its first look, is not pooled.
    log_se: c.decision && !shortOfFirstLook(c) ? logStandardError(c, { looks }) : null,
    df: c.method === 'paired' && Number.isInteger(c.rounds) ? c.rounds - 1 : null,
    decision: c.decision ?? null,
    winner: c.winner ?? null,
    factor: c.factor ?? null,
    margin: c.margin ?? DEFAULT_MARGIN,
    method: c.method ?? null,
    not_judged: c.no_verdict || (c.decision ? (shortOfFirstLook(c) ? { code: 'short_of_first_look', rounds: c.rounds } : null) : c.note || null),
  }));
  const ramps = results.ramps ? results.ramps.ramps : [];
  const searches = results.ramps ? results.ramps.repeat : null;
  const ramp = ramps.flatMap((r) =>
    r.comparisons.map((c) => ({
      key: answerKey(r.name, 'sustainable_rps', c.a, c.b),
      kind: 'ramp',
      subject: r.name,
      metric: 'sustainable_rps',
      a: c.a,
      b: c.b,
      better: 'higher',
      ratio: c.ratio,
      ci95: c.ci95,
      log_se: c.decision ? logStandardError({ ci95: c.ci95, searches }) : null,
      df: Number.isInteger(searches) ? searches - 1 : null,
      decision: c.decision,
      winner: c.winner,
      factor: c.factor,
      margin: c.margin ?? DEFAULT_MARGIN,
      method: c.method,
      not_judged: c.decision ? null : c.note,
    })),
  );
  return [...scenario, ...ramp];
}

/**
 * Which of a record's answers were measured before a change: of a server (their sources'
 * digests, perf/lib/run/environment.js serverSources, differ from current's) or of the method
 * (METHOD_VERSIONS; a record without them measured with the first versions): { key: true } for
 * those. A server without digests is taken as current: nothing says otherwise.
 */
function staleAnswers(record, current) {
  const changed = (server) => Boolean(record.sources && record.sources[server] && current[server] && record.sources[server] !== current[server]);
  const methods = record.methods || {};
  const oldMethod = ({ kind, metric }) => {
    const key = METHOD_VERSIONS[`${kind} ${metric}`] === undefined ? kind : `${kind} ${metric}`;
    // A record from before the metric had its own entry measured it by its kind's rule then.
    return (methods[key] || methods[kind] || 1) !== METHOD_VERSIONS[key];
  };
  return Object.fromEntries(record.answers.filter((x) => changed(x.a) || changed(x.b) || oldMethod(x)).map((x) => [x.key, true]));
}

/**
 * The random-effects pool of estimates [{ y (log ratio), se, ci (its own interval, log scale, if
 * known) }]: { k, mu, ci: [lo, hi] (log scale), tau2, q, i2, method }. One estimate: its own
 * interval (else the normal quantile's), tau2 and i2 null.
 */
function randomEffects(estimates) {
  const k = estimates.length;
  if (k === 0) return null;
  if (k === 1) {
    // The run's own interval as it stored it: it knew the quantile it used (a t on few rounds).
    const [{ y, se, ci }] = estimates;
    return { k, mu: y, ci: ci || [y - Z95 * se, y + Z95 * se], tau2: null, q: null, i2: null, method: FEW_RUNS };
  }
  const { mu, tau2, q, weights: ws, variance } = dlPool(estimates);
  const sws = 1 / variance;
  const scale = Math.max(1, estimates.reduce((s, e, i) => s + ws[i] * (e.y - mu) ** 2, 0) / (k - 1));
  const half = tQuantile(LEVEL, k - 1) * Math.sqrt(scale / sws);
  return { k, mu, ci: [mu - half, mu + half], tau2, q, i2: q > 0 ? Math.max(0, (q - (k - 1)) / q) : 0, method: RANDOM_EFFECTS };
}

/**
 * The host a record ran on, as far as its record can tell hosts apart: the CPU model and
 * microcode (a virtual machine's CPU is often named by family alone, "AMD EPYC", over several
 * generations), the kernel, and the CPU flags and mitigations the guest sees, as a short digest
 * (one AMD EPYC host lost seven flags and changed its mitigations with its kernel, and em's CPU
 * per request moved by a third with no change to em).
 */
function hostOf(record) {
  return hostName(record.host);
}

/** hostOf's name of a host from its fields (an archive record's host, or results.json's environment). */
function hostName({ cpu_model: model, cpu_microcode: microcode, kernel, cpu_flags: flags, cpu_mitigations: mitigations }) {
  const parts = [microcode && `microcode ${microcode}`, kernel && `kernel ${String(kernel).replace(/^Linux /, '')}`];
  if (flags || mitigations) {
    const seen = JSON.stringify([[...(flags || [])].sort(), Object.entries(mitigations || {}).sort()]);
    parts.push(`flags ${crypto.createHash('sha256').update(seen).digest('hex').slice(0, 6)}`);
  }
  const known = parts.filter(Boolean);
  return `${model || 'unknown CPU'}${known.length ? ` (${known.join(', ')})` : ''}`;
}

/**
 * One answer pooled: { ratio, ci95, decision, winner, factor } from a pool (randomEffects) of log
 * ratios a/b, with the side that wins when the ratio is above 1 (better: 'higher' or 'lower').
 */
function answerOfPool(pool, { a, b, better }, margin) {
  const ratio = Math.exp(pool.mu);
  const ci95 = pool.ci.map(Math.exp);
  const decision = decide(ci95, margin);
  const aAbove = better === 'higher';
  const winner = decision === 'winner' ? ((ratio > 1) === aAbove ? a : b) : null;
  return { ratio, ci95, decision, winner, factor: winner ? Math.max(ratio, 1 / ratio) : null };
}

/** Groups items by key(item), in first-seen order: [[key, items], …]. */
function groupBy(items, key) {
  const groups = new Map();
  for (const item of items) {
    const k = key(item);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(item);
  }
  return [...groups];
}

/**
 * Whether two hosts' answers cannot both describe one machine (perf/lib/rule/answer.js relate:
 * opposite winners, or the same against a clear winner), each resting on two runs or more: one
 * run of a host is not yet that host's answer.
 */
function disagree(x, y) {
  return x.k >= 2 && y.k >= 2 && CONTRADICTIONS.includes(relate(relatable(x), relatable(y)));
}

/** An answer as relate reads it: its decision, its winner, and whether the winner is clear (its whole interval past the margin). */
function relatable(x) {
  return { decision: x.decision, lead: x.winner, clear: x.decision === 'winner' && (x.ci95[0] > 1 + x.margin || x.ci95[1] < 1 / (1 + x.margin)) };
}

/**
 * How one run's answer stands against the pooled one (answer.js relate, the pooled first): 'same_winner',
 * 'opposite', 'same_vs_clear', 'only_first' (the pool decided, the run did not)…,
 * and whether that contradicts it (CONTRADICTIONS); null where either has no answer to set
 * against the other (not judged, or the pool depends on the machine).
 */
function againstPool(pooled, answer) {
  if (!pooled || !pooled.ci95 || pooled.decision === 'depends' || !answer || !answer.decision) return null;
  const relation = relate(relatable(pooled), relatable(answer));
  return { relation, contradicts: CONTRADICTIONS.includes(relation) };
}

/**
 * Runs pooled by DerSimonian–Laird alone: { k, mu, tau2, variance (1 / the sum of the weights),
 * ci (normal quantile) }, for the tests that set pools against each other (one host's runs in
 * hostsDiffer, the other runs in nextRunCheck). Hartung–Knapp's would be the honest interval for
 * a pool published alone, but with two runs its t on one degree of freedom leaves every host
 * undecided; whether they differ is the test's to say.
 */
function dlPool(estimates) {
  const k = estimates.length;
  // A run known to no resolution at all would take all the weight: a floor of 0.1 % on the ratio.
  const own = estimates.map((e) => Math.max(e.se, 1e-3) ** 2);
  // A variance from fewer than MIN_POOLED_DF degrees of freedom (a ramp's three searches: 2) is
  // itself a guess: one run's luckily small spread would take the weight (99.5 % of one cell's),
  // and the pool covered 92 % in simulation. Such runs are weighed alike, by their mean variance.
  const guessed = estimates.some((e) => Number.isInteger(e.df) && e.df < MIN_POOLED_DF);
  const v = guessed ? own.map(() => own.reduce((t, x) => t + x, 0) / k) : own;
  const w = v.map((x) => 1 / x);
  const sw = w.reduce((s, x) => s + x, 0);
  const fixed = estimates.reduce((s, e, i) => s + w[i] * e.y, 0) / sw;
  const q = estimates.reduce((s, e, i) => s + w[i] * (e.y - fixed) ** 2, 0);
  const tau2 = k > 1 ? Math.max(0, (q - (k - 1)) / (sw - w.reduce((s, x) => s + x * x, 0) / sw)) : 0;
  const weights = v.map((x) => 1 / (x + tau2));
  const sws = weights.reduce((s, x) => s + x, 0);
  const mu = estimates.reduce((s, e, i) => s + weights[i] * e.y, 0) / sws;
  return { k, mu, tau2, q, weights, variance: 1 / sws, ci: [mu - Z95 / Math.sqrt(sws), mu + Z95 / Math.sqrt(sws)] };
}

/**
 * Whether the hosts' pooled log ratios differ by more than their noise: Cochran's Q between the
 * groups (the subgroup test of meta-analysis), chi-square on hosts − 1 degrees of freedom, at 5 %.
 */
function hostsDiffer(pools) {
  if (pools.length < 2) return false;
  const w = pools.map((p) => 1 / p.variance);
  const mean = pools.reduce((s, p, i) => s + w[i] * p.mu, 0) / w.reduce((s, x) => s + x, 0);
  const qBetween = pools.reduce((s, p, i) => s + w[i] * (p.mu - mean) ** 2, 0);
  return 1 - jStat.chisquare.cdf(qBetween, pools.length - 1) < 1 - LEVEL;
}

/** Whether a run's answer has an interval to pool. */
const measuredRun = (r) => r.answer.log_se !== null && r.answer.ratio > 0;

/** A run's answer as randomEffects reads it: its log ratio, standard error (and the degrees of freedom behind it) and own interval. */
const estimateOf = (r) => ({ y: Math.log(r.answer.ratio), se: r.answer.log_se, df: r.answer.df ?? null, ci: r.answer.ci95 ? r.answer.ci95.map(Math.log) : null });

/**
 * Pools one comparison over the runs that measured it. runs: [{ record (id, started_at, host…),
 * answer (a run's answer: ratio a/b, ci95, log_se, decision…), stale }]. Returns
 * { runs, k, hosts: [{ host, k, ratio, ci95, decision, winner, factor }], each (fewer than
 * MIN_POOLED_RUNS: [{ started_at, host, stale, ratio, ci95, decision, winner, factor }], each run's
 * own answer; else null), ratio, ci95, decision ('winner' | 'same' | 'undecided' | 'depends' (the
 * hosts differ beyond their noise and name different answers) | 'few' (fewer than
 * MIN_POOLED_RUNS: no pooled ratio or interval) | null when no run has an interval), winner,
 * factor, tau2, i2, method }.
 */
function poolComparison(runs, { a, b, better }, margin = DEFAULT_MARGIN) {
  const measured = runs.filter(measuredRun);
  const side = { a, b, better };
  const groups = groupBy(measured, (r) => hostOf(r.record)).map(([host, list]) => ({ host, list, pool: dlPool(list.map(estimateOf)) }));
  // Each host's own answer on the honest interval (Hartung–Knapp, or its one run's own).
  const hosts = groups.map(({ host, list }) => ({ host, k: list.length, margin, ...answerOfPool(randomEffects(list.map(estimateOf)), side, margin) }));
  const base = { runs, k: measured.length, hosts, margin, each: null };
  const none = { ratio: null, ci95: null, decision: null, winner: null, factor: null, tau2: null, i2: null, method: null };
  if (!measured.length) return { ...base, ...none };
  if (measured.length < MIN_POOLED_RUNS) {
    const each = measured.map((r) => ({ started_at: r.record.started_at, host: hostOf(r.record), stale: r.stale, ...answerOfPool(randomEffects([estimateOf(r)]), side, margin) }));
    return { ...base, ...none, each, decision: 'few', method: FEW_RUNS };
  }
  const pool = randomEffects(measured.map(estimateOf));
  const overall = answerOfPool(pool, side, margin);
  const split = hostsDiffer(groups.map((g) => g.pool)) && hosts.some((x, i) => hosts.slice(i + 1).some((y) => disagree(x, y)));
  return { ...base, ...overall, decision: split ? 'depends' : overall.decision, winner: split ? null : overall.winner, factor: split ? null : overall.factor, tau2: pool.tau2, i2: pool.i2, method: pool.method };
}

/**
 * The chance that one more run decides a pooled comparison (a winner, or the same within the
 * margin), or null where no run measured it: the random-effects model's predictive distribution
 * of a new run's log ratio (Higgins, Thompson & Spiegelhalter 2009), y ~ N(μ, se(μ)² + τ² + s²),
 * s a run's own standard error (the median of the pooled runs'), the new run judged by the
 * project's rule on an interval y ± h as wide as theirs (h the median of their half-widths: it
 * carries each run's own quantile, a t on three searches as much as a normal). A question whose
 * runs agree on a wide gap is likely decided again; one whose runs sit on 1 with no spread
 * between them hardly ever. It assumes the new run as precise as the pooled ones: it ranks
 * questions, it does not promise odds for a run measured another way (a quick run's fewer
 * rounds). test/unit/judge/meta.test.js checks it against simulated next runs.
 */
function nextRunDecides(pooled, margin = DEFAULT_MARGIN) {
  const runs = pooled.runs.filter((r) => measuredRun(r) && r.answer.ci95);
  if (!runs.length) return null;
  const s = median(runs.map((r) => r.answer.log_se));
  const reach = median(runs.map((r) => Math.log(r.answer.ci95[1] / r.answer.ci95[0]) / 2));
  const k = runs.length;
  // The runs pooled here whatever their number (fewer than MIN_POOLED_RUNS publish no pooled
  // answer, but still say where the next run likely falls); the centre's own standard error
  // from its interval and the quantile that built it.
  const pool = randomEffects(runs.map(estimateOf));
  const seMu = k > 1 ? (pool.ci[1] - pool.ci[0]) / (2 * tQuantile(LEVEL, k - 1)) : s;
  const sd = Math.sqrt(seMu ** 2 + (pool.tau2 ?? 0) + s ** 2);
  const { mu } = pool;
  const below = (x) => jStat.normal.cdf(x, mu, sd);
  const winner = below(-reach) + 1 - below(reach);
  const edge = Math.log(1 + margin) - reach; // |y| within it: the new interval inside the margin
  return winner + (edge > 0 ? below(edge) - below(-edge) : 0);
}

/**
 * A run's own answer widened by the archive's between-run spread of the same comparison
 * (spread { tau2 (log scale: the random-effects τ² of its current full runs), k (their number) }):
 * each side of its interval sqrt(own² + (t·τ)²) from its ratio on the log scale, t Student's on
 * k − 1 degrees of freedom (τ² from a few runs is itself uncertain: a normal quantile covered
 * 88 % in the archive check with five runs), so that it covers the answer across runs (the
 * mean the runs scatter around), not only this run's. One run's rounds measure the noise
 * within it, not another day's or another neighbour's: two full runs of one code on one host
 * differed beyond their own intervals in 18–20 % of comparisons. tau2 0 gives the run's own
 * interval. Returns { ratio, ci95, decision, winner, factor }, judged as any answer (decide).
 */
function acrossRuns(answer, { tau2, k }, margin = DEFAULT_MARGIN) {
  const y = Math.log(answer.ratio);
  const [lo, hi] = answer.ci95.map(Math.log);
  const extra = tQuantile(LEVEL, k - 1) ** 2 * tau2;
  return answerOfPool({ mu: y, ci: [y - Math.sqrt((y - lo) ** 2 + extra), y + Math.sqrt((hi - y) ** 2 + extra)] }, answer, margin);
}

/**
 * Whether one run's answers hold for the next run, checked on the archive: each current run's
 * answer set against the pool of the other runs of its comparison (m = k − 1 ≥ 2 of them: their
 * DerSimonian–Laird centre μ, its variance and τ²), beyond where |y − μ| > sqrt(z²(se² +
 * var(μ)) + t²τ²), t on m − 1 degrees of freedom as acrossRuns takes it; and beyond on the run's
 * own noise alone, |y − μ| > z · sqrt(se² + var(μ)). Returns { n, beyond, beyondOwn }: about 5 %
 * of n beyond where the answers across runs are honest. It takes each run's standard error at
 * 95 %, where a run of paired rounds stores its interval at its looks' level (98.75 % with four
 * looks): the check is the stricter of the two.
 */
function nextRunCheck(pooled) {
  let n = 0;
  let beyond = 0;
  let beyondOwn = 0;
  for (const p of pooled) {
    const runs = p.runs.filter((r) => measuredRun(r) && !r.stale);
    if (runs.length < MIN_POOLED_RUNS) continue;
    const t = tQuantile(LEVEL, runs.length - 2);
    for (const [i, r] of runs.entries()) {
      const others = dlPool(runs.filter((_, j) => j !== i).map(estimateOf));
      const { y, se } = estimateOf(r);
      const gap = Math.abs(y - others.mu);
      n++;
      if (gap > Math.sqrt(Z95 ** 2 * (se ** 2 + others.variance) + t ** 2 * others.tau2)) beyond++;
      if (gap > Z95 * Math.sqrt(se ** 2 + others.variance)) beyondOwn++;
    }
  }
  return { n, beyond, beyondOwn };
}

/**
 * An answer the way round the servers' order gives (perf/servers.json: node before em), so that
 * a run made with --servers em,node pools with the others: a and b swapped, the ratio and its
 * interval inverted.
 */
function oriented(answer, order) {
  const [i, j] = [order.indexOf(answer.a), order.indexOf(answer.b)];
  if (i < 0 || j < 0 || i < j) return answer;
  const { a, b } = answer;
  return {
    ...answer,
    key: answerKey(answer.subject, answer.metric, b, a),
    a: b,
    b: a,
    ratio: answer.ratio ? 1 / answer.ratio : answer.ratio,
    ci95: answer.ci95 ? [1 / answer.ci95[1], 1 / answer.ci95[0]] : answer.ci95,
  };
}

/**
 * The answer of every comparison the records hold, pooled across them: [{ key, subject, kind,
 * metric, a, b, better, stale_runs, earlier_runs, ...poolComparison }], in the order first seen.
 * records: decoded archive records ({ id, started_at, host, stale: { pair key → bool },
 * answers }); order: the servers' order (oriented). Current first: a comparison some current
 * run measured is pooled over its current runs alone, its runs measured before a change to its
 * servers or method counted apart (earlier_runs) and never in the figure; one that only such
 * runs measured is history, pooled over them and said so (stale_runs). withoutStale leaves the
 * history out too.
 */
function poolArchive(records, { margin = DEFAULT_MARGIN, withoutStale = false, order = [] } = {}) {
  const byKey = new Map();
  for (const record of records) {
    for (const stored of record.answers) {
      const answer = oriented(stored, order);
      const stale = Boolean(record.stale && record.stale[stored.key]);
      if (withoutStale && stale) continue;
      if (!byKey.has(answer.key)) byKey.set(answer.key, { answer, runs: [] });
      byKey.get(answer.key).runs.push({ record, answer, stale });
    }
  }
  return [...byKey.values()].map(({ answer, runs }) => {
    const { key, kind, subject, metric, a, b, better } = answer;
    const earlier = runs.filter((r) => r.stale && measuredRun(r)).length;
    const current = runs.filter((r) => !r.stale);
    const pooled = current.some(measuredRun) ? current : runs;
    const history = pooled === runs;
    return { key, kind, subject, metric, a, b, better, stale_runs: history ? earlier : 0, earlier_runs: history ? 0 : earlier, ...poolComparison(pooled, { a, b, better }, margin) };
  });
}

/**
 * A pooled answer as the false-discovery control tests it (judge/multiplicity.js): its log ratio
 * and the standard error of its Hartung–Knapp interval, t on k − 1 degrees of freedom; null where
 * nothing is pooled (fewer than MIN_POOLED_RUNS runs, hosts that disagree, no interval).
 */
function pooledTest(p) {
  if (!p.ci95 || p.k < MIN_POOLED_RUNS || p.decision === 'few' || p.decision === 'depends') return null;
  const df = p.k - 1;
  return { y: Math.log(p.ratio), se: Math.log(p.ci95[1] / p.ci95[0]) / (2 * tQuantile(LEVEL, df)), df, tests: 1 };
}

/**
 * A published claim judged on a pooled answer (perf/lib/rule/answer.js claimOutcome): claim
 * { winner (the side the study found better), factor (its ratio, > 1), a, b }. null when the
 * pool has no interval or depends on the machine.
 */
function pooledClaim(pooled, claim) {
  if (!pooled.ci95 || pooled.decision === 'depends') return null;
  // The claimed winner's factor: > 1 where it is better here.
  const aBetter = pooled.better === 'higher' ? pooled.ci95 : pooled.ci95.map((x) => 1 / x).reverse();
  const ci = claim.winner === pooled.a ? aBetter : aBetter.map((x) => 1 / x).reverse();
  return claimOutcome(ci, claim.factor, pooled.margin);
}

module.exports = { MIN_POOLED_RUNS, answerKey, runAnswers, againstPool, nextRunDecides, acrossRuns, nextRunCheck, pooledTest, staleAnswers, logStandardError, randomEffects, poolComparison, poolArchive, pooledClaim, hostOf, hostName };
