'use strict';
// The held-memory study in words (perf/lib/studies/held_memory.js measures): per server, what one
// more held connection costs, resident and by what holds it.

const { fmtNumber, alignedTable } = require('./format');

// The resident memory's parts (perf/lib/measure/proc_stats.js parseMappings) and the runtime's
// own figures worth a column, with their headings.
const COLUMNS = [
  ['rss_kb', 'resident kB'],
  ['mappings_kb.stacks', 'stacks kB'],
  ['mappings_kb.c_heap', 'C heap kB'],
  ['mappings_kb.anonymous', 'other anon kB'],
  ['object_bytes', 'Ruby objects B'],
  ['heap_used_bytes', 'V8 heap B'],
  ['heap_physical_bytes', 'V8 resident B'],
  ['fibers_alive', 'fibers'],
  ['fds', 'fds'],
];
const TOP_CLASSES = 5;

/** "String 65,851 B (4.9), Fiber 10,445 B (3.0), …": the classes whose objects grew most per held connection. */
function classesText(perHeld) {
  const grew = Object.entries(perHeld)
    .filter(([key, bytes]) => key.startsWith('class.') && key.endsWith('.bytes') && bytes > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP_CLASSES)
    .map(([key, bytes]) => {
      const name = key.slice('class.'.length, -'.bytes'.length);
      return `${name} ${fmtNumber(bytes, 'count')} B (${fmtNumber(perHeld[`class.${name}.count`])})`;
    });
  return grew.join(', ');
}

/** The study's lines: a table of each server's cost per held connection, then the classes that hold it. */
function heldMemoryLines(study) {
  const head = ['server', 'runtime', ...COLUMNS.map(([, heading]) => heading)];
  const body = study.servers.map((s) => [s.name, s.runtime || '–', ...COLUMNS.map(([key]) => (key in s.per_held ? fmtNumber(s.per_held[key]) : '–'))]);
  const counts = study.counts.map((n) => fmtNumber(n, 'count')).join(', ');
  const lines = [`Per held connection (each a GET /delay?ms=${study.wait_ms} outstanding; the slope over ${counts} held, after a full collection):`, ...alignedTable(head, body, ['l', 'l', ...COLUMNS.map(() => 'r')])];
  const classes = study.servers.map((s) => [s.name, classesText(s.per_held)]).filter(([, text]) => text);
  if (classes.length) lines.push('', 'Ruby objects per held connection, the largest (bytes, objects):', ...classes.map(([name, text]) => `  ${name}: ${text}`));
  return lines;
}

module.exports = { heldMemoryLines, classesText };
