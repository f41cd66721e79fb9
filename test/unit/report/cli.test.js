'use strict';
// `npm run report` (perf/cli/report.js): --timeline naming a scenario the folder does not have
// is a usage error, said in one line with the folder's scenarios, and nothing is written.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { trialRun } = require('../../support/made_up_results');
const { makeTmpDir } = require('../../support/runner_helpers');

const CLI = path.resolve(__dirname, '..', '..', '..', 'perf', 'cli', 'report.js');

describe('report: the command line', function () {
  this.timeout(30000);
  const dir = makeTmpDir('report-cli-');
  before(() => {
    const runs = ['node', 'em'].flatMap((server) => [trialRun(server, 'hello', 1, 1, 100), trialRun(server, 'sequential_6000', 1, 1, 100)]);
    fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ environment: {}, runs }));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('--timeline with a scenario the folder does not have: one line naming its scenarios, exit 2, nothing written', () => {
    const res = spawnSync(process.execPath, [CLI, dir, '--timeline', 'nope'], { encoding: 'utf8' });
    assert.equal(res.status, 2);
    assert.equal(res.stdout, '');
    assert.equal(res.stderr, `report: --timeline: no scenario 'nope' in ${dir} (its scenarios: hello, sequential_6000)\n`);
    assert.ok(!fs.existsSync(path.join(dir, 'report.html')));
    assert.ok(!fs.existsSync(path.join(dir, 'charts')));
  });

  it('--timeline without a scenario: commander\'s line and the usage', () => {
    const res = spawnSync(process.execPath, [CLI, dir, '--timeline'], { encoding: 'utf8' });
    assert.equal(res.status, 2);
    assert.match(res.stderr, /^report: option '--timeline <scenario>' argument missing\nusage: npm run report -- <results-dir> \[--timeline <scenario>\] \[--profiles <dir>\] \[--no-png\] \[--quiet\]\n$/);
  });
});
