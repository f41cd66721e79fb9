'use strict';
// The idle, header and body deadlines after every kind of reply (small, a file over
// MAX_UNSENT_BYTES, /delay, an error that keeps the connection), on both servers, with the
// connection cap full of such connections and one more client refused: each deadline frees
// every slot in its time, and the cap then takes a new client. Short limits keep it quick; as
// with the defaults, the idle timeout ends well inside the header deadline.

const assert = require('node:assert/strict');
const { exchange, request, openWith, parseReplies } = require('../support/raw_http');
const { SERVER_NAMES } = require('../support/servers');
const { startServer } = require('../../perf/lib/hosts/server_process');

const KEEPALIVE_TIMEOUT_MS = 1000;
const HEADERS_TIMEOUT_MS = 3000;
const BODY_TIMEOUT_MS = 1000;
const LIMITS = { KEEPALIVE_TIMEOUT_MS, HEADERS_TIMEOUT_MS, BODY_TIMEOUT_MS, REQUEST_TIMEOUT_MS: 4000 };
const REPLY_KINDS = { small: '/hello', 'large file': '/data/random-1m.bin', '/delay': '/delay?ms=50', error: '/nothing' };
const PER_KIND = 2;
const CAP = Object.keys(REPLY_KINDS).length * PER_KIND;
// EventMachine checks inactivity on a heartbeat (up to one timeout late), Node adds a second,
// and both sweep header and body deadlines at most a second apart.
const LATE_MS = 1500;

/**
 * A connection that got one reply of `target`, read whole. Resolves { socket, sentAt, repliedAt,
 * closed }: when its request was sent and when the reply had arrived; closed resolves { at,
 * after } once the server closes: when, and what it sent after the first reply.
 */
async function answeredConnection(port, target) {
  const socket = await openWith(port);
  let received = Buffer.alloc(0);
  let firstEnd = null;
  let repliedAt = null;
  let answered;
  const replied = new Promise((resolve) => {
    answered = resolve;
  });
  socket.on('data', (chunk) => {
    received = Buffer.concat([received, chunk]);
    if (firstEnd !== null) return;
    const { replies, rest } = parseReplies(received, []);
    if (replies.length) {
      firstEnd = received.length - rest.length;
      repliedAt = Date.now();
      answered();
    }
  });
  socket.on('error', () => {});
  const closed = new Promise((resolve) => socket.on('close', () => resolve({ at: Date.now(), after: received.subarray(firstEnd ?? received.length).toString('latin1') })));
  const sentAt = Date.now();
  socket.write(request('GET', target));
  await Promise.race([replied, closed]);
  assert.ok(firstEnd !== null, `${target}: no reply`);
  return { socket, sentAt, repliedAt, closed };
}

/**
 * Each deadline: what the client does after its reply, what the server must then do, and from
 * when it is due: the others from the client's act, the idle timeout from the connection's own
 * reply (a small reply's connection goes idle while a large file is still on its way to another),
 * which the server finished sending at some moment between the client's request and the reply's
 * arrival (the last bytes of a large file wait in the kernel's buffers while a loaded client reads
 * them): not before the request plus the timeout, nor after the reply plus the timeout and LATE_MS.
 */
const DEADLINES = {
  idle: {
    act: () => {},
    expect: ({ after }) => assert.equal(after, '', 'an idle connection got a reply'),
    dueMs: KEEPALIVE_TIMEOUT_MS,
    fromReply: true,
  },
  header: {
    // Keeps sending, a byte at a time, so it is never idle: the header deadline ends it.
    act: (socket) => {
      const header = request('GET', '/hello');
      let sent = 0;
      const trickle = setInterval(() => {
        if (socket.destroyed || sent === header.length) clearInterval(trickle);
        else socket.write(header[sent++]);
      }, 250);
      socket.once('close', () => clearInterval(trickle));
    },
    expect: ({ after }) => assert.match(after, /^HTTP\/1\.1 408 /),
    dueMs: HEADERS_TIMEOUT_MS,
  },
  body: {
    act: (socket) => socket.write(request('POST', '/upload', { 'Content-Length': 100 }, 'hello')),
    expect: ({ after }) => assert.match(after, /^HTTP\/1\.1 408 /),
    dueMs: BODY_TIMEOUT_MS,
  },
};

/**
 * The cap of `server` filled with connections after every kind of reply, the deadline acted on,
 * one more client refused meanwhile; resolves once each connection closed in its time and a new
 * client was served, rejects with the first assertion that failed.
 */
async function closesInTime(server, { act, expect, dueMs, fromReply = false }) {
  const held = [];
  for (const target of Object.values(REPLY_KINDS)) {
    for (let i = 0; i < PER_KIND; i += 1) held.push(answeredConnection(server.port, target).then((c) => ({ ...c, target })));
  }
  const connections = await Promise.all(held);
  const started = Date.now();
  connections.forEach(({ socket }) => act(socket));
  // The cap is full: one more client is closed without a reply.
  const refused = await exchange(server.port, request('GET', '/hello'), { timeoutMs: 2000 }).catch(() => ({ replies: [], closed: true }));
  assert.equal(refused.replies.length, 0, 'a connection past the cap was served');
  for (const { closed, target, sentAt, repliedAt } of connections) {
    const result = await closed;
    expect(result);
    const [soonestMs, latestMs] = [result.at - (fromReply ? sentAt : started), result.at - (fromReply ? repliedAt : started)];
    assert.ok(soonestMs >= dueMs * 0.9 && latestMs <= dueMs + LATE_MS + 1000, `${target}: closed ${soonestMs} ms after ${fromReply ? 'its request' : 'the client\'s act'} and ${latestMs} ms after ${fromReply ? 'its reply' : 'it'}, due after ${dueMs}`);
  }
  // Every slot is free again: a new client is served (the server may see the last close a
  // moment after the client does). It asks the server to close, so that its slot is free
  // again before the client sees the close, for the next deadline.
  let served = null;
  for (let attempt = 0; attempt < 20 && !served; attempt += 1) {
    const result = await exchange(server.port, request('GET', '/hello', { Connection: 'close' }), { waitForClose: true, timeoutMs: 1000 }).catch(() => null);
    if (result?.replies[0]?.status === 200) served = result;
  }
  assert.ok(served, 'no client served after the deadlines freed the cap');
}

describe('deadlines after every kind of reply, at and over the connection cap, on both servers', function () {
  this.timeout(30000);
  const servers = {};
  before(async () => {
    await Promise.all(SERVER_NAMES.map(async (name) => {
      servers[name] = await startServer(name, { env: { ...LIMITS, MAX_CONNECTIONS: String(CAP) } });
    }));
  });
  after(() => Promise.all(Object.values(servers).map((server) => server.stop())));

  for (const [deadline, rule] of Object.entries(DEADLINES)) {
    describe(deadline, () => {
      // Both servers at once (each its own cap and clock): the test waits for the deadlines once.
      const outcomes = {};
      before(() => {
        for (const name of SERVER_NAMES) {
          outcomes[name] = closesInTime(servers[name], rule);
          outcomes[name].catch(() => {}); // judged in the server's own test below
        }
      });

      for (const name of SERVER_NAMES) {
        it(`${name}: ${CAP} connections after small, large, /delay and error replies are closed in time, one more is refused meanwhile, then one is served`, () => outcomes[name]);
      }
    });
  }
});

describe('a new connection that sends only empty lines, on every server', function () {
  this.timeout(30000);
  const servers = {};
  before(async () => {
    await Promise.all(SERVER_NAMES.map(async (name) => {
      servers[name] = await startServer(name, { env: LIMITS });
    }));
  });
  after(() => Promise.all(Object.values(servers).map((server) => server.stop())));

  // Empty lines before a request are ignored (as Node's parser does), so such a connection never
  // begins a request and is never idle: only its first header section's deadline, from the
  // connection's start, ends it. (The fiber-scheduler server and EventMachine's once dropped
  // that deadline at the first empty line, and the bytes kept restarting the idle timer.)
  /** Resolves { closedAt (null if still open past the bound), received, started } for a connection trickling CR LF. */
  async function trickleEmptyLines(port) {
    const socket = await openWith(port);
    const started = Date.now();
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    const trickle = setInterval(() => socket.write('\r\n'), 250);
    const closedAt = await new Promise((resolve) => {
      socket.once('close', () => resolve(Date.now()));
      // Bounded: a connection still open well past the deadline fails the test, not the suite's clock.
      setTimeout(() => resolve(null), HEADERS_TIMEOUT_MS + LATE_MS + 5000);
    }).finally(() => clearInterval(trickle));
    socket.destroy();
    return { closedAt, received, started };
  }

  // Every server at once: the test waits for the deadline once.
  const outcomes = {};
  before(() => {
    for (const name of SERVER_NAMES) outcomes[name] = trickleEmptyLines(servers[name].port);
  });

  for (const name of SERVER_NAMES) {
    it(`${name}: closed by its header deadline, a CR LF every 250 ms notwithstanding`, async () => {
      const { closedAt, received, started } = await outcomes[name];
      assert.ok(closedAt !== null, `${name}: still open ${HEADERS_TIMEOUT_MS + LATE_MS + 5000} ms after it connected`);
      assert.ok(closedAt - started >= HEADERS_TIMEOUT_MS * 0.9, `${name}: closed after ${closedAt - started} ms, before its header deadline`);
      assert.ok(received === '' || /^HTTP\/1\.1 408 /.test(received), `${name}: ${JSON.stringify(received.slice(0, 60))}`);
    });
  }
});
