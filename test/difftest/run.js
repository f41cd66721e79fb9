'use strict';
// Runs cases of the grammar against two running servers, a bounded number at a time, and sorts
// each into agreed, documented (contract.json known_differences) or undisputed disagreement;
// prints a disagreement as a case anyone can send again. Used by `scripts/difftest.sh` and by
// the slice of it in `npm test` (test/e2e/difftest.test.js).

const { makeCase } = require('./grammar');
const { observe } = require('./observe');
const { differences, classOf, closing } = require('./compare');
const { documentedAs } = require('./documented');

// Both servers run with these limits while tested, so that an idle or stalled connection is
// closed within seconds and a case takes at most OPEN_CAP_MS after its last write. As with the
// defaults, the idle timeout (both servers close within twice it) ends well before a header
// section's deadline, so a stalled header after a reply is always closed as idle, never raced.
// No backends, whatever the shell says: /upstream and /db are then 502 and 503 on both, the
// same bytes every time (with a Redis, /db without an id would be a random row on each).
const TESTER_LIMITS = { KEEPALIVE_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '3000', BODY_TIMEOUT_MS: '1500', REQUEST_TIMEOUT_MS: '4000', UPSTREAM: '', REDIS: '' };
const OPEN_CAP_MS = 6000;

// A server that closes a connection while bytes it has not read are arriving resets it, and
// the reset can drop replies the client had not yet read or cut one short (neither server
// lingers after a close: RFC 9112 §9.6). Which side it hits is timing. So is a disagreement
// in the close's moment alone (one side silent for over AT_ONCE_MS before its close: a
// collection, a busy host), and a 408 on one side (a case written slowly enough to meet the
// header deadline when the host is busy). Such a case is sent again, up to RETRIES times, and
// counts as alike when a try agrees: a difference of the servers' own answers every try alike.
const RETRIES = 2;
const byTiming = (diffs, node, em) => node.reset || em.reset || node.rest > 0 || em.rest > 0
  || diffs.every((d) => d.aspect === 'connection') || [node, em].some((obs) => obs.replies.some((r) => r.status === 408));

/**
 * One case (grammar.js makeCase, or corpus.js) sent to both servers at once; { testCase, node,
 * em, diffs, documented, retries: how many times it was sent again (RETRIES) }. on: what runs each side ({ node: { server, runtime }, em: … }),
 * for the differences of a runtime's own parser (contract.json runtime_differences); null:
 * today's runtimes.
 */
async function runCase(ports, testCase, on = null) {
  let retries = 0;
  for (;;) {
    const [node, em] = await Promise.all([observe(ports.node, testCase, { openCapMs: OPEN_CAP_MS }), observe(ports.em, testCase, { openCapMs: OPEN_CAP_MS })]);
    const diffs = differences(node, em);
    if (!diffs.length || !byTiming(diffs, node, em) || retries === RETRIES) {
      return { testCase, node, em, diffs, documented: diffs.length ? documentedAs(testCase, diffs, node, em, on) : null, retries };
    }
    retries += 1;
  }
}

/**
 * Cases first..first+count-1 of seed (or of caseAt(index), for cases not the grammar's),
 * `concurrency` at a time, against `servers` ({ ports(),
 * exited(): names of servers that exited, restart(name), on: what runs each side (runCase) }). Resolves { cases, agreed, retried
 * (cases sent again: a reset, a close's moment, a 408),
 * documented: { id: count }, disagreements: [runCase results], classes: { class: count },
 * crashes: [{ server, output, cases }] }: a server that exits is started again, and the
 * cases under way then are named with it. onProgress(done) after each case; an aborted
 * signal stops it after the cases under way.
 */
async function runCases(servers, { seed, count, first = 0, concurrency = 100, onProgress = () => {}, signal = null, caseAt = (index) => makeCase(seed, index) }) {
  const summary = { cases: 0, agreed: 0, retried: 0, documented: {}, disagreements: [], classes: {}, crashes: [] };
  const underWay = new Set();
  let next = first;
  let restarting = null;
  const reviveExited = async () => {
    for (const name of servers.exited()) {
      summary.crashes.push({ server: name, output: servers.output(name), cases: [...underWay].sort((a, b) => a - b) });
      await servers.restart(name);
    }
  };
  const worker = async () => {
    while (next < first + count && !signal?.aborted) {
      const index = next;
      next += 1;
      if (restarting) await restarting;
      underWay.add(index);
      const result = await runCase(servers.ports(), caseAt(index), servers.on || null);
      underWay.delete(index);
      if (servers.exited().length) {
        restarting ??= reviveExited().finally(() => {
          restarting = null;
        });
        await restarting;
        continue; // a case sent to a dying server says nothing about the contract
      }
      summary.cases += 1;
      if (result.retries) summary.retried += 1;
      if (!result.diffs.length) summary.agreed += 1;
      else if (result.documented) summary.documented[result.documented] = (summary.documented[result.documented] ?? 0) + 1;
      else {
        summary.disagreements.push(result);
        const key = classOf(result.diffs);
        summary.classes[key] = (summary.classes[key] ?? 0) + 1;
      }
      onProgress(summary.cases);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  summary.disagreements.sort((a, b) => a.testCase.index - b.testCase.index);
  return summary;
}

// Each server first answers cases of a seed of their own, unjudged, before it is compared: a
// Ruby server with YJIT compiles its paths on their first calls, and while it does its closing
// replies come late. Cold, over seed 1's first 2,000 cases at 150 at once, em closed 97 cases
// later than Node, async 207, async_http 153, most within the first 200 cases, and none at 20 at
// once (AMD EPYC, Ruby 3.3.8 with YJIT, 2026-11-30); in the slice, em against async 12 of seed
// 22's first 15.
const WARM_SEED = 1;
const WARM_CASES = 200;

/** Sends each server at ports WARM_CASES cases, concurrency at a time in all, their answers unread. */
async function warmServers(ports, { concurrency = 100, signal = null } = {}) {
  const each = Math.max(1, Math.round(concurrency / ports.length));
  await Promise.all(ports.map((port) => runCases({ ports: () => ({ node: port, em: port }), exited: () => [] }, { seed: WARM_SEED, count: WARM_CASES, concurrency: each, signal })));
}

const shown = (bytes, most = 600) => {
  const text = JSON.stringify(bytes.toString('latin1'));
  return text.length > most ? `${text.slice(0, most)}… (${bytes.length} bytes)` : text;
};

function describeObservation(obs) {
  const replies = obs.replies.map((r) => `${r.status}${r.headers.connection ? ` (${r.headers.connection})` : ''}${r.bodyText !== null ? ` ${JSON.stringify(r.bodyText)}` : ` ${r.bodyBytes} bytes`}`);
  const interim = obs.interim ? `${obs.interim} × 100 Continue, ` : '';
  const rest = obs.rest ? `, ${obs.rest} stray bytes` : '';
  return `${interim}${replies.join(', ') || 'no reply'}${rest}; ${closing(obs)}`;
}

/**
 * A disagreement as lines anyone can act on: how to send it again, the bytes, what each server
 * did. names: the two servers' names, when the pair is not node's and em's (the result keeps
 * the first as `node`, the second as `em`).
 */
function describeDisagreement({ testCase, node, em, diffs }, [a, b] = ['node', 'em']) {
  const { seed, index, writes, labels } = testCase;
  const again = testCase.again ?? `scripts/difftest.sh ${a === 'node' && b === 'em' ? '' : `--pair ${a},${b} `}--seed ${seed} --case ${index}`;
  const sends = writes.length === 1 ? [`  sends: ${shown(writes[0].bytes)}`] : writes.length > 12
    ? [`  sends, a byte per write: ${shown(Buffer.concat(writes.map((w) => w.bytes)))}`]
    : writes.map((w, i) => `  write ${i + 1}${w.pauseMs ? ` after ${w.pauseMs} ms` : ''}: ${shown(w.bytes, 300)}`);
  return [
    `case ${index} of ${seed === 'llhttp' ? "llhttp's tests" : `seed ${seed}`} (again: ${again}): ${labels.join(' | ')}`,
    ...sends,
    `  ${`${a}:`.padEnd(Math.max(a.length, b.length) + 2)}${describeObservation(node)}`,
    `  ${`${b}:`.padEnd(Math.max(a.length, b.length) + 2)}${describeObservation(em)}`,
    ...diffs.map((d) => `  differs: ${d.aspect}: ${a} ${d.node}, ${b} ${d.em}`),
  ].join('\n');
}

module.exports = { runCases, runCase, warmServers, byTiming, WARM_CASES, describeDisagreement, describeObservation, TESTER_LIMITS, OPEN_CAP_MS };
