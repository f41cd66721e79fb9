'use strict';
// The results directory: results.json (rewritten after every run, so an interrupted run keeps
// everything finished so far), samples/<server>__<scenario>__t<trial>.csv.gz, summary.txt/.md/.csv. Every
// file is written to a temporary name in the same directory and renamed into place, so a
// reader never sees half a file. Each run claims a directory of its own, and space is kept
// in reserve so that results.json can record how the run ended even on a full disk.
// Layout and formats: perf/REFERENCE.md, "Output".

const fs = require('node:fs');
const path = require('node:path');
const util = require('node:util');
const zlib = require('node:zlib');
const { samplesFileName } = require('../measure/samples');
const { RESULTS_FILE, encodeResults, schemaProblem, decodeResults } = require('./results_doc');
const { PROJECT_ROOT } = require('../project_root');

const RESULTS_ROOT = path.join(PROJECT_ROOT, 'perf', 'results');
// Kept free for the last results.json: this much more than twice its latest size.
const RESERVE_SLACK_BYTES = 64 * 1024;
const RESERVE_FILE = '.reserve';

/** "ENOSPC (no space left on device)": the code of a system error and the system's words for it. */
function systemCause(err) {
  const known = typeof err.errno === 'number' ? util.getSystemErrorMap().get(err.errno) : null;
  if (known) return `${known[0]} (${known[1]})`;
  return err.code || err.message;
}

/** What to do about a failed write, by its cause. */
function writeAdvice(err) {
  if (err.code === 'ENOSPC' || err.code === 'EDQUOT') return 'free some space or choose another --out';
  if (['EROFS', 'EACCES', 'EPERM'].includes(err.code)) return 'choose a writable folder with --out';
  return null;
}

/** A file or directory that could not be written: names the path and the system's cause. */
class WriteError extends Error {
  constructor(what, err) {
    const advice = writeAdvice(err);
    super(`cannot ${what}: ${systemCause(err)}${advice ? `; ${advice}` : ''}`, { cause: err });
    this.code = err.code;
  }
}

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

/** mkdir -p that reports the directory that could not be made and why (EROFS, not ENOENT). */
function makeDirs(dir) {
  const missing = [];
  for (let d = dir; !fs.existsSync(d); d = path.dirname(d)) missing.unshift(d);
  for (const d of missing) {
    try {
      fs.mkdirSync(d);
    } catch (err) {
      if (err.code !== 'EEXIST') throw new WriteError(`create ${d}`, err);
    }
  }
}

/**
 * Creates the directory a run writes to and returns its path: dir (--out) when given, which
 * may exist already (results.json claims it, see ResultsStore.init); else
 * root/<UTC timestamp> (e.g. 2025-11-21T03-15-00Z), made unique with -2, -3… by creating it
 * without `recursive`, so that two runs started at once never share one.
 */
/** A folder name's UTC time: 2026-11-30T09-12-03Z (colons are no friends of every file system). */
function folderStamp(now = new Date()) {
  return now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
}

function createResultsDir({ dir = null, root = RESULTS_ROOT, now = new Date() } = {}) {
  if (dir) {
    makeDirs(path.resolve(dir));
    return path.resolve(dir);
  }
  makeDirs(root);
  const stamp = folderStamp(now);
  for (let i = 1; ; i++) {
    const candidate = path.join(root, i === 1 ? stamp : `${stamp}-${i}`);
    try {
      fs.mkdirSync(candidate);
      return candidate;
    } catch (err) {
      if (err.code !== 'EEXIST') throw new WriteError(`create ${candidate}`, err);
    }
  }
}

/** Points root/latest at dir (relative symlink, swapped in atomically). */
function linkLatest(dir, root = RESULTS_ROOT) {
  const link = path.join(root, 'latest');
  const tmp = path.join(root, `.latest.${process.pid}.tmp`);
  try {
    fs.rmSync(tmp, { force: true });
    fs.symlinkSync(path.relative(root, dir), tmp);
    fs.renameSync(tmp, link);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw new WriteError(`point ${link} at ${dir}`, err);
  }
  return link;
}

class ResultsStore {
  /** dir: where to write (see createResultsDir); latestRoot: when set, <latestRoot>/latest is pointed at dir. */
  constructor(dir, { latestRoot = null } = {}) {
    this.dir = path.resolve(dir);
    this.latestRoot = latestRoot;
    this.environment = null;
    this.runs = [];
    this.extra = {};
    this.reserved = 0;
    this.claimed = false;
    this.finished = false;
  }

  /** Claims dir with a first results.json: fails when dir holds the results of another run. */
  init(environment) {
    this.environment = environment;
    const text = this.serialize();
    try {
      // Created only when absent ('wx'): the claim. (Not a temporary file and a hard link: not
      // every file system has those; this first document is small, and nothing is lost yet.)
      fs.writeFileSync(this.resultsFile, text, { flag: 'wx' });
    } catch (err) {
      if (err.code === 'EEXIST') throw new Error(`${this.dir} already holds the results of another run (results.json): name a new folder with --out, or remove that one`, { cause: err });
      fs.rmSync(this.resultsFile, { force: true }); // a claim half written
      throw new WriteError(`write ${this.resultsFile}`, err);
    }
    this.claimed = true;
    this.write('samples', () => fs.mkdirSync(path.join(this.dir, 'samples')));
    this.keepReserve(text);
    if (this.latestRoot) linkLatest(this.dir, this.latestRoot);
  }

  get resultsFile() {
    return path.join(this.dir, RESULTS_FILE);
  }

  serialize() {
    return encodeResults({ environment: this.environment, ...this.extra, runs: this.runs });
  }

  /** Runs write(); a failure becomes a WriteError naming dir/name. */
  write(name, write) {
    // After finish() (e.g. a second Ctrl-C while the run goes on), what it recorded stands.
    if (this.finished) throw new Error(`${this.dir}: the run has ended; ${name} is not written`);
    try {
      write();
    } catch (err) {
      throw new WriteError(`write ${path.join(this.dir, name)}`, err);
    }
  }

  /** Grows the reserve file to twice the size of results.json (its text) plus the slack. */
  keepReserve(text) {
    const want = 2 * Buffer.byteLength(text) + RESERVE_SLACK_BYTES;
    if (want <= this.reserved) return;
    this.write(`${RESERVE_FILE} (space kept for the last results.json)`, () => fs.appendFileSync(path.join(this.dir, RESERVE_FILE), Buffer.alloc(want - this.reserved)));
    this.reserved = want;
  }

  writeResults() {
    const text = this.serialize();
    this.write(RESULTS_FILE, () => writeFileAtomic(this.resultsFile, text));
    this.keepReserve(text);
  }

  /**
   * Appends the run to results.json, with its samples (when given) in samples/. When the
   * samples cannot be written the run is kept (samples_file null) and the error thrown: the
   * caller ends the whole run, and finish() records it.
   */
  addRun(run, samples = null) {
    run.samples_file = null;
    let lost = null;
    if (samples && samples.length > 0) {
      const rel = samplesFileName(run.server, run.scenario, run.trial);
      try {
        this.write(rel, () => writeFileAtomic(path.join(this.dir, rel), zlib.gzipSync(samples.toCsv(), { level: 6 })));
        run.samples_file = rel;
      } catch (err) {
        lost = err;
      }
    }
    this.runs.push(run);
    if (lost) throw lost;
    this.writeResults();
  }

  /**
   * Writes samples under rel (a ramp step's: rampStepSamplesFileName); returns rel, or null when
   * they could not be written (a chart is lost, not the run: the caller goes on).
   */
  writeSamples(rel, samples) {
    try {
      this.write(rel, () => writeFileAtomic(path.join(this.dir, rel), zlib.gzipSync(samples.toCsv(), { level: 6 })));
      return rel;
    } catch {
      return null;
    }
  }

  /** Top-level fields besides environment and runs (e.g. interrupted, error). */
  setExtra(fields) {
    Object.assign(this.extra, fields);
    this.writeResults();
  }

  /**
   * The last write of a run, synchronous: releases the reserve (the space left is the readers',
   * for the summaries: perf/lib/studies/run_summary.js), then writes results.json with fields.
   * Returns { results (what was written, as every reader reads it: decodeResults), unwritten:
   * [{ name, error }] (results.json, when it could not be written) }.
   */
  finish(fields) {
    try {
      fs.rmSync(path.join(this.dir, RESERVE_FILE), { force: true });
    } catch {
      // a folder gone read-only: the writes below say so
    }
    this.reserved = 0;
    Object.assign(this.extra, fields);
    const unwritten = [];
    const attempt = (name, write) => {
      try {
        this.write(name, write);
      } catch (error) {
        unwritten.push({ name, error });
      }
    };
    const text = this.serialize();
    attempt(RESULTS_FILE, () => writeFileAtomic(this.resultsFile, text));
    const doc = JSON.parse(text);
    // What was written is checked against its schema: a mismatch is the runner's bug, said once.
    const problem = schemaProblem(doc);
    if (problem) unwritten.push({ name: RESULTS_FILE, error: new Error(`written, but it does not match perf/schemas/results.schema.json: ${problem} (a bug of the runner: please report it)`) });
    const results = decodeResults(doc, { dir: this.dir, file: this.resultsFile });
    this.finished = true;
    return { results, unwritten };
  }
}

module.exports = { ResultsStore, WriteError, writeFileAtomic, createResultsDir, folderStamp, linkLatest, systemCause, RESULTS_ROOT };
