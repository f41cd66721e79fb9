'use strict';
// Per-request samples of one run, kept in growable typed arrays (a long keep-alive run has
// hundreds of thousands of them) and written as CSV. Columns are documented in perf/README.md.

const { performance } = require('node:perf_hooks');

const ERROR_CODES = ['', 'refused', 'reset', 'timeout', 'other', 'cut'];
const ROLES = ['main', 'probe', 'slow'];
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

module.exports = { Samples, parseSamplesCsv, CSV_HEADER, ERROR_CODES, ROLES };
