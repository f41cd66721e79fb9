'use strict';
// The results directory: results.json (rewritten after every run, so an interrupted run keeps
// everything finished so far), samples/<server>__<scenario>__t<trial>.csv.gz, summary.md/.csv. Every
// file is written to a temporary name in the same directory and renamed into place, so a
// reader never sees half a file. Layout and formats: perf/README.md.

const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { PROJECT_ROOT } = require('./server_process');

const RESULTS_ROOT = path.join(PROJECT_ROOT, 'perf', 'results');

let tmpSeq = 0;
/** Writes data to file atomically (temporary file in the same directory, then rename). */
function writeFileAtomic(file, data) {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${++tmpSeq}.tmp`);
  try {
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** perf/results/<UTC timestamp> (e.g. 2025-11-21T03-15-00Z), made unique with -2, -3… */
function defaultResultsDir(now = new Date(), root = RESULTS_ROOT) {
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  let dir = path.join(root, stamp);
  for (let i = 2; fs.existsSync(dir); i++) dir = path.join(root, `${stamp}-${i}`);
  return dir;
}

/** Points root/latest at dir (relative symlink, swapped in atomically). */
function linkLatest(dir, root = RESULTS_ROOT) {
  const link = path.join(root, 'latest');
  const tmp = path.join(root, `.latest.${process.pid}.tmp`);
  fs.rmSync(tmp, { force: true });
  fs.symlinkSync(path.relative(root, dir), tmp);
  fs.renameSync(tmp, link);
  return link;
}

/** samples/<server>__<scenario>__t<trial>.csv.gz (without a trial number: no __t part). */
function samplesFileName(server, scenario, trial = null) {
  return `samples/${server}__${scenario}${trial === null || trial === undefined ? '' : `__t${trial}`}.csv.gz`;
}

class ResultsStore {
  /** dir: where to write; latestRoot: when set, <latestRoot>/latest is pointed at dir. */
  constructor(dir, { latestRoot = null } = {}) {
    this.dir = path.resolve(dir);
    this.latestRoot = latestRoot;
    this.environment = null;
    this.runs = [];
    this.extra = {};
  }

  init(environment) {
    try {
      fs.mkdirSync(path.join(this.dir, 'samples'), { recursive: true });
    } catch (err) {
      throw new Error(`cannot create the results directory ${this.dir}: ${err.code || err.message}`, { cause: err });
    }
    this.environment = environment;
    this.writeResults();
    if (this.latestRoot) linkLatest(this.dir, this.latestRoot);
  }

  get resultsFile() {
    return path.join(this.dir, 'results.json');
  }

  document() {
    return { environment: this.environment, ...this.extra, runs: this.runs };
  }

  writeResults() {
    writeFileAtomic(this.resultsFile, JSON.stringify(this.document(), null, 2) + '\n');
  }

  /** Writes the run's samples (when given) and appends the run to results.json. */
  addRun(run, samples = null) {
    if (samples && samples.length > 0) {
      const rel = samplesFileName(run.server, run.scenario, run.trial);
      writeFileAtomic(path.join(this.dir, rel), zlib.gzipSync(samples.toCsv(), { level: 6 }));
      run.samples_file = rel;
    } else {
      run.samples_file = null;
    }
    this.runs.push(run);
    this.writeResults();
  }

  /** Top-level fields besides environment and runs (e.g. interrupted, finished_at). */
  setExtra(fields) {
    Object.assign(this.extra, fields);
    this.writeResults();
  }

  writeText(name, text) {
    const file = path.join(this.dir, name);
    writeFileAtomic(file, text);
    return file;
  }
}

module.exports = { ResultsStore, writeFileAtomic, defaultResultsDir, linkLatest, samplesFileName, RESULTS_ROOT };
