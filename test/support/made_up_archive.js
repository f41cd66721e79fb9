'use strict';
// Made-up archive records (perf/lib/store/archive.js) for the tests of the answers across runs:
// each holds one comparison, a run's ratio a ÷ b with its 95 % interval, on a named host; and
// results folders of a made-up run to add to an archive.

const fs = require('node:fs');
const path = require('node:path');

const Z95 = 1.959964;
const FIXTURE = path.join(__dirname, '..', 'fixtures', 'results_small', 'results.json');

// The runtime each server ran on, unless a record says otherwise: today's (perf/runtimes.json).
const TODAY = { node: 'node24', em: 'ruby33_yjit', async: 'ruby33_yjit' };

/**
 * A record of one run: its host (CPU model), and for one comparison (by default short_conn_256's
 * req/s, node vs em, higher better) the run's ratio and interval (null: not judged), its servers
 * on the runtimes of `on` (by default today's).
 */
function record(id, host, ratio, ci, { subject = 'short_conn_256', metric = 'throughput_rps', a = 'node', b = 'em', better = 'higher', day = '2026-11-27', on = TODAY } = {}) {
  return {
    archive_version: 1,
    id,
    started_at: `${day}T00:00:00Z`,
    host: { cpu_model: host },
    servers: { [a]: { runtime: on[a] }, [b]: { runtime: on[b] } },
    commit: '0123456',
    methods: { scenario: 1, ramp: 3 },
    options: { margin: 0.1 },
    answers: [
      {
        key: `${subject} ${metric} ${a}:${b}`,
        kind: subject.startsWith('hello_') ? 'ramp' : 'scenario',
        subject,
        metric,
        a,
        b,
        better,
        ratio,
        ci95: ci,
        log_se: ci ? Math.log(ci[1] / ci[0]) / (2 * Z95) : null,
        decision: null,
        not_judged: ci ? null : 'below the resolution',
      },
    ],
  };
}

/** Runs on one host around the given ratios, each known to ±half on the log scale at 95 %. */
function around(host, ratios, half = 0.05, options = {}) {
  return ratios.map((r, i) => record(`${host}-${i}`, host, r, [r * Math.exp(-half), r * Math.exp(half)], options));
}

/** A results folder in root holding the fixture's run (test/fixtures/results_small) with its options and fields changed. */
function resultsDir(root, options, extra = {}) {
  const dir = fs.mkdtempSync(path.join(root, 'run-'));
  const doc = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
  doc.environment.options = { ...doc.environment.options, ...options };
  fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ ...doc, ...extra }));
  return dir;
}

module.exports = { record, around, resultsDir };
