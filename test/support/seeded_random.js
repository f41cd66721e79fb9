'use strict';
// Seeded random numbers for the tests' simulations and made-up results: the same seed gives the
// same numbers on every run, so a simulation's figures and a fixture's files are reproducible.

/** Uniform numbers in [0, 1) from a seed (mulberry32). */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal numbers from a seed (Box–Muller on mulberry32). */
function seededNormals(seed) {
  const uniform = mulberry32(seed);
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

module.exports = { mulberry32, seededNormals };
