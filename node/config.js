'use strict';
// Server settings: command-line flags win over environment variables, which win over the
// defaults in contract.json (shared with the EventMachine server, so both enforce the same limits).

const path = require('node:path');
const { parseArgs } = require('node:util');
const contract = require('../contract.json');

const DEFAULT_PORT = 8080;
const USAGE = 'usage: node node/server.js [--host HOST] [--port PORT] [--root DIR]';

function positiveInteger(name, raw, { zeroAllowed = false } = {}) {
  if (!/^\d+$/.test(String(raw)) || (Number(raw) === 0 && !zeroAllowed)) {
    throw new Error(`${name} must be a ${zeroAllowed ? 'whole number' : 'positive integer'}, got '${raw}'`);
  }
  return Number(raw);
}

/** The same checks as the EventMachine server's config.rb: settings both servers can honour alike. */
function checkLimits(limits) {
  for (const [name, most] of Object.entries(contract.limits_max)) {
    if (limits[name] > most) {
      throw new Error(`${name}=${limits[name]} is above ${most}, the most eventmachine_httpserver's parser can take; both servers refuse it so that they keep the same limits`);
    }
  }
  if (limits.REQUEST_TIMEOUT_MS < limits.HEADERS_TIMEOUT_MS) {
    throw new Error(`REQUEST_TIMEOUT_MS=${limits.REQUEST_TIMEOUT_MS} must be at least HEADERS_TIMEOUT_MS=${limits.HEADERS_TIMEOUT_MS}`);
  }
}

/** Reads flags and environment; throws an Error with a one-line message on bad input. */
function readConfig(argv = process.argv.slice(2), env = process.env) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { host: { type: 'string' }, port: { type: 'string' }, root: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    });
  } catch (err) {
    throw new Error(`${err.message}\n${USAGE}`, { cause: err });
  }
  const flags = parsed.values;
  const limits = {};
  for (const [name, fallback] of Object.entries(contract.limits)) {
    limits[name] = env[name] === undefined ? fallback : positiveInteger(name, env[name], { zeroAllowed: fallback === 0 });
  }
  checkLimits(limits);
  const port = positiveInteger('port', flags.port ?? env.PORT ?? DEFAULT_PORT);
  if (port > 65535) throw new Error(`port must be at most 65535, got ${port}`);
  return {
    help: Boolean(flags.help),
    host: flags.host ?? env.HOST ?? '127.0.0.1',
    port,
    root: path.resolve(flags.root ?? env.ROOT ?? path.join(__dirname, '..', 'shared_www')),
    limits,
  };
}

module.exports = { readConfig, USAGE, contract };
