'use strict';
// The runtimes a run's servers need, made ready before anything is measured: each one missing
// is installed (perf/lib/hosts/install_runtime.js), with its progress in the run's log; a quick
// run, whose budget a Ruby build would exceed, measures those servers on the runtime of the
// README's history table instead (perf/runtimes.json history), which the run's log says in one
// line with the command that adds today's (perf/lib/text/runtimes.js). And what each runtime exactly is, for results.json.

const { runtimeOf, quickRuntime, runsOn, unavailable, describeRuntime, RuntimeError } = require('../hosts/runtimes');
const { installRuntime, ensureGems } = require('../hosts/install_runtime');

const started = (definitions) => Object.entries(definitions).filter(([, def]) => def.runtime && !def.remote);

/**
 * Makes every runtime of the definitions ready. Resolves { definitions (the same, or with the
 * servers moved to another runtime), moved: [{ servers, from, to }] }. A machine's own runtime
 * that is missing or of another version throws RuntimeError (one line). install, gems and
 * missing (why a runtime cannot be used now, or null) are the hosts' unless a test gives its own.
 */
async function prepareRuntimes(definitions, { quick = false, log = () => {}, install = installRuntime, gems = ensureGems, missing = (id) => unavailable(runtimeOf(id)) } = {}) {
  const ids = [...new Set(started(definitions).map(([, def]) => def.runtime))];
  const moved = [];
  const to = {};
  for (const id of ids) {
    const runtime = runtimeOf(id);
    const why = missing(id);
    if (!why) {
      await gems(id, { say: log });
      continue;
    }
    if (runtime.from === 'system') throw new RuntimeError(why);
    const target = quick ? quickRuntime(id, missing) : id;
    if (target !== id) {
      const whyNot = missing(target);
      if (whyNot) throw new RuntimeError(`${runtime.label} is not installed and a quick run does not build it, and ${whyNot}: npm run runtimes -- install ${runtime.base}`);
      to[id] = target;
      continue;
    }
    log(`runtimes: installing ${runtime.label} (${id}), once for this checkout`);
    await install(id, { say: (line) => log(`runtimes: ${line}`) });
  }
  if (!Object.keys(to).length) return { definitions, moved };
  const out = { ...definitions };
  for (const [from, target] of Object.entries(to)) {
    const servers = started(definitions).filter(([, def]) => def.runtime === from).map(([name]) => name);
    const stuck = servers.filter((name) => !runsOn(definitions[name], target));
    if (stuck.length) throw new RuntimeError(`${stuck.join(', ')} run${stuck.length === 1 ? 's' : ''} on ${runtimeOf(from).label} only, which is not installed, and a quick run does not build it: npm run runtimes -- install ${runtimeOf(from).base}`);
    for (const name of servers) out[name] = { ...definitions[name], runtime: target };
    moved.push({ servers, from, to: target });
  }
  return { definitions: out, moved };
}

/** environment.runtimes of results.json: each runtime a started server runs on, as describeRuntime reads it. */
function describeRuntimes(definitions) {
  const ids = [...new Set(started(definitions).map(([, def]) => def.runtime))];
  return Object.fromEntries(ids.map((id) => [id, describeRuntime(id)]));
}

module.exports = { prepareRuntimes, describeRuntimes };
