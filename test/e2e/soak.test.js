'use strict';
// The soak script's short mode: both servers under mixed and hostile load, memory bounded.

const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const path = require('node:path');

describe('scripts/soak.sh --short', function () {
  this.timeout(90000);

  it('soaks both servers and finds their memory bounded', async () => {
    const { code, stdout } = await new Promise((resolve) => {
      execFile('node', [path.join(__dirname, '..', '..', 'perf', 'cli', 'soak.js'), '--short'], { timeout: 80000 }, (err, out) =>
        resolve({ code: err ? err.code : 0, stdout: out }),
      );
    });
    const verdicts = stdout.split('\n').filter((l) => /^\s+(node|em): (ok|FAILED)/.test(l));
    assert.equal(verdicts.length, 2, stdout);
    for (const line of verdicts) {
      assert.match(line, /: ok {2}requests [1-9]\d*, errors 0,/, line);
    }
    assert.equal(code, 0, stdout);
  });

  it('refuses a bad option with usage and exit 2', async () => {
    const { code, stderr } = await new Promise((resolve) => {
      execFile('node', [path.join(__dirname, '..', '..', 'perf', 'cli', 'soak.js'), '--seconds', 'lots'], (err, out, errOut) =>
        resolve({ code: err ? err.code : 0, stderr: errOut }),
      );
    });
    assert.equal(code, 2);
    assert.match(stderr, /^soak.sh: option '--seconds <n>' argument 'lots' is invalid\. must be a whole number of seconds from 2 to 3600\.\nusage: scripts\/soak.sh /);
    assert.equal(stderr.trim().split('\n').length, 2, stderr);
  });
});
