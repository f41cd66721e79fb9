'use strict';
// npm test runs the test files in two lanes (scripts/test.sh). TOGETHER: files whose assertions
// hold whatever else the machine does (pure functions, the contract, deadlines of a second or
// more, output formats), run two at a time (mocha --parallel --jobs 2: most of them wait on
// servers' timers, not on a core). Every other file runs ALONE afterwards, with the machine to
// itself: what it asserts depends on the CPU being its own (a stand-in's capacity found by a
// ramp, a schedule kept, a warm-up that stops rising, a client-bound verdict, the differential
// tester's "closed at once", an open loop's hosts keeping its schedule, a backend route's cost
// from runs that wait, left out when the load generator runs late, Tsung's agents writing every
// reply they counted before their nodes halt). A new file runs alone
// until it is listed here.

// Folders whose every file shares the machine well, and single files elsewhere (mocha splits its
// spec patterns at commas, so no {a,b} patterns here).
const files = (folder, names) => names.map((name) => `test/${folder}/${name}.test.js`);
// The longest first (the end-to-end files), so that the two workers finish near each other.
const TOGETHER = [
  ...files('e2e', ['backend_routes', 'hostile', 'cli', 'report_browser', 'soak', 'overhead', 'hardening', 'run', 'references', 'faults', 'report_build', 'disk', 'deadlines', 'trials', 'servers', 'runner', 'runtime_events', 'archive_cli', 'contract', 'bare_servers', 'seed_references', 'waiting', 'held_memory', 'async_http', 'judged_once']),
  ...files('unit/studies', ['profile', 'archive', 'flame', 'overhead', 'soak', 'window_check', 'held_memory']),
  ...files('unit/hosts', ['fd_limits', 'install_runtime', 'load_hosts', 'netns', 'one_request', 'pinning', 'runtimes', 'server_process']),
  ...files('unit/engines', ['external', 'httperf', 'index', 'tsung_output', 'wrk', 'http_exchange', 'autocannon', 'sequential']),
  ...files('unit/run', ['bottleneck', 'capacity', 'calibration', 'contract_check', 'environment', 'lighter_engines', 'ramp', 'pause_window', 'rounds', 'runtimes', 'run_one_ends']),
  ...['rule', 'judge', 'report', 'text', 'plan', 'measure', 'store', 'difftest'].map((folder) => `test/unit/${folder}/*.test.js`),
  'test/unit/stages.test.js',
];

const ALL = 'test/**/*.test.js';

module.exports = { TOGETHER, ALL };
