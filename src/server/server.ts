/** @module server/server: wires the service (the composition root) and runs it until closed. */
import 'reflect-metadata';
import { container, instanceCachingFactory } from 'tsyringe';
import { pino, type Logger } from 'pino';
import type { us_listen_socket } from 'uWebSockets.js';
import type { Config } from './config.js';
import type { Clock } from './tokens.js';
import { Evaluations } from '../actors/evaluations.js';
import { EvaluationPool } from '../actors/pool.js';
import type { Store } from '../store/store.js';
import { openStore } from '../store/open.js';
import { prepareDataDir } from '../store/data-dir.js';
import { KeyService } from './auth/keys.js';
import { ResultTokens } from './auth/result-tokens.js';
import { deriveKey, loadServerSecrets } from './auth/server-secrets.js';
import { createDispatch, internalError } from './app.js';
import { CONSOLE_PREFIX, Router } from './router.js';
import { consoleRoutes } from './console/routes.js';
import { Users } from './console/users.js';
import { authenticate } from './pipeline/authenticate.js';
import { browserRefusal } from './pipeline/browser.js';
import { parseCidrs } from './pipeline/client-address.js';
import { ipAllowlist } from './pipeline/ip-allowlist.js';
import { RateLimiter, rateLimit } from './pipeline/rate-limit.js';
import { ReplayGuard } from './pipeline/replay-guard.js';
import { verifySignature } from './pipeline/signature.js';
import { Watermarks } from './pipeline/watermark.js';
import { compileValidators } from '../api/requests.js';
import { listen, loadNativeUws, mountAdapter } from './uws/adapter.js';
import { settlesWithin } from './settles-within.js';
import { publicRoutes } from './routes/public-routes.js';
import { WebhookDispatcher } from '../actors/webhooks/dispatcher.js';
import { CLOCK, CONFIG, EVALUATIONS, KEYS, LOGGER, METRICS, POOL, RESULT_TOKENS, SECRETS, STORE, WEBHOOKS } from './tokens.js';
import { Metrics, reasonLabel } from './metrics.js';
import { startOpsListener } from './ops-listener.js';

/** A running service. */
export interface RunningServer {
  readonly port: number;
  /** Port of the operators' listener (/metrics, /healthz, /readyz). */
  readonly opsPort: number;
  readonly metrics: Metrics | null;
  readonly config: Config;
  readonly store: Store;
  readonly keys: KeyService;
  readonly pool: EvaluationPool;
  readonly evaluations: Evaluations;
  readonly users: Users;
  readonly webhooks: WebhookDispatcher;
  readonly log: Logger;
  /** Stops accepting, finishes in-flight evaluations (up to the deadline), flushes and closes the store. */
  close(): Promise<void>;
}

/** Options for embedding (tests inject a clock and a logger). */
export interface StartOptions {
  readonly now?: Clock;
  readonly logger?: Logger;
}

/** Builds every component in a child container and starts listening. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const uws = loadNativeUws();
  prepareDataDir(config.dataDir); // refuses a DATA_DIR that group or others can read, before anything is written to it
  const c = container.createChildContainer();
  c.register(CONFIG, { useValue: config });
  c.register(CLOCK, { useValue: options.now ?? Date.now });
  c.register(LOGGER, { useValue: options.logger ?? pino({ level: config.logLevel }) });
  c.register(METRICS, { useFactory: instanceCachingFactory((r) => (r.resolve(CONFIG).metricsEnabled ? new Metrics() : null)) });
  c.register(STORE, { useFactory: instanceCachingFactory((r) => openStore(r.resolve(CONFIG).dataDir, { now: r.resolve(CLOCK) })) });
  c.register(SECRETS, { useFactory: instanceCachingFactory((r) => loadServerSecrets(r.resolve(CONFIG).dataDir)) });
  c.register(KEYS, { useFactory: instanceCachingFactory((r) => new KeyService(r.resolve(STORE).organizations, r.resolve(SECRETS), r.resolve(CONFIG).keyPrefix)) });
  c.register(POOL, {
    useFactory: instanceCachingFactory((r) => {
      const cfg = r.resolve(CONFIG);
      return new EvaluationPool({ threads: cfg.poolThreads, maxQueue: cfg.poolMaxQueue, taskTimeoutMs: cfg.scenarioTimeoutMs, maxOldGenerationMb: cfg.workerMaxOldMb, maxYoungGenerationMb: cfg.workerMaxYoungMb });
    }),
  });
  c.register(WEBHOOKS, {
    useFactory: instanceCachingFactory((r) => {
      const cfg = r.resolve(CONFIG);
      const m = r.resolve(METRICS);
      return new WebhookDispatcher(r.resolve(STORE).webhooks, deriveKey(r.resolve(SECRETS), 'webhooks'), {
        maxAttempts: cfg.webhookMaxAttempts, backoffBaseMs: cfg.webhookBackoffBaseMs, backoffMaxMs: cfg.webhookBackoffMaxMs,
        timeoutMs: cfg.webhookTimeoutMs, allowPrivate: cfg.webhookAllowPrivateTargets,
      }, r.resolve(CLOCK), (result, delivery) => {
        if (!m) return;
        const outcome = delivery.status === 'delivered' ? 'delivered' : result.blocked ? 'blocked' : delivery.status === 'failed' ? 'failed' : 'retry';
        m.webhookDeliveries.labels(outcome).inc();
        m.webhookSeconds.observe(result.durationMs / 1000);
      }, (error) => {
        r.resolve(LOGGER).error({ err: error }, 'webhook delivery failed outside the send; retrying');
        m?.storeWriteFailures.labels('webhook-delivery').inc();
      });
    }),
  });
  c.register(EVALUATIONS, {
    useFactory: instanceCachingFactory((r) => {
      const cfg = r.resolve(CONFIG);
      const webhooks = r.resolve(WEBHOOKS);
      const m = r.resolve(METRICS);
      const now = r.resolve(CLOCK);
      return new Evaluations(r.resolve(STORE), r.resolve(POOL), r.resolve(CLOCK), { ephemeralTtlS: cfg.ephemeralTtlS, evaluationTimeoutMs: cfg.evaluationTimeoutMs }, {
        // The outbox is written in the transaction that completes the evaluation; actors wake after it is flushed.
        deliveries: (record, endpoints) => webhooks.deliveriesFor(record, endpoints),
        terminal(record, webhookIds) {
          webhooks.wake(record.org_id, webhookIds);
          m?.evaluationsFinished.labels(record.status).inc();
          m?.completionSeconds.labels(record.status).observe(Math.max(0, now() - Date.parse(record.created_at)) / 1000);
        },
        scenarioFinished(_record, _index, result) {
          if (!m) return;
          if (!result.ok) { m.scenarios.labels(result.code).inc(); return; }
          m.scenarios.labels('ok').inc();
          m.scenarioSeconds.observe(result.stats.evaluateMs / 1000);
          for (const [k, n] of Object.entries(result.stats.violations)) { const [category, severity] = k.split('|'); m.violations.labels(category!, severity!).inc(n); }
        },
        committed(seconds) { m?.storeWriteSeconds.observe(seconds); },
        commitFailed(record, error, final) {
          r.resolve(LOGGER).error({ err: error, evaluation_id: record.evaluation_id }, final ? 'evaluation could not be stored; left open for recovery' : 'evaluation write failed; ending it as error');
          m?.storeWriteFailures.labels('evaluation').inc();
        },
      }, (error) => {
        r.resolve(LOGGER).error({ err: error }, 'purge of expired evaluations failed; retrying at the next interval');
        m?.storeWriteFailures.labels('purge').inc();
      });
    }),
  });
  c.register(RESULT_TOKENS, { useFactory: instanceCachingFactory((r) => new ResultTokens(deriveKey(r.resolve(SECRETS), 'result-token'), r.resolve(CONFIG).resultTokenTtlS)) });

  const now = c.resolve(CLOCK);
  const log = c.resolve(LOGGER);
  const store = c.resolve(STORE);
  const keys = c.resolve(KEYS);
  const pool = c.resolve(POOL);
  const evaluations = c.resolve(EVALUATIONS);
  const webhooks = c.resolve(WEBHOOKS);
  const metrics = c.resolve(METRICS);
  const deps = { config, store, pool, evaluations, tokens: c.resolve(RESULT_TOKENS), validators: compileValidators(), now, metrics };
  if (metrics) {
    pool.onWait = (s) => metrics.poolWait.observe(s);
    pool.onWorkerFailure = (reason) => metrics.poolCrashes.labels(reason).inc();
  }
  const router = new Router(publicRoutes(deps, webhooks));
  const users = new Users(store.consoleAccounts, store.organizations, config.keyPrefix);
  const consoleRouter = new Router(consoleRoutes(users, keys, now), CONSOLE_PREFIX);
  const limiter = new RateLimiter(store.rateLimits);
  const replayGuard = new ReplayGuard(store.replay, config.signatureToleranceS, (error) => {
    log.error({ err: error }, 'replay guard write failed');
    metrics?.storeWriteFailures.labels('replay-guard').inc();
  });
  const dispatcher = createDispatch(router, consoleRouter, {
    browser: browserRefusal(),
    authenticate: authenticate(keys, now, (orgId) => store.organizations.getOrg(orgId) !== undefined),
    ipAllowlist: ipAllowlist(parseCidrs(config.trustedProxies)),
    signature: verifySignature(keys, replayGuard, config.signatureToleranceS, now),
    rateLimit: rateLimit(limiter, now, (window) => metrics?.rateLimited.labels(window).inc()),
  }, new Watermarks(store.organizations, deriveKey(c.resolve(SECRETS), 'watermark')), now);

  const resumed = evaluations.recover();
  evaluations.startPurging();
  const endpointsWithOutbox = webhooks.recover();
  if (resumed > 0 || endpointsWithOutbox > 0) log.info({ resumed, endpointsWithOutbox }, 'resumed open evaluations and webhook outboxes after restart');

  let shuttingDown = false;
  const app = uws.App();
  const adapter = mountAdapter(app, dispatcher.dispatch, { bodyLimitBytes: config.bodyLimitBytes, now }, {
    onError: internalError(log),
    ...(metrics ? { onStart: () => { metrics.http.inFlight++; } } : {}),
    onFinished(req, ctx, res, aborted, bytesIn) {
      if (metrics) metrics.http.inFlight--;
      if (!req) return;
      if (metrics && res) {
        metrics.request(ctx?.template ?? null, req.method, res.status, (now() - req.receivedAt) / 1000, bytesIn, res.body.length);
        if (res.error && (res.status === 401 || res.status === 403 || res.status === 413 || res.status === 422 || res.status === 429)) metrics.httpRejections.labels(String(res.status), reasonLabel(res.error)).inc();
      }
      if (log.isLevelEnabled('info')) log.info({
        request_id: req.requestId, method: req.method, route: ctx?.template ?? null, status: res?.status ?? null, aborted,
        duration_ms: Math.round((now() - req.receivedAt) * 1000) / 1000, bytes_in: bytesIn, key_id: ctx?.key?.key_id ?? null,
        org_id: ctx?.key?.org_id ?? null, watermark: ctx?.watermark ?? null,
      }, 'request');
    },
  });
  const { socket, port } = await listen(uws, app, config.host, config.port);
  if (metrics) {
    metrics.poolCapacity.set(pool.capacity);
    metrics.onCollect(() => {
      metrics.poolQueue.set(pool.queueSize);
      metrics.poolInFlight.set(pool.pending);
      metrics.poolWorkers.set(pool.threadCount);
      metrics.poolUtilization.set(pool.utilization);
      const stats = store.stats();
      if (stats.capacityBytes !== null) metrics.storeMapSize.set(stats.capacityBytes);
      metrics.storeUsed.set(stats.usedBytes);
      for (const [name, n] of Object.entries(stats.records)) metrics.storeRecords.labels(name).set(n);
      metrics.webhookOutbox.set(stats.outbox);
      const open = store.evaluations.countOpen();
      metrics.evaluationsOpen.labels('pending').set(open.pending);
      metrics.evaluationsOpen.labels('processing').set(open.processing);
      metrics.keysNearLimit.set(limiter.nearLimit(Math.floor(now() / 1000), (id) => { const k = store.organizations.getKey(id); return k ? { perMinute: k.per_minute, perHour: k.per_hour } : undefined; }));
    });
  }
  const ops = await startOpsListener(uws, config.metricsHost, config.metricsPort, metrics, {
    store: () => { store.probe(); return null; }, // throws once the store is closed
    pool: () => (pool.threadCount > 0 ? null : 'no worker threads'),
    shutdown: () => (shuttingDown ? 'shutting down' : null),
  });
  log.info({ host: config.host, port, metrics_port: ops.port, threads: config.poolThreads }, 'listening');

  let closing: Promise<void> | null = null;
  return {
    port, opsPort: ops.port, metrics, config, store, keys, pool, evaluations, users, webhooks, log,
    close() {
      closing ??= (async () => {
        // Everything below fits in SHUTDOWN_DEADLINE_MS: draining gets the deadline minus a reserve
        // for stopping the pool, the flushes and closing the store (issue 13, item 14).
        const deadline = performance.now() + config.shutdownDeadlineMs;
        const reserveMs = Math.min(2000, Math.floor(config.shutdownDeadlineMs / 4));
        shuttingDown = true;
        // Stop taking work at once: no new connections, and every request on a kept-alive
        // connection is answered 503 with Retry-After and Connection: close.
        dispatcher.refuseNewWork();
        adapter.closeConnections();
        uws.us_listen_socket_close(socket as us_listen_socket);
        // Finish what can finish within the deadline; whatever cannot stays open in LMDB and resumes at the next start.
        const drained = await settlesWithin(Promise.all([evaluations.drain(), adapter.idle()]), deadline - reserveMs - performance.now());
        if (!drained) evaluations.halt();
        else evaluations.stopPurging();
        limiter.release();
        await replayGuard.flush();
        webhooks.stop();
        await pool.close(!drained);
        // Requests whose pool task the forced close ended are answered (503) before connections close.
        await settlesWithin(adapter.idle(), Math.min(250, deadline - performance.now()));
        (app as unknown as { close(): void }).close();
        ops.close();
        await store.close();
      })();
      return closing;
    },
  };
}
