/** @module server/router: the route table of the public API (spec §4), matched without regular expressions. */
import type { Permission } from '../store/records.js';
import type { ApiRequest, ApiResponse, RequestContext } from './http/types.js';

/** Every public path starts with this prefix (spec: `{base_url}/api/public/v1`). */
export const API_PREFIX = '/api/public/v1';
/** The console's session-authenticated API (spec §4 "API-key administration"). */
export const CONSOLE_PREFIX = '/api/v1';

/** A handler: plain request and context in, plain response out. */
export type Handler = (req: ApiRequest, ctx: RequestContext) => ApiResponse | Promise<ApiResponse>;

/** One route. `template` is relative to API_PREFIX (`/evaluations/{id}`). */
export interface Route {
  readonly method: string;
  readonly template: string;
  /** Permission required; `null` for unauthenticated routes (the OpenAPI document, console routes). */
  readonly permission: Permission | null;
  readonly handle: Handler;
}

interface Compiled {
  readonly route: Route;
  readonly parts: readonly { literal: string } [] | readonly ({ literal: string } | { param: string })[];
}

/** Result of matching a request line. */
export type Match =
  | { readonly kind: 'found'; readonly route: Route; readonly params: Record<string, string> }
  | { readonly kind: 'method'; readonly allowed: readonly string[] }
  | { readonly kind: 'none' };

/** Matches paths against the route table. */
export class Router {
  private readonly compiled: Compiled[];

  constructor(routes: readonly Route[], private readonly prefix: string = API_PREFIX) {
    this.compiled = routes.map((route) => ({
      route,
      parts: route.template.split('/').slice(1).map((p) => (p.startsWith('{') ? { param: p.slice(1, -1) } : { literal: p })),
    }));
  }

  /** Finds the route for `method` and the raw `path`; path parameters are percent-decoded. */
  match(method: string, path: string): Match {
    if (!path.startsWith(`${this.prefix}/`)) return { kind: 'none' };
    const segments = path.slice(this.prefix.length).split('/').slice(1);
    const allowed: string[] = [];
    for (const c of this.compiled) {
      if (c.parts.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < c.parts.length && ok; i++) {
        const part = c.parts[i]!;
        const seg = segments[i]!;
        if ('literal' in part) ok = part.literal === seg;
        else {
          const decoded = safeDecode(seg);
          ok = decoded !== null && decoded !== '';
          if (ok) params[part.param] = decoded!;
        }
      }
      if (!ok) continue;
      if (c.route.method === method) return { kind: 'found', route: c.route, params };
      allowed.push(c.route.method);
    }
    return allowed.length > 0 ? { kind: 'method', allowed } : { kind: 'none' };
  }
}

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}
