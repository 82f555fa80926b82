/**
 * @module server/compose/access-log: per-request metrics and the access log line. With the service's
 * own logger (server/log-destination) the line is serialized from a template (compose/access-line)
 * straight into the logger's buffered destination: no pino serializer and no write(2) per request;
 * with an injected logger it goes through pino. One line per request: `request` at `info`, or `request refused` at `warn`
 * for a 401, 403 or 429 with its refusal code (`reason`, server/refusal-reasons) and the key id when
 * known. With a valid `traceparent` the line carries `trace_id` and `span_id`.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { ACCESS_INFO, ACCESS_WARN, accessBindings, formatAccessLine, type AccessLine } from './access-line.js';
import { rawLineWriter } from '../log-destination.js';
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
  const raw = rawLineWriter(log);
  const bindings = accessBindings(process.pid, hostname());
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
      if (refused) line.reason = res.reason;
      if (raw)
        raw(
          formatAccessLine(
            refused ? ACCESS_WARN : ACCESS_INFO,
            Date.now(),
            bindings,
            line,
            refused ? 'request refused' : 'request',
          ),
        );
      else if (refused) log.warn(line, 'request refused');
      else log.info(line, 'request');
    },
  };
}
