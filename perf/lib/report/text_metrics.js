'use strict';
// Text widths for vega's layout in Node. Without a canvas, vega guesses 0.8 em per character,
// about 1.6 times too wide for Arial-like fonts, which leaves wide empty margins around charts.
// Here the widths come from the font file the PNGs are drawn with (Liberation Sans, metric-
// compatible with Arial/Helvetica, which browsers use for the same SVG): advance widths read
// from its 'cmap' and 'hmtx' tables. vega documents textMetrics.width as the hook for this.

const fs = require('node:fs');

/** Advance widths (in em) by code point, from a TrueType file. Returns null when unreadable. */
function readAdvanceWidths(file) {
  let buf;
  try {
    buf = fs.readFileSync(file);
  } catch {
    return null;
  }
  try {
    const numTables = buf.readUInt16BE(4);
    const tables = {};
    for (let i = 0; i < numTables; i++) {
      const rec = 12 + i * 16;
      tables[buf.toString('latin1', rec, rec + 4)] = buf.readUInt32BE(rec + 8);
    }
    if (!('head' in tables && 'hhea' in tables && 'hmtx' in tables && 'cmap' in tables)) return null;
    const unitsPerEm = buf.readUInt16BE(tables.head + 18);
    const numHMetrics = buf.readUInt16BE(tables.hhea + 34);
    const advance = (glyph) => buf.readUInt16BE(tables.hmtx + 4 * Math.min(glyph, numHMetrics - 1)) / unitsPerEm;

    // cmap: the Unicode BMP subtable (platform 3 encoding 1, or platform 0), format 4.
    const cmap = tables.cmap;
    const count = buf.readUInt16BE(cmap + 2);
    let sub = null;
    for (let i = 0; i < count; i++) {
      const platform = buf.readUInt16BE(cmap + 4 + i * 8);
      const encoding = buf.readUInt16BE(cmap + 6 + i * 8);
      const offset = cmap + buf.readUInt32BE(cmap + 8 + i * 8);
      if (buf.readUInt16BE(offset) === 4 && ((platform === 3 && encoding === 1) || platform === 0)) {
        sub = offset;
        if (platform === 3) break;
      }
    }
    if (sub === null) return null;
    const segX2 = buf.readUInt16BE(sub + 6);
    const ends = sub + 14;
    const starts = ends + segX2 + 2;
    const deltas = starts + segX2;
    const rangeOffsets = deltas + segX2;
    const widths = new Map();
    for (let s = 0; s < segX2 / 2; s++) {
      const end = buf.readUInt16BE(ends + 2 * s);
      const start = buf.readUInt16BE(starts + 2 * s);
      const delta = buf.readInt16BE(deltas + 2 * s);
      const ro = buf.readUInt16BE(rangeOffsets + 2 * s);
      if (start === 0xffff) continue;
      for (let c = start; c <= end && c < 0x3000; c++) {
        let glyph;
        if (ro === 0) glyph = (c + delta) & 0xffff;
        else {
          const at = rangeOffsets + 2 * s + ro + 2 * (c - start);
          glyph = buf.readUInt16BE(at);
          if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
        }
        if (glyph !== 0) widths.set(c, advance(glyph));
      }
    }
    return widths.size ? widths : null;
  } catch {
    return null;
  }
}

const REGULAR = [
  '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
  '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf',
];
const BOLD = [
  '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
  '/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf',
];

let tables = null;
function load() {
  if (!tables) {
    const first = (files) => files.map(readAdvanceWidths).find(Boolean) || null;
    const regular = first(REGULAR);
    tables = { regular, bold: first(BOLD) || regular };
  }
  return tables;
}

/** Arial-like widths when no font file is readable: 0.56 em average, narrow digits/punctuation. */
function fallbackWidth(ch) {
  if (/[ .,:;'|!il]/.test(ch)) return 0.28;
  if (/[A-Z]/.test(ch)) return 0.68;
  if (/[mwMW]/.test(ch)) return 0.85;
  return 0.56;
}

function isBold(weight) {
  if (weight === undefined || weight === null) return false;
  if (typeof weight === 'number') return weight >= 600;
  return /bold|[6-9]00/.test(String(weight));
}

/** Width in px of `text` at `size` px. */
function measure(text, size, bold = false) {
  const t = load();
  const table = bold ? t.bold : t.regular;
  let em = 0;
  for (const ch of text) {
    const w = table ? table.get(ch.codePointAt(0)) : undefined;
    em += w !== undefined ? w : fallbackWidth(ch);
  }
  return em * size * (bold && !t.bold ? 1.05 : 1);
}

/**
 * Width in px of `text` at `size` px from the Arial-like estimate alone, whatever fonts are
 * installed: for layouts that must come out the same on every machine (forest.js's standalone
 * SVG). The estimate runs a little wider than Liberation Sans, so text laid out by it fits.
 */
function measureWithoutFont(text, size, bold = false) {
  let em = 0;
  for (const ch of text) em += fallbackWidth(ch);
  return em * size * (bold ? 1.05 : 1);
}

/** Installs the measurement into vega (the module from import('vega')). */
function installTextMetrics(vega) {
  const tm = vega.textMetrics;
  if (!tm || tm.width.installedByReport) return;
  const width = (item, text) => {
    const s = text === null || text === undefined ? '' : String(text).trim();
    if (!s) return 0;
    const size = item.fontSize !== null && item.fontSize !== undefined ? Number(item.fontSize) || 0 : 11;
    const w = measure(s, size, isBold(item.fontWeight));
    return item.limit > 0 ? Math.min(w, item.limit) : w;
  };
  width.installedByReport = true;
  tm.width = width;
}

/**
 * text broken between words into lines no wider than maxPx at size px, bold or not (a word
 * wider than that stands alone on its line): vega draws a title's lines as given, it does not
 * wrap them. A no-break space keeps its words together ("±10\u00a0%"). widthOf: how to measure
 * (measureWithoutFont where the fonts must not matter).
 */
function wrapText(text, maxPx, size, bold = false, widthOf = measure) {
  const lines = [];
  let line = '';
  for (const word of String(text).split(/[ \t\n\r]+/).filter(Boolean)) {
    const longer = line ? `${line} ${word}` : word;
    if (line && widthOf(longer, size, bold) > maxPx) {
      lines.push(line);
      line = word;
    } else line = longer;
  }
  if (line) lines.push(line);
  return lines;
}

module.exports = { installTextMetrics, measure, measureWithoutFont, wrapText };
