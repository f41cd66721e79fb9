'use strict';
// What the engines that send on a schedule share (./open_loop.js: connections; ./constant_rate.js:
// requests over keep-alive connections): how late this process handed out what was due, and
// stopping on the run's AbortSignal.

const round3 = (x) => Math.round(x * 1000) / 1000;

/** Lateness behind schedule: add(ms) for each item handed out; summary() gives { mean, max } (null for none). */
function scheduleLag() {
  let sum = 0;
  let max = 0;
  let count = 0;
  return {
    add(lagMs) {
      sum += lagMs;
      if (lagMs > max) max = lagMs;
      count += 1;
    },
    summary: () => ({ mean: count ? round3(sum / count) : null, max: count ? round3(max) : null }),
  };
}

/**
 * Calls onAbort once the signal aborts (at once when it already has); returns the function that
 * stops listening. No signal: nothing to listen to.
 */
function whenAborted(signal, onAbort) {
  if (!signal) return () => {};
  if (signal.aborted) {
    onAbort();
    return () => {};
  }
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

module.exports = { scheduleLag, whenAborted };
