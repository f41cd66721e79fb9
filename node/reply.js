'use strict';
// Replies, as the Ruby servers' reply.rb (ruby/shared/) makes them: a whole reply with its length, an
// error reply (its status's text), and the raw reply for what the parser refuses before there
// is a request. Replies to requests that are wrong in themselves close the connection
// (contract.json closing_statuses), as the EventMachine server must: its parser cannot resume
// after them.

const { contract } = require('./config');

const ERROR_TYPE = 'text/plain; charset=utf-8';
const CLOSING_STATUSES = new Set(contract.closing_statuses);
// Set on a socket once its last reply is decided: a closing status, or a Connection: close of
// ours. Nothing the client sends after that is answered (connection.js).
const LAST_REPLY_DECIDED = Symbol('lastReplyDecided');
// Set on a response whose 100 Continue waits in its own buffer: its request was pipelined behind
// a reply still going out.
const CONTINUE_BUFFERED = Symbol('continueBuffered');

/**
 * An upload's 100 Continue, in its request's turn: at once, or, for a response waiting behind a
 * reply still going out, first in its buffer. Its reply's header then goes out behind it
 * (sendReply): Node's end(body) would put a header not yet sent ahead of what is buffered,
 * sending the 100 inside the reply.
 */
function sendContinue(res) {
  res.writeContinue();
  if (!res.socket) res[CONTINUE_BUFFERED] = true;
}

function sendReply(res, status, type, body, extraHeaders = {}) {
  res.statusCode = status;
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', body.length);
  for (const [name, value] of Object.entries(extraHeaders)) res.setHeader(name, value);
  if (CLOSING_STATUSES.has(status) || extraHeaders.Connection === 'close') {
    res.setHeader('Connection', 'close');
    res.req.socket[LAST_REPLY_DECIDED] = true;
  }
  if (res[CONTINUE_BUFFERED]) res.flushHeaders();
  res.end(body);
}

function sendError(res, status, extraHeaders) {
  sendReply(res, status, ERROR_TYPE, Buffer.from(`${contract.status_text[status]}\n`), extraHeaders);
}

/** A raw reply for errors the parser finds before there is a request object. */
function rawErrorReply(status) {
  const body = `${contract.status_text[status]}\n`;
  return (
    `HTTP/1.1 ${status} ${contract.status_text[status]}\r\n` +
    `Content-Type: ${ERROR_TYPE}\r\nContent-Length: ${body.length}\r\n` +
    `Date: ${new Date().toUTCString()}\r\nConnection: close\r\n\r\n${body}`
  );
}

module.exports = { sendReply, sendError, sendContinue, rawErrorReply, LAST_REPLY_DECIDED };
