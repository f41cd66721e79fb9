'use strict';
// Text widths for the report's charts (perf/lib/report/text_metrics.js): a font's own advance
// widths, so that labels are laid out as they will be drawn.

const assert = require('node:assert/strict');
const { measure } = require('../../../perf/lib/report/text_metrics');

describe('report: SVG helpers', () => {
  it('measures text like Arial (not vega\'s 0.8 em guess)', () => {
    const w = measure('Hello world', 12);
    assert.ok(w > 50 && w < 70, `width ${w}`);
  });
});
