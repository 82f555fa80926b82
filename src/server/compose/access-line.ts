/**
 * @module server/compose/access-line: the access log line serialized by hand (issue 20, item 2).
 * pino's generic serializer (`asJson`: every key and value examined, escaped and joined) was most of
 * the access log's cost per request; the line's shape is fixed, so it is written from a template
 * here, byte for byte what pino writes for the same object (level, time, pid, hostname, the fields
 * in order, msg: a unit test compares the two on random lines).
 */

/** Fields of an access log line, in the order they are written; `trace_id`/`span_id` only for a traced request, `reason` only for a refusal. */
export interface AccessLine {
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

/** pino's numeric levels of the two access lines. */
export const ACCESS_INFO = 30;
export const ACCESS_WARN = 40;

/** Characters that JSON never escapes and our ids, routes and codes are made of. */
const PLAIN = /^[\w .:/{}@+=-]*$/;

/** A JSON string literal of `v`: the common case without a call into JSON.stringify. */
function str(v: string): string {
  return PLAIN.test(v) ? `"${v}"` : JSON.stringify(v);
}

/** Most literals remembered by {@link literal} (emptied when full). */
const LITERALS_MAX = 4096;
const literals = new Map<string, string>();

/**
 * The JSON literal of a value that repeats from line to line (method, route, key id, organization,
 * watermark, message): looked up rather than tested and built on every line (the same string objects
 * come back, so the look-up hashes nothing).
 */
function literal(v: string): string {
  let out = literals.get(v);
  if (out === undefined) {
    if (literals.size >= LITERALS_MAX) literals.clear();
    out = str(v);
    literals.set(v, out);
  }
  return out;
}

/** A repeating value's JSON literal, or `null`. */
function literalOrNull(v: string | null): string {
  return v === null ? 'null' : literal(v);
}

/**
 * pino's bindings of a root logger, as it writes them after `time`: `,"pid":<pid>,"hostname":"<host>"`.
 * @param pid process id; `hostname` the machine's host name (os.hostname()).
 */
export function accessBindings(pid: number, hostname: string): string {
  return `,"pid":${pid},"hostname":${JSON.stringify(hostname)}`;
}

/**
 * The part of a line from `method` to `status`'s name: `,"method":…,"route":…,"status":`. The same
 * for every request of a route, so callers may keep it.
 */
export function methodRouteSegment(method: string, route: string | null): string {
  return `,"method":${literal(method)},"route":${literalOrNull(route)},"status":`;
}

/**
 * The end of a line from `key_id` on: `,"key_id":…,"org_id":…,"watermark":…` then the optional
 * `trace_id`, `span_id`, `reason`, then `,"msg":…}` and the newline. Without a trace it is the same
 * for every request of a key and day, so callers may keep it.
 */
export function tailSegment(
  line: Pick<AccessLine, 'key_id' | 'org_id' | 'watermark' | 'trace_id' | 'span_id' | 'reason'>,
  msg: string,
): string {
  let out = `,"key_id":${literalOrNull(line.key_id)},"org_id":${literalOrNull(line.org_id)},"watermark":${literalOrNull(line.watermark)}`;
  if (line.trace_id !== undefined) out += `,"trace_id":${str(line.trace_id)}`;
  if (line.span_id !== undefined) out += `,"span_id":${str(line.span_id)}`;
  if (line.reason !== undefined) out += `,"reason":${literal(line.reason)}`;
  return `${out},"msg":${literal(msg)}}\n`;
}

/**
 * One access log line from its segments ({@link methodRouteSegment}, {@link tailSegment}) and the
 * values that change with every request: what {@link formatAccessLine} writes, built from few pieces.
 */
export function accessLineOf(
  level: number,
  time: number,
  bindings: string,
  requestId: string,
  methodRoute: string,
  status: number | null,
  aborted: boolean,
  durationMs: number,
  bytesIn: number,
  tail: string,
): string {
  return `{"level":${level},"time":${time}${bindings},"request_id":${str(requestId)}${methodRoute}${status === null ? 'null' : status},"aborted":${aborted},"duration_ms":${durationMs},"bytes_in":${bytesIn}${tail}`;
}

/**
 * One access log line, newline-terminated, as pino writes `logger[level](line, msg)`.
 * @param level {@link ACCESS_INFO} or {@link ACCESS_WARN}
 * @param time milliseconds since the epoch (pino's default `time`)
 * @param bindings from {@link accessBindings}
 */
export function formatAccessLine(level: number, time: number, bindings: string, line: AccessLine, msg: string): string {
  return accessLineOf(
    level,
    time,
    bindings,
    line.request_id,
    methodRouteSegment(line.method, line.route),
    line.status,
    line.aborted,
    line.duration_ms,
    line.bytes_in,
    tailSegment(line, msg),
  );
}
