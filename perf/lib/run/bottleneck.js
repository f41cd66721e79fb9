'use strict';
// Whether a run may be used for a verdict, as the runner checks each run it measures and
// records why not (its reasons, results.json). A verdict compares servers, so a run counts only
// when the server set its pace and the machine was quiet:
//   client-bound     the load generator used >= CLIENT_BOUND_PCT of its core: its ceiling, not
//                    the server's, may be what was measured
//   not server-bound in a closed loop meant to saturate the server (several clients, each
//                    sending when its reply came), the server's CPU share is how busy it was:
//                    below SERVER_BOUND_PCT, over the whole run and over its middle half alike
//                    (middleShare: a closed loop's ends idle the server whoever sets the pace),
//                    something else held it back (the load generator's ceiling without its own
//                    CPU showing it, the kernel, the link). The bigfile_100k "tie" of an early
//                    run had each server at 77-84 % of its core.
//   link-bound       behind --link, the link carried >= LINK_BOUND_PCT of its rate one way:
//                    its ceiling, not the server's, may be what was measured (the seed's
//                    54 Mbit/s link saturates before either server's core)
//   disturbed        the hypervisor took CPU (steal), or processes other than the server and
//                    the load generator used it, more than DISTURBED_PCT of one core
//   shared core      in a simultaneous round (light open loops, perf/lib/run/rounds.js) another
//                    server under its own load beside this one used more than SHARED_LOAD_PCT
//                    of the servers' core: enough to delay this server's replies
//   client late      a scheduled run of requests that wait (GET /delay), whose result is the latency
//                    above the wait, with the load generator itself late by CLIENT_LATE_MS or
//                    more (its event loop's p99 delay and its schedule lag): thousands of held
//                    connections load the client too (perf/lib/judge/held.js)
// Open-loop and slow-client runs set their own pace (a schedule), so they are never judged on
// server-bound; their load generator's lateness is their schedule_lag_ms.
// The thresholds are the method's (perf/lib/method.js), which the judge reads too.
//
// Every CPU figure counts whole clock ticks (10 ms), so a flag is raised only when the value is
// past its threshold by more than that resolution (resolution_pct): a run of 0.1 s is too
// short to tell, and nothing is flagged in it.

const { clkTck } = require('../measure/proc_stats');
const { waitMs } = require('../store/scenario_doc');
const { CLIENT_BOUND_PCT, SERVER_BOUND_PCT, LINK_BOUND_PCT, SHARED_LOAD_PCT, CLIENT_LATE_MS, disturbedPct } = require('../method');

/**
 * Whether a share of a core the machine took from a window (steal, other processes' CPU) is over
 * the disturbed threshold by more than the counters can tell (resolutionPct): checkRun's
 * `disturbed`, and a ramp step's steal (perf/lib/run/ramp.js stepOf).
 */
function overDisturbed(pct, resolutionPct = 0) {
  return pct !== null && pct !== undefined && pct - (resolutionPct ?? 0) > disturbedPct();
}

// A closed loop's start (connections opening) and end (the last replies, fewer and fewer in
// flight) leave the server idle for a while whoever sets the pace; in a load shorter than this
// they weigh too much for its CPU share to say that (--quick's bigfile_100k: 40-80 ms).
const MIN_SERVER_BOUND_LOAD_S = 0.25;

// A closed loop's ends idle the server whoever sets the pace: its connections opening, and its
// sessions finishing one by one (400 keep-alive sessions of httperf end over 60-120 ms, 6-20 %
// of a run of 0.5-2 s, while the server's core is 97-98 % busy in between: node and async_http
// read every 20 ms, 2026-12-01; over whole runs most such rounds of every server came to 82-90 %
// on a busy machine). A load generator's ceiling holds all through a run, so the middle half
// shows it as the whole would, without the ends. A reading of a thread that is running may lag
// its time by up to a clock tick (the kernel adds it at ticks and switches): the middle's
// resolution is two ticks over its span, and under MIN_MIDDLE_S it tells nothing.
const MIDDLE = [0.25, 0.75];
const MIN_MIDDLE_S = 0.1;

const round1 = (x) => Math.round(x * 10) / 10;

/**
 * The server's share of a core over the middle half of a window, from readings of the time its
 * threads ran (startRanSampler of perf/lib/measure/proc_stats.js: [{ at, ran_ns }], at in ms):
 * between the first reading at or past a quarter of the window and the last at or before three
 * quarters. { cpu_pct, resolution_pct } (% of one core), or null where those readings span less
 * than MIN_MIDDLE_S.
 */
function middleShare(readings, { from, to }) {
  const [start, end] = MIDDLE.map((f) => from + f * (to - from));
  const inside = readings.filter((r) => r.at >= start && r.at <= end);
  if (inside.length < 2) return null;
  const [a, b] = [inside[0], inside[inside.length - 1]];
  const spanS = (b.at - a.at) / 1000;
  if (spanS < MIN_MIDDLE_S) return null;
  return { cpu_pct: round1(((b.ran_ns - a.ran_ns) / 1e9 / spanS) * 100), resolution_pct: round1(((2 / clkTck()) / spanS) * 100) };
}

function isClientBound(clientCpuPct) {
  return typeof clientCpuPct === 'number' && clientCpuPct >= CLIENT_BOUND_PCT;
}

/**
 * Whether a run's load generator was the bottleneck, whatever the engine, from the CPU the engine
 * measured: its own share of a core (client_cpu_pct), or any load host's (each host judged too).
 * An engine whose CPU cannot tell says client_bound null (httperf busy-polls), which stays.
 * Returns { client_bound } and, for a run from load hosts, its load_hosts with their verdicts.
 */
function checkClientBound(run) {
  const hosts = run.load_hosts ? run.load_hosts.map((h) => ({ ...h, client_bound: isClientBound(h.client_cpu_pct) })) : null;
  const bound = isClientBound(run.client_cpu_pct) || Boolean(hosts && hosts.some((h) => h.client_bound));
  const verdict = { client_bound: run.client_bound === null ? null : bound };
  return hosts ? { ...verdict, load_hosts: hosts } : verdict;
}

/**
 * The share of the link's rate one way that `offeredRps` replies a second ask for, at the bytes
 * a reply the run measured (linkUsage of perf/lib/hosts/netns.js), or null. An open loop offered
 * more than the link carries fills it while the replies it gets through are fewer: what it
 * carried understates what was asked of it.
 */
function linkDemandPct(linkUsage, offeredRps) {
  return linkUsage && linkUsage.carries_rps && offeredRps > 0 ? round1((offeredRps / linkUsage.carries_rps) * 100) : null;
}

/**
 * Whether a run behind --link filled the link one way, or (offeredRps: a rate offered on a
 * schedule) asked LINK_BOUND_PCT of it or more; false without a link.
 */
function isLinkBound(linkUsage, offeredRps = null) {
  if (!linkUsage) return false;
  return linkUsage.busiest_pct >= LINK_BOUND_PCT || (linkDemandPct(linkUsage, offeredRps) ?? 0) >= LINK_BOUND_PCT;
}

/**
 * Whether a scenario is meant to keep the server busy all the time: a closed loop of several
 * clients. One client at a time (sequential_6000) waits for each reply before the next
 * connection, so the server idles between requests by construction and its latency is the
 * result; open loops and slow clients follow a schedule.
 */
function saturating(s) {
  return s.kind === 'closed' && s.concurrency > 1;
}

/** Whether a scenario sends on a schedule (open, rate), its latency counted from when each was due, the load generator's lateness inside it. */
function scheduled(s) {
  return s.kind === 'open' || s.kind === 'rate';
}

/**
 * The CPU of one measured window, each as % of one core: { wall_s, server_cpu_pct,
 * server_resolution_pct, busy_pct, irq_pct, steal_pct, foreign_cpu_pct, resolution_pct }.
 * The resolutions are what the counters can tell: 2 steps of the server's over the load,
 * and one per CPU of the machine's plus the server's and the client's over the window.
 *   wallS     the window's length, between the readings of the counters
 *   loadS     how long the load lasted within it (default wallS): the server's share is of
 *             that, since an engine may notice the end only later (autocannon: up to 100 ms)
 *             while the server idles
 *   serverS   the server's CPU seconds (null when not measured: --target)
 *   serverStepS  the step serverS is measured in (default one clock tick; schedstat's 1 ns)
 *   clientS   the load generator's CPU seconds (this process, plus an external engine's)
 *   besideS   the CPU seconds of the other servers measured at the same time (simultaneous
 *             rounds), not foreign: the run's own design put them there
 *   machine   machineCpuDelta() of /proc/stat over the window, or null
 * foreign = busy + irq - server - client: what the CPUs did that neither the server nor the
 * load generator was charged for. Interrupts count: the kernel charges a process for the
 * softirq work done in its context (most of a run's loopback traffic: irq_pct, 17-35 % of a
 * core here), while /proc/stat files it under softirq, not under the process's system time.
 * Without the server's CPU it cannot be told (the server may run on this machine): null.
 */
function cpuShares({ wallS, loadS = wallS, serverS, serverStepS = 1 / clkTck(), clientS, besideS = 0, machine }) {
  const share = (s, over = wallS) => (s === null || s === undefined || !(over > 0) ? null : round1((s / over) * 100));
  const cpus = machine ? machine.cpus : 1;
  const load = loadS > 0 && loadS < wallS ? loadS : wallS;
  return {
    wall_s: Math.round(wallS * 1000) / 1000,
    server_cpu_pct: share(serverS, load),
    server_resolution_pct: share(2 * serverStepS, load),
    busy_pct: machine ? share(machine.busy_s) : null,
    irq_pct: machine ? share(machine.irq_s) : null,
    steal_pct: machine ? share(machine.steal_s) : null,
    foreign_cpu_pct: machine && serverS !== null ? share(Math.max(0, machine.busy_s + machine.irq_s - serverS - clientS - besideS)) : null,
    resolution_pct: share((cpus + 2) / clkTck()),
  };
}

/**
 * The load generator's own lateness in a run or a ramp step, ms, which the latencies it timed
 * include: its event loop's p99 delay plus its mean schedule lag (the Node engines, whose reply
 * times wait for their event loop), or the p99 of its schedule lag alone (rate_client: its reply
 * times are the kernel's, so its lateness is all in its lag); null where an engine measures
 * neither (httperf, wrk, Tsung).
 */
function clientLateness({ loopP99 = null, lagMean = null, lagP99 = null }) {
  if (loopP99 !== null) return loopP99 + (lagMean ?? 0);
  return lagP99 ?? lagMean;
}

/**
 * The runner's check of one run: { server_bound, disturbed, judged, reasons }.
 * server_bound: true/false for a saturating closed loop whose server was measured and whose load
 * (loadS) lasted MIN_SERVER_BOUND_LOAD_S or more (false where its whole share and its middle
 * half's, shares.server_middle from middleShare where measured, were both under), else null;
 * disturbed: null when the machine's CPU could not be read; reasons: why it is not judged, each
 * { code, …the numbers behind it } (codes: perf/lib/store/reasons.js; perf/lib/text/reasons.js
 * writes them as results.json's not_judged_because: failed, client-bound, client-late (clientLateMs: the load
 * generator's own lateness in ms, judged for runs that wait), load, not-server-bound, disturbed; not
 * disturbed for a paired run, whose disturbance is recorded in `disturbed` and kept; shared
 * where a server of beside, [{ server, cpu_pct }] measured at the same time, used more than
 * SHARED_LOAD_PCT of the servers' core; backend-bound where a backend of backends,
 * [{ name, cpu_pct }], used CLIENT_BOUND_PCT of a core or more: a backend's limit is never a
 * server's).
 */
function checkRun({ scenario, ok, failure = null, clientCpuPct, clientBound, clientLateMs = null, linkUsage = null, shares, loadS = Infinity, loadProblems = [], paired = false, beside = [], backends = [] }) {
  const margin = shares.resolution_pct ?? 0;
  const reasons = [];
  if (!ok) reasons.push({ code: 'failed', failure });
  if (clientBound) reasons.push({ code: 'client-bound', client_cpu_pct: round1(clientCpuPct), limit_pct: CLIENT_BOUND_PCT });
  if (scheduled(scenario) && waitMs(scenario) !== null && clientLateMs !== null && clientLateMs >= CLIENT_LATE_MS) reasons.push({ code: 'client-late', late_ms: round1(clientLateMs), limit_ms: CLIENT_LATE_MS });
  if (isLinkBound(linkUsage)) reasons.push({ code: 'link-bound', link_usage: linkUsage });
  for (const problem of loadProblems) reasons.push({ code: 'load', problem });
  for (const backend of backends) {
    if (backend.cpu_pct !== null && backend.cpu_pct >= CLIENT_BOUND_PCT) reasons.push({ code: 'backend-bound', backend: backend.name, cpu_pct: backend.cpu_pct, limit_pct: CLIENT_BOUND_PCT });
  }
  for (const other of beside) {
    if (other.cpu_pct !== null && other.cpu_pct > SHARED_LOAD_PCT) reasons.push({ code: 'shared', server: other.server, cpu_pct: other.cpu_pct, limit_pct: SHARED_LOAD_PCT });
  }
  let serverBound = null;
  if (saturating(scenario) && shares.server_cpu_pct !== null && loadS >= MIN_SERVER_BOUND_LOAD_S) {
    // Under the threshold by more than its resolution over the whole run, and over the middle
    // half where that was measured (middleShare).
    const under = (pct, resolution) => pct + (resolution ?? margin) < SERVER_BOUND_PCT;
    const middle = shares.server_middle ?? null;
    serverBound = !(under(shares.server_cpu_pct, shares.server_resolution_pct) && (middle === null || under(middle.cpu_pct, middle.resolution_pct)));
    if (!serverBound) reasons.push({ code: 'not-server-bound', server_cpu_pct: shares.server_cpu_pct, middle_pct: middle ? middle.cpu_pct : null, limit_pct: SERVER_BOUND_PCT });
  }
  let disturbed = null;
  if (shares.steal_pct !== null) {
    const threshold = disturbedPct();
    disturbed = overDisturbed(shares.steal_pct, margin) || overDisturbed(shares.foreign_cpu_pct, margin);
    // In a paired round what disturbed this run disturbed the other side too: it cancels in
    // their difference (perf/lib/rule/group_sequential.js), so the run is kept, flagged.
    if (disturbed && !paired) reasons.push({ code: 'disturbed', steal_pct: shares.steal_pct, foreign_cpu_pct: shares.foreign_cpu_pct, limit_pct: threshold });
  }
  return { server_bound: serverBound, disturbed, judged: reasons.length === 0, reasons };
}

module.exports = { overDisturbed, middleShare, clientLateness, isLinkBound, linkDemandPct, MIN_SERVER_BOUND_LOAD_S, isClientBound, checkClientBound, saturating, cpuShares, checkRun };
