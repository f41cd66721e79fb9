'use strict';
// One place for how servers look: colour, dash and point shape per server name, stable across
// runs and reports. Colours are Okabe–Ito (colour-blind safe) and Tol's; the main servers differ
// in hue and lightness (dark blue, light orange, wine) and in dash and shape, so they stay apart
// in greyscale prints too. Unknown server names get a colour from their name's hash, so adding
// a server never re-colours the others.

const KNOWN = {
  node: { colour: '#0072B2', dash: [], shape: 'circle' },
  em: { colour: '#E69F00', dash: [7, 3], shape: 'square' },
  async_http: { colour: '#882255', dash: [5, 1, 1, 1], shape: 'triangle-up' },
  // The hand-written async, async_http's reference (servers.json reference_for).
  async: { colour: '#009E73', dash: [3, 2], shape: 'diamond' },
  // Each runtime as its users tune it (servers.json tuned_of): its own colour, no grey.
  node_tuned: { colour: '#332288', dash: [5, 2], shape: 'triangle-down' },
  em_tuned: { colour: '#CC79A7', dash: [2, 3, 6, 3], shape: 'triangle-right' },
  async_tuned: { colour: '#44AA99', dash: [6, 2, 1, 2], shape: 'triangle-left' },
  node_bare: { colour: '#56B4E9', dash: [2, 2], shape: 'triangle-up' },
  em_bare: { colour: '#D55E00', dash: [9, 3, 2, 3], shape: 'diamond' },
  async_bare: { colour: '#117733', dash: [1, 2], shape: 'wedge' },
  nginx: { colour: '#999933', dash: [1, 3], shape: 'cross' },
};

// No greys or black: a grey point in a forest plot is an answer that names no server (DECISION_COLOURS).
const EXTRA_COLOURS = ['#882255', '#44AA99', '#117733', '#999933', '#AA4499', '#88CCEE'];
const EXTRA_DASHES = [[4, 4], [12, 4], [6, 2, 2, 2, 2, 2], [3, 6]];
const EXTRA_SHAPES = ['triangle-down', 'triangle-right', 'triangle-left', 'wedge', 'stroke'];

function hash(name) {
  let h = 2166136261;
  for (const ch of name) h = Math.imul(h ^ ch.codePointAt(0), 16777619) >>> 0;
  return h;
}

function serverStyle(name) {
  if (KNOWN[name]) return KNOWN[name];
  const h = hash(name);
  return {
    colour: EXTRA_COLOURS[h % EXTRA_COLOURS.length],
    dash: EXTRA_DASHES[h % EXTRA_DASHES.length],
    shape: EXTRA_SHAPES[h % EXTRA_SHAPES.length],
  };
}

/**
 * How an answer that names no server looks (the forest plots, forest.js): 'same' a dark neutral,
 * 'undecided' a light grey, 'depends' (runs disagree by machine) the dark neutral again, told
 * apart by the shape forest.js gives each. Greys, so that only a winner carries a server's colour.
 */
const DECISION_COLOURS = { same: '#4D4D4D', undecided: '#A6A6A6', depends: '#4D4D4D' };

/** Known servers first in a fixed order (node, em, references), then the rest alphabetically. */
function orderServers(names) {
  const known = Object.keys(KNOWN);
  const unique = [...new Set(names)];
  return unique.sort((a, b) => {
    const ia = known.indexOf(a);
    const ib = known.indexOf(b);
    if (ia !== -1 || ib !== -1) return (ia === -1 ? known.length : ia) - (ib === -1 ? known.length : ib);
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

/** Vega-Lite scale pieces for a list of servers: use as scale {domain, range} of colour/dash/shape. */
function serverScales(servers) {
  const styles = servers.map(serverStyle);
  return {
    domain: servers,
    colours: styles.map((s) => s.colour),
    dashes: styles.map((s) => s.dash),
    shapes: styles.map((s) => s.shape),
  };
}

module.exports = { serverStyle, orderServers, serverScales, DECISION_COLOURS };
