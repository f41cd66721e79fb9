'use strict';
// The report's SVG post-processing (perf/lib/report/render.js): smaller numbers, ids that
// cannot clash between the charts of one page, attributes a mark's points share moved to it.

const assert = require('node:assert/strict');
const { compactNumbers, namespaceIds, hoistSharedAttributes } = require('../../../perf/lib/report/render');

describe('report: SVG helpers', () => {
  it('rounds coordinates and namespaces ids', () => {
    assert.equal(compactNumbers('<path d="M1.23456,2.5L3.14159,0"/>'), '<path d="M1.23,2.5L3.14,0"/>');
    assert.equal(namespaceIds('<clipPath id="c1"/><g clip-path="url(#c1)"/>', 'x'), '<clipPath id="x-c1"/><g clip-path="url(#x-c1)"/>');
  });

  it('moves what all points of a mark share to their group', () => {
    const g = (points) => `<g class="mark-symbol role-mark m">${points}</g>`;
    const same = g('<path d="A" fill="#111" opacity="0.5"/><path d="B" fill="#111" opacity="0.5"/>');
    assert.equal(hoistSharedAttributes(same), '<g class="mark-symbol role-mark m" fill="#111" fill-opacity="0.5"><path d="A"/><path d="B"/></g>');
    const mixed = g('<path d="A" fill="#111"/><path d="B" fill="#222"/>');
    assert.equal(hoistSharedAttributes(mixed), mixed);
  });
});
