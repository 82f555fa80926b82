/** Every 401, 403 and 429 of the error table carries a refusal code, and docs/operations.md lists every code. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_ERRORS } from '../../src/server/errors.js';
import { REFUSAL_REASONS, REFUSAL_STATUSES } from '../../src/server/refusal-reasons.js';
import { fail } from '../../src/server/http/envelope.js';

const OPERATIONS = readFileSync(fileURLToPath(new URL('../../../docs/operations.md', import.meta.url)), 'utf8');

it('gives every 401, 403 and 429 row a refusal code, and no other row one', () => {
  for (const [name, row] of Object.entries(API_ERRORS)) {
    const reason = (row as { reason?: string }).reason;
    if (REFUSAL_STATUSES.includes(row.status)) assert.ok(reason && reason in REFUSAL_REASONS, `${name} has no reason`);
    else assert.equal(reason, undefined, `${name} is not a refusal`);
  }
});

it('carries the code on the response for the log, not in the body', () => {
  const res = fail(API_ERRORS.invalidSignature, { reason: 'stale_signature' });
  assert.equal(res.reason, 'stale_signature');
  assert.equal(fail(API_ERRORS.invalidSignature).reason, 'bad_signature');
  assert.ok(!String(res.body).includes('stale_signature'));
  assert.equal(fail(API_ERRORS.evaluationNotFound).reason, undefined);
});

it('documents every refusal code in docs/operations.md', () => {
  for (const code of Object.keys(REFUSAL_REASONS)) assert.ok(OPERATIONS.includes(`\`${code}\``), code);
});
