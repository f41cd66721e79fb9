'use strict';
// The metrics' names in words, the one home of them: the judge (perf/lib/rule/metrics.js) knows
// a metric by its key, with its unit and direction; every output names it from here.
//   long   in a sentence ("mean response time")
//   label  a column ("p50 ms")
//   short  an axis or a list ("p50")
//   word   completes "a is r× …" for the better side ("faster", "less memory")

const METRIC_WORDS = {
  mean_ms: { long: 'mean response time', label: 'mean ms', short: 'mean', word: 'faster' },
  p50_ms: { long: 'median response time', label: 'p50 ms', short: 'p50', word: 'faster' },
  p99_ms: { long: 'p99 response time', label: 'p99 ms', short: 'p99', word: 'faster' },
  throughput_rps: { long: 'throughput', label: 'req/s', short: 'req/s', word: 'more req/s' },
  cpu_ms_per_request: { long: 'server CPU per request', label: 'CPU ms/req', short: 'CPU/req', word: 'less CPU/req' },
  peak_rss_mb: { long: 'server peak RSS', label: 'RSS MB', short: 'RSS', word: 'less memory' },
};

module.exports = { METRIC_WORDS };
