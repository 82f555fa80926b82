/**
 * @module server/server: the composition root. Registers every service in a child container
 * (compose/providers), resolves the ones the HTTP surface needs, attaches observers and gauges,
 * resumes what a previous process left open, and listens until closed (compose/shutdown). The
 * container is touched only here.
 */
import 'reflect-metadata';
import { container, type DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Store } from '../store/store.js';
import type { Metrics } from './metrics.js';
import { Evaluations } from '../actors/evaluations.js';
import { EvaluationPool } from '../actors/pool.js';
import { WebhookDispatcher } from '../actors/webhooks/dispatcher.js';
import { prepareDataDir } from '../store/data-dir.js';
import { compileValidators } from '../api/requests.js';
import { KeyService } from './auth/keys.js';
import { ResultTokens } from './auth/result-tokens.js';
import { createDispatch } from './app.js';
import { idempotency } from './pipeline/idempotency.js';
import { SealedBox } from './auth/sealed-box.js';
import { deriveKey } from './auth/server-secrets.js';
import { CONSOLE_PREFIX, Router } from './router.js';
import { consoleRoutes } from './console/routes.js';
import { Users } from './console/users.js';
import { CsrfTokens } from './console/csrf.js';
import { SignInThrottle } from './console/sign-in-throttle.js';
import { HashingGate } from './console/hashing-gate.js';
import { Audit } from './audit.js';
import { consoleReadRoutes } from './console/read-routes.js';
import { mountConsole } from './console/static.js';
import { authenticate } from './pipeline/authenticate.js';
import { browserRefusal } from './pipeline/browser.js';
import { parseCidrs } from './pipeline/client-address.js';
import { ipAllowlist } from './pipeline/ip-allowlist.js';
import { RateLimiter, rateLimit } from './pipeline/rate-limit.js';
import { ReplayGuard } from './pipeline/replay-guard.js';
import { KeyUsage } from './auth/key-usage.js';
import { verifySignature } from './pipeline/signature.js';
import { Watermarks } from './pipeline/watermark.js';
import { listen, loadNativeUws, mountAdapter } from './uws/adapter.js';
import { publicRoutes } from './routes/public-routes.js';
import { startOpsListener } from './ops-listener.js';
import { accessHooks } from './compose/access-log.js';
import { collectGauges } from './compose/gauges.js';
import { evaluationObserver, observePool, storeFailureReporter } from './compose/observers.js';
import { ChunkWorker, type ChunkWorkerOptions } from '../actors/cluster/chunk-worker.js';
import { RedisStore } from '../store/redis/store.js';
import { openConfiguredStore } from '../store/open.js';
import { probeRedis } from './compose/redis-metrics.js';
import { registerProviders } from './compose/providers.js';
import { shutdown } from './compose/shutdown.js';
import { CLOCK, LOGGER, METRICS, SECRETS, STORE, type Clock } from './compose/tokens.js';
import { thenMaybe } from '../store/awaitable.js';
import { WaiverClock } from '../actors/waivers/waiver-clock.js';

/** A running service. */
export interface RunningServer {
  readonly port: number;
  /** Port of the operators' listener (/metrics, /healthz, /readyz). */
  readonly opsPort: number;
  readonly metrics: Metrics | null;
  readonly config: Config;
  readonly store: Store;
  readonly keys: KeyService;
  /** When keys were last used (tests await `keyUsage.flush()` instead of waiting for KEY_USE_FLUSH_MS). */
  readonly keyUsage: KeyUsage;
  readonly pool: EvaluationPool;
  readonly evaluations: Evaluations;
  readonly users: Users;
  readonly webhooks: WebhookDispatcher;
  /** Waiver notices and expiries (issue 17); tests drive it with `tick()` under an injected clock. */
  readonly waiverClock: WaiverClock;
  readonly log: Logger;
  /** Stops accepting, finishes in-flight evaluations (up to the deadline), flushes and closes the store. */
  close(): Promise<void>;
}

/** Options for embedding (tests inject a clock and a logger). */
export interface StartOptions {
  readonly now?: Clock;
  readonly logger?: Logger;
  /** The built console SPA served under /console/ (default: `console/dist` of this checkout). */
  readonly consoleDir?: string;
}

/** Builds every component in a child container and starts listening. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const uws = loadNativeUws();
  prepareDataDir(config.dataDir); // refuses a DATA_DIR that group or others can read, before anything is written to it
  const opened = await openConfiguredStore(config, options.now ? { now: options.now } : {});
  const c = container.createChildContainer();
  registerProviders(c, { config, ...options, store: opened.store });
  const now = c.resolve(CLOCK);
  const log = c.resolve(LOGGER);
  if (opened.warning) log.warn({ store: config.store }, opened.warning);
  const metrics = c.resolve(METRICS);
  const store = c.resolve(STORE);
  const keys = c.resolve(KeyService);
  const pool = c.resolve(EvaluationPool);
  const evaluations = c.resolve(Evaluations);
  const webhooks = c.resolve(WebhookDispatcher);
  const users = c.resolve(Users);
  const limiter = c.resolve(RateLimiter);
  const replayGuard = c.resolve(ReplayGuard);
  const keyUsage = c.resolve(KeyUsage);
  observePool(pool, metrics);
  const audit = c.resolve(Audit);
  const trustedProxies = parseCidrs(config.trustedProxies);

  const deps = {
    config,
    store,
    pool,
    evaluations,
    tokens: c.resolve(ResultTokens),
    validators: compileValidators(),
    now,
    metrics,
    audit,
  };
  const dispatcher = createDispatch(
    new Router(publicRoutes(deps, webhooks)),
    new Router(
      consoleRoutes(
        {
          users,
          keys,
          now,
          csrf: c.resolve(CsrfTokens),
          throttle: c.resolve(SignInThrottle),
          hashing: c.resolve(HashingGate),
          audit,
          config,
          trustedProxies,
        },
        consoleReadRoutes(users, keys.prefix, deps, webhooks, (call) => c.resolve(CsrfTokens).check(call)),
      ),
      CONSOLE_PREFIX,
    ),
    {
      browser: browserRefusal(),
      authenticate: authenticate(
        keys,
        now,
        (orgId) => thenMaybe(store.organizations.getOrg(orgId), (org) => org !== undefined),
        keyUsage,
      ),
      ipAllowlist: ipAllowlist(trustedProxies),
      signature: verifySignature(keys, replayGuard, config.signatureToleranceS, now),
      rateLimit: rateLimit(limiter, now, (window) => metrics?.rateLimited.labels(window).inc()),
      idempotency: idempotency(
        store.idempotency,
        new SealedBox(deriveKey(c.resolve(SECRETS), 'idempotency-replay')),
        now,
        storeFailureReporter(
          'idempotency',
          'idempotency record write failed; its claim expires on its own',
          metrics,
          log,
        ),
      ),
    },
    c.resolve(Watermarks),
    now,
    trustedProxies,
  );

  const chunkWorker = config.store === 'redis' && config.role !== 'api' ? startChunkWorker(c, config) : null;
  const resumed = await evaluations.recover();
  evaluations.startPurging();
  const waiverClock = new WaiverClock(
    store,
    evaluations,
    webhooks,
    now,
    config.waiverSweepMs,
    storeFailureReporter('waivers', 'waiver clock tick failed; retrying at the next interval', metrics, log),
  );
  waiverClock.start();
  keyUsage.start();
  const endpointsWithOutbox = await webhooks.recover();
  if (resumed > 0 || endpointsWithOutbox > 0)
    log.info({ resumed, endpointsWithOutbox }, 'resumed open evaluations and webhook outboxes after restart');

  let shuttingDown = false;
  const app = uws.App();
  // The console SPA's static files (issue 18), before the API's catch-all.
  mountConsole(app, (message, dir) => log.warn({ dir }, message), options.consoleDir);
  const adapter = mountAdapter(
    app,
    dispatcher.dispatch,
    { bodyLimitBytes: config.bodyLimitBytes, now },
    accessHooks(metrics, log, now, (err) => store.isUnavailable(err)),
  );
  // ROLE=worker serves no public API (the operators' listener stays).
  const { socket, port } =
    config.role === 'worker' ? { socket: null, port: 0 } : await listen(uws, app, config.host, config.port);
  if (metrics) collectGauges(metrics, pool, store, limiter, now, () => evaluations.queueCounts());
  const stopRedisMetrics = metrics && config.store === 'redis' ? probeRedis(metrics, store) : () => undefined;
  const ops = await startOpsListener(uws, config.metricsHost, config.metricsPort, metrics, {
    store: async () => {
      await store.probe();
      return null;
    }, // rejects once the store is closed or unreachable
    pool: () => (pool.threadCount > 0 ? null : 'no worker threads'),
    shutdown: () => (shuttingDown ? 'shutting down' : null),
  });
  log.info(
    {
      host: config.host,
      port,
      metrics_port: ops.port,
      threads: config.poolThreads,
      store: config.store,
      role: config.role,
    },
    'listening',
  );

  let closing: Promise<void> | null = null;
  return {
    port,
    opsPort: ops.port,
    metrics,
    config,
    store,
    keys,
    keyUsage,
    pool,
    evaluations,
    users,
    webhooks,
    waiverClock,
    log,
    close() {
      closing ??= shutdown({
        deadlineMs: config.shutdownDeadlineMs,
        stopAccepting() {
          shuttingDown = true;
          // No new connections, and every request on a kept-alive connection is answered 503 with Retry-After and Connection: close.
          dispatcher.refuseNewWork();
          adapter.closeConnections();
          if (socket) uws.us_listen_socket_close(socket);
        },
        adapter,
        waiverClock,
        evaluations,
        chunkWorker,
        limiter,
        replayGuard,
        webhooks,
        pool,
        keyUsage,
        store,
        closeListeners() {
          (app as unknown as { close(): void }).close();
          ops.close();
          stopRedisMetrics();
        },
      });
      return closing;
    },
  };
}

/** The chunk worker's `jobStarted` on the Redis store (cluster mode's fair order, chunk-queue `chunkPriority`). */
function chunkBacklog(store: Store): Pick<ChunkWorkerOptions, 'jobStarted'> {
  return store instanceof RedisStore
    ? { jobStarted: (orgId, jobId) => store.evaluations.chunkStarted(orgId, jobId) }
    : {};
}

/**
 * Starts this node's consumer of chunk jobs (cluster mode, `ROLE=all|worker`), timeouts swept every
 * quarter of the evaluation budget (at most 5 s), CHUNK_CONCURRENCY jobs at once.
 */
function startChunkWorker(c: DependencyContainer, config: Config): ChunkWorker {
  const worker = new ChunkWorker(
    c.resolve(STORE),
    c.resolve(EvaluationPool),
    c.resolve(CLOCK),
    {
      redisUrl: config.redisUrl,
      redisPrefix: config.redisPrefix,
      concurrency: config.chunkConcurrency,
      lockMs: config.chunkLockMs,
      evaluationTimeoutMs: config.evaluationTimeoutMs,
      sweepIntervalMs: Math.max(200, Math.min(5_000, Math.floor(config.evaluationTimeoutMs / 4))),
      ...chunkBacklog(c.resolve(STORE)),
    },
    c.resolve(Evaluations).governance,
    evaluationObserver(c.resolve(WebhookDispatcher), c.resolve(METRICS), c.resolve(LOGGER), c.resolve(CLOCK)),
    storeFailureReporter('chunk-worker', 'chunk job failed; BullMQ retries it', c.resolve(METRICS), c.resolve(LOGGER)),
    () => c.resolve(METRICS)?.chunkJobsStalled.inc(),
  );
  worker.start();
  return worker;
}
