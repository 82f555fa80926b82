/** Finding fingerprints (engine/fingerprint.ts): stable values, and the per-violation prefix gives the same result. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  fingerprint,
  fingerprintFrom,
  fingerprintPrefix,
  fingerprintWithPrefix,
} from '../../src/engine/fingerprint.js';

it('is stable across releases (stored fingerprints track findings across blueprint versions)', () => {
  assert.equal(fingerprint('SEC-1', 'scn', '/flow/0'), '59d4522ed02566e6');
  assert.match(fingerprint(''), /^[0-9a-f]{16}$/);
});

it('hashes a violation prefix once: fingerprintFrom(fingerprintPrefix(a, b), [c]) equals fingerprint(a, b, c)', () => {
  fc.assert(
    fc.property(fc.string(), fc.string(), fc.string(), (a, b, c) => {
      assert.equal(fingerprintFrom(fingerprintPrefix(a, b), [c]), fingerprint(a, b, c));
    }),
  );
});

it('fingerprintWithPrefix(a, b) gives fingerprint(a, b) and fingerprintPrefix(a, b) from one pass', () => {
  fc.assert(
    fc.property(fc.string(), fc.string(), (a, b) => {
      const both = fingerprintWithPrefix(a, b);
      assert.equal(both.fingerprint, fingerprint(a, b));
      assert.deepEqual(both.prefix, fingerprintPrefix(a, b));
    }),
  );
});
