'use strict';
// Compares what the two servers did with one case: the replies (count, status, framing
// headers, body), the 1xx replies, stray bytes, and whether and roughly when the connection was
// closed. Timing is compared in two bands: closed at once or later (a timeout), and two later
// closes within CLOSE_TOLERANCE_MS of each other, counted from the last write (EventMachine's
// inactivity timeout fires on a heartbeat, up to one timeout late; Node adds 1 s to its own).
// A close the last reply announced (Connection: close) is at once when the connection was never
// silent for more than AT_ONCE_MS between the last write and the close, however long that reply
// took to arrive; any other close is at once within AT_ONCE_MS of the last write: a server that
// closes a kept connection waited for a timeout, whose timer may start before the client has
// the reply's last byte (the kernel holds what the server wrote), so the last byte says nothing.

const AT_ONCE_MS = 600;
const CLOSE_TOLERANCE_MS = 1600;

const announcedClose = (obs) => /close/i.test(obs.replies[obs.replies.length - 1]?.headers.connection ?? '');
const closedAtOnce = (obs) => (announcedClose(obs) ? obs.quietMs : obs.closeMs) <= AT_ONCE_MS;

/** How an observation's connection ended, in words for a report: open, closed at once, closed after N ms. */
function closing(obs) {
  if (!obs.closed) return 'open';
  return closedAtOnce(obs) ? 'closed at once' : `closed after ${(obs.closeMs / 1000).toFixed(1)} s`;
}

function sameClosing(a, b) {
  if (a.closed !== b.closed) return false;
  if (!a.closed) return true;
  const aAtOnce = closedAtOnce(a);
  if (aAtOnce !== closedAtOnce(b)) return false;
  return aAtOnce || Math.abs(a.closeMs - b.closeMs) <= CLOSE_TOLERANCE_MS;
}

const bodyWords = (r) => (r.bodyText === null ? `${r.bodyBytes} bytes` : JSON.stringify(r.bodyText));
const describeReply = (r) => (r ? `${r.status}${r.headers.connection ? ` (${r.headers.connection})` : ''}` : 'none');

/**
 * The ways observations a (node) and b (em) differ: [{ aspect, node, em }], empty when they
 * answered alike. aspect names what differs, for grouping disagreements into classes.
 */
function differences(a, b) {
  const found = [];
  const add = (aspect, x, y) => found.push({ aspect, node: x, em: y });
  const n = Math.max(a.replies.length, b.replies.length);
  for (let i = 0; i < n; i += 1) {
    const x = a.replies[i];
    const y = b.replies[i];
    if (!x || !y) {
      add('replies', `${a.replies.length}: ${a.replies.map(describeReply).join(', ')}`, `${b.replies.length}: ${b.replies.map(describeReply).join(', ')}`);
      break;
    }
    if (x.status !== y.status) {
      add(`status of reply ${i + 1}`, x.status, y.status);
      continue;
    }
    for (const header of new Set([...Object.keys(x.headers), ...Object.keys(y.headers)])) {
      if (x.headers[header] !== y.headers[header]) add(`${header} of a ${x.status}`, x.headers[header] ?? '(none)', y.headers[header] ?? '(none)');
    }
    if (x.keepAliveHeader !== y.keepAliveHeader) add(`Keep-Alive header of a ${x.status}`, x.keepAliveHeader, y.keepAliveHeader);
    if (x.body !== y.body) add(`body of a ${x.status}`, bodyWords(x), bodyWords(y));
  }
  if (a.interim !== b.interim) add('100 Continue replies', a.interim, b.interim);
  if ((a.rest > 0) !== (b.rest > 0)) add('bytes that are no reply', a.rest, b.rest);
  if (!sameClosing(a, b)) add('connection', closing(a), closing(b));
  return found;
}

/** A disagreement's class, for counting: what differs and how, without the case's own figures. */
function classOf(diffs) {
  const first = diffs[0];
  const clean = (v) => String(v).replace(/after \d+\.\d s/, 'later').replace(/^\d+: /, '');
  return `${first.aspect}: node ${clean(first.node)}, em ${clean(first.em)}`;
}

module.exports = { differences, classOf, closing, AT_ONCE_MS, CLOSE_TOLERANCE_MS };
