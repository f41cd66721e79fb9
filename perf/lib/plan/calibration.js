'use strict';
// The host's calibration as planned (perf/calibration.json): the reference server with no
// runtime beneath it and the one fixed load it is measured at in every quick and full run, as a
// scenario. Measured by perf/lib/run/calibration.js; why: there.

const path = require('node:path');
const { normalizeScenario } = require('./scenarios');
const CALIBRATION = require('../../calibration.json');
const { PROJECT_ROOT } = require('../project_root');

/** { server, scenario (the load, as any scenario), seconds (about, with its warm-up) }. */
function plannedCalibration() {
  const scenario = normalizeScenario({ name: 'calibration', ...CALIBRATION.scenario }, path.join(PROJECT_ROOT, 'perf', 'calibration.json'));
  return { server: CALIBRATION.server, scenario, seconds: Math.ceil(scenario.requests / scenario.rate + scenario.warmup_s) };
}

module.exports = { plannedCalibration };
