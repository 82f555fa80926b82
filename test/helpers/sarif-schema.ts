/**
 * @module test/helpers/sarif-schema: asserts a SARIF log against the SARIF 2.1.0 schema (OASIS, as
 * shipped by @microsoft/jest-sarif), for the scanner's integration test and the code-flow unit test.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { SchemaObject } from 'ajv';

const require = createRequire(import.meta.url);

/** Asserts that `log` validates against the SARIF 2.1.0 schema; the message holds the first three errors. */
export function assertSarif(log: unknown): void {
  // CommonJS `module.exports = Ajv`: required, as an ESM default import would be typed as the namespace.
  const Ajv = require('ajv-draft-04') as typeof import('ajv-draft-04').default;
  const schema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json') as SchemaObject;
  const validate = new Ajv({
    strict: false,
    allErrors: true,
    unicodeRegExp: false,
    validateFormats: false,
    logger: false,
  }).compile(schema);
  assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 3)));
}
