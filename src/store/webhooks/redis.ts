/**
 * @module store/webhooks/redis: WebhooksRepository on Redis (`P{org}:webhooks`, `P{org}:webhooks-rev`,
 * `P{org}:log:<webhook>`, `P{org}:log-ids:<webhook>`, `P{org}:outbox:<webhook>`, `Pwebhook-org`,
 * `Poutbox-endpoints`; store/redis/keys). Delivery ids sort by creation time, so the zsets (all scores
 * 0: lexical order) keep an endpoint's outbox and log in creation order. Every write is one script.
 */
import type { DeliveryRecord, WebhookRecord } from '../../model/records.js';
import type { EndpointRef, WebhooksRepository } from './repository.js';
import type { RedisContext } from '../redis/context.js';
import { packRecord, unpackRecord, valuesById } from '../redis/codec.js';
import { CommitContentionError, luaScript, runScript, type ScriptArg } from '../redis/script.js';
import { deliveryParams, ENQUEUE_DELIVERIES_LUA } from './redis-outbox.js';

/** An enqueue whose organization's endpoints keep changing under it gives up after this many attempts. */
const MAX_ENQUEUE_ATTEMPTS = 20;

/** KEYS: webhooks, webhook-org, webhooks-rev, counts. ARGV: webhook id, record, max per org, org id. @returns 1, or 0 at the limit. */
const CREATE = luaScript(
  'webhook-create',
  `if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
if redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) == 1 then redis.call('HINCRBY', KEYS[4], 'webhooks', 1) end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
redis.call('INCR', KEYS[3])
return 1`,
);

/** KEYS: webhooks, outbox, outbox-endpoints, webhooks-rev, counts. ARGV: webhook id. @returns 1, or 0 when unknown. The log stays. */
const DELETE = luaScript(
  'webhook-delete',
  `if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
local pending = redis.call('ZCARD', KEYS[2])
redis.call('DEL', KEYS[2])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('INCR', KEYS[4])
redis.call('HINCRBY', KEYS[5], 'webhooks', -1)
if pending > 0 then redis.call('HINCRBY', KEYS[5], 'outbox', -pending) end
return 1`,
);

/**
 * KEYS: log, log-ids, outbox, outbox-endpoints, counts, webhooks, webhooks-rev.
 * ARGV: delivery id, record, settled ('1'/'0'), webhook id, endpoint bytes read ('' = no change), disabled endpoint bytes.
 * The endpoint is disabled only if it still holds the bytes read (compare-and-set).
 * @returns 'ok', or 'retry' when the endpoint changed meanwhile (nothing written).
 */
const RECORD_ATTEMPT = luaScript(
  'webhook-record-attempt',
  `if ARGV[5] ~= '' and redis.call('HGET', KEYS[6], ARGV[4]) ~= ARGV[5] then return 'retry' end
if redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) == 1 then redis.call('HINCRBY', KEYS[5], 'deliveries', 1) end
redis.call('ZADD', KEYS[2], 0, ARGV[1])
if ARGV[3] == '1' then
  if redis.call('ZREM', KEYS[3], ARGV[1]) == 1 then redis.call('HINCRBY', KEYS[5], 'outbox', -1) end
  if redis.call('ZCARD', KEYS[3]) == 0 then redis.call('HDEL', KEYS[4], ARGV[4]) end
end
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[6], ARGV[4], ARGV[6])
  redis.call('INCR', KEYS[7])
end
return 'ok'`,
);

/**
 * KEYS: log, outbox, outbox-endpoints, counts. ARGV: delivery id, bytes read, requeued record, webhook id, org id.
 * @returns 'ok', or 'retry' when the delivery changed meanwhile.
 */
const REQUEUE = luaScript(
  'webhook-requeue',
  `if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 'retry' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if redis.call('ZADD', KEYS[2], 0, ARGV[1]) == 1 then redis.call('HINCRBY', KEYS[4], 'outbox', 1) end
redis.call('HSET', KEYS[3], ARGV[4], ARGV[5])
return 'ok'`,
);

/** KEYS: log-ids, log. ARGV: limit. @returns the newest `limit` records, newest first (one round trip). */
const NEWEST = luaScript(
  'webhook-newest',
  `local ids = redis.call('ZRANGE', KEYS[1], '+', '-', 'BYLEX', 'REV', 'LIMIT', 0, tonumber(ARGV[1]))
if #ids == 0 then return {} end
return redis.call('HMGET', KEYS[2], unpack(ids))`,
);

/** KEYS: outbox, log. @returns {delivery id, record} of the oldest outbox entry, or an empty list. */
const OLDEST_PENDING = luaScript(
  'webhook-oldest-pending',
  `local ids = redis.call('ZRANGE', KEYS[1], 0, 0)
if #ids == 0 then return {} end
return {ids[1], redis.call('HGET', KEYS[2], ids[1])}`,
);

/** KEYS: outbox, outbox-endpoints, counts. ARGV: delivery id, webhook id. Drops a stale outbox entry. */
const DROP_STALE = luaScript(
  'webhook-drop-stale',
  `if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then redis.call('HINCRBY', KEYS[3], 'outbox', -1) end
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('HDEL', KEYS[2], ARGV[2]) end
return 1`,
);

/**
 * KEYS: webhooks-rev, counts, outbox-endpoints, then the deliveries' keys (store/webhooks/redis-outbox).
 * ARGV: the webhooks-rev the endpoints were read at, delivery count, then the deliveries' args.
 * @returns 'ok', or 'retry' when the endpoints changed meanwhile (nothing written).
 */
const ENQUEUE = luaScript(
  'webhook-enqueue',
  `${ENQUEUE_DELIVERIES_LUA}
if (redis.call('GET', KEYS[1]) or '0') ~= ARGV[1] then return 'retry' end
enqueue_deliveries(KEYS[2], KEYS[3], 3, 2, tonumber(ARGV[2]))
return 'ok'`,
);

/** Webhook endpoints, outbox and deliveries in Redis. */
export class RedisWebhooks implements WebhooksRepository {
  constructor(private readonly c: RedisContext) {}

  async create(record: WebhookRecord, maxPerOrg: number): Promise<boolean> {
    const k = this.c.keys;
    const created = await runScript(
      this.c.redis,
      CREATE,
      [k.webhooks(record.org_id), k.webhookOrgs, k.webhooksRev(record.org_id), k.counts],
      [record.webhook_id, packRecord(record), maxPerOrg, record.org_id],
    );
    if (created === 1) this.c.webhookOwners.remember(record.webhook_id, record.org_id);
    return created === 1;
  }

  async get(orgId: string, webhookId: string): Promise<WebhookRecord | undefined> {
    return unpackRecord<WebhookRecord>(await this.c.redis.hgetBuffer(this.c.keys.webhooks(orgId), webhookId));
  }

  async list(orgId: string): Promise<WebhookRecord[]> {
    const all = await this.c.redis.hgetallBuffer(this.c.keys.webhooks(orgId));
    return valuesById(all, (b) => unpackRecord<WebhookRecord>(b)!);
  }

  async delete(orgId: string, webhookId: string): Promise<boolean> {
    const k = this.c.keys;
    const deleted = await runScript(
      this.c.redis,
      DELETE,
      [k.webhooks(orgId), k.outbox(orgId, webhookId), k.outboxEndpoints, k.webhooksRev(orgId), k.counts],
      [webhookId],
    );
    return deleted === 1;
  }

  async getDelivery(webhookId: string, deliveryId: string): Promise<DeliveryRecord | undefined> {
    const orgId = await this.c.webhookOwners.orgOf(webhookId);
    if (orgId === undefined) return undefined;
    return unpackRecord<DeliveryRecord>(
      await this.c.redis.hgetBuffer(this.c.keys.deliveryLog(orgId, webhookId), deliveryId),
    );
  }

  async deliveries(webhookId: string, limit: number): Promise<DeliveryRecord[]> {
    const orgId = await this.c.webhookOwners.orgOf(webhookId);
    if (orgId === undefined || limit <= 0) return [];
    const k = this.c.keys;
    const keys = [k.deliveryLogIds(orgId, webhookId), k.deliveryLog(orgId, webhookId)];
    const records = (await runScript(this.c.redis, NEWEST, keys, [limit], true)) as (Buffer | null)[];
    const out: DeliveryRecord[] = [];
    for (const bytes of records) {
      const d = unpackRecord<DeliveryRecord>(bytes);
      if (d) out.push(d);
    }
    return out;
  }

  /** Settled deliveries leave the outbox in the script that settles them, so a stale entry is only dropped here if one is ever found. */
  async nextPending(webhookId: string): Promise<DeliveryRecord | undefined> {
    const orgId = await this.c.webhookOwners.orgOf(webhookId);
    if (orgId === undefined) return undefined;
    const k = this.c.keys;
    for (;;) {
      const keys = [k.outbox(orgId, webhookId), k.deliveryLog(orgId, webhookId)];
      const [id, bytes] = (await runScript(this.c.redis, OLDEST_PENDING, keys, [], true)) as [Buffer?, Buffer?];
      if (id === undefined) return undefined;
      const d = unpackRecord<DeliveryRecord>(bytes);
      if (d?.status === 'pending') return d;
      await runScript(
        this.c.redis,
        DROP_STALE,
        [k.outbox(orgId, webhookId), k.outboxEndpoints, k.counts],
        [id, webhookId],
      );
    }
  }

  async recordAttempt(orgId: string, delivery: DeliveryRecord, disableReason: string | null): Promise<void> {
    const k = this.c.keys;
    const wid = delivery.webhook_id;
    const keys = [
      ...[k.deliveryLog(orgId, wid), k.deliveryLogIds(orgId, wid), k.outbox(orgId, wid), k.outboxEndpoints],
      ...[k.counts, k.webhooks(orgId), k.webhooksRev(orgId)],
    ];
    const record = packRecord(delivery);
    const settled = delivery.status === 'pending' ? '0' : '1';
    for (;;) {
      let read: Buffer | string = '';
      let disabled: Buffer | string = '';
      if (disableReason !== null) {
        const bytes = await this.c.redis.hgetBuffer(k.webhooks(orgId), wid);
        const endpoint = unpackRecord<WebhookRecord>(bytes);
        if (bytes && endpoint) {
          read = bytes;
          disabled = packRecord({ ...endpoint, status: 'disabled', disabled_reason: disableReason });
        }
      }
      const args = [delivery.delivery_id, record, settled, wid, read, disabled];
      if ((await runScript(this.c.redis, RECORD_ATTEMPT, keys, args)) === 'ok') return;
    }
  }

  async requeue(
    orgId: string,
    webhookId: string,
    deliveryId: string,
    nowMs: number,
  ): Promise<DeliveryRecord | undefined> {
    const k = this.c.keys;
    const log = k.deliveryLog(orgId, webhookId);
    for (;;) {
      const bytes = await this.c.redis.hgetBuffer(log, deliveryId);
      const d = unpackRecord<DeliveryRecord>(bytes);
      if (!bytes || !d || d.org_id !== orgId) return undefined;
      const requeued: DeliveryRecord = { ...d, status: 'pending', next_attempt_at: nowMs };
      const keys = [log, k.outbox(orgId, webhookId), k.outboxEndpoints, k.counts];
      const args = [deliveryId, bytes, packRecord(requeued), webhookId, orgId];
      if ((await runScript(this.c.redis, REQUEUE, keys, args)) === 'ok') return requeued;
    }
  }

  /** One script, checked against `webhooks-rev` as the evaluation commit is; retried (deliveries made again) while the endpoints change. */
  async enqueue(
    orgId: string,
    build: (endpoints: readonly WebhookRecord[]) => readonly DeliveryRecord[],
  ): Promise<{ webhookIds: readonly string[] }> {
    const k = this.c.keys;
    for (let attempt = 0; attempt < MAX_ENQUEUE_ATTEMPTS; attempt++) {
      const [rev, all] = await Promise.all([
        this.c.redis.get(k.webhooksRev(orgId)),
        this.c.redis.hgetallBuffer(k.webhooks(orgId)),
      ]);
      const deliveries = build(valuesById(all, (b) => unpackRecord<WebhookRecord>(b)!));
      if (deliveries.length === 0) return { webhookIds: [] };
      const keys = [k.webhooksRev(orgId), k.counts, k.outboxEndpoints];
      const args: ScriptArg[] = [rev ?? '0', deliveries.length];
      const webhookIds = deliveryParams(k, deliveries, keys, args);
      if ((await runScript(this.c.redis, ENQUEUE, keys, args)) === 'ok') return { webhookIds };
    }
    throw new CommitContentionError(`enqueue for ${orgId}: ${MAX_ENQUEUE_ATTEMPTS} attempts conflicted`);
  }

  async endpointsWithPending(): Promise<EndpointRef[]> {
    const all = await this.c.redis.hgetall(this.c.keys.outboxEndpoints);
    return Object.entries(all).map(([webhookId, orgId]) => ({ orgId, webhookId }));
  }
}
