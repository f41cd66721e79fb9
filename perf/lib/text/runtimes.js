'use strict';
// What the run's log and report say of its runtimes: what each server runs on (results.json's
// environment.runtimes), and the servers a quick run moved (perf/lib/run/runtimes.js).

const { runtimeOf } = require('../hosts/runtimes');

/** One line per move of prepareRuntimes: which servers, on what, and the command that adds today's. */
function movedLines(moved) {
  return moved.map(({ servers, from, to }) => {
    const today = runtimeOf(from);
    const minutes = today.build_estimate_s ? ` (about ${Math.round(today.build_estimate_s / 60)} min on 2 cores)` : '';
    return `runtimes: ${servers.join(', ')} measured on ${runtimeOf(to).label} (${to}), not ${today.label}: a quick run does not build it${minutes}; npm run runtimes -- install ${today.base} adds it once, and quick runs use it after`;
  });
}

/**
 * One line per server a quick run had another stand in for (results.json options.stand_ins):
 * who stands in, as what, and the command that adds the runtime the absent one needs.
 */
function standInLines(standIns, definitions) {
  return standIns.map(({ server, by }) => {
    const needs = definitions[server].runs_on.map((id) => runtimeOf(id));
    const role = definitions[by].reference_role ? `, ${definitions[by].reference_role}` : '';
    return `runtimes: ${by} (its reference${role}) stands in for ${server}, which runs on ${needs.map((r) => r.label).join(' or ')} only; npm run runtimes -- install ${needs[0].base} adds it once, and quick runs compare ${server} after`;
  });
}

/**
 * A runtime as results.json's environment.runtimes describes it, in a few words: "Node 24.22.3",
 * "Ruby 3.3.8 + YJIT"; its label where the run could not read its version.
 */
function runtimeWords(described) {
  if (!described) return null;
  if (!described.version) return described.label;
  const kind = described.id.startsWith('node') ? 'Node' : 'Ruby';
  return `${kind} ${described.version}${described.yjit ? ' + YJIT' : ''}`;
}

/** A Node runtime's engine, loop and parser: "V8 13.6…, libuv 1.52.1, llhttp 9.4.4". */
function nodeParts(d) {
  return `V8 ${d.v8}, libuv ${d.libuv}, llhttp ${d.llhttp}`;
}

/**
 * The run log's line of what each server runs on: "runtimes: node on Node 24.22.3 (V8 13.6…,
 * libuv 1.52.1, llhttp 9.4.4); em, async on Ruby 3.3.8 + YJIT (io-event 1.22.0, EPoll)".
 */
function runtimesLine(runtimes, definitions) {
  const parts = Object.values(runtimes).map((d) => {
    const servers = Object.entries(definitions).filter(([, def]) => def.runtime === d.id && !def.remote).map(([name]) => name);
    const detail = d.v8 ? nodeParts(d) : d.gems ? [d.gems.eventmachine && `EventMachine ${d.gems.eventmachine}`, d.gems['io-event'] && `io-event ${d.gems['io-event']}${d.io_event_selector ? ` (${d.io_event_selector})` : ''}`].filter(Boolean).join(', ') : '';
    return `${servers.join(', ')} on ${runtimeWords(d)}${detail ? ` (${detail})` : ''}`;
  });
  return parts.length ? `runtimes: ${parts.join('; ')}` : null;
}

module.exports = { movedLines, standInLines, nodeParts, runtimeWords, runtimesLine };
