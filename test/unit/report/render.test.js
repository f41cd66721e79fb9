'use strict';
// The report's SVG post-processing (perf/lib/report/render.js): smaller numbers, ids that
// cannot clash between the charts of one page, attributes a mark's points share moved to it,
// and a mark's squares merged into one path where asked.

const assert = require('node:assert/strict');
const { compactNumbers, namespaceIds, hoistSharedAttributes, mergeSymbolPaths } = require('../../../perf/lib/report/render');

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

  it('merges a mark\'s translated squares into one path, and leaves points it cannot merge alone', () => {
    const g = (points) => `<g class="mark-symbol role-mark m" fill="#111">${points}</g>`;
    const squares = g('<path transform="translate(10,20)" d="M-1.5,-1.5h3v3h-3Z"/><path transform="translate(0.5,4.25)" d="M-1.5,-1.5h3v3h-3Z"/>');
    assert.equal(mergeSymbolPaths(squares), g('<path d="M8.5,18.5h3v3h-3ZM-1,2.75h3v3h-3Z"/>'));
    const rotated = g('<path transform="translate(1,2) rotate(45)" d="M-3.54,-1.41L-3.54,1.41Z"/><path transform="translate(3,4) rotate(45)" d="M-3.54,-1.41L-3.54,1.41Z"/>');
    assert.equal(mergeSymbolPaths(rotated), rotated);
    const legend = '<g class="mark-symbol role-legend-symbol"><path transform="translate(1,2)" d="M-1,-1h2v2h-2Z"/><path transform="translate(1,2)" d="M-1,-1h2v2h-2Z"/></g>';
    assert.equal(mergeSymbolPaths(legend), legend, 'only data marks');
  });
});
