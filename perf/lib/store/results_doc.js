'use strict';
// The results document, results.json: its version, its JSON Schema (perf/schemas/
// results.schema.json, draft 2020-12, checked with ajv), its encoder and its reader, together.
// The runner writes it through perf/lib/store/results_store.js (encodeResults) and checks what it
// wrote; the report, compare and the cross-check read it here. A file written before the schema
// existed (no schema_version) is read as it is, unchecked.

const fs = require('node:fs');
const path = require('node:path');
const Ajv2020 = require('ajv/dist/2020');

const RESULTS_FILE = 'results.json';
const SCHEMA_VERSION = 1;
const SCHEMA_FILE = path.join(__dirname, '..', '..', 'schemas', 'results.schema.json');

let validate = null;
function validator() {
  if (!validate) validate = new Ajv2020({ allErrors: false, strict: true }).compile(JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')));
  return validate;
}

/** Where a document breaks the schema, in one line ("/runs/3/replies must be integer"), or null. */
function schemaProblem(doc) {
  if (validator()(doc)) return null;
  const [e] = validate.errors;
  const where = e.instancePath || '(the document)';
  const detail = e.params && e.params.allowedValue !== undefined ? ` (${JSON.stringify(e.params.allowedValue)})` : e.params && e.params.additionalProperty ? ` ('${e.params.additionalProperty}')` : '';
  return `${where} ${e.message}${detail}`;
}

/** The results document of a run's parts, as results.json's text. */
function encodeResults({ environment, runs, ...extra }) {
  return `${JSON.stringify({ schema_version: SCHEMA_VERSION, environment, ...extra, runs }, null, 2)}\n`;
}

/** A results.json that cannot be read: the message fits one terminal line. */
class ResultsError extends Error {}

/**
 * Reads and checks a results.json: the parsed document, or a ResultsError saying what is
 * wrong with it (not JSON, no runs list, a schema_version this reader does not know, or where
 * it breaks the schema).
 */
function readResultsFile(file) {
  let doc;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ResultsError(e.code ? `cannot read ${file}: ${e.code}` : `${file} is not valid JSON: ${e.message.split('\n')[0]}`);
  }
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.runs)) throw new ResultsError(`${file} has no "runs" list`);
  if (doc.schema_version === undefined) return doc;
  if (doc.schema_version !== SCHEMA_VERSION) throw new ResultsError(`${file} has schema_version ${JSON.stringify(doc.schema_version)}; this version of the project reads ${SCHEMA_VERSION}`);
  const problem = schemaProblem(doc);
  if (problem) throw new ResultsError(`${file} does not match perf/schemas/results.schema.json: ${problem}`);
  return doc;
}

module.exports = { RESULTS_FILE, SCHEMA_VERSION, SCHEMA_FILE, schemaProblem, encodeResults, readResultsFile, ResultsError };
