'use strict';
// Reads one run's per-request samples. This is the one place that knows the runner's sample
// file format; adapt it here when the format changes.
//
// Accepted (all optionally gzipped, detected by the .gz suffix):
//   CSV           the runner's format (perf/lib/samples.js): header line
//                 t_ms,latency_ms,connect_ms,status,error,role,conn  then one row per request
//                 (role main | probe | slow; status 0 = no reply, error = its kind)
//   NDJSON/JSONL  one object per line with the same names, e.g.
//                 {"t_ms":12.5,"latency_ms":0.83,"status":200,"role":"probe"}
//                 or one array per line [t, ms, status, role?]
// Column names (first match wins, see FIELDS):
//   start time (ms from run start), response time (ms), HTTP status (0 = error),
//   role: "probe"/"fast" (the fast probe in slow-client scenarios), "slow" (a slow client),
//   anything else or absent = an ordinary request.
// Slow clients' active periods: the run's slow_clients.active_periods in results.json
// ([{start_ms, end_ms, ...}]), or lines {"type":"slow_active","start_ms":..,"end_ms":..} in an
// NDJSON file; when neither is given they are derived from the slow clients' own samples
// (start .. start + latency).

const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const readline = require('node:readline');

const FIELDS = {
  t: ['t', 't_ms', 'start_ms', 'start', 'ts', 'time_ms', 'offset_ms'],
  ms: ['ms', 'latency_ms', 'response_ms', 'rt_ms', 'duration_ms', 'elapsed_ms', 'latency'],
  status: ['status', 'code', 'status_code'],
  role: ['role', 'kind', 'client', 'group'],
};
const PERIOD_TYPES = new Set(['slow_active', 'slow_period', 'period', 'active']);
const EXTENSIONS = ['.ndjson.gz', '.jsonl.gz', '.csv.gz', '.ndjson', '.jsonl', '.csv'];

const ROLE = { request: 0, probe: 1, slow: 2 };

function roleCode(value) {
  if (value === undefined || value === null || value === '') return ROLE.request;
  const v = String(value).toLowerCase();
  if (v === 'probe' || v === 'fast' || v === 'fast_probe') return ROLE.probe;
  if (v.startsWith('slow')) return ROLE.slow;
  return ROLE.request;
}

function pick(obj, names) {
  for (const n of names) if (obj[n] !== undefined) return obj[n];
  return undefined;
}

/** Where this run's samples are, or null. Prefers a path the runner recorded in the run. */
function findSamplesFile(resultsDir, run) {
  // An engine that keeps no samples (httperf, wrk) says so with samples: null: never borrow
  // another run's file by its name.
  if (run.samples === null) return null;
  const recorded = run.samples_file || (typeof run.samples === 'string' ? run.samples : null);
  if (recorded) {
    const p = path.resolve(resultsDir, recorded);
    return fs.existsSync(p) ? p : null;
  }
  const stems = [];
  if (run.trial !== undefined && run.trial !== null) stems.push(`${run.server}__${run.scenario}__t${run.trial}`);
  stems.push(`${run.server}__${run.scenario}`);
  for (const folder of ['samples', '.']) {
    for (const stem of stems) {
      for (const ext of EXTENSIONS) {
        const p = path.join(resultsDir, folder, stem + ext);
        if (fs.existsSync(p)) return p;
      }
    }
  }
  return null;
}

/** Growable typed columns, so hundreds of thousands of samples stay compact. */
class Columns {
  constructor() {
    this.n = 0;
    this.cap = 4096;
    this.t = new Float64Array(this.cap);
    this.ms = new Float64Array(this.cap);
    this.status = new Uint16Array(this.cap);
    this.role = new Uint8Array(this.cap);
  }

  push(t, ms, status, role) {
    if (this.n === this.cap) {
      this.cap *= 2;
      for (const k of ['t', 'ms', 'status', 'role']) {
        const grown = new this[k].constructor(this.cap);
        grown.set(this[k]);
        this[k] = grown;
      }
    }
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

function splitCsvLine(line) {
  if (!line.includes('"')) return line.split(',');
  const out = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (c === '"') quoted = false; else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { out.push(cur); cur = ''; } else cur += c;
  }
  out.push(cur);
  return out;
}

/**
 * Reads a samples file into columns:
 * { n, t, ms, status, role (ROLE codes), periods: [{start_ms, end_ms}], file }.
 * Lines that cannot be parsed are counted in `skipped`, not fatal (an interrupted run may
 * leave a truncated last line).
 */
async function readSamples(file) {
  let input = fs.createReadStream(file);
  if (file.endsWith('.gz')) {
    const gunzip = zlib.createGunzip();
    input.on('error', (e) => gunzip.destroy(e));
    input = input.pipe(gunzip);
  }
  const isCsv = /\.csv(\.gz)?$/.test(file);
  const cols = new Columns();
  const periods = [];
  let skipped = 0;
  let header = null;
  const rl = readline.createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const raw of rl) {
      const line = raw.trim();
      if (!line || line[0] === '#') continue;
      let rec;
      if (isCsv) {
        const cells = splitCsvLine(line);
        if (!header) {
          if (Number.isNaN(Number(cells[0]))) { header = cells.map((c) => c.trim()); continue; }
          header = ['t', 'ms', 'status', 'role'];
        }
        rec = {};
        header.forEach((h, i) => { if (cells[i] !== undefined && cells[i] !== '') rec[h] = cells[i]; });
      } else {
        try { rec = JSON.parse(line); } catch { skipped++; continue; }
        if (Array.isArray(rec)) rec = { t: rec[0], ms: rec[1], status: rec[2], role: rec[3] };
        else if (rec === null || typeof rec !== 'object') { skipped++; continue; }
      }
      const type = rec.type ?? rec.event;
      if (type !== undefined && PERIOD_TYPES.has(String(type))) {
        const s = Number(rec.start_ms ?? rec.start);
        const e = Number(rec.end_ms ?? rec.end);
        if (Number.isFinite(s) && Number.isFinite(e)) periods.push({ start_ms: s, end_ms: e });
        continue;
      }
      const t = Number(pick(rec, FIELDS.t));
      const ms = Number(pick(rec, FIELDS.ms));
      if (!Number.isFinite(t) || !Number.isFinite(ms)) { skipped++; continue; }
      const st = Number(pick(rec, FIELDS.status) ?? 200);
      cols.push(t, ms, Number.isFinite(st) ? st : 0, roleCode(pick(rec, FIELDS.role)));
    }
  } finally {
    rl.close();
  }
  return { ...cols.trimmed(), periods, skipped, file };
}

/** Slow clients' active periods as recorded in results.json, or null. */
function recordedPeriods(run) {
  const sc = run.slow_clients && typeof run.slow_clients === 'object' ? run.slow_clients : {};
  const list = run.slow_active || sc.active_periods || sc.active || null;
  if (!Array.isArray(list)) return null;
  return list
    .map((p) => (Array.isArray(p) ? { start_ms: Number(p[0]), end_ms: Number(p[1]) } : { start_ms: Number(p.start_ms ?? p.start), end_ms: Number(p.end_ms ?? p.end) }))
    .filter((p) => Number.isFinite(p.start_ms) && Number.isFinite(p.end_ms));
}

module.exports = { readSamples, findSamplesFile, recordedPeriods, ROLE, FIELDS };
