'use strict';
// How sure a verdict is. Each server/scenario pair is run N times (trials); a metric's trial
// values are summarised on the log scale, where run-to-run variation of times and rates is
// close to symmetric:
//   centre    exp(mean of log values): the geometric mean, the median of a log-normal
//   interval  95% Student-t interval on the log values, exponentiated
//   ratio a/b Welch's t-interval on the difference of log means, exponentiated
// Why not a bootstrap: with the default three trials a bootstrap of the median can only return
// the smallest and largest trial, which cover the true median 75% of the time, not 95%; the
// t-interval is wide when N is small, as it must be, and covers at its stated rate
// (test/unit/rule/confidence.test.js checks that by simulation).

const { jStat } = require('jstat');
const { LEVEL } = require('../method');
const { mean, variance } = require('../measure/stats');


function usable(values) {
  return values.filter((v) => Number.isFinite(v) && v > 0);
}

/**
 * Centre and 95% interval of one metric over trials. Values that are missing, zero or negative
 * cannot be on a log scale and are left out. With one trial there is no interval (null).
 * minVariance: the least variance of one log value, where each is known only to a resolution
 * (a search's bracket): trials that agree to the last step then do not make a zero-width
 * interval. Returns { n, centre, ci95: [lo, hi] | null }.
 */
function summarizeTrials(values, { minVariance = 0 } = {}) {
  const logs = usable(values).map(Math.log);
  const n = logs.length;
  if (n === 0) return { n: 0, centre: null, ci95: null };
  const centre = Math.exp(mean(logs));
  if (n < 2) return { n, centre, ci95: null };
  const half = jStat.studentt.inv(1 - (1 - LEVEL) / 2, n - 1) * Math.sqrt(Math.max(variance(logs), minVariance) / n);
  return { n, centre, ci95: [Math.exp(mean(logs) - half), Math.exp(mean(logs) + half)] };
}

/**
 * Ratio of a over b (e.g. b's p99 latency / a's: "a is r times faster") with Welch's 95%
 * interval. significant: the interval excludes 1. null when either side has under two trials.
 * minVariance: [a's, b's] least variance of one log value (summarizeTrials).
 */
function compareTrials(aValues, bValues, { minVariance = [0, 0] } = {}) {
  const a = usable(aValues).map(Math.log);
  const b = usable(bValues).map(Math.log);
  if (a.length < 2 || b.length < 2) return null;
  const va = Math.max(variance(a), minVariance[0]) / a.length;
  const vb = Math.max(variance(b), minVariance[1]) / b.length;
  const diff = mean(a) - mean(b);
  const se = Math.sqrt(va + vb);
  let half = 0;
  if (se > 0) {
    const df = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
    half = jStat.studentt.inv(1 - (1 - LEVEL) / 2, df) * se;
  }
  const ci95 = [Math.exp(diff - half), Math.exp(diff + half)];
  return { ratio: Math.exp(diff), ci95, significant: ci95[0] > 1 || ci95[1] < 1 };
}

module.exports = { summarizeTrials, compareTrials };
