/**
 * @module server/app: the request pipeline as data (design notes "Order of checks"): body size (in
 * the adapter) → browser → Authorization and key → IP allowlist → signature → rate limit → route
 * (404/405) → permission → path ids → Idempotency-Key (public POSTs that carry it) → handler
 * (validation inside). Every authenticated response carries the rate-limit headers and the watermark.
 */
import type { Logger } from 'pino';
import type { ApiRequest, ApiResponse, RequestContext } from './http/types.js';
import type { Router } from './router.js';
import { CONSOLE_PREFIX } from './router.js';
import type { Stage, SyncStage } from './pipeline/types.js';
import type { Watermarks } from './pipeline/watermark.js';
import type { IdempotencyStage } from './pipeline/idempotency.js';
import { API_ERRORS } from './errors.js';
import { fail } from './http/envelope.js';
import { checkPermission } from './pipeline/permission.js';
import { clientAddress, type CidrList } from './pipeline/client-address.js';
import { isPromise } from '../store/awaitable.js';
import type { Match as RouteMatch } from './router.js';

/** The stages run before a handler, in order. */
export interface PipelineStages {
  readonly browser: SyncStage;
  readonly authenticate: Stage;
  readonly ipAllowlist: Stage;
  readonly signature: Stage;
  readonly rateLimit: Stage;
  /** Runs the handler of a public POST that carries `Idempotency-Key` (issue 19); requests without it skip it. */
  readonly idempotency: IdempotencyStage;
}

/** Seconds a client is asked to wait before retrying a request refused during shutdown. */
export const SHUTDOWN_RETRY_AFTER_S = 2;

/** The dispatch function and the switch that makes it refuse new work (graceful shutdown). */
export interface Dispatcher {
  readonly dispatch: (req: ApiRequest, ctx: RequestContext) => ApiResponse | Promise<ApiResponse>;
  /** From now on every request is answered 503 `Service is shutting down` with `Retry-After` and `Connection: close`. */
  refuseNewWork(): void;
}

/**
 * Builds the dispatch function the uWS adapter calls. Unknown routes and methods are answered only
 * after the key, signature and rate-limit checks (design notes "Order of checks": no route
 * enumeration without a key); the OpenAPI document is the one public route.
 */
export function createDispatch(
  router: Router,
  consoleRouter: Router,
  stages: PipelineStages,
  watermarks: Watermarks,
  now: () => number,
  trustedProxies: CidrList = [],
): Dispatcher {
  const authStages: readonly Stage[] = [stages.authenticate, stages.ipAllowlist, stages.signature, stages.rateLimit];
  let refusing = false;
  const shuttingDown = fail(API_ERRORS.shuttingDown, {
    detail: 'This server is shutting down; retry the request (on another node)',
    headers: [['retry-after', String(SHUTDOWN_RETRY_AFTER_S)]],
    close: true,
  });
  function dispatch(req: ApiRequest, ctx: RequestContext): ApiResponse | Promise<ApiResponse> {
    if (refusing) return shuttingDown;
    if (req.path.startsWith(`${CONSOLE_PREFIX}/`)) return dispatchConsole(consoleRouter, trustedProxies, req, ctx);
    const refused = stages.browser(req, ctx);
    if (refused) return refused;
    const match = router.match(req.method, req.path);
    if (match.kind === 'found' && match.route.permission === null) {
      ctx.template = match.route.template;
      ctx.params = match.params;
      return match.route.handle(req, ctx);
    }
    return runStages(0, match, req, ctx);
  }
  /**
   * Runs the authentication stages from `from` on, then the route. Synchronous while every stage
   * answers synchronously (LMDB, caches); continues from a stage's promise otherwise (Redis).
   */
  function runStages(
    from: number,
    match: RouteMatch,
    req: ApiRequest,
    ctx: RequestContext,
  ): ApiResponse | Promise<ApiResponse> {
    // Once the rate-limit stage has counted the call, `ctx.rate` is set and the adapter adds the
    // X-RateLimit-* headers to whatever is answered, errors included (spec §8 rule 2).
    for (let i = from; i < authStages.length; i++) {
      const stop = authStages[i]!(req, ctx);
      if (isPromise(stop)) return stop.then((answer) => answer ?? runStages(i + 1, match, req, ctx));
      if (stop) return stop;
    }
    return route(match, req, ctx);
  }
  function route(match: RouteMatch, req: ApiRequest, ctx: RequestContext): ApiResponse | Promise<ApiResponse> {
    if (match.kind === 'none')
      return fail(API_ERRORS.routeNotFound, { detail: `No route for ${req.method} ${req.path}` });
    if (match.kind === 'method')
      return fail(API_ERRORS.methodNotAllowed, {
        detail: `Allowed: ${match.allowed.join(', ')}`,
        headers: [['allow', match.allowed.join(', ')]],
      });
    ctx.template = match.route.template;
    const denied = match.route.permission === null ? null : checkPermission(ctx, match.route.permission);
    if (denied) return denied;
    if (match.kind === 'invalid') return fail(match.notFound);
    ctx.params = match.params;
    ctx.watermark = watermarks.for(ctx.key!, now());
    if (req.method === 'POST' && req.headers['idempotency-key'] !== undefined)
      return stages.idempotency(req, ctx, match.route);
    return match.route.handle(req, ctx);
  }
  return {
    dispatch,
    refuseNewWork: () => {
      refusing = true;
    },
  };
}

/**
 * The console API: session authentication happens inside its routes (it is used from browsers, so no
 * browser refusal). The client address (sign-in throttling) is resolved here, as no pipeline stage runs.
 */
function dispatchConsole(
  router: Router,
  trustedProxies: CidrList,
  req: ApiRequest,
  ctx: RequestContext,
): ApiResponse | Promise<ApiResponse> {
  const match = router.match(req.method, req.path);
  if (match.kind === 'none')
    return fail(API_ERRORS.routeNotFound, { detail: `No route for ${req.method} ${req.path}` });
  if (match.kind === 'method')
    return fail(API_ERRORS.methodNotAllowed, {
      detail: `Allowed: ${match.allowed.join(', ')}`,
      headers: [['allow', match.allowed.join(', ')]],
    });
  ctx.template = `${CONSOLE_PREFIX}${match.route.template}`;
  if (match.kind === 'invalid') return fail(match.notFound);
  ctx.params = match.params;
  ctx.clientIp = clientAddress(req.remoteAddress, req.headers['x-forwarded-for'], trustedProxies);
  return match.route.handle(req, ctx);
}

/** Seconds a client is asked to wait when the shared store cannot be reached (cluster mode). */
export const STORE_RETRY_AFTER_S = 2;

/**
 * The answer for anything a handler threw: 503 `Service temporarily unavailable` with `Retry-After`
 * when `unavailable(err)` (the shared store cannot be reached: the request may be retried), else
 * the 500, logged with its stack and request id, never sent (STYLE 6).
 */
export function internalError(log: Logger, unavailable: (err: unknown) => boolean = () => false) {
  return function onError(err: unknown, req: ApiRequest): ApiResponse {
    if (unavailable(err)) {
      log.warn({ err, ...requestFields(req) }, 'store unavailable');
      return fail(API_ERRORS.storeUnavailable, {
        detail: 'The shared store cannot be reached; retry after Retry-After',
        headers: [['retry-after', String(STORE_RETRY_AFTER_S)]],
      });
    }
    log.error({ err, ...requestFields(req) }, 'unhandled error');
    return fail(API_ERRORS.internal, { requestId: req.requestId, detail: `Report this request_id: ${req.requestId}` });
  };
}

/** The fields that tie a log line to its request: id, method, path and, with a trace context, `trace_id` and `span_id`. */
function requestFields(req: ApiRequest): Record<string, string> {
  const fields: Record<string, string> = { request_id: req.requestId, method: req.method, path: req.path };
  if (req.trace) {
    fields['trace_id'] = req.trace.traceId;
    fields['span_id'] = req.trace.spanId;
  }
  return fields;
}
