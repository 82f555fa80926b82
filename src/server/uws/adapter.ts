/**
 * @module server/uws/adapter: the only code that touches uWebSockets.js request and response objects.
 * It copies the request out synchronously, attaches `onAborted` and `onData` before returning,
 * caps the body while streaming (413 closes the connection), and writes responses inside `cork`
 * only while the request is alive (PITFALLS 1-6, 10, 11).
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import type { ApiRequest, ApiResponse } from '../http/types.js';
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

/** Handles one fully-read request. May return synchronously (fast path) or a promise. */
export type Dispatch = (req: ApiRequest) => ApiResponse | Promise<ApiResponse>;

/** Hooks for observability; all optional. */
export interface AdapterHooks {
  /** Called when a request arrives (before its body is read). */
  onStart?(): void;
  /** Called once per request after the response is written (or the client went away). */
  onFinished?(req: ApiRequest | null, res: ApiResponse | null, aborted: boolean, bytesIn: number): void;
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

/** A thin request-id: 16 hex characters, unique per process run. */
let idCounter = 0;
const idPrefix = randomBytes(4).toString('hex');
function nextRequestId(): string {
  idCounter = (idCounter + 1) >>> 0;
  return `${idPrefix}${idCounter.toString(16).padStart(8, '0')}`;
}

/** Registers the catch-all handler on `app`. */
export function mountAdapter(app: TemplatedApp, dispatch: Dispatch, options: AdapterOptions, hooks: AdapterHooks): void {
  const decoder = new TextDecoder();
  app.any('/*', (res: HttpResponse, req: HttpRequest) => {
    const state = { aborted: false, done: false };
    hooks.onStart?.();
    res.onAborted(() => {
      state.aborted = true;
      if (!state.done) hooks.onFinished?.(null, null, true, 0);
    });
    let apiReq: ApiRequest | null = null;
    try {
      const headers: Record<string, string> = {};
      req.forEach((name, value) => {
        headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
      });
      const method = req.getMethod().toUpperCase();
      const path = req.getUrl();
      const query = req.getQuery() ?? '';
      const remoteAddress = normalizeAddress(decoder.decode(res.getRemoteAddressAsText()));
      const base = { method, path, query, headers, remoteAddress, requestId: nextRequestId(), receivedAt: options.now() };
      const declared = headers['content-length'] !== undefined ? Number(headers['content-length']) : null;
      const chunked = headers['transfer-encoding'] !== undefined;
      if (declared !== null && (!Number.isFinite(declared) || declared > options.bodyLimitBytes)) {
        apiReq = { ...base, body: Buffer.alloc(0) };
        respond(res, state, apiReq, fail(API_ERRORS.bodyTooLarge, { detail: `The request body exceeds ${options.bodyLimitBytes} bytes`, close: true }), hooks, 0);
        return;
      }
      if ((declared === null || declared === 0) && !chunked) {
        apiReq = { ...base, body: Buffer.alloc(0) };
        run(res, state, apiReq, dispatch, hooks, 0);
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      res.onData((chunk, isLast) => {
        if (state.done || state.aborted) return;
        received += chunk.byteLength;
        if (received > options.bodyLimitBytes) {
          chunks.length = 0;
          apiReq = { ...base, body: Buffer.alloc(0) };
          respond(res, state, apiReq, fail(API_ERRORS.bodyTooLarge, { detail: `The request body exceeds ${options.bodyLimitBytes} bytes`, close: true }), hooks, received);
          return;
        }
        chunks.push(Buffer.from(new Uint8Array(chunk).slice())); // copy: uWS neuters the chunk on return
        if (isLast) {
          apiReq = { ...base, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received) };
          run(res, state, apiReq, dispatch, hooks, received);
        }
      });
    } catch (err) {
      // A synchronous throw out of a uWS handler terminates the process (PITFALLS 1): answer 500 instead.
      const fallbackReq: ApiRequest = apiReq ?? { method: '?', path: '?', query: '', headers: {}, body: Buffer.alloc(0), remoteAddress: '', requestId: nextRequestId(), receivedAt: options.now() };
      respond(res, state, fallbackReq, hooks.onError(err, fallbackReq), hooks, 0);
    }
  });
}

function run(res: HttpResponse, state: { aborted: boolean; done: boolean }, req: ApiRequest, dispatch: Dispatch, hooks: AdapterHooks, bytesIn: number): void {
  let out: ApiResponse | Promise<ApiResponse>;
  try {
    out = dispatch(req);
  } catch (err) {
    respond(res, state, req, hooks.onError(err, req), hooks, bytesIn);
    return;
  }
  if (out instanceof Promise) {
    out.then(
      (r) => respond(res, state, req, r, hooks, bytesIn),
      (err: unknown) => respond(res, state, req, hooks.onError(err, req), hooks, bytesIn),
    );
  } else {
    respond(res, state, req, out, hooks, bytesIn);
  }
}

function respond(res: HttpResponse, state: { aborted: boolean; done: boolean }, req: ApiRequest, out: ApiResponse, hooks: AdapterHooks, bytesIn: number): void {
  if (state.done) return;
  state.done = true;
  if (state.aborted) {
    hooks.onFinished?.(req, out, true, bytesIn);
    return;
  }
  res.cork(() => {
    res.writeStatus(STATUS_TEXT[out.status] ?? `${out.status} Status`);
    res.writeHeader('content-type', 'application/json; charset=utf-8');
    res.writeHeader('x-request-id', req.requestId);
    if (out.headers) for (const [name, value] of out.headers) res.writeHeader(name, value);
    res.end(out.status === 304 ? '' : out.body, out.close === true);
  });
  hooks.onFinished?.(req, out, false, bytesIn);
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
