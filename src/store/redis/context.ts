/** @module store/redis/context: what every Redis repository shares: the client, the key layout, the clock and the owner look-ups. */
import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys.js';
import { OwnerCache } from './owner-cache.js';

/** Shared by the repositories of one RedisStore. */
export class RedisContext {
  /** Evaluation id → org id (`Pev-org`). */
  readonly evaluationOwners: OwnerCache;
  /** Webhook id → org id (`Pwebhook-org`). */
  readonly webhookOwners: OwnerCache;

  constructor(
    readonly redis: Redis,
    readonly keys: RedisKeys,
    /** ISO 8601 time of the store's clock (rollup `updated_at`). */
    readonly nowIso: () => string,
  ) {
    this.evaluationOwners = new OwnerCache(redis, keys.evaluationOrgs);
    this.webhookOwners = new OwnerCache(redis, keys.webhookOrgs);
  }
}
