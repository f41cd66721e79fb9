'use strict';
// What a request must pass before it is routed, as the EventMachine server's request_gate.rb
// checks it: HTTP version, header lines, Host, framing (Transfer-Encoding, Content-Length),
// the URL's and the body's size; and a body that stops arriving.

const { contract } = require('./config');
const { sendError } = require('./reply');

const HOST_VALUE = new RegExp(contract.host_pattern);

/**
 * Checks that apply before routing; returns an error status or 0. Framing and Host as the
 * contract decides (README "The contract"), in one pass over the raw header lines: one Host, of
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
      codings = (codings ?? []).concat(raw[i + 1].split(',').map((c) => c.trim().toLowerCase()));
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

/** A body that makes no progress for BODY_TIMEOUT_MS gets 408 (REQUEST_TIMEOUT_MS bounds the whole request). */
function watchBody(req, res, limits) {
  const timer = setTimeout(() => {
    if (res.headersSent) req.socket.destroy();
    else sendError(res, 408);
  }, limits.BODY_TIMEOUT_MS);
  req.on('data', () => timer.refresh());
  const stop = () => clearTimeout(timer);
  req.once('end', stop);
  res.once('close', stop);
}

module.exports = { requestError, watchBody };
