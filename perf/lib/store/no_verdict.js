'use strict';
// Why a metric is never judged whatever the numbers, as results.json's comparisons store it
// (`no_verdict`, perf/schemas/results.schema.json): these values, which the judge decides
// (perf/lib/rule/compare.js noVerdict) and every output shows as they are.
//   RATE_SET          throughput where the schedule fixes the rate
//   SIZE_SET          peak RSS of a quick run that held fewer slow clients at once than the full one
//   TOO_FEW           a tail percentile with too few requests above it
//   BELOW_RESOLUTION  a figure measured in steps too coarse for it

const RATE_SET = 'set by the rate';
const SIZE_SET = 'smaller quick load';
const TOO_FEW = 'n too small';
const BELOW_RESOLUTION = 'below the resolution';

module.exports = { RATE_SET, SIZE_SET, TOO_FEW, BELOW_RESOLUTION };
