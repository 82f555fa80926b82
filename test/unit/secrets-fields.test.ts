/**
 * Recall in any field (issue 32): session cookies in a literal `Cookie` header, header names that end
 * in a secret word (`X-Auth-Key`, `awsAccessKey`), Make webhook URLs of older Integromat hosts. Our
 * own fakes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { scanForSecrets } from '../../src/engine/secrets/scan.js';
import { fakeToken } from '../helpers/blueprints.js';

const hex = '0123456789abcdef';
const found = (text: string, field: string | null) =>
  scanForSecrets(text, field).map((f) => `${f.kind}:${text.slice(f.start, f.end)}`);

describe('credentials in any field', () => {
  it('finds every session cookie of a literal Cookie header, not preferences or mapped values', () => {
    const sid = fakeToken(501, 40);
    const csrf = fakeToken(502, 32, hex);
    assert.deepEqual(found(`lang=en; sid=${sid}; theme=dark; csrftoken=${csrf}`, 'Cookie'), [
      `session-cookie:${sid}`,
      `credential-assignment:${csrf}`,
    ]);
    assert.deepEqual(found(`session="${sid}"`, 'cookie'), [`session-cookie:${sid}`]);
    assert.deepEqual(found('lang=en; theme=dark; consent=yes', 'Cookie'), []);
    assert.deepEqual(found(`sid={{1.session}}; lang=en`, 'Cookie'), []);
    assert.deepEqual(found(`sid=${sid}`, 'Accept-Language'), []);
  });
  it('takes a header name that ends in a secret word as credential context (`X-Auth-Key`, `awsAccessKey`, `privateKey`)', () => {
    for (const name of ['X-Auth-Key', 'awsAccessKey', 'privateKey', 'x-secret-key']) {
      const value = fakeToken(503, 24);
      assert.deepEqual(found(value, name), [`credential-field:${value}`], name);
    }
    assert.deepEqual(found(fakeToken(504, 24), 'sortKey'), []);
  });
  it('finds Make webhook URLs on every documented hook host, Integromat ones without a zone included', () => {
    const token = fakeToken(505, 32, 'abcdefghijklmnopqrstuvwxyz0123456789');
    for (const host of [
      'hook.eu1.make.com',
      'hook.us2.make.celonis.com',
      'hook.integromat.com',
      'hook.eu1.integromat.com',
    ])
      assert.deepEqual(found(`https://${host}/${token}`, 'url'), [`make-webhook-url-token:${token}`], host);
  });
});
