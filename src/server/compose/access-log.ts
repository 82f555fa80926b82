/**
 * @module server/compose/access-log: per-request metrics and the access log line. With the service's
 * own logger (server/log-destination) the line is serialized by hand (compose/access-line) straight
 * into the logger's buffered destination: no pino serializer and no write(2) per request; the usual
 * line (an admitted key, no trace) is encoded in place into the buffer from the UTF-8 bytes of its
 * kept segments, with no string built. With an injected logger it goes through pino. One line per request: `request` at `info`, or `request refused` at `warn`
 * for a 401, 403 or 429 with its refusal code (`reason`, server/refusal-reasons) and the key id when
 * known. With a valid `traceparent` the line carries `trace_id` and `span_id`.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import {
  ACCESS_INFO,
  ACCESS_WARN,
  accessBindings,
  accessLineMaxBytes,
  accessLineOf,
  encodeAccessLine,
  formatAccessLine,
  methodRouteSegment,
  tailSegment,
  type AccessLine,
} from './access-line.js';
import type { KeyRecord } from '../../model/records.js';
import { rawLogWriter, type LogWriter } from '../log-destination.js';
import type { AdapterHooks } from '../uws/adapter.js';
import type { Metrics } from '../metrics.js';
import type { Clock } from './tokens.js';
import { internalError } from '../app.js';
import { reasonLabel } from '../metrics.js';

/** Rejections counted by reason (`gov_http_rejections_total`). */
const COUNTED_REJECTIONS = new Set([401, 403, 413, 422, 429]);

/** Most routes (with their methods) whose segment is kept; emptied when full (a client may send any method). */
const SEGMENTS_MAX = 1024;

/** A segment of the access line as its string and its UTF-8 bytes. */
interface Segment {
  readonly text: string;
  readonly bytes: Uint8Array;
}

const segment = (text: string): Segment => ({ text, bytes: Buffer.from(text) });

/** The access line's segments that repeat: per route and method, and per key record and watermark (a day). */
class Segments {
  private readonly byRoute = new Map<string, Segment>();
  private readonly byKey = new WeakMap<KeyRecord, { readonly watermark: string | null; readonly tail: Segment }>();

  methodRoute(method: string, route: string | null): Segment {
    // No route (a path that matched none): kept per method, under an id no route template can take.
    const id = route === null ? `\u0000${method}` : method === 'GET' ? route : `${method} ${route}`;
    let out = this.byRoute.get(id);
    if (out === undefined) {
      if (this.byRoute.size >= SEGMENTS_MAX) this.byRoute.clear();
      out = segment(methodRouteSegment(method, route));
      this.byRoute.set(id, out);
    }
    return out;
  }

  /** The tail of an admitted key's `request` line. */
  tail(key: KeyRecord, watermark: string | null): Segment {
    const kept = this.byKey.get(key);
    if (kept !== undefined && kept.watermark === watermark) return kept.tail;
    const tail = segment(tailSegment({ key_id: key.key_id, org_id: key.org_id, watermark }, 'request'));
    this.byKey.set(key, { watermark, tail });
    return tail;
  }
}

/**
 * Writes the usual line (an admitted key, no trace) into `writer`: encoded in place from the kept
 * segments' bytes, or, when its request id or size does not allow that, as the string
 * {@link accessLineOf} builds (the same bytes).
 */
function writeUsualLine(
  writer: LogWriter,
  bindings: Segment,
  requestId: string,
  methodRoute: Segment,
  status: number | null,
  aborted: boolean,
  durationMs: number,
  bytesIn: number,
  tail: Segment,
): void {
  const time = Date.now();
  const into = writer.reserve(accessLineMaxBytes(bindings.bytes, requestId, methodRoute.bytes, tail.bytes));
  if (into !== null) {
    const end = encodeAccessLine(
      into,
      writer.offset,
      ACCESS_INFO,
      time,
      bindings.bytes,
      requestId,
      methodRoute.bytes,
      status,
      aborted,
      durationMs,
      bytesIn,
      tail.bytes,
    );
    if (end >= 0) {
      writer.commit(end);
      return;
    }
  }
  writer.line(
    accessLineOf(
      ACCESS_INFO,
      time,
      bindings.text,
      requestId,
      methodRoute.text,
      status,
      aborted,
      durationMs,
      bytesIn,
      tail.text,
    ),
  );
}

/** The adapter's hooks: in-flight gauge, request metrics, the access log line, and the 500 logger. */
export function accessHooks(
  metrics: Metrics | null,
  log: Logger,
  now: Clock,
  unavailable: (err: unknown) => boolean = () => false,
): AdapterHooks {
  const raw = rawLogWriter(log);
  const bindings = segment(accessBindings(process.pid, hostname()));
  const segments = new Segments();
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
      const durationMs = Math.round((now() - req.receivedAt) * 1000) / 1000;
      const key = ctx?.key ?? null;
      const watermark = ctx?.watermark ?? null;
      if (raw && !refused && !req.trace && key !== null && ctx !== null) {
        // The usual line (an admitted key, no trace): the segments that repeat are kept, per route and per key and day.
        writeUsualLine(
          raw,
          bindings,
          req.requestId,
          segments.methodRoute(req.method, ctx.template),
          res?.status ?? null,
          aborted,
          durationMs,
          bytesIn,
          segments.tail(key, watermark),
        );
        return;
      }
      const line: AccessLine = {
        request_id: req.requestId,
        method: req.method,
        route: ctx?.template ?? null,
        status: res?.status ?? null,
        aborted,
        duration_ms: durationMs,
        bytes_in: bytesIn,
        key_id: key?.key_id ?? res?.keyId ?? null,
        org_id: key?.org_id ?? null,
        watermark,
      };
      const trace = req.trace;
      if (trace) {
        line.trace_id = trace.traceId;
        line.span_id = trace.spanId;
      }
      if (refused) line.reason = res.reason;
      if (raw)
        raw.line(
          formatAccessLine(
            refused ? ACCESS_WARN : ACCESS_INFO,
            Date.now(),
            bindings.text,
            line,
            refused ? 'request refused' : 'request',
          ),
        );
      else if (refused) log.warn(line, 'request refused');
      else log.info(line, 'request');
    },
  };
}
