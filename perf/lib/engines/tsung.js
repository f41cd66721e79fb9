'use strict';
// The Tsung engine (--engine tsung --load-hosts …): the load from several hosts. The scenario
// becomes a Tsung configuration (tsungConfig), the controller runs here and starts an agent
// on each load host over the hosts' remote shell (perf/lib/hosts/load_hosts.js), each agent writes
// every request it made to its own dump, and the dumps come back as the run's samples, one per
// request, so that the run's histogram is exactly the hosts' merged. What the numbers mean next
// to the other engines' is in perf/ENGINES.md.
//
//   open loop (concurrent_*)    N users arriving at R a second, one request each
//   closed loop, keep-alive     C users at once, each one connection of K requests in a row
//   closed loop, new connection the same with Connection: close (Tsung reconnects per request)
//   duration-bounded            the same, K unbounded, the whole load stopped after D seconds
//
// Tsung's arrivals are a Poisson process (exponential gaps of mean 1/R), not httperf's fixed
// spacing; its users are spread over the hosts by weight (equal here). Each host's arrival
// phase is given room for its users (plus Tsung's start-up delay): a phase too short would
// launch fewer users without failing, so a launcher that falls behind is flagged from its log.

const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');
const { findBinary, debianVersion, shellQuote, runEngineProcess } = require('./external');
const { readTsungLog } = require('./tsung_output');
const { processTable } = require('../measure/proc_stats');
const { namespaceId } = require('../hosts/load_hosts');
const { encodeLatencies, latencySummary, round3 } = require('../measure/stats');

const NAME = 'tsung';
const ENV_VAR = 'TSUNG_BIN';
const WARM_S = 1; // tsung -w: the agents start their phases this long after the controller is ready
// Users a second when a closed loop's users all start "at once": each agent then starts them as
// fast as it can (one request to the controller per user).
const CLOSED_ARRIVAL_RATE = 10000;
const UNBOUNDED_LOOP = 100000000; // a duration-bounded user's requests: stopped by the load's duration
const AGENT_POLL_MS = 250;

/** Why Tsung cannot run scenario s faithfully here, or null when it can. */
function whyNot(s) {
  if (s.kind === 'slow_clients') return 'Tsung cannot pace a client\'s reading or sending (slow clients)';
  if (s.kind === 'rate') return 'this engine gives Tsung no constant request rate over a fixed pool of connections (its users arrive, they are not a pool)';
  if (s.request && s.request.upload_bytes) return 'this engine gives Tsung no request bodies (uploads)';
  return null;
}

function supports(s) {
  return whyNot(s) === null;
}

function xmlEscape(text) {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Users each host runs: `total` spread as Tsung spreads a phase over equal weights. */
function usersPerHost(total, hostCount) {
  return Math.ceil(total / hostCount);
}

/**
 * The plan of scenario s over `hostCount` hosts: { users, requestsPerUser (null: until the
 * load's duration), rate (users a second), phaseS, loadDurationS, planned (requests), keepAlive,
 * note }.
 */
function planLoad(s, hostCount) {
  if (s.kind === 'open') {
    const perHost = usersPerHost(s.connections, hostCount);
    const hostRate = s.rate / hostCount;
    // Time for a Poisson process of hostRate to reach perHost arrivals, with six standard
    // deviations and a second to spare.
    const phaseS = Math.ceil(WARM_S + (perHost + 6 * Math.sqrt(perHost)) / hostRate + 1);
    return { users: s.connections, requestsPerUser: s.requests_per_connection, rate: s.rate, phaseS, loadDurationS: null, planned: s.connections * s.requests_per_connection, keepAlive: true, note: null };
  }
  const users = s.concurrency;
  const phaseS = Math.ceil(WARM_S + (2 * usersPerHost(users, hostCount)) / (CLOSED_ARRIVAL_RATE / hostCount) + 1);
  if (s.duration_s !== null) {
    // Tsung takes the load's duration in whole seconds.
    const seconds = Math.max(1, Math.ceil(s.duration_s));
    const rounded = seconds !== s.duration_s ? ` (whole seconds: the scenario asks ${s.duration_s} s)` : '';
    return { users, requestsPerUser: null, rate: CLOSED_ARRIVAL_RATE, phaseS, loadDurationS: seconds, planned: null, keepAlive: s.keep_alive, note: `Tsung stops every user ${seconds} s after the load starts${rounded}; requests in flight then are not counted` };
  }
  const perUser = s.requests_per_connection !== null ? s.requests_per_connection : Math.ceil(s.requests / users);
  const planned = perUser * users;
  const note = s.requests_per_connection === null && planned !== s.requests ? `Tsung runs ${users} users × ${perUser} requests = ${planned} (the scenario asks ${s.requests}, which ${users} does not divide)` : null;
  return { users, requestsPerUser: perUser, rate: CLOSED_ARRIVAL_RATE, phaseS, loadDurationS: null, planned, keepAlive: s.keep_alive, note };
}

/**
 * The Tsung configuration (XML text) of scenario s: { xml, plan }. hosts: [{ name }] (the
 * agents' host names), server: { host, port }.
 */
function tsungConfig(s, { hosts, server }) {
  const reason = whyNot(s);
  if (reason) throw new Error(`Tsung cannot run ${s.name}: ${reason}`);
  const plan = planLoad(s, hosts.length);
  const perHost = usersPerHost(plan.users, hosts.length);
  const req = s.request;
  const headers = { ...(req.headers || {}) };
  if (!plan.keepAlive) headers.Connection = 'close';
  const headerXml = Object.entries(headers).map(([k, v]) => `\n          <http_header name="${xmlEscape(k)}" value="${xmlEscape(v)}"/>`).join('');
  const request = `<request><http url="${xmlEscape(req.path)}" method="${xmlEscape(req.method)}" version="1.1">${headerXml}${headerXml ? '\n        ' : ''}</http></request>`;
  const loops = plan.requestsPerUser === null ? UNBOUNDED_LOOP : plan.requestsPerUser;
  const body = loops === 1 ? `      ${request}` : `      <for from="1" to="${loops}" var="i">\n        ${request}\n      </for>`;
  const clients = hosts.map((h) => `    <client host="${xmlEscape(h.name)}" weight="1" maxusers="${perHost + 10}"/>`).join('\n');
  const timeoutMs = Math.round(s.timeout_s * 1000);
  const loadDuration = plan.loadDurationS !== null ? ` duration="${plan.loadDurationS}" unit="second"` : '';
  const xml = `<?xml version="1.0"?>
<!DOCTYPE tsung SYSTEM "/usr/share/tsung/tsung-1.0.dtd">
<!-- em-vs-node: scenario ${xmlEscape(s.name)} (${xmlEscape(s.description || '')}) -->
<tsung loglevel="notice" dumptraffic="protocol_local" version="1.0">
  <clients>
${clients}
  </clients>
  <servers>
    <server host="${xmlEscape(server.host)}" port="${server.port}" type="tcp"/>
  </servers>
  <load${loadDuration}>
    <arrivalphase phase="1" duration="${plan.phaseS}" unit="second">
      <users maxnumber="${plan.users}" arrivalrate="${plan.rate}" unit="second"/>
    </arrivalphase>
  </load>
  <options>
    <option name="connect_timeout" value="${timeoutMs}"/>
    <option name="idle_timeout" value="${timeoutMs}"/>
    <option type="ts_http" name="user_agent"><user_agent probability="100">em-vs-node (Tsung)</user_agent></option>
  </options>
  <sessions>
    <session name="${xmlEscape(s.name)}" probability="100" type="ts_http">
${body}
    </session>
  </sessions>
</tsung>
`;
  return { xml, plan };
}

const CONTROLLER = 'controller';

/**
 * Follows the load generator's CPU on this machine, every AGENT_POLL_MS: the Tsung controller's
 * whole process tree (the controller, the ssh clients it starts the agents with; setRoot(pid)
 * once Tsung is started) and, on netns hosts, every process in each host's namespace (the
 * agent, its epmd, the ssh session that started it) but the listening ssh daemon. A process's
 * last reading stays counted after it exits. series() gives { controller | host: [[epoch ms,
 * cumulative cpu s], …] }; hosts elsewhere have no series (their processes are not visible here).
 */
function followClientCpu(loadHosts) {
  const netns = loadHosts.kind === 'netns';
  const series = { [CONTROLLER]: [] };
  const hostOfNamespace = new Map(); // "net:[inode]" → host name
  if (netns) {
    for (const h of loadHosts.hosts) {
      series[h.name] = [];
      const id = namespaceId(h.namespace);
      if (id) hostOfNamespace.set(id, h.name);
    }
  }
  const daemons = new Set(loadHosts.sshdDaemons || []);
  // pid → CONTROLLER, a host name, or null (someone else's), decided once: a process's parents
  // and namespace do not change, and the controller's processes all start after setRoot.
  const owner = new Map();
  const last = new Map(); // pid → [owner, cpu s]
  let root = null;
  const ownerOf = (pid, table) => {
    if (owner.has(pid)) return owner.get(pid);
    let who = null;
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = table.get(p) ? table.get(p).ppid : 0, hops++) {
      if (p === root) {
        who = CONTROLLER;
        break;
      }
    }
    if (!who && netns && !daemons.has(pid)) {
      try {
        who = hostOfNamespace.get(fs.readlinkSync(`/proc/${pid}/ns/net`)) || null;
      } catch {
        who = null;
      }
    }
    owner.set(pid, who);
    return who;
  };
  const poll = () => {
    const table = processTable();
    for (const [pid, { cpu_s: cpu }] of table) {
      const who = ownerOf(pid, table);
      if (who) last.set(pid, [who, cpu]);
    }
    const now = Date.now();
    const totals = Object.fromEntries(Object.keys(series).map((k) => [k, 0]));
    for (const [who, cpu] of last.values()) totals[who] += cpu;
    for (const [who, total] of Object.entries(totals)) series[who].push([now, total]);
  };
  poll();
  const timer = setInterval(poll, AGENT_POLL_MS);
  return {
    setRoot(pid) {
      root = pid;
    },
    stop() {
      clearInterval(timer);
      poll();
    },
    series: () => series,
  };
}

/** CPU seconds a series ([[epoch ms, cumulative s]]) grew between two times, interpolated. */
function cpuBetween(series, fromMs, toMs) {
  const at = (t) => {
    if (!series.length) return null;
    if (t <= series[0][0]) return series[0][1];
    for (let i = 1; i < series.length; i++) {
      const [t1, c1] = series[i];
      if (t <= t1) {
        const [t0, c0] = series[i - 1];
        return c0 + ((c1 - c0) * (t - t0)) / (t1 - t0 || 1);
      }
    }
    return series[series.length - 1][1];
  };
  const a = at(fromMs);
  const b = at(toMs);
  return a === null || b === null ? null : Math.max(0, b - a);
}

/**
 * Puts every host's requests into the run's samples (one time line: zero at the first
 * request's start, whichever host sent it) and describes each host. Returns { hosts (the
 * load_hosts field), firstStartMs, lastEndMs } (epoch ms).
 */
function recordHosts({ read, loadHosts, samples, cpuSeries, offsets }) {
  const names = loadHosts.hosts.map((h) => h.name);
  let firstStart = Infinity;
  let lastStart = -Infinity;
  let lastEnd = -Infinity;
  let total = 0;
  for (const name of names) {
    for (const r of (read.hosts[name] || { rows: [] }).rows) {
      firstStart = Math.min(firstStart, r.endMs - r.durationMs);
      lastStart = Math.max(lastStart, r.endMs - r.durationMs);
      lastEnd = Math.max(lastEnd, r.endMs);
      total += 1;
    }
  }
  const origin = samples.origin;
  const hosts = loadHosts.hosts.map((host, index) => {
    const entry = read.hosts[host.name] || { rows: [], scheduleWarnings: [], node: null };
    let hostFirst = Infinity;
    let hostLast = -Infinity;
    const latencies = [];
    for (const r of entry.rows) {
      const start = r.endMs - r.durationMs;
      hostFirst = Math.min(hostFirst, start);
      hostLast = Math.max(hostLast, r.endMs);
      latencies.push(r.durationMs);
      samples.add({ startAt: origin + (start - firstStart), endAt: origin + (start - firstStart) + r.durationMs, status: r.status, error: r.status ? null : 'other', conn: index * 1e6 + r.user });
    }
    const windowMs = hostLast - hostFirst;
    const series = cpuSeries ? cpuSeries[host.name] : null;
    const cpuS = series && windowMs > 0 ? cpuBetween(series, hostFirst, hostLast) : null;
    const cpuPct = cpuS !== null ? round3(((cpuS * 1000) / windowMs) * 100) : null;
    const summary = latencySummary(latencies);
    return {
      name: host.name,
      address: host.address,
      node: entry.node,
      requests: entry.rows.length,
      share_pct: total > 0 ? round3((entry.rows.length / total) * 100) : null,
      first_start_ms: Number.isFinite(hostFirst) ? round3(hostFirst - firstStart) : null,
      last_end_ms: Number.isFinite(hostLast) ? round3(hostLast - firstStart) : null,
      latency_ms: { p50: summary.p50, p99: summary.p99, max: summary.max },
      latency_histogram: encodeLatencies(latencies),
      client_cpu_pct: cpuPct,
      behind_schedule: entry.scheduleWarnings.length ? entry.scheduleWarnings[0] : null,
      clock: offsets[host.name] || null,
    };
  });
  // The rate the hosts' requests started at, together: Tsung's arrivals are random and its hosts
  // start apart, so what they offered is measured, not taken from the plan.
  const arrivalRps = total > 1 && lastStart > firstStart ? round3(((total - 1) * 1000) / (lastStart - firstStart)) : null;
  return { hosts, firstStartMs: firstStart, lastEndMs: lastEnd, arrivalRps };
}

/**
 * Why the hosts' load must not be judged, beyond a host at its core's limit (client_bound, which
 * the runner judges for every engine, each host's too): a launcher behind its schedule, users or
 * requests missing, or dumps holding fewer replies than the controller counted (`counted`, null
 * when unknown). The last happens on a busy machine: an agent writes its dump through Erlang's delayed_write, from
 * one process every row is sent to, and its node halts itself once its last user has ended
 * (ts_launcher_mgr), losing what is still queued or buffered (919 of 10,000 rows with eight
 * spinning processes beside the run); the rows lost are the last ones, so the run is not judged.
 */
function loadProblems({ hosts, plan, launched, dumped, counted }) {
  const problems = [];
  for (const h of hosts) {
    if (h.behind_schedule) problems.push(`load host ${h.name} fell behind its arrival schedule (Tsung: ${h.behind_schedule})`);
  }
  if (launched !== null && launched < plan.users) problems.push(`Tsung started ${launched} of ${plan.users} users`);
  // The controller's count, unless the dumps hold more (its last counts lost instead).
  const completed = Math.max(counted ?? 0, dumped);
  if (plan.planned !== null && completed < plan.planned) problems.push(`${completed} of ${plan.planned} planned requests completed`);
  if (counted !== null && dumped < counted) problems.push(`the agents' dumps hold ${dumped} of the ${counted} replies Tsung's controller counted (an agent's node stopped before writing the rest)`);
  return problems;
}

/** A file on a load host, read through its remote shell ('' when it cannot be read). */
function readOverRemoteShell(loadHosts, hostName, file) {
  const res = spawnSync(loadHosts.remoteShell, [hostName, `cat '${file.replace(/'/g, "'\\''")}'`], { encoding: 'utf8', maxBuffer: 1 << 30, timeout: 120000, env: { ...process.env, ...loadHosts.env } });
  return res.status === 0 ? res.stdout : '';
}

/** The runner's engine: run(ctx) resolves the run's extra fields; the samples are every request. */
async function run({ host, port, scenario, samples, signal, loadHosts, env = process.env }) {
  if (!loadHosts) throw new Error('--engine tsung needs --load-hosts (netns:N, or machines reachable by ssh)');
  const bin = findBinary({ name: NAME, envVar: ENV_VAR, env });
  const offsets = loadHosts.clocks || {};
  const { xml, plan } = tsungConfig(scenario, { hosts: loadHosts.hosts, server: { host, port } });
  // Tsung's configuration and logs (the raw dumps) are kept with the results when the runner
  // says where (loadHosts.logRoot), else in a temporary folder.
  const root = loadHosts.logRoot || os.tmpdir();
  fs.mkdirSync(root, { recursive: true });
  const runDir = fs.mkdtempSync(path.join(root, `${scenario.name}-`));
  const configFile = path.join(runDir, 'tsung.xml');
  fs.writeFileSync(configFile, xml);
  const logRoot = path.join(runDir, 'log');
  // -n: no web interface (port 8091); -w: the agents' start-up delay; -r: the hosts' remote shell.
  // -F: Erlang long node names, which hosts named with dots need.
  const longNames = loadHosts.hosts.some((h) => h.name.includes('.')) ? ['-F'] : [];
  const args = ['-n', ...longNames, '-w', String(WARM_S), '-r', loadHosts.remoteShell, '-f', configFile, '-l', logRoot, 'start'];
  const command = shellQuote([NAME, ...args]);
  const clientCpu = followClientCpu(loadHosts);
  let result;
  try {
    result = await runEngineProcess({ bin, args, signal, env: { ...env, ...loadHosts.env }, ownGroup: true, onSpawn: (pid) => clientCpu.setRoot(pid) });
  } finally {
    clientCpu.stop();
  }
  const logDirs = fs.existsSync(logRoot) ? fs.readdirSync(logRoot).map((d) => path.join(logRoot, d)).filter((d) => fs.statSync(d).isDirectory()) : [];
  if (result.code !== 0 || logDirs.length !== 1) {
    // The Erlang error and its reason come on two lines (stderr, then stdout).
    const why = `${result.stderr}\n${result.stdout}`.split('\n').map((l) => l.trim()).filter((l) => l && !/^\[os_mon\]|^Creating Tsung log|^Starting Tsung/.test(l)).slice(0, 2).join(' ');
    throw new Error(`tsung ${result.code !== 0 ? `exited with code ${result.code}` : 'wrote no log folder'}${why ? `: ${why}` : ''} (${command})`);
  }
  const cpuSeries = clientCpu.series();
  // Agents write their dumps and logs on their own host: here for netns hosts, fetched over the
  // remote shell from hosts elsewhere.
  const read = readTsungLog(logDirs[0], { readRemote: loadHosts.kind === 'netns' ? null : (hostName, file) => readOverRemoteShell(loadHosts, hostName, file) });
  if (read.failure) throw new Error(`Tsung's controller reported an error (it exits 0 even so): ${read.failure} (log: ${logDirs[0]})`);
  if (!read.finished) throw new Error(`Tsung did not finish its run (no end in tsung.log; log: ${logDirs[0]})`);
  const missing = loadHosts.hosts.filter((h) => !read.hosts[h.name]);
  if (missing.length) throw new Error(`Tsung started no agent on ${missing.map((h) => h.name).join(', ')} (log: ${logDirs[0]})`);

  const recorded = recordHosts({ read, loadHosts, samples, cpuSeries, offsets });
  // Failed requests are not in the dumps; Tsung counts them. They are added as errors, at time zero.
  for (const [kind, n] of Object.entries(read.errors)) for (let i = 0; i < n; i++) samples.add({ startAt: samples.origin, endAt: samples.origin, error: kind });
  const dumped = recorded.hosts.reduce((a, h) => a + h.requests, 0);
  const launched = read.totals.users_count ?? null;
  const problems = loadProblems({ hosts: recorded.hosts, plan, launched, dumped, counted: read.counted });
  const lastOf = (list) => (list && list.length ? list[list.length - 1][1] : 0);
  // The controller's tree as followed, or as reaped when that saw more (a process gone between two readings).
  const controllerCpu = Math.max(lastOf(cpuSeries[CONTROLLER]), result.cpu ? result.cpu.user_s + result.cpu.system_s : 0);
  const agentCpu = loadHosts.hosts.reduce((sum, h) => sum + lastOf(cpuSeries[h.name]), 0);
  const hostPcts = recorded.hosts.map((h) => h.client_cpu_pct).filter((v) => v !== null);
  // Hosts made on this machine share the load generator's CPUs: their sum is what one core
  // carried. Hosts elsewhere each have their own: the busiest one is the bottleneck.
  const clientPct = !hostPcts.length ? null : loadHosts.kind === 'netns' ? round3(hostPcts.reduce((a, b) => a + b, 0) / (loadHosts.cpus ? loadHosts.cpus.length : 1)) : Math.max(...hostPcts);
  const starts = recorded.hosts.map((h) => h.first_start_ms).filter((v) => v !== null);
  const notes = [`Tsung's arrivals are a Poisson process (exponential gaps of mean 1/rate), spread over ${loadHosts.hosts.length} host${loadHosts.hosts.length > 1 ? 's' : ''}; httperf's are evenly spaced`, plan.note].filter(Boolean);
  return {
    engine_command: command,
    engine_version: debianVersion('tsung'),
    engine_note: notes.join('; '),
    latency_basis: 'Tsung request time: from when the user was ready to send (before connecting, when the request opens a connection) to the end of the reply; every request, µs resolution',
    load_hosts: recorded.hosts,
    load_hosts_kind: loadHosts.kind,
    load_start_spread_ms: starts.length > 1 ? round3(Math.max(...starts) - Math.min(...starts)) : 0,
    arrival_rps: recorded.arrivalRps,
    load_problems: problems,
    tsung_users: { planned: plan.users, launched, finished: read.totals.finish_users_count ?? null },
    tsung_log: loadHosts.logRoot ? path.relative(path.dirname(loadHosts.logRoot), logDirs[0]) : logDirs[0],
    client_cpu_pct: clientPct,
    // user + system together: the processes are read whole from /proc.
    client_cpu: { user_s: round3(controllerCpu + agentCpu), system_s: 0, controller_s: round3(controllerCpu), agents_s: round3(agentCpu), source: 'the Tsung controller\'s process tree, and every process of each netns host (/proc)' },
    client_loop_delay_ms: null,
    engine_wall_s: round3(result.wallMs / 1000),
    engine_overhead_s: Number.isFinite(recorded.lastEndMs) ? round3(result.wallMs / 1000 - (recorded.lastEndMs - recorded.firstStartMs) / 1000) : null,
  };
}

const tsungEngine = { external: true, distributed: true, envVar: ENV_VAR, supports, whyNot, run, keepsSamples: true };

module.exports = { tsungEngine, tsungConfig, planLoad, whyNot, cpuBetween, recordHosts, loadProblems, readOverRemoteShell, ENV_VAR };
