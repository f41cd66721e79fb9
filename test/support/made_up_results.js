'use strict';
// Made-up runs and results in the forms the judging, text and report tests read them: a run
// as results.json stores it (one trial or several), the judged results of runs (what every
// output reads: perf/lib/store/results_doc.js decodeResults, then perf/lib/judge/judged.js
// judgeResults), and samples as the report reads
// them (perf/lib/measure/samples.js readSamples). No server, no file.

const { decodeResults } = require('../../perf/lib/store/results_doc');
const { judgeResults } = require('../../perf/lib/judge/judged');
const { analyzeRuns } = require('../../perf/lib/judge/verdicts');
const { Samples } = require('../../perf/lib/measure/samples');

/** A finished run of a server in a scenario: p50 (mean p50, p99 3 × p50) and req/s; more overrides. */
function madeUpRun(server, scenario, p50, rps, more = {}) {
  return { server, scenario, ok: true, client_bound: false, errors: {}, requests: 100, trial: null, failure: null,
    latency_ms: { p50, p99: p50 * 3, mean: p50 }, throughput_rps: rps, server_cpu: { ms_per_request: 0.1 }, server_peak_rss_mb: 30, ...more };
}

/** A trial of a server in a scenario: p50 (mean 1.2 × p50, p99 4 × p50, CPU p50 ÷ 10 ms) and req/s; more overrides. */
function trialRun(server, scenario, trial, p50, rps, more = {}) {
  return {
    server, scenario, trial, ok: true, failure: null, client_bound: false, client_cpu_pct: 50, requests: 100, replies: 100,
    errors: { refused: 0, reset: 0, timeout: 0, other: 0 },
    latency_ms: { mean: p50 * 1.2, p50, p99: p50 * 4 }, throughput_rps: rps,
    server_cpu: { ms_per_request: p50 / 10 }, server_peak_rss_mb: 50,
    ...more,
  };
}

/** The judged results of runs, with the comparisons given as stored ones (else judged on reading). */
function decoded(runs, { comparisons: stored = null, environment = {} } = {}) {
  return judgeResults(decodeResults({ environment, runs, ...(stored ? { comparisons: stored, aggregates: analyzeRuns(runs).aggregates } : {}) }));
}

/** Three trials per server of an open-loop scenario: both servers keep the schedule's 20 req/s. */
function openLoopTrials({ replies = 2000 } = {}) {
  const params = { name: 'concurrent_2000_20', kind: 'open', connections: 2000, rate: 20, requests_per_connection: 1 };
  return [1, 2, 3].flatMap((t) => ['node', 'em'].map((server) => madeUpRun(server, 'concurrent_2000_20', server === 'node' ? 1 + t / 100 : 2 + t / 100, 20.01 - t / 1000, {
    trial: t, replies, params, client_cpu_pct: 5,
  })));
}

/** Seven recorded requests of every kind (replies, a 404, refused, a timeout, a probe's 503, a cut slow transfer), in a Samples made tiny so that it must grow. */
function sampleSet() {
  const s = new Samples(2);
  s.start(1000);
  s.add({ startAt: 1000, endAt: 1002, connectMs: 0.5, status: 200, conn: 1 });
  s.add({ startAt: 1010, endAt: 1014, connectMs: null, status: 200, conn: 1 });
  s.add({ startAt: 1020, endAt: 1021, status: 404, conn: 2 });
  s.add({ startAt: 1005, endAt: 1006, error: 'refused', conn: 3 });
  s.add({ startAt: 1030, endAt: 2030, error: 'timeout', conn: 4 });
  s.add({ startAt: 1040, endAt: 1041, status: 503, role: 'probe', conn: 5 });
  s.add({ startAt: 1050, endAt: 5000, error: 'cut', role: 'slow', conn: 6 });
  return s;
}

/**
 * Samples as readSamples gives them, counts[i] replies in second i, evenly spread, of 1 to 100
 * ms (a hundred each per 10,000).
 */
function samplesOfCounts(counts) {
  const n = counts.reduce((a, b) => a + b, 0);
  const s = { n, t: new Float64Array(n), ms: new Float64Array(n), status: new Uint16Array(n).fill(200), role: new Uint8Array(n) };
  let i = 0;
  counts.forEach((count, bin) => { for (let k = 0; k < count; k++, i++) { s.t[i] = bin * 1000 + k / count * 999; s.ms[i] = 1 + (k % 100); } });
  return s;
}

module.exports = { madeUpRun, trialRun, decoded, openLoopTrials, sampleSet, samplesOfCounts };
