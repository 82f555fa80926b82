/** Request signatures (design notes "Request signature"): our HMAC-SHA256 against node:crypto, and the header parser. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { HmacSha256Key } from '../../src/server/auth/hmac-sha256.js';
import {
  computeSignature,
  parseSignatureHeader,
  readCanonical,
  verifySignature,
} from '../../src/server/pipeline/signature.js';
import { KeyService } from '../../src/server/auth/keys.js';

it('HmacSha256Key equals node:crypto HMAC-SHA256 for keys shorter and longer than a block, any text and body', () => {
  const out = Buffer.alloc(32);
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.uint8Array({ maxLength: 1000 }),
      (key, text, body) => {
        // bodies on both sides of NATIVE_FROM_BYTES
        new HmacSha256Key(key).digestInto(text, body, out);
        assert.equal(out.toString('hex'), createHmac('sha256', key).update(text).update(body).digest('hex'));
      },
    ),
    { numRuns: 500 },
  );
  // Every message length around the block and padding boundaries, a string key, a large body.
  const key = new HmacSha256Key(`gov_sig_${'ab'.repeat(32)}`);
  for (let n = 0; n < 200; n++) {
    const text = 'x'.repeat(n);
    key.digestInto(text, Buffer.alloc(0), out);
    assert.equal(
      out.toString('hex'),
      createHmac('sha256', `gov_sig_${'ab'.repeat(32)}`)
        .update(text)
        .digest('hex'),
      `length ${n}`,
    );
  }
  const big = Buffer.alloc(2 * 1024 * 1024, 7);
  key.digestInto('1700000000.POST./api/public/v1/evaluate/inline.', big, out);
  assert.equal(
    out.toString('hex'),
    computeSignature(`gov_sig_${'ab'.repeat(32)}`, 1700000000, 'post', '/api/public/v1/evaluate/inline', big),
  );
});

it('parses t and v1 candidates and refuses malformed headers', () => {
  const v = 'a'.repeat(64);
  assert.deepEqual(parseSignatureHeader(`t=1700000000,v1=${v}`), { t: 1700000000, v1: [v] });
  assert.deepEqual(parseSignatureHeader(` t=1 , v1=${v} ,v0=zz, v1=${'b'.repeat(64)}`), {
    t: 1,
    v1: [v, 'b'.repeat(64)],
  });
  for (const bad of [
    '',
    't=1',
    `v1=${v}`,
    `t=x,v1=${v}`,
    `t=1,v1`,
    `t=1234567890123,v1=${v}`,
    `t=1,v1=${'A'.repeat(64)}`,
  ])
    assert.equal(parseSignatureHeader(bad), null, bad);
});

it('reads a canonical header exactly as the general parser does, and nothing else', () => {
  const into = Buffer.alloc(32);
  const hex = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'));
  const canonical = fc.tuple(fc.stringMatching(/^\d{1,12}$/), hex).map(([t, v]) => `t=${t},v1=${v}`);
  const near = fc.oneof(
    canonical,
    canonical.map((h) => h.toUpperCase()),
    canonical.map((h) => `${h} `),
    canonical.map((h) => ` ${h}`),
    canonical.map((h) => h.slice(0, -1)),
    canonical.map((h) => `${h}0`),
    canonical.map((h) => h.replace(',v1=', ',v2=')),
    canonical.map((h) => h.replace('t=', 't=x')),
    fc.tuple(fc.stringMatching(/^\d{13}$/), hex).map(([t, v]) => `t=${t},v1=${v}`),
    fc.string({ minLength: 60, maxLength: 90 }),
  );
  fc.assert(
    fc.property(near, (header) => {
      const t = readCanonical(header, into);
      const m = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header);
      if (!m) {
        assert.equal(t, -1, header);
        return;
      }
      assert.deepEqual(parseSignatureHeader(header), { t, v1: [into.toString('hex')] });
      assert.equal(into.toString('hex'), m[2]);
    }),
    { numRuns: 3000 },
  );
});

it('accepts a request signed over its method, raw path and query (ASCII or not), and refuses any change', () => {
  const keys = new KeyService({} as never, { master: Buffer.alloc(32, 1), pepper: Buffer.alloc(32, 2) }, 'gov');
  const nowS = 1_795_000_000;
  const check = verifySignature(keys, {} as never, 300, () => nowS * 1000);
  const secret = keys.signingSecret('key_1');
  const ctx = { key: { key_id: 'key_1' } } as never;
  const part = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 40 }));
  fc.assert(
    fc.property(part, part, fc.integer({ min: -300, max: 300 }), (path, query, skew) => {
      const t = nowS + skew;
      const target = query === '' ? `/${path}` : `/${path}?${query}`;
      const req = (method: string, p: string, q: string, sig: string) =>
        ({ method, path: p, query: q, body: Buffer.alloc(0), headers: { 'x-service-signature': sig } }) as never;
      const header = `t=${t},v1=${computeSignature(secret, t, 'GET', target, '')}`;
      assert.equal(check(req('GET', `/${path}`, query, header), ctx), null);
      assert.notEqual(check(req('HEAD', `/${path}`, query, header), ctx), null);
      assert.notEqual(check(req('GET', `/${path}x`, query, header), ctx), null);
      assert.notEqual(check(req('GET', `/${path}`, `${query}&`, header), ctx), null);
      const other = `t=${t - 1},v1=${computeSignature(secret, t, 'GET', target, '')}`;
      assert.notEqual(check(req('GET', `/${path}`, query, other), ctx), null);
    }),
    { numRuns: 500 },
  );
});
