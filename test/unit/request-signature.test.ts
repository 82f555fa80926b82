/** Request signatures (design notes "Request signature"): the prepared HMAC key and the header parser. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { computeSignature, hmacKey, parseSignatureHeader, signatureDigest } from '../../src/server/pipeline/signature.js';

it('a prepared key signs exactly like the secret itself, for secrets shorter and longer than a block', () => {
  fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 200 }), fc.string(), fc.uint8Array({ maxLength: 64 }), (secret, path, body) => {
    const reference = createHmac('sha256', secret).update(`1700000000.POST./x${path}.`).update(Buffer.from(body)).digest('hex');
    assert.equal(signatureDigest(hmacKey(secret), 1700000000, 'post', `/x${path}`, Buffer.from(body)).toString('hex'), reference);
    assert.equal(computeSignature(secret, 1700000000, 'POST', `/x${path}`, Buffer.from(body)), reference);
  }), { numRuns: 300 });
  const long = `gov_sig_${'ab'.repeat(32)}`;
  assert.ok(Buffer.byteLength(long) > 64);
  assert.equal(hmacKey(long).length, 32);
});

it('parses t and v1 candidates and refuses malformed headers', () => {
  const v = 'a'.repeat(64);
  assert.deepEqual(parseSignatureHeader(`t=1700000000,v1=${v}`), { t: 1700000000, v1: [v] });
  assert.deepEqual(parseSignatureHeader(` t=1 , v1=${v} ,v0=zz, v1=${'b'.repeat(64)}`), { t: 1, v1: [v, 'b'.repeat(64)] });
  for (const bad of ['', 't=1', `v1=${v}`, `t=x,v1=${v}`, `t=1,v1`, `t=1234567890123,v1=${v}`, `t=1,v1=${'A'.repeat(64)}`]) assert.equal(parseSignatureHeader(bad), null, bad);
});
