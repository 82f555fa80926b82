/**
 * @module server/compose/access-log: per-request metrics and the access log line (pino, asynchronous:
 * no write(2) per request). One line per request: `request` at `info`, or `request refused` at `warn`
 * for a 401, 403 or 429 with its refusal code (`reason`, server/refusal-reasons) and the key id when
 * known. With a valid `traceparent` the line carries `trace_id` and `span_id`.
 */
import type { Logger } from 'pino';
import type { AdapterHooks } from '../uws/adapter.js';
import type { Metrics } from '../metrics.js';
import type { Clock } from './tokens.js';
import { internalError } from '../app.js';
import { reasonLabel } from '../metrics.js';

/** Rejections counted by reason (`gov_http_rejections_total`). */
const COUNTED_REJECTIONS = new Set([401, 403, 413, 422, 429]);

/** Fields of an access log line; `trace_id` and `span_id` only for a request with a trace context. */
interface AccessLine {
  request_id: string;
  method: string;
  route: string | null;
  status: number | null;
  aborted: boolean;
  duration_ms: number;
  bytes_in: number;
  key_id: string | null;
  org_id: string | null;
  watermark: string | null;
  reason?: string;
  trace_id?: string;
  span_id?: string;
}

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
      const refused = res?.reason !== undefined;
      if (!log.isLevelEnabled(refused ? 'warn' : 'info')) return;
      const line: AccessLine = {
        request_id: req.requestId,
        method: req.method,
        route: ctx?.template ?? null,
        status: res?.status ?? null,
        aborted,
        duration_ms: Math.round((now() - req.receivedAt) * 1000) / 1000,
        bytes_in: bytesIn,
        key_id: ctx?.key?.key_id ?? res?.keyId ?? null,
        org_id: ctx?.key?.org_id ?? null,
        watermark: ctx?.watermark ?? null,
      };
      const trace = req.trace;
      if (trace) {
        line.trace_id = trace.traceId;
        line.span_id = trace.spanId;
      }
      if (refused) {
        line.reason = res.reason;
        log.warn(line, 'request refused');
      } else log.info(line, 'request');
    },
  };
}
