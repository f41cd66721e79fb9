'use strict';
// The runtime's events, for the benchmark runner: with RUNTIME_EVENTS_FILE set (contract.json
// runtime_events), appends to that file a heartbeat line every heartbeat_ms (how late the event
// loop ran it: a loop stall) and a line per garbage collection, as ruby/shared/runtime_events.rb
// does for the Ruby servers. The format's one home is perf/lib/measure/runtime_events.js.
//
// Why here and not in the runner: a GC pause or a stall is only seen from inside the process.
// Why this costs the request path nothing measurable: a timer every 10 ms, V8's own GC entries
// (perf_hooks) and GC statistics (v8.GCProfiler) read when the lines are written, every 100 ms,
// in one write.

const fs = require('node:fs');
const v8 = require('node:v8');
const { performance, PerformanceObserver, constants } = require('node:perf_hooks');
const { contract } = require('./config');

const { env: ENV_VAR, heartbeat_ms: HEARTBEAT_MS, flush_ms: FLUSH_MS } = contract.runtime_events;
const KINDS = { [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor', [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major' };
// performance.now() and the runner's clock are both CLOCK_MONOTONIC, from different origins.
const MONO_OFFSET = Number(process.hrtime.bigint()) / 1e6 - performance.now();
const ms = (x) => x.toFixed(3);

/**
 * Starts recording when the environment names a file (else null); one that cannot be written
 * ends the start in one line (`who: …`, exit 1). Lines: a header, then
 * `h T LATE [ALLOC]` (a heartbeat at monotonic ms T, LATE ms after it was due; ALLOC, the bytes
 * allocated since the start, on the heartbeat that writes) and `g START MS KIND N` (a GC: its
 * start, its duration, minor/major/other, N = 1). Returns { stop() }.
 */
function startRuntimeEvents(who, file = process.env[ENV_VAR]) {
  if (!file) return null;
  let fd;
  try {
    fd = fs.openSync(file, 'w');
  } catch (err) {
    console.error(`${who}: cannot write the runtime's events to ${file} (${ENV_VAR}): ${err.code || err.message}`);
    process.exit(1);
  }
  let lines = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) lines.push(`g ${ms(e.startTime + MONO_OFFSET)} ${ms(e.duration)} ${KINDS[e.detail.kind] || 'other'} 1`);
  });
  observer.observe({ entryTypes: ['gc'] });
  // Bytes allocated = what the GCs freed + what the heap holds now (V8 counts no total).
  let profiler = new v8.GCProfiler();
  profiler.start();
  let freed = 0;
  const allocated = () => {
    for (const s of profiler.stop().statistics) freed += s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize;
    profiler = new v8.GCProfiler();
    profiler.start();
    return freed + v8.getHeapStatistics().used_heap_size;
  };
  let flushedAt = performance.now();
  // The header and a first count, so that a window starting now has its count before it.
  fs.writeSync(fd, `# runtime-events 1 runtime=node alloc=bytes gc_position=exact heartbeat_ms=${HEARTBEAT_MS}\nh ${ms(flushedAt + MONO_OFFSET)} 0 ${allocated()}\n`);
  let due = flushedAt + HEARTBEAT_MS;
  let timer = null;
  const beat = () => {
    const now = performance.now();
    const flush = now - flushedAt >= FLUSH_MS;
    lines.push(`h ${ms(now + MONO_OFFSET)} ${ms(Math.max(0, now - due))}${flush ? ` ${allocated()}` : ''}`);
    if (flush) {
      fs.writeSync(fd, `${lines.join('\n')}\n`);
      lines = [];
      flushedAt = now;
    }
    due = now + HEARTBEAT_MS;
    timer = setTimeout(beat, HEARTBEAT_MS);
    timer.unref();
  };
  timer = setTimeout(beat, HEARTBEAT_MS);
  timer.unref();
  return {
    stop() {
      clearTimeout(timer);
      observer.disconnect();
      profiler.stop();
      fs.closeSync(fd);
    },
  };
}

module.exports = { startRuntimeEvents };
