/** @module server/router: the route table of the public API (spec §4), matched without regular expressions. */
import type { Permission } from '../model/records.js';
import type { ApiErrorRow } from './errors.js';
import type { ApiRequest, ApiResponse, RequestContext } from './http/types.js';

/** Every public path starts with this prefix (spec: `{base_url}/api/public/v1`). */
export const API_PREFIX = '/api/public/v1';
/** The console's session-authenticated API (spec §4 "API-key administration"). */
export const CONSOLE_PREFIX = '/api/v1';

/**
 * Longest identifier in a path, in characters after percent-decoding: scenario, evaluation,
 * webhook, delivery and key ids are 1-128 characters (docs/api.md "Identifiers"). Longer ones
 * cannot exist, so they get the route's 404 without reaching the store.
 */
export const MAX_ID_LENGTH = 128;

/** A handler: plain request and context in, plain response out. */
export type Handler = (req: ApiRequest, ctx: RequestContext) => ApiResponse | Promise<ApiResponse>;

/** What a path parameter may be, and what a request gets when it is not (an id that cannot exist). */
export interface ParamRule {
  /** The 404 row of the thing the parameter names (`Evaluation not found`). */
  readonly notFound: ApiErrorRow;
  /**
   * Longest value in characters after decoding; default MAX_ID_LENGTH. `null`: no limit here, the
   * handler checks the parts of the segment itself (a composite id such as `{scenario_id}:{code}`).
   */
  readonly maxLength?: number | null;
}

/** The longest value `rule` admits, or `null` for no limit (what the router enforces and the OpenAPI document states). */
export function maxLengthOf(rule: ParamRule): number | null {
  return rule.maxLength === undefined ? MAX_ID_LENGTH : rule.maxLength;
}

/** One route. `template` is relative to the router's prefix (`/evaluations/{id}`). */
export interface Route {
  readonly method: string;
  readonly template: string;
  /** Permission required; `null` for unauthenticated routes (the OpenAPI document, console routes). */
  readonly permission: Permission | null;
  /** A rule per `{param}` of the template (required for each one: checked when the router is built). */
  readonly params?: Readonly<Record<string, ParamRule>>;
  readonly handle: Handler;
}

type Part = { readonly literal: string } | { readonly param: string; readonly rule: ParamRule; readonly max: number };

interface Compiled {
  readonly route: Route;
  readonly parts: readonly Part[];
}

/** Result of matching a request line. */
export type Match =
  | { readonly kind: 'found'; readonly route: Route; readonly params: Record<string, string> }
  /** The path names a route but a parameter breaks its rule: answer `notFound`. */
  | { readonly kind: 'invalid'; readonly route: Route; readonly notFound: ApiErrorRow }
  | { readonly kind: 'method'; readonly allowed: readonly string[] }
  | { readonly kind: 'none' };

const NONE: Match = { kind: 'none' };
/** Paths remembered per method by `Router.match`. */
const MEMO_PATHS_MAX = 10_000;
/** Methods remembered (a client may send any token as a method). */
const MEMO_METHODS_MAX = 16;

/** Matches paths against the route table. HEAD matches GET routes (RFC 9110 §9.3.2). */
export class Router {
  /** Routes by first path segment (every template starts with a literal), so a match tries only a few. */
  private readonly byFirst = new Map<string, Compiled[]>();
  /** Results by method and path (each map emptied when full: a client sending ever-new paths only refills it). */
  private readonly memo = new Map<string, Map<string, Match>>();

  /** @throws Error for a template without a leading literal or a parameter without a rule. */
  constructor(
    routes: readonly Route[],
    private readonly prefix: string = API_PREFIX,
  ) {
    for (const route of routes) {
      const parts = route.template
        .split('/')
        .slice(1)
        .map((p): Part => {
          if (!p.startsWith('{')) return { literal: p };
          const param = p.slice(1, -1);
          const rule = route.params?.[param];
          if (!rule) throw new Error(`route ${route.method} ${route.template} has no rule for {${param}}`);
          return { param, rule, max: maxLengthOf(rule) ?? Infinity };
        });
      const first = parts[0];
      if (first === undefined || !('literal' in first))
        throw new Error(`route template must start with a literal segment: ${route.template}`);
      const list = this.byFirst.get(first.literal) ?? [];
      list.push({ route, parts });
      this.byFirst.set(first.literal, list);
    }
  }

  /**
   * Finds the route for `method` and the raw `path`; path parameters are percent-decoded. The result
   * (frozen: it is shared) is remembered per method and path, as clients poll the same paths.
   */
  match(method: string, path: string): Match {
    const wanted = method === 'HEAD' ? 'GET' : method;
    let memo = this.memo.get(wanted);
    if (memo === undefined) {
      if (this.memo.size >= MEMO_METHODS_MAX) this.memo.clear();
      memo = new Map();
      this.memo.set(wanted, memo);
    }
    let found = memo.get(path);
    if (found === undefined) {
      found = this.find(wanted, path);
      if (memo.size >= MEMO_PATHS_MAX) memo.clear();
      memo.set(path, found);
    }
    return found;
  }

  private find(wanted: string, path: string): Match {
    if (!path.startsWith(this.prefix) || path.charCodeAt(this.prefix.length) !== 47 /* '/' */) return NONE;
    const segments = path.slice(this.prefix.length + 1).split('/');
    const candidates = this.byFirst.get(segments[0]!);
    if (!candidates) return NONE;
    const allowed: string[] = [];
    for (const c of candidates) {
      if (c.parts.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      let invalid: ApiErrorRow | null = null;
      for (let i = 0; i < c.parts.length && ok; i++) {
        const part = c.parts[i]!;
        const seg = segments[i]!;
        if ('literal' in part) {
          ok = part.literal === seg;
          continue;
        }
        const decoded = seg.includes('%') ? safeDecode(seg) : seg;
        ok = decoded !== null && decoded !== '';
        if (!ok) break;
        if (decoded!.length > part.max) invalid ??= part.rule.notFound;
        params[part.param] = decoded!;
      }
      if (!ok) continue;
      if (c.route.method === wanted)
        return invalid
          ? { kind: 'invalid', route: c.route, notFound: invalid }
          : { kind: 'found', route: c.route, params: Object.freeze(params) };
      allowed.push(c.route.method);
      if (c.route.method === 'GET') allowed.push('HEAD');
    }
    return allowed.length > 0 ? { kind: 'method', allowed: Object.freeze(allowed) } : NONE;
  }
}

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}
