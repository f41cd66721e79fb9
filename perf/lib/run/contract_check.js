'use strict';
// A handful of contract requests sent before a server is benchmarked; a server failing any
// of them is not benchmarked (numbers from a server that answers wrongly mean nothing). Uses
// Node's http client, which checks HTTP framing on its own, independent of the engines.

const http = require('node:http');
const crypto = require('node:crypto');
const { payloadSource } = require('../engines/http_exchange');
const { send } = require('../hosts/one_request');

// The seed study's reply, as both servers read it from the contract.
const HELLO_BODY = require('../../../contract.json').hello_body;
const KNOWN_SIZES = { '/lipsum100k.txt': 102400, '/data/random-1m.bin': 1048576 };

class ContractError extends Error {}

function expect(condition, message) {
  if (!condition) throw new ContractError(message);
}

function expectStatus(res, status, what) {
  expect(res.status === status, `${what} answered ${res.status} (expected ${status})`);
  expect(res.headers['content-length'] !== undefined, `${what} has no Content-Length header`);
}

async function checkHello(t) {
  const res = await send(t, { path: '/hello' });
  expectStatus(res, 200, 'GET /hello');
  const body = res.body.toString('latin1');
  expect(body === HELLO_BODY, `GET /hello answered ${JSON.stringify(body.slice(0, 40))} (expected ${JSON.stringify(HELLO_BODY)})`);
  expect(res.headers['content-length'] === '10', `GET /hello has Content-Length ${res.headers['content-length']} (expected 10)`);
}

async function checkIndexAndHead(t) {
  const get = await send(t, { path: '/' });
  expectStatus(get, 200, 'GET /');
  expect(get.body.length === Number(get.headers['content-length']), `GET / sent ${get.body.length} bytes but Content-Length ${get.headers['content-length']}`);
  const head = await send(t, { method: 'HEAD', path: '/' });
  expectStatus(head, 200, 'HEAD /');
  expect(head.headers['content-length'] === get.headers['content-length'], `HEAD / has Content-Length ${head.headers['content-length']}, GET / ${get.headers['content-length']}`);
}

async function checkNotFound(t) {
  const p = `/no-such-file-${crypto.randomBytes(4).toString('hex')}`;
  const res = await send(t, { path: p });
  expectStatus(res, 404, `GET ${p}`);
}

async function checkKeepAlive(t) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const a = await send(t, { path: '/hello', agent });
    const b = await send(t, { path: '/hello', agent });
    expect(a.status === 200 && b.status === 200, 'two GET /hello on one connection did not both answer 200');
    expect(b.reusedSocket, 'the server closed a keep-alive connection after one request (HTTP/1.1 keep-alive expected)');
  } finally {
    agent.destroy();
  }
}

async function checkConnectionClose(t) {
  const res = await send(t, { path: '/hello', headers: { Connection: 'close' } });
  expectStatus(res, 200, 'GET /hello with Connection: close');
  const socket = res.socket;
  if (socket && !socket.destroyed) {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new ContractError('the server kept the connection open after a Connection: close request'));
      }, 2000);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

async function checkFile(t, path) {
  const res = await send(t, { path, timeoutMs: 15000 });
  expectStatus(res, 200, `GET ${path}`);
  expect(res.body.length === Number(res.headers['content-length']), `GET ${path} sent ${res.body.length} bytes but Content-Length ${res.headers['content-length']}`);
  if (KNOWN_SIZES[path] !== undefined) {
    expect(res.body.length === KNOWN_SIZES[path], `GET ${path} is ${res.body.length} bytes (expected ${KNOWN_SIZES[path]})`);
  }
}

async function checkUpload(t, path, bytes) {
  const src = payloadSource();
  const body = Buffer.alloc(bytes);
  for (let off = 0; off < bytes; off += src.length) src.copy(body, off, 0, Math.min(src.length, bytes - off));
  const res = await send(t, { method: 'POST', path, body, headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': bytes }, timeoutMs: 30000 });
  expectStatus(res, 200, `POST ${path} with ${bytes} bytes`);
  let json;
  try {
    json = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new ContractError(`POST ${path} answered ${JSON.stringify(res.body.toString('utf8').slice(0, 60))}, not JSON`);
  }
  const sha = crypto.createHash('sha256').update(body).digest('hex');
  expect(json.bytes === bytes, `POST ${path} counted ${json.bytes} bytes (sent ${bytes})`);
  expect(json.sha256 === sha, `POST ${path} reported sha256 ${String(json.sha256).slice(0, 16)}… (expected ${sha.slice(0, 16)}…)`);
}

/** The requests the given scenarios send, each checked once. */
function scenarioChecks(scenarios) {
  const checks = new Map();
  const add = (req) => {
    if (req.upload_bytes) {
      const key = `POST ${req.path} ${req.upload_bytes}`;
      if (!checks.has(key)) checks.set(key, (t) => checkUpload(t, req.path, req.upload_bytes));
    } else if (req.method === 'GET' && req.path !== '/hello') {
      const key = `GET ${req.path}`;
      if (!checks.has(key)) checks.set(key, (t) => checkFile(t, req.path));
    }
  };
  for (const s of scenarios) {
    if (s.request) add(s.request);
    if (s.probe) add(s.probe.request);
    if (s.slow) add(s.slow.request);
  }
  return [...checks.entries()];
}

/** The general checks, each with the capability (servers.json `serves`) it needs. */
const BASE_CHECKS = [
  ['GET /hello', 'hello', checkHello],
  ['GET / and HEAD /', 'files', checkIndexAndHead],
  ['404 for a missing file', 'files', checkNotFound],
  ['keep-alive', 'hello', checkKeepAlive],
  ['Connection: close', 'hello', checkConnectionClose],
  ['small upload', 'upload', (t) => checkUpload(t, '/upload', 1000)],
];

/**
 * Runs the checks against target { host, port }. Resolves { ok, checks: [{ name, ok, detail }],
 * failure } where failure is the first failing check's reason (null when ok).
 * options.serves: the capabilities the server has (servers.json `serves`; default all): only
 * those are checked (pass only the scenarios it can serve). options.short: only the first
 * general check (GET /hello), for later trials of a server that passed the full check.
 */
async function checkContract(target, scenarios = [], { serves = null, short = false } = {}) {
  const base = BASE_CHECKS.filter(([, needs]) => !serves || serves.includes(needs)).map(([name, , fn]) => [name, fn]);
  const list = short ? base.slice(0, 1) : [...base, ...scenarioChecks(scenarios)];
  const checks = [];
  for (const [name, fn] of list) {
    try {
      await fn(target);
      checks.push({ name, ok: true, detail: null });
    } catch (err) {
      checks.push({ name, ok: false, detail: err.message });
      return { ok: false, checks, failure: err.message };
    }
  }
  return { ok: true, checks, failure: null };
}

module.exports = { checkContract, HELLO_BODY };
