'use strict';
// Server settings: command-line flags win over environment variables, which win over the
// defaults in contract.json (shared with the EventMachine server, so both enforce the same limits).

const path = require('node:path');
const { parseArgs } = require('node:util');
const contract = require('../contract.json');

const DEFAULT_PORT = 8080;
const USAGE = 'usage: node node/server.js [--host HOST] [--port PORT] [--root DIR] [--upstream HOST:PORT] [--redis HOST:PORT]';
// A backend's address, as config.rb reads it: a name or IPv4 address, or an IPv6 one in brackets.
const BACKEND_ADDRESS = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

function positiveInteger(name, raw, { zeroAllowed = false } = {}) {
  if (!/^\d+$/.test(String(raw)) || (Number(raw) === 0 && !zeroAllowed)) {
    throw new Error(`${name} must be a ${zeroAllowed ? 'whole number' : 'positive integer'}, got '${raw}'`);
  }
  return Number(raw);
}

/** The same checks as the Ruby servers' config.rb: settings both servers can honour alike. */
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

/**
 * A backend's HOST:PORT as { host, port } (brackets off an IPv6 host), or null when not set
 * (absent or empty); throws on a malformed one. Only the form is checked: an unreachable
 * backend is not a start-up error, its routes answer 502/503 until it is there.
 */
function backendAddress(name, raw) {
  if (raw === undefined || raw === '') return null;
  const match = BACKEND_ADDRESS.exec(raw);
  const port = match ? Number(match[2]) : 0;
  if (!match || port < 1 || port > 65535) throw new Error(`${name} must be HOST:PORT with a port 1..65535, got '${raw}'`);
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

/** Reads flags and environment; throws an Error with a one-line message on bad input. */
function readConfig(argv = process.argv.slice(2), env = process.env) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        root: { type: 'string' },
        upstream: { type: 'string' },
        redis: { type: 'string' },
        help: { type: 'boolean' },
      },
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
    upstream: backendAddress('upstream', flags.upstream ?? env.UPSTREAM),
    redis: backendAddress('redis', flags.redis ?? env.REDIS),
  };
}

module.exports = { readConfig, USAGE, contract };
