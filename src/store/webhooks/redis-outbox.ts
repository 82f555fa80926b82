/**
 * @module store/webhooks/redis-outbox: writing deliveries into the delivery log and the outbox on
 * Redis, shared by every script that enqueues them (the evaluation commit, `WebhooksRepository.enqueue`),
 * as store/webhooks/lmdb's `enqueueDeliveries` is on LMDB.
 */
import type { DeliveryRecord } from '../../model/records.js';
import type { RedisKeys } from '../redis/keys.js';
import type { ScriptArg } from '../redis/script.js';
import { packRecord } from '../redis/codec.js';

/** KEYS per delivery: log, log ids, outbox. */
export const KEYS_PER_DELIVERY = 3;
/** ARGV per delivery: webhook id, delivery id, record, org id. */
export const ARGS_PER_DELIVERY = 4;

/**
 * Lua: `enqueue_deliveries(counts, outbox_endpoints, k0, a0, n)` writes n deliveries whose KEYS start
 * after KEYS[k0] and ARGV after ARGV[a0] (KEYS_PER_DELIVERY and ARGS_PER_DELIVERY each, as
 * `deliveryParams` lays them out): the log entry, its id in the log index, the outbox entry, and the
 * endpoint in `Poutbox-endpoints`; `counts` (the `Pcounts` key) gets `deliveries` and `outbox`.
 * Prepend it to a script's source.
 */
export const ENQUEUE_DELIVERIES_LUA = `local function enqueue_deliveries(counts, outbox_endpoints, k0, a0, n)
  for j = 0, n - 1 do
    local a = a0 + j * ${ARGS_PER_DELIVERY}
    local k = k0 + j * ${KEYS_PER_DELIVERY}
    if redis.call('HSET', KEYS[k + 1], ARGV[a + 2], ARGV[a + 3]) == 1 then redis.call('HINCRBY', counts, 'deliveries', 1) end
    redis.call('ZADD', KEYS[k + 2], 0, ARGV[a + 2])
    if redis.call('ZADD', KEYS[k + 3], 0, ARGV[a + 2]) == 1 then redis.call('HINCRBY', counts, 'outbox', 1) end
    redis.call('HSET', outbox_endpoints, ARGV[a + 1], ARGV[a + 4])
  end
end
`;

/**
 * Appends the KEYS and ARGV of `deliveries` for `enqueue_deliveries` to `keys` and `args`.
 * @returns the endpoints that get a delivery.
 */
export function deliveryParams(
  k: RedisKeys,
  deliveries: readonly DeliveryRecord[],
  keys: string[],
  args: ScriptArg[],
): string[] {
  const webhookIds = new Set<string>();
  for (const d of deliveries) {
    keys.push(k.deliveryLog(d.org_id, d.webhook_id), k.deliveryLogIds(d.org_id, d.webhook_id));
    keys.push(k.outbox(d.org_id, d.webhook_id));
    args.push(d.webhook_id, d.delivery_id, packRecord(d), d.org_id);
    webhookIds.add(d.webhook_id);
  }
  return [...webhookIds];
}
