/**
 * @module store/redis/settings: the server settings the Redis backend depends on, checked when it
 * opens (PITFALLS 29-30): an evicting `maxmemory-policy` would silently drop records, indexes and
 * counters under memory pressure, and without AOF an acknowledged write does not survive a restart.
 */
import type { Redis } from 'ioredis';

/** Why a server's settings are refused. */
export type RedisSettingsCode = 'evicting_policy' | 'no_persistence';

/** A Redis server whose settings the backend cannot run on. `code` says which; the message names the setting and its required value. */
export class RedisSettingsError extends Error {
  override readonly name = 'RedisSettingsError';
  constructor(
    readonly code: RedisSettingsCode,
    message: string,
  ) {
    super(message);
  }
}

/** `CONFIG GET name` as a single value, or undefined when the server answers nothing. */
async function configValue(redis: Redis, name: string): Promise<string | undefined> {
  const reply = await redis.call('CONFIG', 'GET', name);
  if (!Array.isArray(reply)) return undefined;
  const value: unknown = reply[1];
  return typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString('utf8') : undefined;
}

/**
 * Checks `maxmemory-policy` (must be `noeviction`) and `appendonly` (must not be `no`).
 * @returns undefined when both are right, or a warning string when the server refuses CONFIG (managed
 *   Redis services often rename or disable it): the settings then cannot be verified and are the operator's business.
 * @throws RedisSettingsError `evicting_policy` or `no_persistence`.
 */
export async function checkRedisSettings(redis: Redis): Promise<string | undefined> {
  let policy: string | undefined;
  let appendonly: string | undefined;
  try {
    policy = await configValue(redis, 'maxmemory-policy');
    appendonly = await configValue(redis, 'appendonly');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `Redis refused CONFIG GET (${reason}): cannot verify maxmemory-policy=noeviction and appendonly=yes; make sure the server has both`;
  }
  if (policy !== undefined && policy !== 'noeviction')
    throw new RedisSettingsError(
      'evicting_policy',
      `Redis maxmemory-policy is "${policy}": the store needs maxmemory-policy noeviction (an evicting policy drops stored records under memory pressure)`,
    );
  if (appendonly === 'no')
    throw new RedisSettingsError(
      'no_persistence',
      'Redis appendonly is "no": the store needs appendonly yes (appendfsync everysec or always) so that acknowledged writes survive a restart',
    );
  return undefined;
}
