'use strict';
// The differences the contract documents (contract.json known_differences, CONTRACT.md
// "Known differences", and runtime_differences: a runtime's own parser answering otherwise),
// as the differential tester recognises them: for each entry the grammar can make (difftest:
// true), a test of one case's disagreement. A disagreement that none of these claims is
// undocumented: a bug of one server or a gap in the contract.

const { METHODS } = require('node:http');
const contract = require('../../contract.json');

// Aspects a reset can change: which replies arrived whole, stray bytes of a cut one, the close.
const RESET_ASPECTS = new Set(['replies', 'bytes that are no reply', 'connection']);

// A reply cut short by the close: bytes that are no whole reply, then the end.
const cutShort = (obs) => obs.closed && obs.rest > 0;

/** The bytes a case sends, as text. */
const sent = (testCase) => Buffer.concat(testCase.writes.map((w) => w.bytes)).toString('latin1');

/**
 * The observation of the side that runs the server on the runtime a runtime difference names
 * (on: { node: { server, runtime }, em: … }, run.js runCase), or null when neither does.
 */
const sideOnRuntime = (id, on, node, em) => {
  const d = contract.runtime_differences.find((x) => x.id === id);
  const role = on ? Object.keys(on).find((k) => on[k] && on[k].server === d.server && on[k].runtime === d.runtime) : null;
  return role ? { node, em }[role] : null;
};
// What a runtime's parser answering otherwise can change: the first reply (its status, and its
// body and length for a 4xx), how many replies came, the connection's end.
const FIRST_REPLY_ASPECTS = /^(status of reply 1|replies|connection|bytes that are no reply|(body|content-length) of a 4\d\d)$/;
const firstReplyOnly = (diffs) => diffs.every((d) => FIRST_REPLY_ASPECTS.test(d.aspect));
/** The runtime's side answered `statuses` first, and nothing else differs (firstReplyOnly). */
const runtimeAnswered = (id, statuses, diffs, on, node, em) => {
  const side = sideOnRuntime(id, on, node, em);
  return Boolean(side) && statuses.includes(side.replies[0]?.status) && firstReplyOnly(diffs);
};

// ---- async-http's own server (contract.json entries with "server": "async_http") ------------
// Its parser (protocol-http1) reads some requests otherwise than Node's; once it has, what
// follows on the connection differs too (a 400 closes it, a request read as another leaves its
// body as the next request). So such a difference claims a disagreement only where a request
// carrying its trigger came no later than the first reply the two sides answered differently:
// a disagreement before any trigger stays undocumented.

/** The texts of a case's requests, then what follows them (grammar.js lengths); a case of another source: its bytes as one. */
function requestTexts(testCase) {
  const text = sent(testCase);
  if (!testCase.lengths) return [text];
  const texts = [];
  let at = 0;
  for (const length of testCase.lengths) {
    texts.push(text.slice(at, at + length));
    at += length;
  }
  return [...texts, text.slice(at)];
}

/** The index of the first reply the two observations differ in (status, fields, body), or the fewer replies' count. */
function firstDifferingReply(a, b) {
  const n = Math.min(a.replies.length, b.replies.length);
  const same = (x, y) => x.status === y.status && x.body === y.body && JSON.stringify(x.headers) === JSON.stringify(y.headers);
  for (let i = 0; i < n; i += 1) if (!same(a.replies[i], b.replies[i])) return i;
  return n;
}

/** A request's start line and field lines ({ start, fields, blankBefore }), as sent. */
function headOf(request) {
  const blankBefore = /^\r?\n/.test(request);
  const rest = request.replace(/^(\r?\n)+/, '');
  const end = rest.search(/\r?\n\r?\n/);
  const lines = (end < 0 ? rest : rest.slice(0, end)).split(/\r?\n/);
  return { start: lines[0], fields: lines.slice(1), blankBefore };
}
const fieldValues = (fields, name) => fields.filter((f) => f.toLowerCase().startsWith(`${name.toLowerCase()}:`)).map((f) => f.slice(name.length + 1));
/** Whether a text (latin1, a byte a character) has a byte that `is` picks. */
const hasByte = (text, is) => [...text].some((ch) => is(ch.charCodeAt(0)));
// Beyond it Node's parser refuses a Content-Length at the byte (an overflow).
const CONTENT_LENGTH_MAX = 2n ** 64n - 1n;
// The methods Node's parser reads (its server answers the others 400 at the request line).
const NODE_METHODS = new Set(METHODS);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// The fields protocol-http takes as single-valued (its policy), that Node's server keeps the first of.
const SINGLE_FIELDS = ['Content-Type', 'User-Agent', 'Expect', 'Referer', 'From', 'Location', 'Server', 'Content-Disposition', 'Max-Forwards', 'Retry-After', 'If-Range', 'Content-Range'];

// Each difference's trigger: does this request (or the tail) carry it?
const ASYNC_HTTP_TRIGGERS = {
  // Not METHOD SP target SP HTTP/d.d with single spaces; an empty line before it; a version
  // Node's parser refuses; a target neither a path nor '*' alone (the library's 400 before any
  // check), or an absolute URI (its authority stands for Host).
  'async-http-request-line': (r) => {
    const { start, blankBefore } = headOf(r);
    const target = start.split(' ')[1] ?? '';
    return blankBefore || !/^\S+ \S+ \S+$/.test(start) || !/ HTTP\/1\.[01]$/.test(start) || (target.startsWith('*') && target !== '*') || target.includes('://');
  },
  // Where Node's parser refuses at the byte and the library only once a line (or the head) is
  // whole: a request line it refuses (a method it does not read, a CONNECT, which Node's server
  // answers before any field's check, a control byte, one over the limit), a field name of other than token bytes or a line
  // starting with white space, a Content-Length not digits, past 2^64 - 1, twice or beside a
  // Transfer-Encoding, a head that never ends.
  'async-http-refusal-moment': (r) => {
    const { start, fields } = headOf(r);
    const [method] = start.split(/[ \t]+/);
    const lengths = fieldValues(fields, 'Content-Length');
    const badStart = !NODE_METHODS.has(method) || method === 'CONNECT'
      || hasByte(start, (c) => c < 9 || (c > 13 && c < 32) || c >= 127) || start.length > contract.limits.MAX_URL_BYTES;
    const badName = fields.some((f) => /^[ \t]/.test(f) || !f.includes(':') || !TOKEN.test(f.slice(0, f.indexOf(':'))));
    const badLength = lengths.some((v) => !/^\d+$/.test(v.trim()) || BigInt(v.trim()) > CONTENT_LENGTH_MAX)
      || lengths.length > 1 || (lengths.length > 0 && fieldValues(fields, 'Transfer-Encoding').length > 0);
    return badStart || badName || badLength || !/\n\r?\n/.test(r);
  },
  // White space after a field value, or a line over the limit only with the white space around its value.
  'async-http-field-white-space': (r) => headOf(r).fields.some((f) => /[ \t]$/.test(f)
    || (f.length > contract.limits.MAX_HEADER_LINE_BYTES && f.replace(/^([^:]*):[ \t]*(.*?)[ \t]*$/, '$1: $2').length <= contract.limits.MAX_HEADER_LINE_BYTES)),
  // A Transfer-Encoding other than one field of chunked alone.
  'async-http-transfer-codings': (r) => {
    const codings = fieldValues(headOf(r).fields, 'Transfer-Encoding');
    return codings.length > 1 || (codings.length === 1 && codings[0].trim().toLowerCase() !== 'chunked');
  },
  // A single-valued field twice.
  'async-http-single-fields': (r) => SINGLE_FIELDS.some((name) => fieldValues(headOf(r).fields, name).length > 1),
  // An Upgrade field, or HTTP/1.0's Connection naming both keep-alive and close (in one field or two).
  'async-http-upgrade': (r) => {
    const { start, fields } = headOf(r);
    const connection = fieldValues(fields, 'Connection').join(',');
    return fieldValues(fields, 'Upgrade').length > 0 || (/HTTP\/1\.0$/.test(start) && /keep-alive/i.test(connection) && /close/i.test(connection));
  },
  // A line ended by LF alone.
  'async-http-line-ends': (r) => /(^|[^\r])\n/.test(r.match(/^[\s\S]*?\n\r?\n/)?.[0] ?? r),
  // A field value with a control byte Node's parser refuses and protocol-http1 takes (not NUL, CR or LF).
  'async-http-field-controls': (r) => headOf(r).fields.some((f) => hasByte(f, (c) => (c >= 1 && c <= 8) || c === 11 || c === 12 || (c >= 14 && c <= 31) || c === 127)),
};

/** Whether one side runs async-http's own server. */
const onAsyncHttp = (on) => Boolean(on) && Object.values(on).some((side) => side?.server === 'async_http');

/** A recogniser for an async_http difference: a request with its trigger no later than the first reply answered differently. */
const asyncHttpRecogniser = (id) => (testCase, diffs, node, em, on) => {
  if (!onAsyncHttp(on)) return false;
  const triggered = requestTexts(testCase).findIndex((text) => text.length > 0 && ASYNC_HTTP_TRIGGERS[id](text));
  return triggered >= 0 && triggered <= firstDifferingReply(node, em);
};

const RECOGNISERS = {
  // A connection was reset, or a reply cut short by the close (after being sent again:
  // run.js), and all that differs is what that takes away: replies not read whole, and when
  // the connection ended.
  'reset-after-close': (testCase, diffs, node, em) => (node.reset || em.reset || cutShort(node) || cutShort(em)) && diffs.every((d) => RESET_ASPECTS.has(d.aspect)),
  // Node 20's parser on a tab after a Content-Length value (its 400), or on an empty
  // Transfer-Encoding field (411 beside chunked, its server's own 400 alone).
  'node20-content-length-tab': (testCase, diffs, node, em, on) => runtimeAnswered('node20-content-length-tab', [400], diffs, on, node, em) && /\r\nContent-Length:[ \t]*\d+ *\t[ \t]*\r\n/i.test(sent(testCase)),
  'node20-empty-transfer-encoding': (testCase, diffs, node, em, on) => runtimeAnswered('node20-empty-transfer-encoding', [400, 411], diffs, on, node, em) && /\r\nTransfer-Encoding:[ \t]*\r\n/i.test(sent(testCase)),
  ...Object.fromEntries(Object.keys(ASYNC_HTTP_TRIGGERS).map((id) => [id, asyncHttpRecogniser(id)])),
};

/**
 * The id of the documented difference this disagreement (diffs between node and em, the two
 * sides) is, or null. on: what runs each side (run.js runCase), for runtime_differences.
 */
function documentedAs(testCase, diffs, node, em, on = null) {
  for (const { id, difftest } of [...contract.known_differences, ...contract.runtime_differences]) {
    if (difftest && RECOGNISERS[id](testCase, diffs, node, em, on)) return id;
  }
  return null;
}

module.exports = { documentedAs, RECOGNISERS };
