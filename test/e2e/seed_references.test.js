'use strict';
// The seed studies' reference servers (perf/servers.json: apache, libevent, libevent_rw,
// libevhtp): each starts as the runner starts it, passes the contract checks for what it
// serves, serves the site as the project servers do (folders' index pages, encoded names,
// nothing hidden or outside), and stops cleanly on SIGTERM with nothing left behind. A server
// this machine cannot run (not installed, not built) is skipped with the runner's own reason.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { startServer, loadServerDefinitions } = require('../../perf/lib/hosts/server_process');
const { checkContract } = require('../../perf/lib/run/contract_check');
const { missingRequirement } = require('../../perf/lib/plan/trial_plan');
const { exchange, request } = require('../support/raw_http');
const { alive } = require('../support/runner_helpers');

const SEED_SERVERS = ['apache', 'libevent', 'libevent_rw', 'libevhtp'];
const definitions = loadServerDefinitions();
const SITE = path.join(__dirname, '..', '..', 'shared_www');

describe('seed reference servers', function () {
  this.timeout(60000);

  for (const name of SEED_SERVERS) {
    describe(name, () => {
      let server;
      before(async function () {
        if (missingRequirement(definitions[name])) this.skip();
        server = await startServer(name, { definitions, readyTimeoutMs: 15000 });
      });
      after(async () => {
        if (server) await server.stop(3000);
      });

      it('passes the contract checks for what it serves (hello, files)', async () => {
        const result = await checkContract({ host: server.host, port: server.port }, [], { serves: definitions[name].serves });
        assert.equal(result.ok, true, result.failure);
        assert.ok(result.checks.length >= 5, JSON.stringify(result.checks.map((c) => c.name)));
      });

      it('serves the site as the project servers do: index pages, encoded names, nothing hidden or outside', async () => {
        const get = async (target) => (await exchange(server.port, request('GET', target), { timeoutMs: 5000 })).replies[0];
        const menu = await get('/files/caf%C3%A9%20menu.txt');
        assert.equal(menu.status, 200);
        assert.deepEqual(menu.body, fs.readFileSync(path.join(SITE, 'files', 'café menu.txt')));
        assert.match(menu.headers['content-type'], /^text\/plain; ?charset=utf-8$/);
        const docs = await get('/docs/');
        assert.equal(docs.status, 200);
        assert.deepEqual(docs.body, fs.readFileSync(path.join(SITE, 'docs', 'index.html')));
        const big = await get('/lipsum100k.txt');
        assert.equal(big.body.length, 102400);
        for (const target of ['/.hidden', '/%2e%2e/package.json', '/../package.json', '/img/../../package.json', '/no-such-file']) {
          assert.equal((await get(target)).status === 200, false, `${target} was served`);
        }
      });

      it('stops on SIGTERM within a second and a half, leaving no process behind', async () => {
        const pid = server.pid;
        const started = Date.now();
        await server.stop(3000);
        server = null;
        assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
        assert.equal(alive(pid), false);
        const left = spawnSync('pgrep', ['-f', name === 'apache' ? 'apache2 -X' : `${definitions[name].command}`], { encoding: 'utf8' }).stdout.trim();
        assert.equal(left, '', `still running: ${left}`);
      });
    });
  }

  it('a server that is not built is skipped with the runner\'s one line', () => {
    const missing = { ...definitions.libevhtp, requires: ['perf/c/build/no_such_server'] };
    assert.equal(missingRequirement(missing), "perf/c/build/no_such_server is not installed (scripts/setup.sh --references builds it; it needs Debian's libevhtp-dev)");
  });
});
