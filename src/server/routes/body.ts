/** @module server/routes/body: parse and validate a JSON request body against a compiled schema (422 with `detail[]` otherwise). */
import type { ValidateFunction } from 'ajv';
import type { ApiRequest, ApiResponse } from '../http/types.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';
import { fieldErrors, parseJsonBody } from '../../api/requests.js';

/** The validated body as `T`, or the 422 response to send (malformed JSON, or schema errors with their JSON paths). */
export function readBody<T>(
  req: ApiRequest,
  validate: ValidateFunction,
): { ok: true; value: T } | { ok: false; response: ApiResponse } {
  const parsed = parseJsonBody(req.body);
  if (!parsed.ok) return { ok: false, response: fail(API_ERRORS.invalidBody, { detail: parsed.detail }) };
  if (!validate(parsed.value))
    return { ok: false, response: fail(API_ERRORS.invalidBody, { detail: fieldErrors(validate.errors) }) };
  return { ok: true, value: parsed.value as T };
}
