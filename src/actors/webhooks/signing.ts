/**
 * @module actors/webhooks/signing: Standard Webhooks signatures (standardwebhooks.com):
 * `webhook-signature: v1,<base64 HMAC-SHA256(key, id + "." + timestamp + "." + body)>`, where the
 * key is the base64-decoded part of the `whsec_` secret.
 */
import { createHmac } from 'node:crypto';

/** The endpoint secret: `whsec_` + base64 of HMAC-SHA256(webhook key, webhook id), derived, never stored. */
export function webhookSecret(webhookKey: Buffer, webhookId: string): string {
  return `whsec_${createHmac('sha256', webhookKey).update(webhookId).digest('base64')}`;
}

/** `v1,<base64 signature>` of a message. */
export function signWebhook(secret: string, messageId: string, timestampS: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampS}.${body}`).digest('base64')}`;
}
