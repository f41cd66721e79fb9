'use strict';
// Text widths for the report's charts (perf/lib/report/text_metrics.js): a font's own advance
// widths, so that labels are laid out as they will be drawn.

const assert = require('node:assert/strict');
const { measure, measureWithoutFont, wrapText } = require('../../../perf/lib/report/text_metrics');

describe('report: SVG helpers', () => {
  it('measures text like Arial (not vega\'s 0.8 em guess)', () => {
    const w = measure('Hello world', 12);
    assert.ok(w > 50 && w < 70, `width ${w}`);
  });

  it('wraps text between words at a width, as vega does not', () => {
    const text = 'p99: coincided with GC pauses: 93 % of the 300 requests above p99 would have been under it without their time';
    const lines = wrapText(text, 200, 12);
    assert.ok(lines.length > 2, lines.join('|'));
    assert.ok(lines.every((l) => measure(l, 12) <= 200), lines.join('|'));
    assert.equal(lines.join(' '), text);
    assert.deepEqual(wrapText('unbreakable-very-long-word fits', 20, 12), ['unbreakable-very-long-word', 'fits'], 'a word wider than the line stands alone');
    assert.deepEqual(wrapText('the same within ±10\u00a0%', 100, 12), ['the same within', '±10\u00a0%'], 'a no-break space holds its words together');
  });

  it('estimates widths without the fonts, a little wider than Liberation Sans, for layouts every machine must share', () => {
    for (const text of ['short_conn_256', 'em 1.79× [1.66–1.93]', 'CPU/req']) {
      assert.ok(measureWithoutFont(text, 12) >= measure(text, 12), text);
      assert.ok(measureWithoutFont(text, 12) <= measure(text, 12) * 1.35, text);
    }
  });
});
