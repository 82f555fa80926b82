/**
 * @module server/compose/providers: how each service is built, registered under its own class (or a
 * token from compose/tokens for values and the store). Services keep plain constructors, free of the
 * container, so tests and the admin CLI build them with `new`; here each one is a singleton of the
 * child container, built on first resolution with its dependencies resolved from the container.
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import { serviceLog } from '../log-destination.js';
import type { Config } from '../config.js';
import { EvaluationPool } from '../../actors/pool.js';
import { Evaluations } from '../../actors/evaluations.js';
import { WebhookDispatcher } from '../../actors/webhooks/dispatcher.js';
import type { Store } from '../../store/store.js';
import { ChunkQueue, type EvaluationCreator } from '../../actors/cluster/chunk-queue.js';
import { RedisStore } from '../../store/redis/store.js';
import { KeyService } from '../auth/keys.js';
import { KeyUsage } from '../auth/key-usage.js';
import { ResultTokens } from '../auth/result-tokens.js';
import { deriveKey, loadServerSecrets } from '../auth/server-secrets.js';
import { Users } from '../console/users.js';
import { CsrfTokens } from '../console/csrf.js';
import { SignInThrottle } from '../console/sign-in-throttle.js';
import { HashingGate } from '../console/hashing-gate.js';
import { Audit } from '../audit.js';
import { Metrics } from '../metrics.js';
import { RateLimiter } from '../pipeline/rate-limit.js';
import { ReplayGuard } from '../pipeline/replay-guard.js';
import { Watermarks } from '../pipeline/watermark.js';
import { deliveryAttemptObserver, evaluationObserver, storeFailureReporter } from './observers.js';
import { CLOCK, CONFIG, LOGGER, METRICS, SECRETS, STORE, type Clock } from './tokens.js';

/** Values supplied by the caller (tests inject a clock and a logger). */
export interface ProvidedValues {
  readonly config: Config;
  /** The opened store (server/server opens it first: opening Redis is asynchronous). */
  readonly store: Store;
  readonly now?: Clock;
  readonly logger?: Logger;
}

/** Cluster mode: webhook attempts a node makes at once (each mostly waits on the receiver, up to WEBHOOK_TIMEOUT_MS). */
const WEBHOOK_CONCURRENCY = 16;
/** Cluster mode: interval of each node's sweep of the outbox for deliveries without a job, in ms. */
const WEBHOOK_SWEEP_MS = 30_000;

/** Registers a singleton built by `build` on first resolution. */
function singleton<T>(
  c: DependencyContainer,
  token: abstract new (...args: never[]) => T,
  build: (r: DependencyContainer) => T,
): void {
  c.register(token as never, { useFactory: instanceCachingFactory(build) });
}

/** Registers every value and service of the server in `c` (a child container; nothing is built yet). */
export function registerProviders(c: DependencyContainer, values: ProvidedValues): void {
  c.register(CONFIG, { useValue: values.config });
  c.register(CLOCK, { useValue: values.now ?? Date.now });
  c.register(LOGGER, { useValue: values.logger ?? serviceLog(values.config.logLevel).logger });
  c.register(METRICS, {
    useFactory: instanceCachingFactory((r) => (r.resolve(CONFIG).metricsEnabled ? new Metrics() : null)),
  });
  c.register(STORE, { useValue: values.store });
  c.register(SECRETS, {
    useFactory: instanceCachingFactory((r) =>
      loadServerSecrets(r.resolve(CONFIG).dataDir, r.resolve(CONFIG).secretsEnv),
    ),
  });
  const cfg = values.config;

  singleton(c, KeyService, (r) => new KeyService(r.resolve(STORE).organizations, r.resolve(SECRETS), cfg.keyPrefix));
  singleton(
    c,
    KeyUsage,
    (r) =>
      new KeyUsage(
        r.resolve(STORE).organizations,
        cfg.keyUseFlushMs,
        storeFailureReporter(
          'key-usage',
          'key use could not be recorded; retrying at the next interval',
          r.resolve(METRICS),
          r.resolve(LOGGER),
        ),
      ),
  );
  singleton(
    c,
    Users,
    (r) => new Users(r.resolve(STORE).consoleAccounts, r.resolve(STORE).organizations, cfg.keyPrefix),
  );
  singleton(c, CsrfTokens, (r) => new CsrfTokens(deriveKey(r.resolve(SECRETS), 'console-csrf')));
  singleton(c, SignInThrottle, (r) => new SignInThrottle(r.resolve(STORE).signInThrottle));
  singleton(c, HashingGate, () => new HashingGate(cfg.signInConcurrency));
  singleton(
    c,
    Audit,
    (r) =>
      new Audit(
        r.resolve(STORE).audit,
        r.resolve(CLOCK),
        storeFailureReporter(
          'audit',
          'audit entry not written (the change itself was made)',
          r.resolve(METRICS),
          r.resolve(LOGGER),
        ),
      ),
  );
  singleton(
    c,
    ResultTokens,
    (r) => new ResultTokens(deriveKey(r.resolve(SECRETS), 'result-token'), cfg.resultTokenTtlS),
  );
  singleton(
    c,
    Watermarks,
    (r) =>
      new Watermarks(
        r.resolve(STORE).organizations,
        deriveKey(r.resolve(SECRETS), 'watermark'),
        storeFailureReporter(
          'watermark',
          'watermark could not be recorded; retrying with the next request',
          r.resolve(METRICS),
          r.resolve(LOGGER),
        ),
      ),
  );
  singleton(
    c,
    RateLimiter,
    (r) =>
      new RateLimiter(
        r.resolve(STORE).rateLimits,
        storeFailureReporter(
          'rate-limiter',
          'rate-limit budget could not be read or returned',
          r.resolve(METRICS),
          r.resolve(LOGGER),
        ),
      ),
  );
  singleton(
    c,
    ReplayGuard,
    (r) =>
      new ReplayGuard(
        r.resolve(STORE).replay,
        cfg.signatureToleranceS,
        storeFailureReporter('replay-guard', 'replay guard write failed', r.resolve(METRICS), r.resolve(LOGGER)),
        r.resolve(STORE).backend === 'lmdb', // write-behind only where every process reads the same file
      ),
  );
  singleton(
    c,
    EvaluationPool,
    () =>
      new EvaluationPool({
        threads: cfg.poolThreads,
        maxQueue: cfg.poolMaxQueue,
        taskTimeoutMs: cfg.scenarioTimeoutMs,
        maxOldGenerationMb: cfg.workerMaxOldMb,
        maxYoungGenerationMb: cfg.workerMaxYoungMb,
        interactiveReserveMs: cfg.poolInteractiveReserveMs,
        orgSharePercent: cfg.poolOrgSharePercent,
      }),
  );
  singleton(
    c,
    WebhookDispatcher,
    (r) =>
      new WebhookDispatcher(
        r.resolve(STORE).webhooks,
        deriveKey(r.resolve(SECRETS), 'webhooks'),
        {
          maxAttempts: cfg.webhookMaxAttempts,
          backoffBaseMs: cfg.webhookBackoffBaseMs,
          backoffMaxMs: cfg.webhookBackoffMaxMs,
          timeoutMs: cfg.webhookTimeoutMs,
          allowPrivate: cfg.webhookAllowPrivateTargets,
        },
        r.resolve(CLOCK),
        deliveryAttemptObserver(r.resolve(METRICS)),
        storeFailureReporter(
          'webhook-delivery',
          'webhook delivery failed outside the send; retrying',
          r.resolve(METRICS),
          r.resolve(LOGGER),
        ),
        cfg.store === 'redis'
          ? {
              redisUrl: cfg.redisUrl,
              redisPrefix: cfg.redisPrefix,
              consume: cfg.role !== 'api',
              concurrency: WEBHOOK_CONCURRENCY,
              sweepIntervalMs: WEBHOOK_SWEEP_MS,
            }
          : null,
      ),
  );
  singleton(
    c,
    Evaluations,
    (r) =>
      new Evaluations(
        r.resolve(STORE),
        r.resolve(EvaluationPool),
        r.resolve(CLOCK),
        {
          ephemeralTtlS: cfg.ephemeralTtlS,
          evaluationTimeoutMs: cfg.evaluationTimeoutMs,
          retentionDays: cfg.evaluationRetentionDays,
        },
        evaluationObserver(r.resolve(WebhookDispatcher), r.resolve(METRICS), r.resolve(LOGGER), r.resolve(CLOCK)),
        storeFailureReporter(
          'purge',
          'purge of expired or retired evaluations failed; retrying at the next interval',
          r.resolve(METRICS),
          r.resolve(LOGGER),
        ),
        cfg.store === 'redis'
          ? new ChunkQueue(cfg.redisUrl, cfg.redisPrefix, redisEvaluations(r.resolve(STORE)), cfg.evaluationTimeoutMs)
          : null,
      ),
  );
}

/** The Redis store's evaluations, which cluster mode's chunk queue creates evaluations with. @throws Error for another backend (a wiring mistake). */
function redisEvaluations(store: Store): EvaluationCreator {
  if (!(store instanceof RedisStore)) throw new Error(`cluster mode needs the Redis store, not ${store.backend}`);
  return store.evaluations;
}
