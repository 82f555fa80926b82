/** SEC-6 .. SEC-9: a passing and a failing blueprint each, with the exact failing module ids. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';

const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 1 } });
const http = (id: number, mapper: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  m(id, 'http:ActionSendData', { version: 3, mapper, onerror: breakHandler(id + 100), ...extra });

describe('SEC-6 request URL controlled by webhook input', () => {
  it('fails when the host comes from the webhook, directly or through a variable', () => {
    const viaVar = m(2, 'util:SetVariable2', { mapper: { name: 'target', value: '{{1.callback}}' } });
    assert.deepEqual(
      failingIds(
        bp([hook, viaVar, http(3, { url: '{{2.target}}/notify' }), http(4, { url: 'https://{{1.host}}/x' })]),
        'SEC-6',
      ),
      ['3', '4'],
    );
  });
  it('passes when only the path or query comes from the webhook', () => {
    passes(bp([hook, http(3, { url: 'https://api.example.com/orders/{{1.id}}?q={{1.q}}' })]), 'SEC-6');
  });
});

describe('SEC-7 code module on untrusted input', () => {
  it('fails for a code module fed with webhook data', () => {
    assert.deepEqual(
      failingIds(
        bp([hook, m(2, 'code:ExecuteCode', { mapper: { input: '{{1.script}}' }, onerror: breakHandler(9) })]),
        'SEC-7',
      ),
      ['2'],
    );
  });
  it('passes when the code input does not come from the webhook', () => {
    passes(
      bp([m(1, 'google-sheets:watchRows'), m(2, 'code:ExecuteCode', { mapper: { input: '{{1.value}}' } })]),
      'SEC-7',
    );
  });
});

describe('SEC-8 credentials forwarded on redirects', () => {
  it('fails for an authenticated request following all redirects', () => {
    assert.deepEqual(
      failingIds(
        bp([
          http(2, {
            url: 'https://a.example.com',
            followAllRedirects: true,
            headers: [{ name: 'Authorization', value: 'Bearer {{9.value}}' }],
          }),
        ]),
        'SEC-8',
      ),
      ['2'],
    );
  });
  it('passes without credentials or without followAllRedirects', () => {
    passes(
      bp([
        http(2, { url: 'https://a.example.com', followAllRedirects: true }),
        http(3, {
          url: 'https://b.example.com',
          followAllRedirects: false,
          headers: [{ name: 'Authorization', value: 'Bearer {{9.value}}' }],
        }),
      ]),
      'SEC-8',
    );
  });
});

describe('SEC-9 shared cookies', () => {
  it('warns for shareCookies', () => {
    assert.deepEqual(failingIds(bp([http(2, { url: 'https://a.example.com', shareCookies: true })]), 'SEC-9'), ['2']);
    assert.equal(
      violationOf(bp([http(2, { url: 'https://a.example.com', shareCookies: true })]), 'SEC-9')!.status,
      'warn',
    );
  });
  it('passes without it', () => {
    passes(bp([http(2, { url: 'https://a.example.com', shareCookies: false })]), 'SEC-9');
  });
});

describe('SEC-5 mail hooks', () => {
  const mailhook = m(1, 'gateway:CustomMailHook', { parameters: { hook: 1 } });
  it('fails for a mail hook with no sender check', () => {
    assert.deepEqual(
      failingIds(
        bp([mailhook, m(2, 'google-sheets:addRow', { onerror: breakHandler(9) })], {}, { instant: true }),
        'SEC-5',
      ),
      ['1'],
    );
  });
  it('passes when a filter checks the sender', () => {
    passes(
      bp(
        [
          mailhook,
          m(2, 'google-sheets:addRow', {
            onerror: breakHandler(9),
            filter: {
              name: 'known sender',
              conditions: [[{ a: '{{1.sender.address}}', o: 'text:equal', b: 'billing@vendor.example.com' }]],
            },
          }),
        ],
        {},
        { instant: true },
      ),
      'SEC-5',
    );
  });
});
