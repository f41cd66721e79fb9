'use strict';
// What a request must pass before it is routed, as the Ruby servers' request_gate.rb
// checks it: HTTP version, header lines, Host, framing (Transfer-Encoding, Content-Length),
// the URL's and the body's size, an Expect header, and whether it asks to upgrade.

const { contract } = require('./config');

const HOST_VALUE = new RegExp(contract.host_pattern);

/**
 * Checks that apply before routing; returns an error status or 0. Framing and Host as the
 * contract decides (CONTRACT.md), in one pass over the raw header lines: one Host, of
 * host syntax (required in HTTP/1.1); Transfer-Encoding never with Content-Length, its last
 * coding chunked and chunked only once, and then 411 (the EventMachine parser cannot read
 * chunked bodies). Node's parser has already refused a malformed or repeated Content-Length.
 */
function requestError(req, limits) {
  if (req.httpVersion !== '1.1' && req.httpVersion !== '1.0') return 400;
  const raw = req.rawHeaders;
  let hosts = 0;
  let hostValue = '';
  let codings = null;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length + 2 + raw[i + 1].length > limits.MAX_HEADER_LINE_BYTES) return 431;
    const name = raw[i].toLowerCase();
    if (name === 'host') {
      hosts += 1;
      hostValue = raw[i + 1];
    } else if (name === 'transfer-encoding') {
      codings = (codings ?? []).concat(raw[i + 1].split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== ''));
    }
  }
  if (hosts > 1 || (hosts === 1 ? !HOST_VALUE.test(hostValue) : req.httpVersion === '1.1')) return 400;
  if (codings) {
    if (req.headers['content-length'] !== undefined) return 400;
    return codings.at(-1) === 'chunked' && codings.filter((c) => c === 'chunked').length === 1 ? 411 : 400;
  }
  if (req.url.length > limits.MAX_URL_BYTES) return 414;
  if (Number(req.headers['content-length'] || 0) > limits.MAX_UPLOAD_BYTES) return 413;
  return 0;
}

/**
 * The Expect rule (HTTP/1.1 only: Node passes no HTTP/1.0 expectation on), for a request with
 * an Expect header that passed requestError: the only expectation is exactly 100-continue
 * (Node would also take '100-continue, foo'), else 417. Returns the status or 0.
 */
function expectationError(req) {
  return req.headersDistinct.expect.some((value) => value.trim().toLowerCase() !== '100-continue') ? 417 : 0;
}

// A Connection field naming the upgrade option.
const UPGRADE_OPTION = /(?:^|,)[ \t]*upgrade[ \t]*(?:,|$)/i;

/** Whether a request asks to switch protocols: an Upgrade field and the upgrade connection option, as Node's parser sees it. */
function asksToUpgrade(req) {
  return req.headers.upgrade !== undefined && req.headers.connection !== undefined && UPGRADE_OPTION.test(req.headers.connection);
}

module.exports = { requestError, expectationError, asksToUpgrade };
