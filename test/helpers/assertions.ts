/** @module test/helpers/assertions: shared assertions on API responses. */
import assert from 'node:assert/strict';
import type { ClientResponse } from '../../src/client/client.js';

/** Asserts an error response in the spec's envelope: the status, `ok: false` and the exact `error` string. */
export function expectError(res: ClientResponse, status: number, error: string): void {
  assert.equal(res.status, status, res.raw);
  assert.equal(res.body.ok, false);
  assert.equal(res.body.error, error);
}
