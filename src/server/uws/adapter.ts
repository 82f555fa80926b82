/**
 * @module server/uws/adapter: the only code that touches uWebSockets.js request and response objects.
 * It copies the request out synchronously, attaches `onAborted` and `onData` before returning,
 * caps the body while streaming, and writes responses inside `cork` only while the request is
 * alive (PITFALLS 1-6, 10). Every request is reported finished exactly once.
 */
import { randomBytes } from 'node:crypto';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import type { ApiRequest, ApiResponse, RequestContext } from '../http/types.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';
import { Request } from './request.js';
import { acceptRequestId, parseTraceparent } from '../../model/trace-context.js';
import { writeResponse, writeRefusalHead } from './response.js';

export { listen, loadNativeUws, type UwsModule } from './native.js';

/**
 * Handles one fully-read request with its (fresh) context. May return synchronously (fast path)
 * or a promise.
 */
export type Dispatch = (req: ApiRequest, ctx: RequestContext) => ApiResponse | Promise<ApiResponse>;

/** Hooks for observability; all optional but `onError`. */
export interface AdapterHooks {
  /** Called when a request arrives (before its body is read). */
  onStart?(): void;
  /**
   * Called exactly once per request: after its response is written, or when the client went
   * away first (`aborted`; `req` is null when the body had not arrived, `res` null when nothing was sent).
   */
  onFinished?(
    req: ApiRequest | null,
    ctx: RequestContext | null,
    res: ApiResponse | null,
    aborted: boolean,
    bytesIn: number,
  ): void;
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

/** What the server controls of a mounted adapter. */
export interface AdapterControl {
  /** Requests received and not yet finished. */
  readonly inFlight: number;
  /** From now on every response closes its connection (graceful shutdown: kept-alive clients reconnect elsewhere). */
  closeConnections(): void;
  /** Resolves once no request is in flight. */
  idle(): Promise<void>;
}

/**
 * Lingering close of a refused upload (issue 13, item 2): after a 413 the rest of the body is read
 * and discarded, up to this many bytes and LINGER_MAX_MS, so a client still writing reads the 413
 * instead of a reset (nginx's lingering close; Node's own server does the same). Beyond either
 * bound the connection is closed.
 */
export const LINGER_MAX_BYTES = 16 * 1024 * 1024;
/** Longest lingering close, in ms (see LINGER_MAX_BYTES). */
export const LINGER_MAX_MS = 10_000;

const EMPTY = Buffer.alloc(0);
const NO_PARAMS: Record<string, string> = Object.freeze({});

/** A thin request-id: 16 hex characters, unique per process run (used when the client sent no valid `X-Request-Id`). */
let idCounter = 0;
const idPrefix = randomBytes(4).toString('hex');
function nextRequestId(): string {
  idCounter = (idCounter + 1) >>> 0;
  return `${idPrefix}${idCounter.toString(16).padStart(8, '0')}`;
}

/** The headers object `collectHeader` fills (one callback for every request instead of a closure each). */
let collecting: Record<string, string> = {};
/** Copies one request header; repeated headers are joined with `, ` (RFC 9110 §5.3). */
function collectHeader(name: string, value: string): void {
  const seen = collecting[name];
  collecting[name] = seen === undefined ? value : `${seen}, ${value}`;
}

/** One request/response exchange: what the adapter tracks between uWS callbacks. */
class Exchange {
  aborted = false;
  /** A response was written (or decided while the client was gone): `res` must not be touched. */
  responded = false;
  /** `onFinished` was called. */
  finished = false;
  /** Reading paused while an asynchronous answer is pending (see `dispatchNow`). */
  paused = false;
  /** A refused upload being discarded: bytes discarded so far, and the bound's timer. */
  lingering: { discarded: number; timer: NodeJS.Timeout } | null = null;
  req: Request | null = null;
  ctx: RequestContext | null = null;
  bytesIn = 0;
  constructor(readonly res: HttpResponse) {}
}

/** Registers the catch-all handler on `app`; returns the controls the server needs for shutdown. */
export function mountAdapter(
  app: TemplatedApp,
  dispatch: Dispatch,
  options: AdapterOptions,
  hooks: AdapterHooks,
): AdapterControl {
  let inFlight = 0;
  let closing = false;
  let idleWaiters: (() => void)[] = [];

  const finish = (x: Exchange, out: ApiResponse | null): void => {
    if (x.finished) return;
    x.finished = true;
    inFlight--;
    hooks.onFinished?.(x.req, x.ctx, out, x.aborted, x.bytesIn);
    if (inFlight === 0 && idleWaiters.length > 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    }
  };

  /** Sends `out` once; `cork` for answers written outside a uWS callback (PITFALLS 4). */
  const respond = (x: Exchange, out: ApiResponse, cork: boolean): void => {
    if (x.responded) return;
    x.responded = true;
    if (!x.aborted) {
      const send = (): void => {
        if (x.paused) {
          x.paused = false;
          x.res.resume();
        }
        writeResponse(x.res, x.req!, x.ctx, out, closing);
      };
      if (cork) x.res.cork(send);
      else send();
    }
    finish(x, out);
  };

  const dispatchNow = (x: Exchange, cork: boolean): void => {
    if (x.aborted) {
      finish(x, null);
      return;
    }
    const req = x.req!;
    const ctx: RequestContext = {
      key: null,
      watermark: null,
      rate: null,
      params: NO_PARAMS,
      template: null,
      clientIp: null,
    };
    x.ctx = ctx;
    let out: ApiResponse | Promise<ApiResponse>;
    try {
      out = dispatch(req, ctx);
    } catch (err) {
      respond(x, hooks.onError(err, req), cork);
      return;
    }
    if (!(out instanceof Promise)) {
      respond(x, out, cork);
      return;
    }
    // While the answer is pending, read nothing more from this connection: uWS closes a connection
    // whose next pipelined request arrives while one is pending (issue 13, item 5). Paused, that
    // request waits in the socket and is read once this answer is written, so both are answered in order.
    if (x.req!.body === EMPTY && (x.req!.method === 'GET' || x.req!.method === 'HEAD')) watchAbort(x); // see watchAbort
    x.paused = true;
    x.res.pause();
    out.then(
      (r) => respond(x, r, true),
      (err: unknown) => respond(x, hooks.onError(err, req), true),
    );
  };

  /**
   * GET and HEAD are dispatched at once (their answers are mostly synchronous, and pipelined reads
   * stay served in order). Other methods wait one event-loop turn: when a pipelined request follows
   * in the same packet, uWS closes the connection right after this callback returns (it does not
   * pipeline asynchronous answers) and fires `onAborted`, so such a request is refused before
   * anything is processed instead of being processed and never answered.
   */
  const run = (x: Exchange): void => {
    const method = x.req!.method;
    if (method === 'GET' || method === 'HEAD')
      dispatchNow(x, false); // inside the uWS callback: already corked
    else setImmediate(dispatchNow, x, true);
  };

  /** 413 (spec §8): answered at once; the rest of the body is discarded within bounds (lingering close). */
  const refuseTooLarge = (x: Exchange, cork: boolean, expectsContinue: boolean): void => {
    const out = fail(API_ERRORS.bodyTooLarge, {
      detail: `The request body exceeds ${options.bodyLimitBytes} bytes`,
      close: true,
    });
    // A client waiting for `100 Continue` has sent no body: answer and close at once.
    if (expectsContinue || x.aborted) {
      respond(x, out, cork);
      return;
    }
    x.responded = true;
    const send = (): void => writeRefusalHead(x.res, x.req!, out);
    if (cork) x.res.cork(send);
    else send();
    x.lingering = { discarded: 0, timer: setTimeout(endLinger, LINGER_MAX_MS, x, false) };
    x.lingering.timer.unref();
    finish(x, out);
  };

  /**
   * Ends a lingering close. When the whole body was read, the refusal is completed (its terminating
   * chunk) and the client, told `Connection: close`, closes; beyond a bound the connection is closed
   * at once. (Not `end('', true)`: after a chunk uWS would write its `Connection: close` header into the body.)
   */
  const endLinger = (x: Exchange, complete: boolean): void => {
    if (x.lingering === null) return;
    clearTimeout(x.lingering.timer);
    x.lingering = null;
    if (x.aborted) return;
    if (complete) x.res.cork(() => x.res.end(''));
    else x.res.close();
  };

  /**
   * Attaches `onAborted` (PITFALLS 1, 4). A bodiless GET or HEAD answered within the uWS callback
   * needs none (uWS cannot abort a request while its callback runs): it is attached only when such a
   * request goes asynchronous, and at once for every other request.
   */
  const watchAbort = (x: Exchange): void => {
    x.res.onAborted(() => {
      x.aborted = true;
      if (x.lingering !== null) {
        clearTimeout(x.lingering.timer);
        x.lingering = null;
      }
      finish(x, null);
    });
  };

  app.any('/*', (res: HttpResponse, req: HttpRequest) => {
    const x = new Exchange(res);
    inFlight++;
    hooks.onStart?.();
    try {
      const headers: Record<string, string> = {};
      collecting = headers;
      req.forEach(collectHeader);
      const method = req.getMethod().toUpperCase();
      const path = req.getUrl();
      const query = req.getQuery() ?? '';
      // The client's id when valid, else ours; a trace context only when `traceparent` is sent (nothing parsed or allocated otherwise).
      const requestId = acceptRequestId(headers['x-request-id']) ?? nextRequestId();
      const traceparent = headers['traceparent'];
      const trace = traceparent === undefined ? null : parseTraceparent(traceparent);
      const receivedAt = options.now();
      const length = headers['content-length'];
      const declared = length !== undefined ? Number(length) : null;
      const chunked = headers['transfer-encoding'] !== undefined;
      const withBody = (body: Buffer, owned: boolean): Request =>
        new Request(method, path, query, headers, body, owned, x, requestId, receivedAt, trace);
      const bodiless = (declared === null || declared === 0) && !chunked;
      if (!bodiless || (method !== 'GET' && method !== 'HEAD')) watchAbort(x);
      if (declared !== null && (!Number.isFinite(declared) || declared > options.bodyLimitBytes)) {
        x.req = withBody(EMPTY, false);
        res.onData((chunk, isLast) => discard(x, chunk.byteLength, isLast));
        refuseTooLarge(x, false, /100-continue/i.test(headers['expect'] ?? ''));
        return;
      }
      if (bodiless) {
        x.req = new Request(method, path, query, headers, EMPTY, false, x, requestId, receivedAt, trace);
        run(x);
        return;
      }
      // With a declared length the body is read into one buffer of that size (one allocation, one
      // copy per chunk, an ArrayBuffer of its own that the pool can transfer); chunked bodies are
      // collected and joined.
      const body = declared !== null ? Buffer.allocUnsafeSlow(declared) : null;
      const chunks: Buffer[] = [];
      res.onData((chunk, isLast) => {
        if (x.lingering !== null || x.responded) {
          discard(x, chunk.byteLength, isLast);
          return;
        }
        if (x.aborted) return;
        const at = x.bytesIn;
        x.bytesIn += chunk.byteLength;
        if (x.bytesIn > options.bodyLimitBytes || (body !== null && x.bytesIn > body.length)) {
          chunks.length = 0;
          x.req = withBody(EMPTY, false);
          refuseTooLarge(x, false, false);
          if (isLast) endLinger(x, true);
          return;
        }
        // uWS neuters the chunk when this callback returns: copy it now.
        if (body !== null) body.set(new Uint8Array(chunk), at);
        else chunks.push(Buffer.from(chunk.slice(0)));
        if (isLast) {
          const full =
            body !== null
              ? body.subarray(0, x.bytesIn)
              : chunks.length === 1
                ? chunks[0]!
                : Buffer.concat(chunks, x.bytesIn);
          // Owned: the declared-length buffer, or the single chunk's own copy (Buffer.concat may use the shared pool).
          x.req = withBody(full, body !== null ? x.bytesIn === body.length : chunks.length === 1);
          run(x);
        }
      });
    } catch (err) {
      // A synchronous throw out of a uWS handler terminates the process (PITFALLS 1): answer 500 instead.
      x.req ??= new Request('?', '?', '', {}, EMPTY, false, null, nextRequestId(), options.now());
      respond(x, hooks.onError(err, x.req), false);
    }
  });

  /** Counts a refused body's bytes; ends the lingering close at its end or beyond its bound. */
  const discard = (x: Exchange, bytes: number, isLast: boolean): void => {
    if (x.lingering === null) return;
    x.lingering.discarded += bytes;
    if (isLast) endLinger(x, true);
    else if (x.lingering.discarded > LINGER_MAX_BYTES) endLinger(x, false);
  };

  return {
    get inFlight() {
      return inFlight;
    },
    closeConnections() {
      closing = true;
    },
    idle() {
      return inFlight === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            idleWaiters.push(resolve);
          });
    },
  };
}
