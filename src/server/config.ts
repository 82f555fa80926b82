/** @module server/config: typed configuration, read from the environment and checked at boot. */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_MAP_SIZE } from '../store/lmdb/tables.js';
import { INTERACTIVE_RESERVE_MS } from '../actors/lanes.js';
import { DEFAULT_ORG_SHARE_PERCENT } from '../actors/pool.js';
import { ConfigError, HIDDEN_VALUE, bool, cidrs, host, int, matching, oneOf, raw, type Env } from './config-readers.js';

export { ConfigError } from './config-readers.js';

/** Service configuration. Every field names its environment variable, default and unit. */
export interface Config {
  /** `HOST`, default `127.0.0.1`: address the public API listens on. */
  readonly host: string;
  /** `PORT`, default 8080; 0 picks an ephemeral port (tests). */
  readonly port: number;
  /** `DATA_DIR`, default `./data`: LMDB environment and server secrets. */
  readonly dataDir: string;
  /**
   * `STORE`, default `lmdb`: where shared state lives. `lmdb`: the embedded store in DATA_DIR (one
   * machine, no server to run). `redis`: Redis 7 / Valkey at REDIS_URL (cluster mode, issue 16: any
   * number of nodes on one Redis; GOV_KEY_PEPPER and GOV_MASTER_KEY must then be set, the same on
   * every node, since keys and signatures are derived from them).
   */
  readonly store: 'lmdb' | 'redis';
  /** `REDIS_URL`, default `redis://127.0.0.1:6379`: the Redis server of `STORE=redis` (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS). */
  readonly redisUrl: string;
  /**
   * `ROLE`, default `all` (cluster mode): `all` serves the API and runs chunk jobs; `api` serves the
   * API only (inline evaluations still run on its pool); `worker` runs chunk jobs only (no public
   * listener; the operators' listener stays). With `STORE=lmdb` every process is `all`.
   */
  readonly role: 'all' | 'api' | 'worker';
  /**
   * `CHUNK_CONCURRENCY`, default 8 × POOL_THREADS: chunk jobs a node runs at once (cluster mode). A
   * job spends much of its time waiting for Redis (its record, the blueprints, the merge, the flush),
   * so the pool idles unless several jobs per thread are in flight: 2 per thread left the two
   * workers 20-27% busy under saturation and 8 gave +12-15% scenarios/s (docs/benchmarks.md
   * "Cluster mode"). The pool queues the rest.
   */
  readonly chunkConcurrency: number;
  /**
   * `LMDB_MAP_SIZE`, default 8589934592 (8 GiB, DEFAULT_MAP_SIZE), from 16 MiB to 1 TiB, in bytes: the
   * most the LMDB environment `gov.mdb` may grow to (`STORE=lmdb`; the file grows lazily, so a large
   * map costs address space, not disk). Writes fail with MDB_MAP_FULL beyond it: watch
   * `gov_store_used_bytes / gov_store_map_size_bytes` (alerted at 0.8). Every process opening one
   * DATA_DIR (server, admin CLI) should use the same value.
   */
  readonly lmdbMapSize: number;
  /** `CHUNK_LOCK_MS`, default 30000 (BullMQ's default): a dead node's chunk jobs move to another node after about twice this, in ms. */
  readonly chunkLockMs: number;
  /**
   * `GOV_KEY_PEPPER` and `GOV_MASTER_KEY` as given (64 hex each), or undefined: the server's secrets
   * (server/auth/server-secrets), read from this environment so that several servers in one
   * process (tests) can each have their own. Unset, they come from `DATA_DIR/secrets.json`.
   * Never logged.
   */
  readonly secretsEnv: { readonly GOV_KEY_PEPPER?: string; readonly GOV_MASTER_KEY?: string };
  /** `REDIS_PREFIX`, default `gov:`: prefix of every Redis key of this service (several deployments may share one Redis). */
  readonly redisPrefix: string;
  /** `KEY_PREFIX`, default `gov`: API keys are `<prefix>_live_<48 hex>` (spec §5). */
  readonly keyPrefix: string;
  /**
   * `POOL_THREADS`, default one per core: evaluation worker threads. The HTTP thread mostly waits
   * on sockets and hands tasks over; with one worker fewer than cores, the worker idled during
   * every hand-over (2 cores, inline: 1 worker 1405 req/s and p99 ÷ p50 = 18.6 at 70% load;
   * 2 workers 1761 req/s and 5.6, same run of `npm run bench -- --quick inline`).
   */
  readonly poolThreads: number;
  /** `POOL_MAX_QUEUE`, default 512: scenario tasks waiting for a worker before submissions get 503. */
  readonly poolMaxQueue: number;
  /**
   * `POOL_INTERACTIVE_RESERVE_MS`, default 0 (off): for this long after an inline request, batch
   * chunks run on at most `POOL_THREADS − 1` workers, so inline requests find a free worker instead
   * of waiting behind a chunk. In milliseconds; no effect with one worker. It helps only while inline
   * traffic fits in the one kept worker (issue 20, item 5; docs/benchmarks.md, "Inline tail").
   */
  readonly poolInteractiveReserveMs: number;
  /**
   * `POOL_ORG_SHARE_PERCENT`, default 50 (1 to 100): most of the pool's capacity (`POOL_MAX_QUEUE` +
   * `POOL_THREADS` tasks) one organization may hold, in per cent; beyond it its submissions get 503 with
   * `Retry-After` while other organizations are served (issue 31). Never below one task per worker nor one
   * batch of 10 scenarios (spec §8).
   */
  readonly poolOrgSharePercent: number;
  /** `SCENARIO_TIMEOUT_MS`, default 10000: budget of one scenario evaluation, in milliseconds. */
  readonly scenarioTimeoutMs: number;
  /** `EVALUATION_TIMEOUT_MS`, default 120000: a batch not terminal after this becomes `error`, in ms. */
  readonly evaluationTimeoutMs: number;
  /**
   * `WORKER_MAX_OLD_MB`, default 512: V8 old-generation cap per worker, in MiB; beyond it a task fails
   * with `out_of_memory` and the worker is replaced. A safety valve, not a size the heap grows to: V8
   * sets its next collection from what survived the last one, not from the cap, so under the fuzz
   * soak a worker's old generation stayed at 10-17 MiB with 512 as with 128. The heaviest accepted
   * request measured needs 77 MiB (a 2 MiB inline body of 4,900 modules with credentials and personal
   * data in every one, 19 MB of results; docs/benchmarks.md, "Where the memory goes").
   */
  readonly workerMaxOldMb: number;
  /**
   * `WORKER_MAX_YOUNG_MB`, default 24: V8 young-generation cap per worker, in MiB (V8's own default is
   * 48). V8 gives a third, rounded up to a power of two, to each of the two semi-spaces and a third to
   * young large objects: 24 means 8 MiB semi-spaces instead of 16. Under hostile traffic (huge bodies)
   * a worker's semi-spaces grew to their maximum and stayed there; with 24 a worker's heap measured
   * 12-30 MiB instead of 29-52 under the fuzz soak, at no measurable cost in CPU per inline request
   * (12, i.e. 4 MiB semi-spaces, cost 25% on a 745 KB blueprint). docs/benchmarks.md, "Where the memory goes".
   */
  readonly workerMaxYoungMb: number;
  /** `BODY_LIMIT_BYTES`, default 2097152 (2 MiB): larger bodies get 413 (spec §8). */
  readonly bodyLimitBytes: number;
  /** `SIGNATURE_TOLERANCE_S`, default 300: accepted clock skew of `t=` in seconds (design notes). */
  readonly signatureToleranceS: number;
  /** `RESULT_TOKEN_TTL_S`, default 900: result token lifetime in seconds (spec §8). */
  readonly resultTokenTtlS: number;
  /** `EPHEMERAL_TTL_S`, default 3600: ephemeral evaluations are purged after this, in seconds. */
  readonly ephemeralTtlS: number;
  /**
   * `EVALUATION_RETENTION_DAYS`, default 30 (0 = keep forever): stored evaluations are deleted this
   * many days after they became terminal (`completed_at`), with their status view and per-scenario
   * results, then answer 404; each scenario's latest results stay, so results, remediation and the
   * rollup never lose data. Checked every minute with the ephemeral purge, on every node (deletes are
   * idempotent). Without it the store grows with every batch (docs/scaling.md "Retention").
   */
  readonly evaluationRetentionDays: number;
  /**
   * `WAIVER_SWEEP_MS`, default 10000: how often the waiver clock (actors/waivers/waiver-clock) looks
   * for waivers due for their `waiver.expiring` notice or expired (their scenario is re-evaluated).
   * An expired waiver stops counting at most this long after its `expires_at`.
   */
  readonly waiverSweepMs: number;
  /**
   * `PUBLIC_BASE_URL`, default none: the origin clients reach this deployment at (`https://host[:port]`,
   * no path), the `servers` entry of the served OpenAPI document (issue 19); without it the document
   * names the local service.
   */
  readonly publicBaseUrl: string | null;
  /**
   * `KEY_USE_FLUSH_MS`, default 10000 (10 ms to 1 h): how often each node writes when its API keys
   * were last used (server/auth/key-usage; one batched write, never one per request). The "last
   * used" time shown in the console and by `keys list` lags the real last use by up to this much.
   */
  readonly keyUseFlushMs: number;
  /** `TRUSTED_PROXIES`, default empty: comma-separated IP addresses or CIDRs whose `X-Forwarded-For` is honoured (each checked at boot). */
  readonly trustedProxies: readonly string[];
  /**
   * `CONSOLE_SECURE_COOKIE`, default false: always mark the console's session cookie `Secure`. When
   * false it is `Secure` only for requests that came over TLS (`X-Forwarded-Proto: https` from a
   * TRUSTED_PROXIES peer), so that a browser on plain `http://127.0.0.1` keeps it. Set it when TLS
   * ends at a proxy that does not send `X-Forwarded-Proto`; a browser then drops the cookie on http.
   */
  readonly consoleSecureCookie: boolean;
  /**
   * `SIGN_IN_CONCURRENCY`, default 2 (1 to 256): console sign-ins whose password this process
   * verifies at once (issue 31, item 2). Each verification is an scrypt of 128 MiB (server/console/
   * users), so this bounds the memory a sign-in flood can take to about this many × 128 MiB; a
   * sign-in beyond it is refused at once with `429 Too many sign-ins in progress` and `Retry-After: 1`.
   */
  readonly signInConcurrency: number;
  /** `LOG_LEVEL`, default `info`: one of LOG_LEVELS (pino's levels; `silent` for none). */
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** `SHUTDOWN_DEADLINE_MS`, default 10000: graceful shutdown budget in ms. */
  readonly shutdownDeadlineMs: number;
  /** `BOOTSTRAP_DEMO`, default true: create the demo organization on first start with an empty store. */
  readonly bootstrapDemo: boolean;
  /** `METRICS_ENABLED`, default true: collect metrics (false: no instrumentation at all; used by the bench). */
  readonly metricsEnabled: boolean;
  /** `METRICS_HOST`, default `127.0.0.1`: address of the operators' listener (/metrics, /healthz, /readyz). */
  readonly metricsHost: string;
  /** `METRICS_PORT`, default 9464 (0 = ephemeral): port of the operators' listener. */
  readonly metricsPort: number;
  /** `WEBHOOK_ALLOW_PRIVATE_TARGETS`, default false: allow webhook targets on private/loopback addresses and plain http (tests, on-premise). */
  readonly webhookAllowPrivateTargets: boolean;
  /** `WEBHOOK_MAX_ATTEMPTS`, default 8: attempts before a delivery is marked failed. */
  readonly webhookMaxAttempts: number;
  /** `WEBHOOK_BACKOFF_BASE_MS`, default 5000: first retry delay in ms (doubles per attempt, full jitter). */
  readonly webhookBackoffBaseMs: number;
  /** `WEBHOOK_BACKOFF_MAX_MS`, default 3600000: longest retry delay in ms (also caps `Retry-After`). */
  readonly webhookBackoffMaxMs: number;
  /** `WEBHOOK_TIMEOUT_MS`, default 10000: time allowed for one delivery attempt, in ms. */
  readonly webhookTimeoutMs: number;
}

/** LOG_LEVEL values: pino's levels and `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Accepted range of LMDB_MAP_SIZE, in bytes: 16 MiB to 1 TiB. */
export const LMDB_MAP_SIZE_MIN = 16 * 1024 ** 2;
/** Largest LMDB_MAP_SIZE, in bytes (1 TiB; the file grows lazily, so the map may exceed the disk). */
export const LMDB_MAP_SIZE_MAX = 1024 ** 4;

const HEX64 = /^[0-9a-f]{64}$/;

/** `PUBLIC_BASE_URL` as an origin (scheme, host, port; no trailing slash), or null when unset. */
function publicBaseUrl(env: Env): string | null {
  const v = raw(env, 'PUBLIC_BASE_URL');
  if (v === undefined) return null;
  const accepted = 'an absolute http(s) origin without a path, e.g. https://gov.example.com';
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new ConfigError('PUBLIC_BASE_URL', v, accepted);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.search || url.hash)
    throw new ConfigError('PUBLIC_BASE_URL', v, accepted);
  return url.origin;
}

/** A server secret: 64 lower-case hex characters, required with STORE=redis; its value is never echoed. */
function secret(env: Env, name: 'GOV_KEY_PEPPER' | 'GOV_MASTER_KEY', required: boolean): string | undefined {
  const v = raw(env, name);
  const accepted = `64 lower-case hex characters (openssl rand -hex 32)${required ? ', the same on every node, with STORE=redis' : ''}`;
  if (v === undefined) {
    if (required) throw new ConfigError(name, undefined, accepted);
    return undefined;
  }
  if (!HEX64.test(v)) throw new ConfigError(name, HIDDEN_VALUE, accepted);
  return v;
}

/**
 * Reads and validates the configuration: every variable of docs/operations.md "Configuration
 * reference". An empty variable means its default.
 * @throws ConfigError naming the first refused variable, its value and the accepted values.
 */
export function loadConfig(env: Env = process.env): Config {
  const keyPrefix = matching(
    env,
    'KEY_PREFIX',
    /^[a-z][a-z0-9]{1,15}$/,
    '2-16 lower-case letters or digits, starting with a letter',
    'gov',
  );
  const store = oneOf(env, 'STORE', ['lmdb', 'redis'], 'lmdb');
  const redisUrl = matching(
    env,
    'REDIS_URL',
    /^rediss?:\/\/[^\s]+$/,
    'a redis:// or rediss:// URL',
    'redis://127.0.0.1:6379',
  );
  const redisPrefix = matching(
    env,
    'REDIS_PREFIX',
    /^[A-Za-z0-9_.:-]{1,32}$/,
    '1-32 letters, digits or _ . : -',
    'gov:',
  );
  const poolThreads = int(env, 'POOL_THREADS', availableParallelism(), 1, 256);
  const role = oneOf(env, 'ROLE', ['all', 'api', 'worker'], 'all');
  if (role !== 'all' && store !== 'redis') throw new ConfigError('ROLE', role, 'all (api and worker need STORE=redis)');
  const pepper = secret(env, 'GOV_KEY_PEPPER', store === 'redis');
  const master = secret(env, 'GOV_MASTER_KEY', store === 'redis');
  return {
    host: host(env, 'HOST', '127.0.0.1'),
    port: int(env, 'PORT', 8080, 0, 65535),
    dataDir: resolve(raw(env, 'DATA_DIR') ?? './data'),
    store,
    redisUrl,
    redisPrefix,
    secretsEnv: {
      ...(pepper ? { GOV_KEY_PEPPER: pepper } : {}),
      ...(master ? { GOV_MASTER_KEY: master } : {}),
    },
    role,
    lmdbMapSize: int(env, 'LMDB_MAP_SIZE', DEFAULT_MAP_SIZE, LMDB_MAP_SIZE_MIN, LMDB_MAP_SIZE_MAX),
    chunkLockMs: int(env, 'CHUNK_LOCK_MS', 30_000, 200, 600_000),
    chunkConcurrency: int(env, 'CHUNK_CONCURRENCY', 8 * poolThreads, 1, 10_000),
    keyPrefix,
    poolThreads,
    poolMaxQueue: int(env, 'POOL_MAX_QUEUE', 512, 1, 1_000_000),
    poolInteractiveReserveMs: int(env, 'POOL_INTERACTIVE_RESERVE_MS', INTERACTIVE_RESERVE_MS, 0, 3_600_000),
    poolOrgSharePercent: int(env, 'POOL_ORG_SHARE_PERCENT', DEFAULT_ORG_SHARE_PERCENT, 1, 100),
    scenarioTimeoutMs: int(env, 'SCENARIO_TIMEOUT_MS', 10_000, 10, 3_600_000),
    evaluationTimeoutMs: int(env, 'EVALUATION_TIMEOUT_MS', 120_000, 100, 86_400_000),
    workerMaxOldMb: int(env, 'WORKER_MAX_OLD_MB', 512, 16, 65_536),
    workerMaxYoungMb: int(env, 'WORKER_MAX_YOUNG_MB', 24, 3, 1024),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 2 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    signatureToleranceS: int(env, 'SIGNATURE_TOLERANCE_S', 300, 1, 86_400),
    resultTokenTtlS: int(env, 'RESULT_TOKEN_TTL_S', 900, 1, 86_400),
    ephemeralTtlS: int(env, 'EPHEMERAL_TTL_S', 3600, 1, 30 * 86_400),
    evaluationRetentionDays: int(env, 'EVALUATION_RETENTION_DAYS', 30, 0, 36_500),
    waiverSweepMs: int(env, 'WAIVER_SWEEP_MS', 10_000, 100, 3_600_000),
    publicBaseUrl: publicBaseUrl(env),
    keyUseFlushMs: int(env, 'KEY_USE_FLUSH_MS', 10_000, 10, 3_600_000),
    trustedProxies: cidrs(env, 'TRUSTED_PROXIES'),
    consoleSecureCookie: bool(env, 'CONSOLE_SECURE_COOKIE', false),
    signInConcurrency: int(env, 'SIGN_IN_CONCURRENCY', 2, 1, 256),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    shutdownDeadlineMs: int(env, 'SHUTDOWN_DEADLINE_MS', 10_000, 100, 600_000),
    bootstrapDemo: bool(env, 'BOOTSTRAP_DEMO', true),
    metricsEnabled: bool(env, 'METRICS_ENABLED', true),
    metricsHost: host(env, 'METRICS_HOST', '127.0.0.1'),
    metricsPort: int(env, 'METRICS_PORT', 9464, 0, 65535),
    webhookAllowPrivateTargets: bool(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    webhookMaxAttempts: int(env, 'WEBHOOK_MAX_ATTEMPTS', 8, 1, 100),
    webhookBackoffBaseMs: int(env, 'WEBHOOK_BACKOFF_BASE_MS', 5000, 1, 3_600_000),
    webhookBackoffMaxMs: int(env, 'WEBHOOK_BACKOFF_MAX_MS', 3_600_000, 1, 86_400_000),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
  };
}
