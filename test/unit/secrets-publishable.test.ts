/**
 * Publishable keys (issue 32): a key whose own claims or documented prefix say it is public is a
 * `publishable-key` (SEC-1 low), whatever detector found it; a JWT that claims a privileged role stays
 * a secret. JWT payloads are decoded safely. Every token is our own fake (fake signatures).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { scanForSecrets } from '../../src/engine/secrets/scan.js';
import { jwtClaims, publishableKey, MAX_JWT_PAYLOAD } from '../../src/engine/secrets/publishable.js';
import { bp, fakeToken, m } from '../helpers/blueprints.js';
import { findingsOf, violationOf } from '../helpers/policy-assert.js';

const b64url = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');
/** A JWT of our own: HS256 header, the given claims, a random 43-character signature (not a real one). */
const jwt = (claims: Record<string, unknown>, seed: number) =>
  `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(claims)}.${fakeToken(seed, 43)}`;
/** Shaped like a Supabase project's legacy keys: issuer, project ref, role, ten-year expiry. */
const supabaseKey = (role: string, seed: number) =>
  jwt(
    { iss: 'supabase', ref: fakeToken(seed, 20, 'abcdefghijklmnopqrstuvwxyz'), role, iat: 1700000000, exp: 2015000000 },
    seed + 1,
  );
const kinds = (text: string, field: string | null = null) => scanForSecrets(text, field).map((f) => f.kind);

describe('JWT claims are decoded safely', () => {
  it('reads the claims of a JWT, with or without padding, and base64 (+/) characters', () => {
    assert.equal(jwtClaims(supabaseKey('anon', 1))?.['role'], 'anon');
    const [h, p, s] = supabaseKey('anon', 2).split('.');
    assert.equal(jwtClaims(`${h}.${p}==.${s}`)?.['role'], 'anon');
  });
  it('returns null, never throws, on garbage: no dots, bad characters, bad JSON, not an object, too long', () => {
    for (const bad of [
      'eyJhbGciOiJIUzI1NiJ9',
      'eyJhbGciOiJIUzI1NiJ9.eyJ!!!.sig',
      `eyJhbGciOiJIUzI1NiJ9.${Buffer.from('{"role": "anon"').toString('base64url')}.sig`,
      `eyJhbGciOiJIUzI1NiJ9.${b64url('anon')}.sig`,
      `eyJhbGciOiJIUzI1NiJ9.${b64url(['anon'])}.sig`,
      `eyJhbGciOiJIUzI1NiJ9.${b64url(null)}.sig`,
      `eyJhbGciOiJIUzI1NiJ9.${'A'.repeat(MAX_JWT_PAYLOAD + 4)}.sig`,
      `eyJhbGciOiJIUzI1NiJ9.${Buffer.from([0xff, 0xfe, 0x00, 0x7b]).toString('base64url')}.sig`,
      'eyJ..',
    ])
      assert.equal(jwtClaims(bad), null, bad.slice(0, 40));
  });
});

describe('a publishable key is reported as such, whichever detector finds it', () => {
  it('a Supabase anon JWT (its role claim says anon) is publishable; a service_role JWT is not', () => {
    assert.ok(publishableKey(supabaseKey('anon', 3)));
    assert.equal(publishableKey(supabaseKey('service_role', 4)), null);
    assert.equal(publishableKey(supabaseKey('authenticated', 5)), null);
    assert.deepEqual(kinds(`Bearer ${supabaseKey('anon', 6)}`, 'Authorization'), ['publishable-key']);
    assert.deepEqual(kinds(supabaseKey('anon', 7), 'apikey'), ['publishable-key']);
    const service = scanForSecrets(supabaseKey('service_role', 8), 'apikey');
    assert.deepEqual(
      service.map((f) => f.kind),
      ['jwt'],
    );
    assert.match(service[0]!.title, /service_role.*bypasses Row Level Security/);
  });
  it('documented publishable prefixes in a header, a query parameter or a text assignment', () => {
    const stripe = `pk_live_${fakeToken(9, 24)}`;
    assert.deepEqual(kinds(stripe, 'x-api-key'), ['publishable-key']);
    assert.deepEqual(kinds(`https://api.example.org/checkout?key=${stripe}&plan=2`, 'url'), ['publishable-key']);
    assert.deepEqual(kinds(`{"api_key": "pk_test_${fakeToken(10, 24)}"}`, 'data'), ['publishable-key']);
    assert.deepEqual(kinds(`sb_publishable_${fakeToken(11, 31)}`, 'apikey'), ['publishable-key']);
    assert.deepEqual(kinds(`{"access_token": "pk.eyJ${fakeToken(12, 57)}.${fakeToken(13, 22)}"}`, 'data'), [
      'publishable-key',
    ]);
    // The secret counterparts stay secrets.
    assert.deepEqual(kinds(`sk_live_${fakeToken(14, 24)}`, 'x-api-key'), ['stripe-secret-key']);
    assert.deepEqual(kinds(`sb_secret_${fakeToken(15, 31)}`, 'apikey'), ['supabase-secret-key']);
  });
});

describe('SEC-1 on publishable keys', () => {
  const supabaseRest = (id: number, key: string) =>
    m(id, 'http:ActionSendData', {
      version: 3,
      mapper: {
        url: 'https://abcdefghijklmnopqrst.supabase.co/rest/v1/leads',
        method: 'post',
        headers: [
          { name: 'apikey', value: key },
          { name: 'Authorization', value: `Bearer ${key}` },
        ],
      },
    });
  it('reports a Supabase anon key sent as apikey and as Bearer once, low, saying it is publishable', () => {
    const b = bp([supabaseRest(1, supabaseKey('anon', 20))]);
    const v = violationOf(b, 'SEC-1')!;
    assert.equal(v.failing_modules.length, 1);
    assert.equal(v.failing_modules[0]!.severity, 'low');
    assert.equal(v.severity, 'low');
    assert.match(
      v.failing_modules[0]!.reason,
      /publishable: its claims say role "anon".*also in module 1 `mapper\.headers\[1\]\.value`/,
    );
  });
  it('keeps a service_role key high (it bypasses Row Level Security), also beside an anon key', () => {
    const b = bp([supabaseRest(1, supabaseKey('service_role', 21)), supabaseRest(2, supabaseKey('anon', 23))]);
    const f = findingsOf(b, 'SEC-1');
    assert.deepEqual(
      f.map((x) => `${x.moduleId}:${x.severity}`),
      ['1:high', '2:low'],
    );
    assert.match(f[0]!.reason, /service_role/);
  });
});
