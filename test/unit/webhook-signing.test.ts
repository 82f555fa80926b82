/** Standard Webhooks signing (test vector of the Standard Webhooks specification) and retry delays; the SSRF checks are in webhook-target-guard.test.ts. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { signWebhook } from '../../src/actors/webhooks/signing.js';
import { retryDelay } from '../../src/actors/webhooks/delivery-actor.js';

it('signs like the Standard Webhooks reference vector', () => {
  assert.equal(
    signWebhook(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    ),
    'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  );
});

it('backs off exponentially with jitter, capped, and honours a longer Retry-After', () => {
  const opts = { backoffBaseMs: 1000, backoffMaxMs: 60_000 };
  assert.equal(
    retryDelay(1, opts, null, () => 0),
    500,
  );
  assert.equal(
    retryDelay(1, opts, null, () => 1),
    1000,
  );
  assert.equal(
    retryDelay(4, opts, null, () => 1),
    8000,
  );
  assert.equal(
    retryDelay(20, opts, null, () => 1),
    60_000,
  );
  assert.equal(
    retryDelay(1, opts, 30_000, () => 0),
    30_000,
  );
  assert.equal(
    retryDelay(1, opts, 10 * 3600_000, () => 0),
    60_000,
  );
});
