'use strict';
// The lane of test files that share the machine well (./lanes.js), two at a time.
const base = require('../../.mocharc.json');
const { TOGETHER } = require('./lanes');

module.exports = { ...base, spec: TOGETHER, parallel: true, jobs: 2 };
