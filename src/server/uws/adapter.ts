/**
 * @module server/uws/adapter: the only code that touches uWebSockets.js request and response objects.
 * It copies the request out synchronously, attaches `onAborted` and `onData` before returning,
 * caps the body while streaming (413 closes the connection), and writes responses inside `cork`
 * only while the request is alive (PITFALLS 1-6, 10, 11).
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import type { ApiRequest, ApiResponse, RequestContext } from '../http/types.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';
import { normalizeAddress } from '../pipeline/client-address.js';

const require = createRequire(import.meta.url);
type UwsModule = typeof import('uWebSockets.js');

/**
 * Loads uWebSockets.js and refuses the slow JavaScript fallback (PITFALLS 11): only the native
 * module has `getParts`. @throws Error when the native binary is not loaded.
 */
export function loadNativeUws(): UwsModule {
  if (/^(1|true)$/i.test(process.env['UWS_USE_FALLBACK'] ?? '')) throw new Error('UWS_USE_FALLBACK is set: refusing to run on the slow JavaScript fallback of uWebSockets.js');
  const uws = require('uWebSockets.js') as UwsModule;
  if (typeof uws.getParts !== 'function') throw new Error('uWebSockets.js native binary did not load (JavaScript fallback detected); refusing to start');
  return uws;
}

/**
 * Handles one fully-read request with its (fresh) context. May return synchronously (fast path)
 * or a promise.
 */
export type Dispatch = (req: ApiRequest, ctx: RequestContext) => ApiResponse | Promise<ApiResponse>;

/** Hooks for observability; all optional. */
export interface AdapterHooks {
  /** Called when a request arrives (before its body is read). */
  onStart?(): void;
  /** Called once per request after the response is written (or the client went away). */
  onFinished?(req: ApiRequest | null, ctx: RequestContext | null, res: ApiResponse | null, aborted: boolean, bytesIn: number): void;
  /** Called for a dispatch that threw or rejected; returns the 500 response to send. */
  onError(err: unknown, req: ApiRequest): ApiResponse;
}

/** Options of the adapter. */
export interface AdapterOptions {
  /** Largest accepted body, in bytes (spec §8: about 2 MB). */
  readonly bodyLimitBytes: number;
  /** Epoch ms clock (injectable). */
  readonly now: () => number;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: '200 OK', 201: '201 Created', 202: '202 Accepted', 204: '204 No Content', 304: '304 Not Modified',
  400: '400 Bad Request', 401: '401 Unauthorized', 403: '403 Forbidden', 404: '404 Not Found', 405: '405 Method Not Allowed',
  409: '409 Conflict', 410: '410 Gone', 413: '413 Payload Too Large', 422: '422 Unprocessable Entity', 429: '429 Too Many Requests',
  500: '500 Internal Server Error', 503: '503 Service Unavailable',
};
// Constant header names and values as bytes: uWS takes them without converting a string each time.
const H_CONTENT_TYPE = Buffer.from('content-type');
const JSON_AND_ID = 'application/json; charset=utf-8\r\nx-request-id: ';
const STATUS_BYTES = new Map(Object.entries(STATUS_TEXT).map(([code, text]) => [Number(code), Buffer.from(text)]));
const EMPTY = Buffer.alloc(0);
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** A thin request-id: 16 hex characters, unique per process run. */
let idCounter = 0;
const idPrefix = randomBytes(4).toString('hex');
function nextRequestId(): string {
  idCounter = (idCounter + 1) >>> 0;
  return `${idPrefix}${idCounter.toString(16).padStart(8, '0')}`;
}

/** One request/response exchange: what the adapter tracks between uWS callbacks. */
class Exchange {
  aborted = false;
  done = false;
  req: ApiRequest | null = null;
  ctx: RequestContext | null = null;
  bytesIn = 0;
  constructor(readonly res: HttpResponse, readonly hooks: AdapterHooks) {}
}

const decoder = new TextDecoder();

/**
 * The plain request copied out of uWS (a class: one shape, no spreads). The peer address is read
 * from uWS on first use only (it costs about a microsecond and only IP allowlists need it), and
 * only while the response is alive (PITFALLS 4); afterwards it reads as ''.
 */
class Request implements ApiRequest {
  private address: string | null = null;
  constructor(
    readonly method: string, readonly path: string, readonly query: string, readonly headers: Readonly<Record<string, string>>,
    readonly body: Buffer, private readonly x: Exchange | null, readonly requestId: string, readonly receivedAt: number,
  ) {}

  get remoteAddress(): string {
    if (this.address === null) {
      const x = this.x;
      this.address = x === null || x.aborted || x.done ? '' : normalizeAddress(decoder.decode(x.res.getRemoteAddressAsText()));
    }
    return this.address;
  }
}

/** Registers the catch-all handler on `app`. */
export function mountAdapter(app: TemplatedApp, dispatch: Dispatch, options: AdapterOptions, hooks: AdapterHooks): void {
  app.any('/*', (res: HttpResponse, req: HttpRequest) => {
    const x = new Exchange(res, hooks);
    hooks.onStart?.();
    res.onAborted(() => {
      x.aborted = true;
      if (!x.done) hooks.onFinished?.(null, null, null, true, 0);
    });
    try {
      const headers: Record<string, string> = {};
      req.forEach((name, value) => {
        const seen = headers[name];
        headers[name] = seen === undefined ? value : `${seen}, ${value}`;
      });
      const method = req.getMethod().toUpperCase();
      const path = req.getUrl();
      const query = req.getQuery() ?? '';
      const requestId = nextRequestId();
      const receivedAt = options.now();
      const length = headers['content-length'];
      const declared = length !== undefined ? Number(length) : null;
      const chunked = headers['transfer-encoding'] !== undefined;
      if (declared !== null && (!Number.isFinite(declared) || declared > options.bodyLimitBytes)) {
        x.req = new Request(method, path, query, headers, EMPTY, x, requestId, receivedAt);
        respond(x, fail(API_ERRORS.bodyTooLarge, { detail: `The request body exceeds ${options.bodyLimitBytes} bytes`, close: true }));
        return;
      }
      if ((declared === null || declared === 0) && !chunked) {
        x.req = new Request(method, path, query, headers, EMPTY, x, requestId, receivedAt);
        run(x, dispatch);
        return;
      }
      // With a declared length the body is read into one buffer of that size (one allocation, one
      // copy per chunk, an ArrayBuffer of its own that the pool can transfer); chunked bodies are
      // collected and joined.
      const body = declared !== null ? Buffer.allocUnsafeSlow(declared) : null;
      const chunks: Buffer[] = [];
      res.onData((chunk, isLast) => {
        if (x.done || x.aborted) return;
        const at = x.bytesIn;
        x.bytesIn += chunk.byteLength;
        if (x.bytesIn > options.bodyLimitBytes || (body !== null && x.bytesIn > body.length)) {
          chunks.length = 0;
          x.req = new Request(method, path, query, headers, EMPTY, x, requestId, receivedAt);
          respond(x, fail(API_ERRORS.bodyTooLarge, { detail: `The request body exceeds ${options.bodyLimitBytes} bytes`, close: true }));
          return;
        }
        // uWS neuters the chunk when this callback returns: copy it now.
        if (body !== null) body.set(new Uint8Array(chunk), at);
        else chunks.push(Buffer.from(chunk.slice(0)));
        if (isLast) {
          const full = body !== null ? body.subarray(0, x.bytesIn) : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, x.bytesIn);
          x.req = new Request(method, path, query, headers, full, x, requestId, receivedAt);
          run(x, dispatch);
        }
      });
    } catch (err) {
      // A synchronous throw out of a uWS handler terminates the process (PITFALLS 1): answer 500 instead.
      x.req ??= new Request('?', '?', '', {}, EMPTY, null, nextRequestId(), options.now());
      respond(x, hooks.onError(err, x.req));
    }
  });
}

function run(x: Exchange, dispatch: Dispatch): void {
  const req = x.req!;
  const ctx: RequestContext = { key: null, watermark: null, rate: null, params: NO_PARAMS, template: null, clientIp: null };
  x.ctx = ctx;
  let out: ApiResponse | Promise<ApiResponse>;
  try {
    out = dispatch(req, ctx);
  } catch (err) {
    respond(x, x.hooks.onError(err, req));
    return;
  }
  if (out instanceof Promise) {
    out.then(
      (r) => respond(x, r),
      (err: unknown) => respond(x, x.hooks.onError(err, req)),
    );
  } else {
    respond(x, out, false);
  }
}

/**
 * Sends `out` once. `cork` is needed for answers written outside a uWS callback (after an await,
 * PITFALLS 4); a synchronous answer inside the handler is already corked by uWS.
 */
function respond(x: Exchange, out: ApiResponse, cork = true): void {
  if (x.done) return;
  x.done = true;
  if (!x.aborted) {
    if (cork) x.res.cork(() => write(x, out));
    else write(x, out);
  }
  x.hooks.onFinished?.(x.req, x.ctx, out, x.aborted, x.bytesIn);
}

function write(x: Exchange, out: ApiResponse): void {
  const res = x.res;
  res.writeStatus(STATUS_BYTES.get(out.status) ?? `${out.status} Status`);
  const rate = x.ctx?.rate;
  // uWS writes `name: value\r\n` as given, so the fixed headers (content type, request id and,
  // spec §8 rule 2, the rate-limit state of every authenticated response) go out as one block:
  // one call into uWS instead of five. The values are our own id and integers, never client input.
  res.writeHeader(H_CONTENT_TYPE, rate
    ? `${JSON_AND_ID}${x.req!.requestId}\r\nx-ratelimit-limit: ${rate.limit}\r\nx-ratelimit-remaining: ${rate.remaining}\r\nx-ratelimit-reset: ${rate.reset}`
    : `${JSON_AND_ID}${x.req!.requestId}`);
  if (out.headers) for (const [name, value] of out.headers) res.writeHeader(name, value);
  res.end(out.status === 304 ? '' : out.body, out.close === true);
}

/** `LIBUS_LISTEN_EXCLUSIVE_PORT` of uSockets' ListenOptions (not exported at run time by this build). */
const LISTEN_EXCLUSIVE_PORT = 1;

/** Listens on host:port with an exclusive port (PITFALLS 9). Resolves the listen socket and the bound port. */
export function listen(uws: UwsModule, app: TemplatedApp, host: string, port: number): Promise<{ socket: us_listen_socket; port: number }> {
  return new Promise((resolve, reject) => {
    (app as unknown as { listen(h: string, p: number, o: number, cb: (s: us_listen_socket | false) => void): void }).listen(host, port, LISTEN_EXCLUSIVE_PORT, (socket) => {
      if (!socket) reject(new Error(`cannot listen on ${host}:${port} (address in use or not available)`));
      else resolve({ socket, port: uws.us_socket_local_port(socket as unknown as Parameters<UwsModule['us_socket_local_port']>[0]) });
    });
  });
}
