/** @module test/helpers/assertions: shared assertions on API responses and typed reads of their bodies. */
import assert from 'node:assert/strict';
import type { ClientResponse } from '../../src/client/client.js';
import type { Failure, Reply } from '../../src/client/responses.js';

/**
 * The `data` of a success envelope (`Reply<T>`, or the console's `{ ok: true, data }` without `meta`);
 * fails the test, showing the raw body, when the answer is an error envelope.
 */
export function dataOf<T>(res: ClientResponse<{ readonly ok: true; readonly data: T } | Failure>): T {
  const body = res.body;
  assert.ok(body.ok, res.raw);
  return body.data;
}

/** The error envelope of a response; fails the test, showing the raw body, when the answer is a success. */
export function failureOf(res: ClientResponse<Reply<unknown>>): Failure {
  const body = res.body;
  assert.ok(!body.ok, res.raw);
  return body;
}

/**
 * The `error` string of a body of any shape (a JSON object with a string `error`), else undefined: for
 * tests that tally outcomes without asserting each body's shape.
 */
export function errorOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  return typeof body.error === 'string' ? body.error : undefined;
}

/** Asserts an error response in the spec's envelope: the status, `ok: false` and the exact `error` string. */
export function expectError(res: ClientResponse<unknown>, status: number, error: string): void {
  assert.equal(res.status, status, res.raw);
  const body = res.body;
  assert.ok(typeof body === 'object' && body !== null, res.raw);
  assert.equal('ok' in body ? body.ok : undefined, false);
  assert.equal('error' in body ? body.error : undefined, error);
}
