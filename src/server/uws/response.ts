/** @module server/uws/response: writing a plain response into a uWS response (PITFALLS 5). */
import type { HttpResponse } from 'uWebSockets.js';
import type { ApiRequest, ApiResponse, RequestContext } from '../http/types.js';

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: '200 OK',
  201: '201 Created',
  202: '202 Accepted',
  204: '204 No Content',
  304: '304 Not Modified',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  409: '409 Conflict',
  410: '410 Gone',
  413: '413 Payload Too Large',
  422: '422 Unprocessable Entity',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};
// Constant header names and values as bytes: uWS takes them without converting a string each time.
const H_CONTENT_TYPE = Buffer.from('content-type');
const JSON_AND_ID = 'application/json; charset=utf-8\r\nx-request-id: ';
const STATUS_BYTES = new Map(Object.entries(STATUS_TEXT).map(([code, text]) => [Number(code), Buffer.from(text)]));

/** `\r\nx-ratelimit-limit: <limit>\r\nx-ratelimit-remaining: ` of the last limit written (a key's limit rarely changes). */
let lastLimit = -1;
let lastLimitPart = '';
function limitPart(limit: number): string {
  if (limit !== lastLimit) {
    lastLimit = limit;
    lastLimitPart = `\r\nx-ratelimit-limit: ${limit}\r\nx-ratelimit-remaining: `;
  }
  return lastLimitPart;
}
/** `\r\nx-ratelimit-reset: <reset>` of the last reset written (it changes once a minute). */
let lastReset = -1;
let lastResetPart = '';
function resetPart(reset: number): string {
  if (reset !== lastReset) {
    lastReset = reset;
    lastResetPart = `\r\nx-ratelimit-reset: ${reset}`;
  }
  return lastResetPart;
}

/** Status line, the fixed header block and the response's own headers. */
function writeHead(res: HttpResponse, req: ApiRequest, ctx: RequestContext | null, out: ApiResponse): void {
  res.writeStatus(STATUS_BYTES.get(out.status) ?? `${out.status} Status`);
  const rate = ctx?.rate;
  // uWS writes `name: value\r\n` as given, so the fixed headers (content type, request id and,
  // spec §8 rule 2, the rate-limit state of every authenticated response) go out as one block:
  // one call into uWS instead of five. The values are integers and the request id, which is ours or
  // a client's validated against REQUEST_ID_PATTERN (model/trace-context; no CR, LF or other character that could end a header).
  res.writeHeader(
    H_CONTENT_TYPE,
    rate
      ? `${JSON_AND_ID}${req.requestId}${limitPart(rate.limit)}${rate.remaining}${resetPart(rate.reset)}`
      : `${JSON_AND_ID}${req.requestId}`,
  );
  if (out.headers) for (const [name, value] of out.headers) res.writeHeader(name, value);
}

/**
 * Writes and ends `out`. A HEAD request gets the head only (RFC 9110 §9.3.2: no content), with the
 * `Content-Length` its GET would have. `close` (or `out.close`) closes the connection afterwards.
 */
export function writeResponse(
  res: HttpResponse,
  req: ApiRequest,
  ctx: RequestContext | null,
  out: ApiResponse,
  closing: boolean,
): void {
  writeHead(res, req, ctx, out);
  const close = closing || out.close === true;
  if (req.method === 'HEAD') {
    // uWS's endWithoutBody(length) leaves the response pending until `length` bytes are written,
    // so the length is written as a header and uWS is told to send no body; the client is asked to
    // close instead of uWS closing (its close flag needs that length argument).
    res.writeHeader('content-length', String(Buffer.byteLength(out.body)));
    if (close) res.writeHeader('connection', 'close');
    res.endWithoutBody();
    return;
  }
  res.end(out.status === 304 ? '' : out.body, close);
}

/**
 * Writes the head and the whole body of a refusal without ending the response: the body goes out
 * as one chunk (uWS switches to chunked encoding), and the terminating chunk is sent when the
 * connection is closed after the lingering close. `Connection: close` tells the client not to reuse it.
 */
export function writeRefusalHead(res: HttpResponse, req: ApiRequest, out: ApiResponse): void {
  writeHead(res, req, null, out);
  res.writeHeader('connection', 'close');
  res.write(out.body);
}
