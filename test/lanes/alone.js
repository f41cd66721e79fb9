'use strict';
// The lane of test files that need the machine to themselves (./lanes.js), one at a time.
const base = require('../../.mocharc.json');
const { TOGETHER, ALL } = require('./lanes');

module.exports = { ...base, spec: [ALL], ignore: TOGETHER };
