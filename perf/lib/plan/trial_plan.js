'use strict';
// What the runner will do before it does it: which server can serve which scenario (servers.json
// `serves`), which servers cannot run on this machine (`requires`), the order of the runs
// (trials outermost, so servers alternate A B A B … and drift over time hits both alike), and
// how long all that should take.

const fs = require('node:fs');
const path = require('node:path');
const { expectedWarmupS } = require('./scenarios');
const { expectedDurationS } = require('../store/scenario_doc');
const { scenarioNeeds } = require('../store/scenario_doc');
const { PROJECT_ROOT } = require('../project_root');

/**
 * Trials per server and scenario on the command line, --quick included: three is the fewest
 * whose Student-t interval is of any use (with two, t = 12.7).
 */
const DEFAULT_TRIALS = 3;

/** Rates assumed for count-bounded closed loops, whose length depends on the server: rough, hence "about". */
const ESTIMATE_RPS = { keep_alive: 8000, per_connection: 1500 };
/** Start-up, contract check and stop of one server (s): the first trial checks everything. */
const ESTIMATE_START_S = { full: 0.8, short: 0.4 };
/** Seconds between two runs for the server's connections to settle (run_one.js settle), as estimated. */
const SETTLE_S = 0.1;
/** Directories searched for a required command besides PATH (Debian keeps nginx in sbin). */
const SBIN = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

/** null when def can serve s, else what it lacks (['upload']). */
function missingCapabilities(def, s) {
  if (!def || !Array.isArray(def.serves)) return null;
  const lacks = scenarioNeeds(s).filter((c) => !def.serves.includes(c));
  return lacks.length ? lacks : null;
}

function findCommand(name, envPath = process.env.PATH || '') {
  // A command named by a path (a reference server the set-up builds) is the project's own file.
  if (name.includes('/')) {
    const file = path.resolve(PROJECT_ROOT, name);
    return fs.existsSync(file) ? file : null;
  }
  for (const dir of [...envPath.split(path.delimiter).filter(Boolean), ...SBIN]) {
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return null;
}

/** null when every command in def.requires is installed, else one line saying what is missing. */
function missingRequirement(def) {
  const needs = Array.isArray(def.requires) ? def.requires : def.requires ? [def.requires] : [];
  const missing = needs.filter((c) => !findCommand(c));
  if (!missing.length) return null;
  return `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not installed${def.install_hint ? ` (${def.install_hint})` : ''}`;
}

/** The runs in order: [{ trial, server }], trials outermost. */
function trialPlan(servers, trials) {
  const plan = [];
  for (let trial = 1; trial <= trials; trial++) for (const server of servers) plan.push({ trial, server });
  return plan;
}

/** Seconds one scenario's load should take (count-bounded closed loops from a conservative rate). */
function estimateScenarioS(s) {
  const e = expectedDurationS(s);
  if (e !== null && e !== undefined) return e;
  const n = s.requests !== null && s.requests !== undefined ? s.requests : (s.requests_per_connection || 1) * s.concurrency;
  return n / (s.keep_alive ? ESTIMATE_RPS.keep_alive : ESTIMATE_RPS.per_connection);
}

/** Seconds the whole plan should take. served: { server: [scenario] }. */
function estimatePlanS(plan, served) {
  let total = 0;
  for (const { trial, server } of plan) {
    total += trial === 1 ? ESTIMATE_START_S.full : ESTIMATE_START_S.short;
    for (const s of served[server] || []) total += expectedWarmupS(s) + estimateScenarioS(s) + SETTLE_S;
  }
  return total;
}

module.exports = {
  DEFAULT_TRIALS,
  ESTIMATE_RPS,
  SETTLE_S,
  missingCapabilities,
  missingRequirement,
  findCommand,
  trialPlan,
  estimateScenarioS,
  estimatePlanS,
};
