'use strict';
// Vega-Lite spec -> SVG (vega-lite compiles, a headless vega View renders) -> PNG (resvg).
// vega and vega-lite 6 are ES modules, loaded once with import(). Text is measured with the
// advance widths of Liberation Sans (text_metrics.js; metric-compatible with Arial, which
// browsers substitute), and the PNG is rasterised with the same font (Debian: fonts-liberation),
// or any system font when it is missing.

const fs = require('node:fs');
const { Resvg } = require('@resvg/resvg-js');
const { installTextMetrics } = require('./text_metrics');

let libs = null;
async function loadLibs() {
  if (!libs) {
    const [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);
    installTextMetrics(vega);
    libs = { vega, vl };
  }
  return libs;
}

/** Font files for the PNGs: Liberation Sans (metric-compatible with Arial), DejaVu as fallback. */
const FONT_CANDIDATES = [
  '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Italic.ttf',
  '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf',
  '/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
];

let fontOptions = null;
function pngFontOptions() {
  if (!fontOptions) {
    const files = FONT_CANDIDATES.filter((f) => fs.existsSync(f));
    const family = files.some((f) => f.includes('Liberation')) ? 'Liberation Sans' : files.length ? 'DejaVu Sans' : undefined;
    fontOptions = files.length
      ? { loadSystemFonts: false, fontFiles: files, defaultFontFamily: family, sansSerifFamily: family }
      : { loadSystemFonts: true };
  }
  return fontOptions;
}

/** Which fonts the PNGs use: {family, files, system} (for the report's notes and the tests). */
function fontInfo() {
  const o = pngFontOptions();
  return { family: o.defaultFontFamily || null, files: o.fontFiles || [], system: o.loadSystemFonts };
}

/** Rounds coordinates in geometry attributes to 2 decimals: a third of the SVG size, invisible. */
function compactNumbers(svg) {
  return svg.replace(/ (d|transform|x|y|x1|x2|y1|y2|width|height|points)="([^"]*)"/g, (whole, name, value) => {
    const v = value.replace(/-?\d+\.\d{3,}/g, (n) => String(Math.round(Number(n) * 100) / 100));
    return ` ${name}="${v}"`;
  });
}

function escapeAttr(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

/**
 * Moves presentation attributes that every point of a symbol mark shares (fill, stroke,
 * stroke-width; opacity as fill-opacity, which is per element like opacity for unstroked points)
 * from each point to the mark's group. Same picture, about half the bytes for dense scatter plots.
 */
function hoistSharedAttributes(svg) {
  return svg.replace(/(<g class="mark-symbol role-mark[^"]*"[^>]*)>((?:<path [^>]*\/>)+)<\/g>/g, (whole, open, children) => {
    const paths = children.match(/<path [^>]*\/>/g);
    if (paths.length < 2) return whole;
    const valueOf = (p, name) => {
      const m = new RegExp(` ${name}="([^"]*)"`).exec(p);
      return m ? m[1] : null;
    };
    const shared = (name) => {
      const v = valueOf(paths[0], name);
      return v !== null && paths.every((p) => valueOf(p, name) === v) ? v : null;
    };
    const hoisted = [];
    let out = paths;
    const strip = (name) => { out = out.map((p) => p.replace(new RegExp(` ${name}="[^"]*"`), '')); };
    for (const name of ['fill', 'stroke', 'stroke-width']) {
      const v = shared(name);
      if (v !== null) { hoisted.push(` ${name}="${v}"`); strip(name); }
    }
    const opacity = shared('opacity');
    if (opacity !== null && paths.every((p) => valueOf(p, 'stroke') === null)) {
      hoisted.push(` fill-opacity="${opacity}"`);
      strip('opacity');
    }
    return `${open}${hoisted.join('')}>${out.join('')}</g>`;
  });
}

/**
 * Merges the points of each symbol mark whose points are all a translated path of relative
 * steps (vega's squares: translate(x,y) "M-1.5,-1.5h3v3h-3Z") into one path of subpaths: about a
 * third of the bytes. Overlapping points then no longer darken each other, so only for charts
 * that thin their points to one per spot first (pause_charts.js); others keep one element per point.
 */
function mergeSymbolPaths(svg) {
  const point = /^<path transform="translate\((-?[\d.]+),(-?[\d.]+)\)" d="M(-?[\d.]+),(-?[\d.]+)([a-z\d.,\s-]*Z?)"\/>$/;
  const r2 = (x) => Math.round(x * 100) / 100;
  return svg.replace(/(<g class="mark-symbol role-mark[^"]*"[^>]*>)((?:<path [^>]*\/>)+)<\/g>/g, (whole, open, children) => {
    const paths = children.match(/<path [^>]*\/>/g).map((p) => point.exec(p));
    if (paths.length < 2 || paths.some((m) => !m)) return whole;
    const d = paths.map(([, x, y, a, b, rest]) => `M${r2(Number(x) + Number(a))},${r2(Number(y) + Number(b))}${rest}`).join('');
    return `${open}<path d="${d}"/></g>`;
  });
}

/** Makes the SVG's ids unique to this chart, so several SVGs can live in one HTML page. */
function namespaceIds(svg, prefix) {
  const ids = new Set();
  svg.replace(/ id="([^"]+)"/g, (w, id) => ids.add(id));
  if (ids.size === 0) return svg;
  return svg
    .replace(/ id="([^"]+)"/g, (w, id) => ` id="${prefix}-${id}"`)
    .replace(/url\(#([^)]+)\)/g, (w, id) => (ids.has(id) ? `url(#${prefix}-${id})` : w))
    .replace(/href="#([^"]+)"/g, (w, id) => (ids.has(id) ? `href="#${prefix}-${id}"` : w));
}

/**
 * Renders a Vega-Lite spec to an SVG string. Returns {svg, vegaSpec, warnings}.
 * `id` prefixes the SVG's internal ids; mergePoints: mergeSymbolPaths.
 */
async function renderSvg(vlSpec, { id = 'chart', mergePoints = false } = {}) {
  const { vega, vl } = await loadLibs();
  const warnings = [];
  const logger = {
    level() { return logger; },
    error(...m) { warnings.push(`error: ${m.join(' ')}`); return logger; },
    warn(...m) { warnings.push(m.join(' ')); return logger; },
    info() { return logger; },
    debug() { return logger; },
  };
  const vegaSpec = vl.compile(vlSpec, { logger }).spec;
  const view = new vega.View(vega.parse(vegaSpec), { renderer: 'none', logger });
  try {
    await view.runAsync();
    let svg = await view.toSVG();
    svg = hoistSharedAttributes(compactNumbers(svg));
    svg = namespaceIds(mergePoints ? mergeSymbolPaths(svg) : svg, id);
    if (vlSpec.description) svg = svg.replace('<svg ', `<svg role="img" aria-label="${escapeAttr(vlSpec.description)}" `);
    return { svg, vegaSpec, warnings };
  } finally {
    view.finalize();
  }
}

/** Rasterises an SVG string to PNG (scale 2 = sharp on high-density screens and in papers). */
function svgToPng(svg, { scale = 2 } = {}) {
  const r = new Resvg(svg, { fitTo: { mode: 'zoom', value: scale }, background: 'white', font: pngFontOptions(), logLevel: 'off' });
  return r.render().asPng();
}

module.exports = { renderSvg, svgToPng, fontInfo, compactNumbers, namespaceIds, hoistSharedAttributes, mergeSymbolPaths };
