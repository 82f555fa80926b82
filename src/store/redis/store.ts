/**
 * @module store/redis/store: the Redis backend: every repository over one Redis server (keys under
 * one prefix, store/redis/keys), shared by every process and node of the service.
 *
 * Durability: Redis acknowledges a write once it is in the AOF buffer. With `appendonly yes`
 * (checked at open, store/redis/settings) and `appendfsync everysec`, the buffer is normally written
 * to the file before the reply and fsynced every second; while a background fsync is still running
 * (a slow disk) Redis postpones that write by up to 2 s and replies meanwhile, so a crash of Redis
 * or of the host can lose up to about 2 s of acknowledged writes (PITFALLS 30). `appendfsync always`
 * writes and fsyncs before every reply and closes that window, at a cost in write throughput. Redis
 * 7.0 has no WAITAOF to wait for the fsync: "durable" in this backend means acknowledged.
 */
import { Redis } from 'ioredis';
import type { Store, StoreStats } from '../store.js';
import { COUNTERS, DEFAULT_PREFIX, RedisKeys } from './keys.js';
import { RedisContext } from './context.js';
import { migrateRedis } from './migrate.js';
import { checkRedisSettings } from './settings.js';
import { isRedisUnavailableError } from './unavailable.js';
import { RedisAudit } from '../audit/redis.js';
import { RedisSignInThrottle } from '../sign-in/redis.js';
import { RedisConsoleAccounts } from '../console-accounts/redis.js';
import { RedisEvaluations } from '../evaluations/redis.js';
import { RedisGovernance } from '../governance/redis.js';
import { RedisFleet } from '../fleet/redis.js';
import { RedisOrganizations } from '../organizations/redis.js';
import { RedisRateLeases } from '../rate-limits/redis.js';
import { RedisReplay } from '../replay/redis.js';
import { RedisIdempotency } from '../idempotency/redis.js';
import { RedisResults } from '../results/redis.js';
import { RedisScenarios } from '../scenarios/redis.js';
import { RedisWebhooks } from '../webhooks/redis.js';

/** Options of `openRedisStore`. */
export interface RedisStoreOptions {
  /** Prefix of every key (default `gov:`): several stores may share one server under different prefixes. */
  readonly prefix?: string;
  /** Epoch ms clock (rollup `updated_at`); default Date.now. */
  readonly now?: () => number;
  /** Check `maxmemory-policy` and `appendonly` at open (default true; false only for servers checked otherwise). */
  readonly checkSettings?: boolean;
}

/** How long a command may wait for its answer, in ms (ioredis `commandTimeout`). */
export const COMMAND_TIMEOUT_MS = 2_000;

/** Reconnect delay after the n-th failed attempt, in ms: 50, 100, … capped at 2 s; retries forever. */
const reconnectDelay = (attempt: number): number => Math.min(attempt * 50, 2_000);

/** The Redis backend. Build it with `openRedisStore`. */
export class RedisStore implements Store {
  /** Shared over the network: every guarantee is a conditional write in Redis itself. */
  readonly backend = 'redis' as const;
  readonly organizations: RedisOrganizations;
  readonly scenarios: RedisScenarios;
  readonly evaluations: RedisEvaluations;
  readonly results: RedisResults;
  readonly webhooks: RedisWebhooks;
  readonly replay: RedisReplay;
  readonly idempotency: RedisIdempotency;
  readonly rateLimits: RedisRateLeases;
  readonly consoleAccounts: RedisConsoleAccounts;
  readonly governance: RedisGovernance;
  readonly signInThrottle: RedisSignInThrottle;
  readonly audit: RedisAudit;
  readonly fleet: RedisFleet;
  private readonly context: RedisContext;

  /**
   * @param redis a connected client (one connection for every command, auto-pipelined).
   * @param settingsWarning why the server settings could not be verified (CONFIG refused), or undefined.
   */
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    now: () => number,
    readonly settingsWarning: string | undefined,
  ) {
    const context = new RedisContext(redis, keys, () => new Date(now()).toISOString());
    this.context = context;
    this.organizations = new RedisOrganizations(context);
    this.scenarios = new RedisScenarios(context);
    this.evaluations = new RedisEvaluations(context);
    this.results = new RedisResults(context);
    this.webhooks = new RedisWebhooks(context);
    this.replay = new RedisReplay(context);
    this.idempotency = new RedisIdempotency(context);
    this.rateLimits = new RedisRateLeases(context);
    this.consoleAccounts = new RedisConsoleAccounts(context);
    this.governance = new RedisGovernance(context);
    this.signInThrottle = new RedisSignInThrottle(context);
    this.audit = new RedisAudit(context);
    this.fleet = new RedisFleet(context);
  }

  /**
   * Resolves when every command sent so far was acknowledged: one connection answers in order, so
   * the PING's answer comes after all of theirs. (Every write method awaits its own answer too.)
   */
  async flushed(): Promise<void> {
    await this.redis.ping();
  }

  /** Runs the one-time upgrades of earlier releases' data this prefix has not run (store/redis/migrate; `openRedisStore` does). */
  async migrate(): Promise<void> {
    await migrateRedis(this.context, this.results);
  }

  /** Resolves on PING; rejects at once while Redis is unreachable (no offline queue). */
  /** True for ioredis's reports of a connection that is down, and for any failure while it is not ready. */
  isUnavailable(error: unknown): boolean {
    return this.redis.status !== 'ready' || isRedisUnavailableError(error);
  }

  async probe(): Promise<void> {
    await this.redis.ping();
  }

  /** `INFO memory` and the record counters (kept by the write scripts, so no scan of the keys). */
  async stats(): Promise<StoreStats> {
    const [info, counts] = await Promise.all([this.redis.info('memory'), this.redis.hgetall(this.keys.counts)]);
    const used = Number(info.match(/^used_memory:(\d+)/m)?.[1] ?? 0);
    const max = Number(info.match(/^maxmemory:(\d+)/m)?.[1] ?? 0);
    const records: Record<string, number> = {};
    for (const name of COUNTERS) if (name !== 'outbox') records[name] = Math.max(0, Number(counts[name] ?? 0));
    return {
      capacityBytes: max > 0 ? max : null,
      usedBytes: used,
      records,
      outbox: Math.max(0, Number(counts['outbox'] ?? 0)),
    };
  }

  /** Waits for every answer, then QUIT. */
  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Connects to `url` (`redis://[user:password@]host:port[/db]`, or `rediss://` for TLS), checks the
 * server settings (unless `checkSettings: false`), upgrades data of earlier releases (store/redis/migrate,
 * once per prefix) and returns the store. Commands fail fast while
 * Redis is down (no offline queue; commands in flight when the connection drops fail and are not
 * re-sent), so requests answer 503 instead of hanging; the client reconnects in the background forever.
 * @throws RedisSettingsError when the server evicts keys or has no AOF; the connection error when
 *   Redis cannot be reached at open.
 */
export async function openRedisStore(url: string, options: RedisStoreOptions = {}): Promise<RedisStore> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    // A server that accepts the connection but does not answer (stopped, overloaded) fails the
    // command after this instead of holding the request: 503, never a hang.
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: reconnectDelay,
    // A command in flight when the connection drops fails instead of being sent again after the
    // reconnect: a script that already ran would run twice, and a second SET NX (a token redemption,
    // an e-mail claim) would answer "taken" to the caller that took it.
    autoResendUnfulfilledCommands: false,
  });
  redis.on('error', () => undefined); // connection errors surface as rejected commands; the client reconnects by itself
  try {
    await redis.connect();
    redis.options.enableOfflineQueue = false;
    const warning = options.checkSettings === false ? undefined : await checkRedisSettings(redis);
    const store = new RedisStore(
      redis,
      new RedisKeys(options.prefix ?? DEFAULT_PREFIX),
      options.now ?? Date.now,
      warning,
    );
    await store.migrate();
    return store;
  } catch (error) {
    redis.disconnect();
    throw error;
  }
}
