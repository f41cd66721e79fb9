'use strict';
// The project's JSON Schemas (perf/schemas/) as validators, compiled by Ajv once per schema and
// kept as Ajv's standalone code. Compiling them costs every command that reads a scenario, a
// ramp or a results.json 0.2-0.45 s each at start (results 0.44 s, scenarios 0.24 s, ramps
// 0.19 s: more than the rest of a command's start); the standalone code loads in about 10 ms.
// The code is kept in node_modules/.cache/em-vs-node/ (the usual home of a package's cache),
// named by a digest of the schema, the options, the added keywords and Ajv's version, so an
// edited schema or another Ajv compiles anew. A cache that cannot be read or written is not an
// error: the validator is then compiled in memory, as before.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const Ajv2020 = require('ajv/dist/2020');
const standaloneCode = require('ajv/dist/standalone').default;
const AJV_VERSION = require('ajv/package.json').version;

const CACHE_DIR = path.join(__dirname, '..', '..', '..', 'node_modules', '.cache', 'em-vs-node');

/** A new Ajv (draft 2020-12) with these options and annotation-only keywords. */
function makeAjv(options, keywords) {
  const ajv = new Ajv2020({ ...options, code: { source: true } });
  for (const keyword of keywords) ajv.addKeyword({ keyword, schemaType: 'string' });
  return ajv;
}

/**
 * schema's validator (a function of a document, its errors in .errors as Ajv gives them).
 * options: Ajv's; keywords: names of keywords that only annotate the schema (no validation).
 * cacheDir: where the compiled code is kept (tests give their own).
 */
function compiledSchema(schema, { options = {}, keywords = [], cacheDir = CACHE_DIR } = {}) {
  const digest = crypto.createHash('sha256').update(JSON.stringify({ schema, options, keywords, ajv: AJV_VERSION })).digest('hex').slice(0, 20);
  const file = path.join(cacheDir, `schema-${digest}.js`);
  try {
    return require(file);
  } catch (err) {
    if (err.code !== 'MODULE_NOT_FOUND') throw err;
  }
  const ajv = makeAjv(options, keywords);
  const validate = ajv.compile(schema);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    // Written whole, then renamed: two commands started together never read half a file.
    fs.writeFileSync(tmp, standaloneCode(ajv, validate));
    fs.renameSync(tmp, file);
  } catch {
    // A read-only or full disk: the validator compiled in memory does the same job.
    fs.rm(tmp, { force: true }, () => {});
  }
  return validate;
}

module.exports = { compiledSchema, CACHE_DIR };
