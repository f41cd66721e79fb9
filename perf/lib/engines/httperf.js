'use strict';
// The httperf engine (--engine httperf): runs the seed studies' own httperf command lines and
// maps httperf's summary into the runner's result fields. What each number means, and what
// httperf cannot say, is in perf/ENGINES.md.
//
//   one connection at a time      httperf --num-conns N                 (seed 002 test 1, seed 001)
//   open loop                     httperf --num-conns N --rate R        (seed 002 tests 2-4)
//   keep-alive, C connections     httperf --wsess C,K,0 --rate 1e6      (seed 000)
//
// Without the seeds' --hog: with it httperf bind()s each connection to a port of its own choosing
// and, once earlier runs have left about 30,000 client sockets in TIME-WAIT (a quick run's
// rounds do), it searches the ports in the kernel for a minute or more while the server idles
// (2000 sequential connections took 55 and 121 s instead of 0.2 s, at 36 and 16 req/s). Left
// to connect(), the kernel reuses a TIME-WAIT port on loopback (net.ipv4.tcp_tw_reuse=2, the
// default), and the same loads take 0.3 s however many came before.
//
// httperf prints aggregates only: no per-request samples and, for latency, averages (plus a
// median from 1 ms bins, which says nothing about sub-millisecond replies), each printed with
// 0.1 ms resolution. Percentiles it does not give are null.

const { findBinary, debianVersion, shellQuote, runEngineProcess, clientCpuPct, firstComplaint } = require('./external');

const NAME = 'httperf';
const ENV_VAR = 'HTTPERF_BIN';
// httperf watches its sockets with select(): at most FD_SETSIZE descriptors.
const MAX_CONNECTIONS = 1000;
const RESOLUTION_MS = 0.1;

/** Why httperf cannot run scenario s faithfully, or null when it can. */
function whyNot(s) {
  if (s.kind === 'slow_clients') return 'httperf cannot pace a client\'s reading or sending (slow clients)';
  if (s.request && s.request.upload_bytes) return 'httperf sends request bodies only from a --wsesslog file, which this engine does not write';
  if (s.kind === 'rate') return 'httperf cannot send requests on a schedule over a pool of keep-alive connections (its --rate opens connections)';
  if (s.kind === 'open') return null;
  if (s.duration_s !== null) return 'httperf stops after a number of connections or sessions, not after a duration';
  if (!s.keep_alive && s.concurrency > 1) return 'httperf has no closed loop of several clients on fresh connections (only one connection at a time, or open-loop --rate)';
  if (s.keep_alive && s.concurrency > MAX_CONNECTIONS) return `httperf uses select(): at most about ${MAX_CONNECTIONS} connections at once`;
  return null;
}

function supports(s) {
  return whyNot(s) === null;
}

function fmt(x) {
  return String(x);
}

/**
 * The httperf arguments for scenario s against host:port (without the binary):
 * { args, mode, calls_per_connection, planned_requests, note }. mode 'connection': one request
 * per connection (latency = connection time); 'calls': several requests per connection
 * (latency = reply time). Throws when the scenario is not supported.
 */
function plan(s, { host, port }) {
  const reason = whyNot(s);
  if (reason) throw new Error(`httperf cannot run ${s.name}: ${reason}`);
  const req = s.request;
  const args = ['--server', host, '--port', fmt(port), '--uri', req.path];
  if (req.method !== 'GET') args.push('--method', req.method);
  for (const [k, v] of Object.entries(req.headers || {})) args.push('--add-header', `${k}: ${v}\\n`);
  let calls = 1;
  let planned;
  let note = null;
  if (s.kind === 'open') {
    calls = s.requests_per_connection;
    args.push('--num-conns', fmt(s.connections), '--rate', fmt(s.rate));
    if (calls > 1) args.push('--num-calls', fmt(calls));
    planned = s.connections * calls;
  } else if (!s.keep_alive) {
    // concurrency 1: without --rate, httperf opens the next connection when the last one closed.
    args.push('--num-conns', fmt(s.requests));
    planned = s.requests;
  } else {
    calls = s.requests_per_connection !== null ? s.requests_per_connection : Math.ceil(s.requests / s.concurrency);
    planned = calls * s.concurrency;
    if (s.requests_per_connection === null && planned !== s.requests) {
      note = `httperf runs ${s.concurrency} sessions × ${calls} calls = ${planned} requests (the scenario asks ${s.requests}, which ${s.concurrency} does not divide)`;
    }
    // Seed 000: every session at once (rate 1e6/s), each one keep-alive connection of `calls`
    // requests, the next sent when the last reply arrived (burst length 1, no think time).
    args.push('--wsess', `${s.concurrency},${calls},0`, '--rate', '1e6');
  }
  args.push('--timeout', fmt(s.timeout_s));
  return { args, mode: calls === 1 ? 'connection' : 'calls', calls_per_connection: calls, planned_requests: planned, note };
}

const NUM = '(-?nan|-?inf|[-+]?\\d+(?:\\.\\d+)?(?:e[-+]?\\d+)?)';

function num(text) {
  if (text === undefined || text === null) return null;
  const v = Number(text);
  return Number.isFinite(v) ? v : null;
}

function match(text, re) {
  const m = re.exec(text);
  return m ? m.slice(1).map(num) : null;
}

/**
 * Parses httperf's output (stdout) into plain numbers. Throws when the summary is missing.
 * Times in ms as printed (0.1 ms resolution), test duration in s.
 */
function parseHttperf(text) {
  const total = match(text, new RegExp(`^Total: connections ${NUM} requests ${NUM} replies ${NUM} test-duration ${NUM} s`, 'm'));
  const err1 = match(text, new RegExp(`^Errors: total ${NUM} client-timo ${NUM} socket-timo ${NUM} connrefused ${NUM} connreset ${NUM}`, 'm'));
  const err2 = match(text, new RegExp(`^Errors: fd-unavail ${NUM} addrunavail ${NUM} ftab-full ${NUM} other ${NUM}`, 'm'));
  if (!total || !err1 || !err2) throw new Error('httperf printed no summary (no "Total:" and "Errors:" lines)');
  const out = {
    command: (/^(httperf .*)$/m.exec(text) || [])[1] || null,
    total: { connections: total[0], requests: total[1], replies: total[2], test_duration_s: total[3] },
    errors: {
      total: err1[0],
      'client-timo': err1[1],
      'socket-timo': err1[2],
      connrefused: err1[3],
      connreset: err1[4],
      'fd-unavail': err2[0],
      addrunavail: err2[1],
      'ftab-full': err2[2],
      other: err2[3],
    },
  };
  const rate = match(text, new RegExp(`^Connection rate: ${NUM} conn/s \\(${NUM} ms/conn, <=${NUM} concurrent connections\\)`, 'm'));
  if (rate) out.connection_rate = { per_s: rate[0], ms_per_conn: rate[1], max_concurrent: rate[2] };
  const ct = match(text, new RegExp(`^Connection time \\[ms\\]: min ${NUM} avg ${NUM} max ${NUM} median ${NUM} stddev ${NUM}`, 'm'));
  if (ct) out.connection_time_ms = { min: ct[0], avg: ct[1], max: ct[2], median: ct[3], stddev: ct[4] };
  const connect = match(text, new RegExp(`^Connection time \\[ms\\]: connect ${NUM}`, 'm'));
  if (connect) out.connect_ms = connect[0];
  const length = match(text, new RegExp(`^Connection length \\[replies/conn\\]: ${NUM}`, 'm'));
  if (length) out.replies_per_connection = length[0];
  const reqRate = match(text, new RegExp(`^Request rate: ${NUM} req/s \\(${NUM} ms/req\\)`, 'm'));
  if (reqRate) out.request_rate = { per_s: reqRate[0], ms_per_req: reqRate[1] };
  const reqSize = match(text, new RegExp(`^Request size \\[B\\]: ${NUM}`, 'm'));
  if (reqSize) out.request_size_b = reqSize[0];
  const replyRate = match(text, new RegExp(`^Reply rate \\[replies/s\\]: min ${NUM} avg ${NUM} max ${NUM} stddev ${NUM} \\(${NUM} samples\\)`, 'm'));
  if (replyRate) out.reply_rate = { min: replyRate[0], avg: replyRate[1], max: replyRate[2], stddev: replyRate[3], samples: replyRate[4] };
  const rt = match(text, new RegExp(`^Reply time \\[ms\\]: response ${NUM} transfer ${NUM}`, 'm'));
  if (rt) out.reply_time_ms = { response: rt[0], transfer: rt[1] };
  const size = match(text, new RegExp(`^Reply size \\[B\\]: header ${NUM} content ${NUM} footer ${NUM} \\(total ${NUM}\\)`, 'm'));
  if (size) out.reply_size_b = { header: size[0], content: size[1], footer: size[2], total: size[3] };
  const st = match(text, new RegExp(`^Reply status: 1xx=${NUM} 2xx=${NUM} 3xx=${NUM} 4xx=${NUM} 5xx=${NUM}`, 'm'));
  out.status = st ? { '1xx': st[0], '2xx': st[1], '3xx': st[2], '4xx': st[3], '5xx': st[4] } : null;
  const cpu = match(text, new RegExp(`^CPU time \\[s\\]: user ${NUM} system ${NUM} \\(user ${NUM}% system ${NUM}% total ${NUM}%\\)`, 'm'));
  if (cpu) out.cpu = { user_s: cpu[0], system_s: cpu[1], total_pct: cpu[4] };
  const net = match(text, new RegExp(`^Net I/O: ${NUM} KB/s`, 'm'));
  if (net) out.net_io_kb_s = net[0];
  const sess = match(text, new RegExp(`^Session rate \\[sess/s\\]: min ${NUM} avg ${NUM} max ${NUM} stddev ${NUM} \\(${NUM}/${NUM}\\)`, 'm'));
  if (sess) out.sessions = { rate_avg: sess[1], completed: sess[4], total: sess[5] };
  const life = match(text, new RegExp(`^Session lifetime \\[s\\]: ${NUM}`, 'm'));
  if (life && out.sessions) out.sessions.lifetime_s = life[0];
  return out;
}

const BASIS = {
  connection:
    'httperf connection time: from the start of connect() to the end of the connection after its one reply (connect included); mean, min and max only, 0.1 ms resolution',
  calls:
    'httperf reply time: response (from sending the request to the first byte of the reply) + transfer (first to last byte); mean only, 0.1 ms resolution',
};

/**
 * Maps parsed httperf output to the runner's fields: { summary, fields }. summary has what the
 * runner otherwise computes from samples (requests, replies, errors, status, latency_ms,
 * connect_ms, last_end_ms); fields are extra run fields.
 */
function toRunFields(parsed, { mode, note = null } = {}) {
  const e = parsed.errors;
  const errors = {
    refused: e.connrefused || 0,
    reset: e.connreset || 0,
    timeout: (e['client-timo'] || 0) + (e['socket-timo'] || 0),
    other: (e['fd-unavail'] || 0) + (e.addrunavail || 0) + (e['ftab-full'] || 0) + (e.other || 0),
  };
  const status = parsed.status || { '1xx': 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  const replies = Object.values(status).reduce((a, b) => a + (b || 0), 0);
  const errorTotal = Object.values(errors).reduce((a, b) => a + b, 0);
  const ct = parsed.connection_time_ms || {};
  const rt = parsed.reply_time_ms || {};
  const latency = { min: null, mean: null, p50: null, p90: null, p99: null, p999: null, max: null };
  if (replies > 0) {
    if (mode === 'connection') Object.assign(latency, { min: ct.min ?? null, mean: ct.avg ?? null, max: ct.max ?? null });
    else if (rt.response !== undefined) latency.mean = Math.round((rt.response + rt.transfer) * 10) / 10;
  }
  const connected = parsed.total.connections > 0 && (replies > 0 || errors.reset > 0 || errors.timeout > 0);
  const summary = {
    requests: replies + errorTotal,
    replies,
    errors,
    status,
    latency_ms: latency,
    connect_ms: { mean: connected && parsed.connect_ms !== undefined ? parsed.connect_ms : null, p99: null },
    first_start_ms: 0,
    last_end_ms: parsed.total.test_duration_s !== null ? parsed.total.test_duration_s * 1000 : null,
  };
  const fields = {
    latency_basis: BASIS[mode],
    engine_latency: {
      resolution_ms: RESOLUTION_MS,
      connection_time_ms: parsed.connection_time_ms || null,
      reply_time_ms: parsed.reply_time_ms || null,
      // httperf's median comes from 1 ms bins and is printed as the bin's midpoint: every
      // connection under 1 ms reads "0.5". Kept here, not as p50.
      median_note: 'connection_time_ms.median is the midpoint of a 1 ms bin, not a percentile of the replies',
    },
    engine_totals: {
      connections: parsed.total.connections,
      requests_sent: parsed.total.requests,
      replies: parsed.total.replies,
      test_duration_s: parsed.total.test_duration_s,
      max_concurrent_connections: parsed.connection_rate ? parsed.connection_rate.max_concurrent : null,
      connection_rate_per_s: parsed.connection_rate ? parsed.connection_rate.per_s : null,
      request_rate_per_s: parsed.request_rate ? parsed.request_rate.per_s : null,
      replies_per_connection: parsed.replies_per_connection ?? null,
      reply_size_b: parsed.reply_size_b || null,
      sessions: parsed.sessions || null,
    },
    engine_errors: parsed.errors,
    engine_reported_cpu: parsed.cpu || null,
  };
  if (note) fields.engine_note = note;
  return { summary, fields };
}

/** The runner's engine: run(ctx) resolves { summary, ...fields } (see perf/lib/run/runner.js). */
async function run({ host, port, scenario, signal, env = process.env }) {
  const bin = findBinary({ name: NAME, envVar: ENV_VAR, env });
  const p = plan(scenario, { host, port });
  const result = await runEngineProcess({ bin, args: p.args, signal, env });
  const command = shellQuote(['httperf', ...p.args]);
  if (result.code !== 0) {
    const why = firstComplaint(result.stderr, result.stdout, [/open file limit > FD_SETSIZE/]);
    throw new Error(`httperf exited with ${result.signal ? `signal ${result.signal}` : `code ${result.code}`}${why ? `: ${why}` : ''} (${command})`);
  }
  let parsed;
  try {
    parsed = parseHttperf(result.stdout);
  } catch (err) {
    const why = firstComplaint(result.stderr, '', [/open file limit > FD_SETSIZE/]);
    throw new Error(`${err.message}${why ? `: ${why}` : ''} (${command})`, { cause: err });
  }
  const { summary, fields } = toRunFields(parsed, p);
  const warnings = result.stderr.split('\n').map((l) => l.trim()).filter((l) => l && !/open file limit > FD_SETSIZE/.test(l)).slice(0, 10);
  return {
    summary,
    engine_command: command,
    engine_version: debianVersion('httperf'),
    engine_cpus: result.cpus,
    ...fields,
    ...(warnings.length ? { engine_warnings: warnings } : {}),
    samples: null,
    samples_note: 'httperf reports aggregates only: no per-request samples',
    client_cpu_pct: clientCpuPct(result.cpu, result.wallMs),
    // httperf polls its sockets without sleeping (about 100% of a core even at 10 connections
    // a second), so its CPU use cannot tell whether it was the bottleneck.
    client_bound: null,
    client_bound_note: 'httperf busy-polls (about 100% of a core at any load), so its CPU use cannot show whether it was the bottleneck',
    client_cpu: result.cpu,
    client_loop_delay_ms: null,
  };
}

const httperfEngine = { external: true, envVar: ENV_VAR, supports, whyNot, run };

module.exports = { httperfEngine, plan, parseHttperf, toRunFields, whyNot, supports, BASIS, ENV_VAR, RESOLUTION_MS };
