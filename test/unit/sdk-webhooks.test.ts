/** `verifyWebhook` and `signWebhook` of the SDK against the reference Standard Webhooks library, both directions. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signWebhook, verifyWebhook, WebhookVerificationError, type WebhookFailure } from '@gov/sdk';
import { signWebhook as serverSign } from '../../src/actors/webhooks/signing.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({
  type: 'evaluation.complete',
  timestamp: '2026-11-26T10:00:00.000Z',
  data: { evaluation_id: 'e1', status: 'complete', total_scenarios: 1, scenarios: [] },
});
const nowMs = Date.UTC(2026, 10, 26, 10, 0, 0);
const ts = nowMs / 1000;

function refused(run: () => unknown, reason: WebhookFailure): void {
  assert.throws(run, (err) => err instanceof WebhookVerificationError && err.reason === reason);
}

describe('verifyWebhook (Standard Webhooks)', () => {
  it("verifies the reference library's signature", () => {
    const signature = new Webhook(secret).sign('msg_1', new Date(nowMs), body);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts), 'webhook-signature': signature };
    const event = verifyWebhook({ secret, headers, body, nowMs });
    assert.equal(event.type, 'evaluation.complete');
    assert.equal(event.data['evaluation_id'], 'e1');
  });

  it('signs what the reference library verifies, and what the server sends', () => {
    const signature = signWebhook(secret, 'msg_2', ts, body);
    assert.equal(signature, serverSign(secret, 'msg_2', ts, body));
    const headers = { 'webhook-id': 'msg_2', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) };
    const live = signWebhook(secret, 'msg_2', Number(headers['webhook-timestamp']), body);
    assert.deepEqual(new Webhook(secret).verify(body, { ...headers, 'webhook-signature': live }), JSON.parse(body));
  });

  it('accepts any matching entry of a space-separated signature list and a fetch Headers object', () => {
    const good = signWebhook(secret, 'msg_3', ts, body);
    const headers = new Headers({
      'webhook-id': 'msg_3',
      'webhook-timestamp': String(ts),
      'webhook-signature': `v1,${randomBytes(32).toString('base64')} ${good}`,
    });
    assert.equal(verifyWebhook({ secret, headers, body: Buffer.from(body), nowMs }).type, 'evaluation.complete');
  });

  it('refuses a wrong secret, both with our verifier and the reference one', () => {
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    const headers = {
      'webhook-id': 'msg_4',
      'webhook-timestamp': String(ts),
      'webhook-signature': signWebhook(other, 'msg_4', ts, body),
    };
    refused(() => verifyWebhook({ secret, headers, body, nowMs }), 'no_matching_signature');
    const nowHeaders = { ...headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) };
    nowHeaders['webhook-signature'] = new Webhook(other).sign('msg_4', new Date(), body);
    assert.throws(() => new Webhook(secret).verify(body, nowHeaders));
    refused(() => verifyWebhook({ secret, headers: nowHeaders, body }), 'no_matching_signature');
  });

  it('refuses a timestamp more than 5 minutes away in either direction, and a changed body', () => {
    for (const offset of [-301, 301]) {
      const at = ts + offset;
      const headers = {
        'webhook-id': 'm',
        'webhook-timestamp': String(at),
        'webhook-signature': signWebhook(secret, 'm', at, body),
      };
      refused(() => verifyWebhook({ secret, headers, body, nowMs }), 'timestamp_out_of_tolerance');
    }
    const at = ts - 299;
    const headers = {
      'webhook-id': 'm',
      'webhook-timestamp': String(at),
      'webhook-signature': signWebhook(secret, 'm', at, body),
    };
    assert.equal(verifyWebhook({ secret, headers, body, nowMs }).type, 'evaluation.complete');
    refused(() => verifyWebhook({ secret, headers, body: body.replace('e1', 'e2'), nowMs }), 'no_matching_signature');
  });

  it('refuses missing headers and a malformed timestamp', () => {
    refused(() => verifyWebhook({ secret, headers: { 'webhook-id': 'm' }, body, nowMs }), 'missing_headers');
    const headers = { 'webhook-id': 'm', 'webhook-timestamp': '12.5', 'webhook-signature': 'v1,AAAA' };
    refused(() => verifyWebhook({ secret, headers, body, nowMs }), 'invalid_timestamp');
  });
});
