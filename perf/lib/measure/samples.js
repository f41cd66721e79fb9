'use strict';
// Per-request samples of one run: the one home of their file format. Kept in growable typed
// arrays while a run records them (a long keep-alive run has hundreds of thousands), written
// as gzipped CSV under the results folder (samplesFileName), and read back by the report
// (readSamples) and the tests (parseSamplesCsv). Columns are documented in perf/REFERENCE.md, "Output".

const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const readline = require('node:readline');
const { performance } = require('node:perf_hooks');

/** The kinds of error a request ends in (engines/http_exchange.js classifyError), counted per run. */
const ERROR_KINDS = ['refused', 'reset', 'timeout', 'other'];
/** A sample's error column, by code: none, each kind, and a slow transfer cut short. */
const ERROR_CODES = ['', ...ERROR_KINDS, 'cut'];
const ROLES = ['main', 'probe', 'slow'];
/** Role codes of readSamples' `role` column: ROLE.main, ROLE.probe, ROLE.slow. */
const ROLE = Object.fromEntries(ROLES.map((name, code) => [name, code]));
const CSV_HEADER = 't_ms,latency_ms,connect_ms,status,error,role,conn';

function grow(array, size) {
  const bigger = new array.constructor(size);
  bigger.set(array);
  return bigger;
}

class Samples {
  constructor(capacity = 1024) {
    this.length = 0;
    this.origin = null;
    this.t = new Float64Array(capacity);
    this.latency = new Float64Array(capacity);
    this.connect = new Float64Array(capacity);
    this.status = new Uint16Array(capacity);
    this.error = new Uint8Array(capacity);
    this.role = new Uint8Array(capacity);
    this.conn = new Uint32Array(capacity);
  }

  /** Sets time zero of the run (performance.now() ms); sample times are relative to it. */
  start(origin = performance.now()) {
    this.origin = origin;
    return origin;
  }

  /**
   * Adds one request. startAt/endAt are performance.now() ms; connectMs is null when the
   * request reused a connection; status 0 with error kind for a failure.
   */
  add({ startAt, endAt, connectMs = null, status = 0, error = null, role = 'main', conn = 0 }) {
    if (this.origin === null) throw new Error('Samples.start() was not called');
    const i = this.length;
    if (i === this.t.length) {
      const size = this.t.length * 2;
      for (const key of ['t', 'latency', 'connect', 'status', 'error', 'role', 'conn']) this[key] = grow(this[key], size);
    }
    const errorCode = error ? ERROR_CODES.indexOf(error) : 0;
    const roleCode = ROLES.indexOf(role);
    if (errorCode < 0) throw new Error(`unknown error kind '${error}'`);
    if (roleCode < 0) throw new Error(`unknown role '${role}'`);
    this.t[i] = startAt - this.origin;
    this.latency[i] = endAt - startAt;
    this.connect[i] = connectMs === null || connectMs === undefined ? NaN : connectMs;
    this.status[i] = error ? 0 : status;
    this.error[i] = errorCode;
    this.role[i] = roleCode;
    this.conn[i] = conn;
    this.length = i + 1;
    return i;
  }

  errorKind(i) {
    return ERROR_CODES[this.error[i]];
  }

  roleName(i) {
    return ROLES[this.role[i]];
  }

  /**
   * The answered main requests' spans, { starts, ends } (Float64Arrays), in performance.now()
   * ms plus offset: when each was sent (due, for a schedule) and answered.
   */
  answeredSpans(offset = 0) {
    const rows = [];
    for (let i = 0; i < this.length; i++) if (this.status[i] > 0 && this.role[i] === ROLE.main) rows.push(i);
    const starts = new Float64Array(rows.length);
    const ends = new Float64Array(rows.length);
    rows.forEach((i, k) => {
      starts[k] = this.origin + this.t[i] + offset;
      ends[k] = starts[k] + this.latency[i];
    });
    return { starts, ends };
  }

  /** Plain object for row i (tests, debugging). */
  row(i) {
    return {
      t_ms: this.t[i],
      latency_ms: this.latency[i],
      connect_ms: Number.isNaN(this.connect[i]) ? null : this.connect[i],
      status: this.status[i],
      error: this.errorKind(i),
      role: this.roleName(i),
      conn: this.conn[i],
    };
  }

  /** The CSV text, rows in start-time order. */
  toCsv() {
    const order = Array.from({ length: this.length }, (_, i) => i).sort((a, b) => this.t[a] - this.t[b]);
    const lines = new Array(order.length + 1);
    lines[0] = CSV_HEADER;
    for (let k = 0; k < order.length; k++) {
      const i = order[k];
      const connect = Number.isNaN(this.connect[i]) ? '' : this.connect[i].toFixed(3);
      lines[k + 1] = `${this.t[i].toFixed(3)},${this.latency[i].toFixed(3)},${connect},${this.status[i]},${ERROR_CODES[this.error[i]]},${ROLES[this.role[i]]},${this.conn[i]}`;
    }
    return lines.join('\n') + '\n';
  }
}

/** Parses the CSV written by toCsv() back into row objects (tests, tools). */
function parseSamplesCsv(text) {
  const lines = text.split('\n').filter(Boolean);
  if (lines[0] !== CSV_HEADER) throw new Error(`unexpected samples header: ${lines[0]}`);
  return lines.slice(1).map((line) => {
    const [t, latency, connect, status, error, role, conn] = line.split(',');
    return {
      t_ms: Number(t),
      latency_ms: Number(latency),
      connect_ms: connect === '' ? null : Number(connect),
      status: Number(status),
      error,
      role,
      conn: Number(conn),
    };
  });
}

/**
 * Where a run's samples are written, relative to its results folder:
 * samples/<server>__<scenario>__t<trial>.csv.gz (without a trial number: no __t part).
 */
function samplesFileName(server, scenario, trial = null) {
  return `samples/${server}__${scenario}${trial === null || trial === undefined ? '' : `__t${trial}`}.csv.gz`;
}

/**
 * Where a failed ramp step's samples are written, relative to the results folder:
 * samples/ramp__<ramp>__<server>__s<search>__f<n>__<rate>.csv.gz, the n-th failed step of the
 * search (a rate may fail twice: a failure is confirmed). The report draws them with the step's
 * pauses.
 */
function rampStepSamplesFileName(ramp, server, search, failed, rate) {
  return `samples/ramp__${ramp}__${server}__s${search}__f${failed}__${Math.round(rate)}.csv.gz`;
}

/**
 * A run's samples file, or null: the path its run records (samples_file), or for a run written
 * before it recorded one, the name it would have been given. An engine that keeps no samples
 * (httperf, wrk) says so with samples: null, and never borrows another run's file.
 */
function findSamplesFile(resultsDir, run) {
  if (run.samples === null) return null;
  const file = path.resolve(resultsDir, run.samples_file || samplesFileName(run.server, run.scenario, run.trial));
  return fs.existsSync(file) ? file : null;
}

/** Growable typed columns of what the report reads: start, latency, status, role. */
class Columns {
  constructor() {
    this.n = 0;
    this.t = new Float64Array(4096);
    this.ms = new Float64Array(4096);
    this.status = new Uint16Array(4096);
    this.role = new Uint8Array(4096);
  }

  push(t, ms, status, role) {
    if (this.n === this.t.length) for (const k of ['t', 'ms', 'status', 'role']) this[k] = grow(this[k], this.n * 2);
    this.t[this.n] = t;
    this.ms[this.n] = ms;
    this.status[this.n] = status;
    this.role[this.n] = role;
    this.n += 1;
  }

  trimmed() {
    const n = this.n;
    return { n, t: this.t.subarray(0, n), ms: this.ms.subarray(0, n), status: this.status.subarray(0, n), role: this.role.subarray(0, n) };
  }
}

/**
 * Reads a samples file written by toCsv (gzipped when its name ends in .gz), streaming, into
 * columns: { n, t, ms, status, role (ROLE codes), skipped, file }. A row that does not parse
 * (an interrupted run can leave a truncated last line) is counted in `skipped`; a file whose
 * header is not CSV_HEADER is refused.
 */
async function readSamples(file) {
  let input = fs.createReadStream(file);
  if (file.endsWith('.gz')) {
    const gunzip = zlib.createGunzip();
    input.on('error', (e) => gunzip.destroy(e));
    input = input.pipe(gunzip);
  }
  const cols = new Columns();
  let skipped = 0;
  let header = null;
  const rl = readline.createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of rl) {
      if (header === null) {
        header = line;
        if (header !== CSV_HEADER) throw new Error(`not a samples file: its header is '${header.slice(0, 60)}', not '${CSV_HEADER}'`);
        continue;
      }
      if (!line) continue;
      const [t, latency, , status, , role, conn] = line.split(',');
      const code = ROLES.indexOf(role);
      if (conn === undefined || code < 0 || !Number.isFinite(Number(t)) || !Number.isFinite(Number(latency)) || !Number.isFinite(Number(status))) {
        skipped++;
        continue;
      }
      cols.push(Number(t), Number(latency), Number(status), code);
    }
  } finally {
    rl.close();
  }
  return { ...cols.trimmed(), skipped, file };
}

/** The failed requests of a run (results.json's errors: a count per kind), all kinds together. */
const errorCount = (r) => (r.errors ? Object.values(r.errors).reduce((a, b) => a + (Number(b) || 0), 0) : 0);

module.exports = { errorCount, Samples, parseSamplesCsv, readSamples, findSamplesFile, samplesFileName, rampStepSamplesFileName, CSV_HEADER, ROLE, ERROR_KINDS, ERROR_CODES };
