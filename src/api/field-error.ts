/**
 * @module api/field-error: a field-level validation error of the public API (spec §4: a 422's
 * `detail[]`), shared by the HTTP server and the evaluation worker, which validates inline bodies.
 */

/** A field-level validation error inside a 422 `detail[]`: JSON Pointer into the request body and a message. */
export interface FieldError {
  readonly path: string;
  readonly message: string;
}
