'use strict';
// How servers look in the report (perf/lib/report/style.js): a fixed colour, dash and shape per
// server, and the order servers are listed in.

const assert = require('node:assert/strict');
const { serverStyle, orderServers } = require('../../../perf/lib/report/style');

describe('report: server colours', () => {
  it('are fixed per server, distinct, and differ in lightness for node and em', () => {
    assert.equal(serverStyle('node').colour, '#0072B2');
    assert.equal(serverStyle('em').colour, '#E69F00');
    const grey = (hex) => { const n = parseInt(hex.slice(1), 16); return 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255); };
    assert.ok(Math.abs(grey(serverStyle('node').colour) - grey(serverStyle('em').colour)) > 50, 'greyscale-distinct');
    assert.notDeepEqual(serverStyle('node').dash, serverStyle('em').dash);
    assert.deepEqual(serverStyle('puma'), serverStyle('puma'), 'stable for unknown names');
    assert.deepEqual(orderServers(['zz', 'em', 'nginx', 'node', 'aa']), ['node', 'em', 'nginx', 'aa', 'zz']);
  });
});
