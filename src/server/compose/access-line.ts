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

/** UTF-8 bytes of the line's fixed parts (all ASCII). */
const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const LEVEL_TIME: Readonly<Record<number, Uint8Array>> = {
  [ACCESS_INFO]: ascii(`{"level":${ACCESS_INFO},"time":`),
  [ACCESS_WARN]: ascii(`{"level":${ACCESS_WARN},"time":`),
};
const REQUEST_ID = ascii(',"request_id":"');
const ABORTED_TRUE = ascii(',"aborted":true,"duration_ms":');
const ABORTED_FALSE = ascii(',"aborted":false,"duration_ms":');
const BYTES_IN = ascii(',"bytes_in":');
const NULL = ascii('null');

/**
 * Most bytes {@link encodeAccessLine} writes besides its segments and request id: the fixed parts
 * (under 100 bytes) and four numbers of at most 24 characters each.
 */
const FIXED_MAX_BYTES = 200;

/** Most bytes {@link encodeAccessLine} writes for these segments and request id (a bound for `LogWriter.reserve`). */
export function accessLineMaxBytes(
  bindings: Uint8Array,
  requestId: string,
  methodRoute: Uint8Array,
  tail: Uint8Array,
): number {
  return FIXED_MAX_BYTES + bindings.length + requestId.length + methodRoute.length + tail.length;
}

/** Writes the ASCII characters of `s` (a number's `String`: digits, `.`, `-`, `+`, `e`, `Infinity`, `NaN`) at `at`; @returns the end. */
function writeAscii(into: Uint8Array, at: number, s: string): number {
  for (let i = 0; i < s.length; i++) into[at++] = s.charCodeAt(i);
  return at;
}

/** Writes the last `digits` digits of `v`, an integer in [0, 2^31), zero-padded, with integer arithmetic; @returns the end. */
function writeDigits(into: Uint8Array, at: number, v: number, digits: number): number {
  for (let i = at + digits - 1; i >= at; i--) {
    const q = (v / 10) | 0;
    into[i] = 48 + v - q * 10;
    v = q;
  }
  return at + digits;
}

/** Writes the digits of `v`, an integer in [0, 2^31); @returns the end. */
function writeInt(into: Uint8Array, at: number, v: number): number {
  let digits = 1;
  for (let x = v; x >= 10; x = (x / 10) | 0) digits++;
  return writeDigits(into, at, v, digits);
}

/** Writes `n` as JavaScript prints it: a safe non-negative integer digit by digit, anything else through `String`. */
function writeNumber(into: Uint8Array, at: number, n: number): number {
  if (n >= 0 && n < 1e9 && (n | 0) === n) return writeInt(into, at, n);
  if (!(n >= 0 && n <= Number.MAX_SAFE_INTEGER && Math.floor(n) === n)) return writeAscii(into, at, String(n));
  // Split in two integers below 2^31 (the time in ms has 13 digits): the leading digits, then 9 padded.
  const high = Math.floor(n / 1e9);
  return writeDigits(into, writeInt(into, at, high), n - high * 1e9, 9);
}

/**
 * Writes a duration in ms rounded to the µs (`Math.round(x * 1000) / 1000`) as JavaScript prints it:
 * below 2^43 µs (about 100 days) a double that is k/1000 prints as the integer part and the
 * thousandths without trailing zeros (no shorter decimal maps to the same double while the spacing of
 * doubles is under 0.001); anything else goes through `String`.
 */
function writeMillis(into: Uint8Array, at: number, ms: number): number {
  const micros = Math.round(ms * 1000);
  if (!(micros >= 0 && micros < 2 ** 43 && micros / 1000 === ms)) return writeAscii(into, at, String(ms));
  const whole = Math.floor(micros / 1000);
  const fraction = micros - whole * 1000;
  at = writeNumber(into, at, whole);
  if (fraction === 0) return at;
  into[at++] = 46; // .
  into[at++] = 48 + Math.floor(fraction / 100);
  const rest = fraction % 100;
  if (rest === 0) return at;
  into[at++] = 48 + Math.floor(rest / 10);
  if (rest % 10 !== 0) into[at++] = 48 + (rest % 10);
  return at;
}

/**
 * Encodes the line {@link accessLineOf} builds from the same values straight into `into` at `at`, as
 * UTF-8, without building a string (issue 20, item 2: the line's template literal made a string of
 * ~20 pieces that was then flattened to be encoded, which cost as much as building it). The
 * segments come as their UTF-8 bytes; `level` is {@link ACCESS_INFO} or {@link ACCESS_WARN}.
 * @param into has room for {@link accessLineMaxBytes} bytes from `at`
 * @returns the end of the line; or -1, having written nothing that counts, when `requestId` has a
 *   character JSON would escape or a non-ASCII one (ids that match REQUEST_ID_PATTERN never do; the
 *   caller writes {@link accessLineOf}'s string then)
 */
export function encodeAccessLine(
  into: Uint8Array,
  at: number,
  level: number,
  time: number,
  bindings: Uint8Array,
  requestId: string,
  methodRoute: Uint8Array,
  status: number | null,
  aborted: boolean,
  durationMs: number,
  bytesIn: number,
  tail: Uint8Array,
): number {
  const prefix = LEVEL_TIME[level];
  if (prefix === undefined) return -1;
  into.set(prefix, at);
  at = writeNumber(into, at + prefix.length, time);
  into.set(bindings, at);
  at += bindings.length;
  into.set(REQUEST_ID, at);
  at += REQUEST_ID.length;
  for (let i = 0; i < requestId.length; i++) {
    const c = requestId.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 /* " */ || c === 0x5c /* \ */) return -1;
    into[at++] = c;
  }
  into[at++] = 0x22;
  into.set(methodRoute, at);
  at += methodRoute.length;
  if (status === null) {
    into.set(NULL, at);
    at += NULL.length;
  } else at = writeNumber(into, at, status);
  const abortedBytes = aborted ? ABORTED_TRUE : ABORTED_FALSE;
  into.set(abortedBytes, at);
  at = writeMillis(into, at + abortedBytes.length, durationMs);
  into.set(BYTES_IN, at);
  at = writeNumber(into, at + BYTES_IN.length, bytesIn);
  into.set(tail, at);
  return at + tail.length;
}
