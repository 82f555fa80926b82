/** @module api/requests: JSON Schemas of request bodies, compiled once at boot (ajv). */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { FieldError } from './field-error.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, valueNestsDeeperThan } from './json-depth.js';

/** Scenario ids: 1-128 characters without `/`, `:`, `?`, `#`, whitespace or control characters. */
export const SCENARIO_ID_PATTERN = '^[^\\s/:?#\\u0000-\\u001f]{1,128}$';

/** Largest batch (spec §8: 1 to 10 scenarios per batch). */
export const MAX_BATCH = 10;

/** `POST /evaluate` (spec §4): exactly one of `scenario_ids` / `blueprints`; `org_id` optional. */
export const evaluateRequestSchema = {
  type: 'object',
  properties: {
    scenario_ids: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_BATCH,
      items: { type: 'string', pattern: SCENARIO_ID_PATTERN },
    },
    blueprints: { type: 'array', minItems: 1, maxItems: MAX_BATCH, items: { type: 'object' } },
    org_id: { type: 'string', minLength: 1, maxLength: 64 },
  },
} as const;

/** `POST /evaluate/inline` (spec §4): `blueprint`, `include_remediation`, `save_to_workspace`, optional `scenario_id` for the saved copy. */
export const inlineRequestSchema = {
  type: 'object',
  required: ['blueprint'],
  properties: {
    blueprint: { type: 'object' },
    include_remediation: { type: 'boolean' },
    save_to_workspace: { type: 'boolean' },
    scenario_id: { type: 'string', pattern: SCENARIO_ID_PATTERN },
  },
} as const;

/** `POST /results/fetch` (spec §4). */
export const fetchRequestSchema = {
  type: 'object',
  required: ['result_token'],
  properties: { result_token: { type: 'string', minLength: 1, maxLength: 4096 } },
} as const;

/** One compiled validator per schema. */
export interface Validators {
  readonly evaluate: ValidateFunction;
  readonly inline: ValidateFunction;
  readonly fetch: ValidateFunction;
}

/** Compiles every request schema (once, at boot or worker start). */
export function compileValidators(): Validators {
  const ajv = new Ajv({ allErrors: true, strict: true });
  return {
    evaluate: ajv.compile(evaluateRequestSchema),
    inline: ajv.compile(inlineRequestSchema),
    fetch: ajv.compile(fetchRequestSchema),
  };
}

/** ajv errors → field errors with the JSON Pointer of each field (`/scenario_ids`, `/blueprint`). */
export function fieldErrors(errors: readonly ErrorObject[] | null | undefined): FieldError[] {
  return (errors ?? []).map((e) => {
    const missing = e.keyword === 'required' ? (e.params as { missingProperty: string }).missingProperty : null;
    const path = missing !== null ? `${e.instancePath}/${missing}` : e.instancePath || '/';
    return { path, message: missing !== null ? 'is required' : (e.message ?? 'is invalid') };
  });
}

/**
 * Parses a JSON body; a syntax error, or nesting deeper than MAX_JSON_DEPTH, becomes one field
 * error at `/` (a 422, never a stack overflow in a recursive consumer later).
 */
export function parseJsonBody(body: Uint8Array): { ok: true; value: unknown } | { ok: false; detail: FieldError[] } {
  if (nestsDeeperThan(body))
    return {
      ok: false,
      detail: [{ path: '/', message: `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels` }],
    };
  try {
    return { ok: true, value: JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) };
  } catch (err) {
    return {
      ok: false,
      detail: [{ path: '/', message: `malformed JSON: ${err instanceof Error ? err.message : 'cannot parse'}` }],
    };
  }
}

/**
 * Parses JSON the service stored itself (a stored blueprint, stored results) inside a worker: the
 * same outcome as `parseJsonBody` for text nesting at most MAX_JSON_DEPTH levels, a field error for
 * text that is malformed or nests deeper (then never handed to a recursive consumer). The depth is
 * read from the parsed value rather than from the bytes first: V8's `JSON.parse` is iterative, so a
 * deep text cannot overflow it, and the walk over the value costs a fraction of the byte scan on
 * large blueprints (issue 20, item 4). Request bodies keep `parseJsonBody`, whose error tells a
 * too-deep body from a malformed one before parsing it.
 */
export function parseStoredJson(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false; detail: FieldError[] } {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (err) {
    return {
      ok: false,
      detail: [{ path: '/', message: `malformed JSON: ${err instanceof Error ? err.message : 'cannot parse'}` }],
    };
  }
  if (valueNestsDeeperThan(value))
    return {
      ok: false,
      detail: [{ path: '/', message: `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels` }],
    };
  return { ok: true, value };
}
