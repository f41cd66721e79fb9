'use strict';
// What a Node server's memory holds, asked for over a Unix socket (perf/lib/studies/held_memory.js),
// as ruby/held_probe.rb does for the Ruby servers: preloaded into a server
// (NODE_OPTIONS=--require <this file>, HELD_PROBE_SOCKET=<path>), it answers each connection with
// one line of JSON after a full collection and closes: what only the runtime knows (its heap,
// its handles); the process's resident memory and mappings the study reads from /proc itself. Its listener is one handle more in the
// server's loop; it is there before the first client and the same at every count.

const net = require('node:net');
const v8 = require('node:v8');
const vm = require('node:vm');

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc');

function facts() {
  collect();
  const memory = process.memoryUsage();
  const heap = v8.getHeapStatistics();
  const resources = {};
  for (const type of process.getActiveResourcesInfo()) resources[type] = (resources[type] || 0) + 1;
  return {
    runtime: `node ${process.versions.node}`,
    heap_used_bytes: memory.heapUsed,
    // The heap's pages resident, used or not: what V8 keeps after a collection.
    heap_physical_bytes: heap.total_physical_size,
    // What V8 itself allocates outside its heap (its own structures, not Node's).
    v8_malloced_bytes: heap.malloced_memory,
    external_bytes: memory.external,
    array_buffers_bytes: memory.arrayBuffers,
    resources,
  };
}

if (process.env.HELD_PROBE_SOCKET) {
  const probe = net.createServer((socket) => socket.end(`${JSON.stringify(facts())}\n`));
  probe.listen(process.env.HELD_PROBE_SOCKET);
  probe.unref();
}
