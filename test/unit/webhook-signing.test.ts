/** Standard Webhooks signing (test vector of the Standard Webhooks specification), retry delays and SSRF checks. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { signWebhook } from '../../src/actors/webhooks/signing.js';
import { retryDelay } from '../../src/actors/webhooks/delivery-actor.js';
import { guardedLookup, isPublicAddress, targetProblem } from '../../src/actors/webhooks/target-guard.js';
import { sendWebhook } from '../../src/actors/webhooks/send.js';

it('signs like the Standard Webhooks reference vector', () => {
  assert.equal(signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'), 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
});

it('backs off exponentially with jitter, capped, and honours a longer Retry-After', () => {
  const opts = { backoffBaseMs: 1000, backoffMaxMs: 60_000 };
  assert.equal(retryDelay(1, opts, null, () => 0), 500);
  assert.equal(retryDelay(1, opts, null, () => 1), 1000);
  assert.equal(retryDelay(4, opts, null, () => 1), 8000);
  assert.equal(retryDelay(20, opts, null, () => 1), 60_000);
  assert.equal(retryDelay(1, opts, 30_000, () => 0), 30_000);
  assert.equal(retryDelay(1, opts, 10 * 3600_000, () => 0), 60_000);
});

it('refuses non-public targets at registration and at connect time', async () => {
  for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '::1', 'fc00::1', 'fe80::1', '::ffff:127.0.0.1', '0.0.0.0']) assert.equal(isPublicAddress(a), false, a);
  assert.equal(isPublicAddress('93.184.216.34'), true);
  assert.equal(targetProblem('http://hooks.example.com/x', false), 'must use https');
  assert.match(targetProblem('https://169.254.169.254/latest', false)!, /private/);
  assert.match(targetProblem('https://localhost:8443/', false)!, /local host name/);
  assert.equal(targetProblem('https://user:pw@hooks.example.com/', false), 'must not contain credentials');
  assert.equal(targetProblem('https://hooks.example.com/x', false), null);
  assert.equal(targetProblem('http://127.0.0.1:9/x', true), null);
  const err = await new Promise<NodeJS.ErrnoException | null>((r) => guardedLookup(false)('localhost', {}, (e) => r(e)));
  assert.equal(err?.code, 'EBLOCKEDADDRESS');
  const sent = await sendWebhook('https://localhost:9/hook', {}, '{}', { timeoutMs: 2000, allowPrivate: false });
  assert.match(sent.error ?? '', /blocked: localhost resolves to a non-public address/);
});
