'use strict';
// The runtimes a run's servers need, made ready before anything is measured: each one missing
// is installed (perf/lib/hosts/install_runtime.js), with its progress in the run's log; a quick
// run, whose budget a Ruby build would exceed, measures those servers on the runtime of the
// README's history table instead (perf/runtimes.json history), which the run's log says in one
// line with the command that adds today's (perf/lib/text/runtimes.js). And what each runtime exactly is, for results.json.

const { runtimeOf, runtimesFile, unavailable, describeRuntime, RuntimeError } = require('../hosts/runtimes');
const { installRuntime, ensureGems } = require('../hosts/install_runtime');

// A runtime a quick run may install on its way: a download of seconds (Node's build), not a
// compilation of minutes (Ruby's).
const QUICK_INSTALLS = ['npm'];

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
    if (quick && !QUICK_INSTALLS.includes(runtime.from)) {
      const target = runtimesFile().history[runtime.kind];
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
