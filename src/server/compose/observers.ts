/**
 * @module server/compose/observers: what the composition root attaches to the actors: metrics,
 * logs and webhook wake-ups. Each observer only reports; none holds state of its own.
 */
import type { Logger } from 'pino';
import type { EvaluationObserver } from '../../actors/evaluation-actor.js';
import type { EvaluationPool } from '../../actors/pool.js';
import type { WebhookDispatcher } from '../../actors/webhooks/dispatcher.js';
import type { DeliveryRecord } from '../../model/records.js';
import type { SendResult } from '../../actors/webhooks/send.js';
import type { Metrics } from '../metrics.js';
import type { Clock } from './tokens.js';

/**
 * The evaluation lifecycle's observer: a terminal evaluation's events go into the outbox in the
 * transaction that completes it, and their endpoints' delivery actors wake once it is durable;
 * metrics count scenarios, violations, terminal states, write latency and evaluations deleted by
 * retention; failed writes are logged.
 */
export function evaluationObserver(
  webhooks: WebhookDispatcher,
  metrics: Metrics | null,
  log: Logger,
  now: Clock,
): EvaluationObserver {
  const m = metrics;
  return {
    deliveries: (record, endpoints) => webhooks.deliveriesFor(record, endpoints),
    terminal(record, webhookIds) {
      webhooks.wake(record.org_id, webhookIds);
      m?.evaluationsFinished.labels(record.status).inc();
      m?.completionSeconds.labels(record.status).observe(Math.max(0, now() - Date.parse(record.created_at)) / 1000);
    },
    scenarioFinished(_record, _index, result) {
      if (!m) return;
      if (!result.ok) {
        m.scenarios.labels(result.code).inc();
        return;
      }
      m.scenarios.labels('ok').inc();
      m.scenarioSeconds.observe(result.stats.evaluateMs / 1000);
      for (const [k, n] of Object.entries(result.stats.violations)) {
        const [category, severity] = k.split('|');
        m.violations.labels(category!, severity!).inc(n);
      }
    },
    committed(seconds) {
      m?.storeWriteSeconds.observe(seconds);
    },
    retired(count) {
      m?.evaluationsRetired.inc(count);
    },
    commitFailed(record, error, final) {
      log.error(
        { err: error, evaluation_id: record.evaluation_id },
        final
          ? 'evaluation could not be stored; left open for recovery'
          : 'evaluation write failed; ending it as error',
      );
      m?.storeWriteFailures.labels('evaluation').inc();
    },
  };
}

/** A background write of `actor` failed: logged and counted (`gov_store_write_failures_total{actor}`); the actor retries by itself. */
export function storeFailureReporter(
  actor: string,
  message: string,
  metrics: Metrics | null,
  log: Logger,
): (error: unknown) => void {
  return (error) => {
    log.error({ err: error }, message);
    metrics?.storeWriteFailures.labels(actor).inc();
  };
}

/** Counts each webhook delivery attempt by outcome, with its duration. */
export function deliveryAttemptObserver(
  metrics: Metrics | null,
): (result: SendResult, delivery: DeliveryRecord) => void {
  return (result, delivery) => {
    if (!metrics) return;
    const outcome =
      delivery.status === 'delivered'
        ? 'delivered'
        : result.blocked
          ? 'blocked'
          : delivery.status === 'failed'
            ? 'failed'
            : 'retry';
    metrics.webhookDeliveries.labels(outcome).inc();
    metrics.webhookSeconds.observe(result.durationMs / 1000);
  };
}

/** Queue waits and worker failures of the pool. */
export function observePool(pool: EvaluationPool, metrics: Metrics | null): void {
  if (!metrics) return;
  pool.onWait = (s) => metrics.poolWait.observe(s);
  pool.onWorkerFailure = (reason) => metrics.poolCrashes.labels(reason).inc();
}
