/** @module server/compose/access-log: per-request metrics and the access log line (pino, asynchronous: no write(2) per request). */
import type { Logger } from 'pino';
import type { AdapterHooks } from '../uws/adapter.js';
import type { Metrics } from '../metrics.js';
import type { Clock } from './tokens.js';
import { internalError } from '../app.js';
import { reasonLabel } from '../metrics.js';

/** Rejections counted by reason (`gov_http_rejections_total`). */
const COUNTED_REJECTIONS = new Set([401, 403, 413, 422, 429]);

/** The adapter's hooks: in-flight gauge, request metrics, the access log line, and the 500 logger. */
export function accessHooks(
  metrics: Metrics | null,
  log: Logger,
  now: Clock,
  unavailable: (err: unknown) => boolean = () => false,
): AdapterHooks {
  return {
    onError: internalError(log, unavailable),
    ...(metrics
      ? {
          onStart: () => {
            metrics.http.inFlight++;
          },
        }
      : {}),
    onFinished(req, ctx, res, aborted, bytesIn) {
      if (metrics) metrics.http.inFlight--;
      if (!req) return;
      if (metrics && res) {
        metrics.request(
          ctx?.template ?? null,
          req.method,
          res.status,
          (now() - req.receivedAt) / 1000,
          bytesIn,
          res.body.length,
        );
        if (res.error && COUNTED_REJECTIONS.has(res.status))
          metrics.httpRejections.labels(String(res.status), reasonLabel(res.error)).inc();
      }
      if (log.isLevelEnabled('info'))
        log.info(
          {
            request_id: req.requestId,
            method: req.method,
            route: ctx?.template ?? null,
            status: res?.status ?? null,
            aborted,
            duration_ms: Math.round((now() - req.receivedAt) * 1000) / 1000,
            bytes_in: bytesIn,
            key_id: ctx?.key?.key_id ?? null,
            org_id: ctx?.key?.org_id ?? null,
            watermark: ctx?.watermark ?? null,
          },
          'request',
        );
    },
  };
}
