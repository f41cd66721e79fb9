'use strict';
// Running a cross-check (perf/lib/judge/crosscheck.js says what it compares): the trials of both
// engines, interleaved, each one a call of the runner as a library (perf/lib/run/runner.js), and
// the comparison written as crosscheck.json, .md and .txt; or re-computed from saved runs.

const fs = require('node:fs');
const path = require('node:path');
const { loadScenarios } = require('../plan/scenarios');
const { ENGINES, selectEngine, ENGINE_CHOICES } = require('../engines');
const { readResultsFile, RESULTS_FILE } = require('../store/results_doc');
const { writeFileAtomic, RESULTS_ROOT, folderStamp } = require('../store/results_store');
const { loadServerDefinitions } = require('../hosts/server_process');
const { runScenarios } = require('../run/runner');
const { buildReport } = require('../judge/crosscheck');
const { crosscheckWords, toText, toMarkdown } = require('../text/crosscheck_format');

// Tsung's load hosts when none are named: two made on this machine for each trial.
const DEFAULT_LOAD_HOSTS = 'netns:2';

/** The scenarios both engines can run faithfully, and the others with the reason. */
function commonScenarios(scenarios, engines) {
  let kept = scenarios;
  const skipped = [];
  for (const engine of engines) {
    if (engine === 'autocannon') continue;
    const def = ENGINES[engine];
    const next = [];
    for (const s of kept) {
      const why = def.whyNot(s);
      if (why) skipped.push({ engine, scenario: s.name, reason: why });
      else next.push(s);
    }
    kept = next;
  }
  return { scenarios: kept, skipped };
}

/**
 * One trial of one engine: the runner, as a library, on the servers and scenarios given, one
 * trial, no lighter engines (the cross-check compares the engines it is asked to). Its lines
 * go to log. Resolves { doc (the results.json it wrote, or null), interrupted, why }.
 */
async function runTrial({ engine, servers, names, scenariosDir, quick, outDir, pin, definitions, loadHosts, signal, log }) {
  try {
    const ended = await runScenarios({ engine, servers, scenarios: names, scenariosDir, quick, repeat: 1, outDir, pin, definitions, loadHosts: engine === 'tsung' ? loadHosts : null, lighterEngines: false, signal, log });
    const doc = ended.unwritten.some((u) => u.name === RESULTS_FILE) ? null : readResultsFile(ended.resultsFile);
    return { doc, interrupted: ended.interrupted, why: ended.error || (ended.unwritten[0] && ended.unwritten[0].message) || null };
  } catch (err) {
    return { doc: null, interrupted: Boolean(signal && signal.aborted), why: err.message };
  }
}

function usageError(message) {
  const err = new Error(message);
  err.usage = true;
  return err;
}

/**
 * Runs the cross-check. options: { engines: [A, B], servers, scenarios (names or null: all
 * both can run), scenariosDir (default perf/scenarios), repeat (default 3, 2 with quick), quick, outDir, pin, serversFile (server
 * definitions for the runner, default perf/servers.json), loadHosts (tsung's, default netns:2),
 * signal, log }.
 * Resolves { dir, report, text, markdown, interrupted, failures }.
 */
async function runCrosscheck(options = {}) {
  const engines = options.engines || ['autocannon', 'httperf'];
  if (engines.length !== 2) throw usageError(`--engines takes exactly two engines (got ${engines.length}: ${engines.join(', ')})`);
  if (engines[0] === engines[1]) throw usageError(`--engines names '${engines[0]}' twice; cross-check two different engines`);
  for (const e of engines) if (!ENGINE_CHOICES.includes(e)) throw usageError(`unknown engine '${e}' (known: ${ENGINE_CHOICES.join(', ')})`);
  const servers = options.servers || ['node', 'em'];
  const quick = !!options.quick;
  const repeat = options.repeat ?? (quick ? 2 : 3);
  if (!Number.isInteger(repeat) || repeat < 2) throw usageError(`--repeat must be 2 or more for a comparison with intervals (got ${repeat})`);
  const log = options.log || ((line) => process.stdout.write(line + '\n'));
  const signal = options.signal || null;
  const definitions = options.serversFile ? loadServerDefinitions(options.serversFile) : undefined;
  const loadHosts = options.loadHosts || DEFAULT_LOAD_HOSTS;

  const loaded = loadScenarios({ dir: options.scenariosDir ?? null, quick, names: options.scenarios || null });
  const { scenarios, skipped } = commonScenarios(loaded, engines);
  for (const k of skipped) log(`crosscheck: skips ${k.scenario}: ${k.engine} cannot run it faithfully (${k.reason})`);
  if (!scenarios.length) throw usageError(`${engines.join(' and ')} have no scenario in common among ${loaded.map((s) => s.name).join(', ')}`);
  // Sanity: each engine must accept every kept scenario (selectEngine throws otherwise).
  for (const e of engines) selectEngine(scenarios, e);

  const dir = path.resolve(options.outDir || path.join(RESULTS_ROOT, `crosscheck-${folderStamp()}`));
  fs.mkdirSync(dir, { recursive: true });
  const names = scenarios.map((s) => s.name);
  log(`crosscheck: ${engines.join(' vs ')} on ${servers.join(', ')}; ${names.join(', ')}; ${repeat} trials each${quick ? ' (--quick)' : ''}; results in ${dir}`);

  const runs = [];
  const failures = [];
  let interrupted = false;
  for (let t = 1; t <= repeat && !interrupted; t++) {
    // Alternate the order, so that neither engine always runs first.
    const order = t % 2 === 1 ? engines : [...engines].reverse();
    for (const engine of order) {
      if (signal && signal.aborted) {
        interrupted = true;
        break;
      }
      const outDir = path.join(dir, 'runs', `${engine}-t${t}`);
      const result = await runTrial({ engine, servers, names, scenariosDir: options.scenariosDir || null, quick, outDir, pin: options.pin !== false, definitions, loadHosts, signal, log: (line) => log(`[t${t} ${engine}] ${line}`) });
      if (result.interrupted) interrupted = true;
      if (!result.doc) {
        failures.push(`${engine} trial ${t}: no results (${result.why})`);
        continue;
      }
      for (const r of result.doc.runs) {
        runs.push({ ...r, crosscheck: { engine, trial: t } });
        if (!r.ok) failures.push(`${engine} trial ${t}: ${r.server} ${r.scenario}: ${r.failure}`);
      }
    }
  }

  const report = buildReport({ engines, servers, scenarios: names, repeat, quick, runs, skipped, failures, interrupted, dir });
  return { ...writeOutputs(dir, report), interrupted, failures };
}

/**
 * Re-computes the comparison of an earlier cross-check from its saved runs (dir/runs/<engine>-t<k>/
 * results.json) and rewrites crosscheck.json/.md/.txt. Resolves { dir, report, text, markdown }.
 */
function rebuildCrosscheck(dir) {
  const abs = path.resolve(dir);
  const old = JSON.parse(fs.readFileSync(path.join(abs, 'crosscheck.json'), 'utf8'));
  const runs = [];
  const failures = [];
  for (const name of fs.readdirSync(path.join(abs, 'runs')).sort()) {
    const m = /^(.+)-t(\d+)$/.exec(name);
    if (!m || !old.engines.includes(m[1])) continue;
    const file = path.join(abs, 'runs', name, RESULTS_FILE);
    if (!fs.existsSync(file)) continue;
    for (const r of readResultsFile(file).runs) {
      runs.push({ ...r, crosscheck: { engine: m[1], trial: Number(m[2]) } });
      if (!r.ok) failures.push(`${m[1]} trial ${m[2]}: ${r.server} ${r.scenario}: ${r.failure}`);
    }
  }
  const report = buildReport({ ...old, runs, failures, dir: abs });
  return writeOutputs(abs, report);
}

function writeOutputs(dir, report) {
  const text = toText(report);
  const markdown = toMarkdown(report);
  // Stored in words, as the text and Markdown give them: a reader of the file needs no judge.
  writeFileAtomic(path.join(dir, 'crosscheck.json'), JSON.stringify(crosscheckWords(report), null, 2) + '\n');
  writeFileAtomic(path.join(dir, 'crosscheck.md'), markdown);
  writeFileAtomic(path.join(dir, 'crosscheck.txt'), text);
  return { dir, report, text, markdown };
}

module.exports = { runCrosscheck, rebuildCrosscheck, commonScenarios };
