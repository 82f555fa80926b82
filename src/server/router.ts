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

const NONE: Match = { kind: 'none' };

/** Matches paths against the route table. */
export class Router {
  /** Routes by first path segment (every template starts with a literal), so a match tries only a few. */
  private readonly byFirst = new Map<string, Compiled[]>();

  constructor(routes: readonly Route[], private readonly prefix: string = API_PREFIX) {
    for (const route of routes) {
      const parts = route.template.split('/').slice(1).map((p): { literal: string } | { param: string } => (p.startsWith('{') ? { param: p.slice(1, -1) } : { literal: p }));
      const first = parts[0];
      if (first === undefined || !('literal' in first)) throw new Error(`route template must start with a literal segment: ${route.template}`);
      const list = this.byFirst.get(first.literal) ?? [];
      list.push({ route, parts });
      this.byFirst.set(first.literal, list);
    }
  }

  /** Finds the route for `method` and the raw `path`; path parameters are percent-decoded. */
  match(method: string, path: string): Match {
    if (!path.startsWith(this.prefix) || path.charCodeAt(this.prefix.length) !== 47 /* '/' */) return NONE;
    const segments = path.slice(this.prefix.length + 1).split('/');
    const candidates = this.byFirst.get(segments[0]!);
    if (!candidates) return NONE;
    const allowed: string[] = [];
    for (const c of candidates) {
      if (c.parts.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < c.parts.length && ok; i++) {
        const part = c.parts[i]!;
        const seg = segments[i]!;
        if ('literal' in part) ok = part.literal === seg;
        else {
          const decoded = seg.includes('%') ? safeDecode(seg) : seg;
          ok = decoded !== null && decoded !== '';
          if (ok) params[part.param] = decoded!;
        }
      }
      if (!ok) continue;
      if (c.route.method === method) return { kind: 'found', route: c.route, params };
      allowed.push(c.route.method);
    }
    return allowed.length > 0 ? { kind: 'method', allowed } : NONE;
  }
}

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}
