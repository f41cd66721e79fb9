'use strict';
// --engine: which load generator runs the scenarios. 'autocannon' (the default) is the
// built-in choice: autocannon where it is faithful, the project's own drivers elsewhere
// (open_loop, sequential, slow_clients). 'httperf' and 'wrk' run every scenario they can
// express faithfully; the others are skipped with a reason, never approximated.

const ENGINE_CHOICES = ['autocannon', 'httperf', 'wrk'];
const DEFAULT_ENGINE = 'autocannon';

function usageError(message) {
  const err = new Error(message);
  err.usage = true; // perf/cli.js prints it with the usage line, exit 2
  return err;
}

/**
 * Applies --engine to loaded scenarios. engines: the runner's ENGINES table. Returns
 * { scenarios, skipped: [{ engine, scenario, reason }] }; each kept scenario of an external
 * engine is a copy with `engine` set (engineFor() in the runner honours it). Throws a usage
 * error for an unknown engine or when the engine can run none of the scenarios.
 */
function selectEngine(scenarios, engine, engines) {
  const name = engine || DEFAULT_ENGINE;
  if (!ENGINE_CHOICES.includes(name)) throw usageError(`unknown engine '${name}' (known: ${ENGINE_CHOICES.join(', ')})`);
  if (name === DEFAULT_ENGINE) return { scenarios, skipped: [] };
  const def = engines[name];
  if (!def || !def.external) throw usageError(`engine '${name}' is not available in this runner`);
  const kept = [];
  const skipped = [];
  for (const s of scenarios) {
    const reason = def.whyNot(s);
    if (reason) skipped.push({ engine: name, scenario: s.name, reason });
    else kept.push({ ...s, engine: name });
  }
  if (!kept.length) {
    throw usageError(`--engine ${name} can run none of the selected scenarios (${skipped.map((k) => `${k.scenario}: ${k.reason}`).join('; ')})`);
  }
  return { scenarios: kept, skipped };
}

/** One line per skipped scenario, for the log. */
function skippedLine(k) {
  return `${k.engine}: skips ${k.scenario} (cannot run it faithfully: ${k.reason})`;
}

module.exports = { selectEngine, skippedLine, ENGINE_CHOICES, DEFAULT_ENGINE };
