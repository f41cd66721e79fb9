'use strict';
// What --seeds runs: each seed study's headline comparison (perf/seeds.json) asks for its
// servers, each on its seeds' scenarios. How the answers compare with the published ratios is the
// judge's (perf/lib/judge/seeds.js).

const { seeds: SEEDS } = require('../../seeds.json');

/** The servers and, for each, the scenarios --seeds runs: { servers, scenariosFor }. */
function seedPlan() {
  const scenariosFor = {};
  const add = (server, scenario) => {
    scenariosFor[server] = scenariosFor[server] || [];
    if (!scenariosFor[server].includes(scenario)) scenariosFor[server].push(scenario);
  };
  for (const s of SEEDS) {
    if (s.here.server) {
      add(s.here.server, s.here.a);
      add(s.here.server, s.here.b);
    } else {
      add(s.here.a, s.here.scenario);
      add(s.here.b, s.here.scenario);
    }
  }
  return { servers: Object.keys(scenariosFor), scenariosFor };
}

module.exports = { seedPlan };
