'use strict';
// JSON Schemas compiled once and kept as Ajv's standalone code (perf/lib/store/compiled_schema.js):
// the kept code judges as the compiled schema does, an edited schema compiles anew, and a cache
// that cannot be written still gives a validator.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { compiledSchema } = require('../../../perf/lib/store/compiled_schema');
const { makeTmpDir } = require('../../support/runner_helpers');

const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['rate'],
  properties: { rate: { type: 'number', minimum: 1, unit: ' per second' } },
  additionalProperties: false,
};
const OPTIONS = { options: { strict: true, verbose: true }, keywords: ['unit'] };

describe('compiled schemas: Ajv\'s standalone code, kept', () => {
  let dir;
  beforeEach(() => {
    dir = makeTmpDir('schema-cache-');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const verdicts = (validate) => [{ rate: 5 }, { rate: 0 }, {}, { rate: 5, extra: 1 }].map((doc) => (validate(doc) ? 'ok' : validate.errors[0].keyword + (validate.errors[0].parentSchema.unit || '')));

  it('compiles once, keeps the code, and the kept code judges alike (with the annotations of verbose errors)', () => {
    const compiled = compiledSchema(SCHEMA, { ...OPTIONS, cacheDir: dir });
    const kept = fs.readdirSync(dir);
    assert.equal(kept.length, 1);
    assert.match(kept[0], /^schema-[0-9a-f]{20}\.js$/);
    const loaded = compiledSchema(SCHEMA, { ...OPTIONS, cacheDir: dir });
    assert.notEqual(loaded, compiled, 'the second is the kept code, not the compiled function');
    assert.deepEqual(verdicts(loaded), verdicts(compiled));
    assert.deepEqual(verdicts(loaded), ['ok', 'minimum per second', 'required', 'additionalProperties']);
  });

  it('an edited schema, other options or other keywords are compiled anew, beside the first', () => {
    compiledSchema(SCHEMA, { ...OPTIONS, cacheDir: dir });
    const edited = compiledSchema({ ...SCHEMA, properties: { rate: { type: 'number', minimum: 10, unit: ' per second' } } }, { ...OPTIONS, cacheDir: dir });
    assert.equal(edited({ rate: 5 }), false);
    compiledSchema(SCHEMA, { options: { strict: true }, keywords: ['unit'], cacheDir: dir });
    assert.equal(fs.readdirSync(dir).length, 3);
  });

  it('a cache that cannot be written: the validator compiled in memory, nothing left behind', () => {
    const file = path.join(dir, 'not-a-folder');
    fs.writeFileSync(file, '');
    const validate = compiledSchema(SCHEMA, { ...OPTIONS, cacheDir: file });
    assert.deepEqual(verdicts(validate), ['ok', 'minimum per second', 'required', 'additionalProperties']);
    assert.deepEqual(fs.readdirSync(dir), ['not-a-folder']);
  });
});
