/**
 * @module server/console/static: serves the built console SPA (`console/dist`, `npm run
 * build:console`) under `/console/` from the public listener. The files are read once at start
 * into memory; a request is answered synchronously inside its uWS callback (no `onAborted` needed:
 * PITFALLS 1 asks for a response or `onAborted` before the handler returns). Browsers are welcome
 * here (the public API's browser refusal applies to `/api/public/v1` only).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';

/** Where the console is served. */
export const CONSOLE_PATH = '/console';

/** `console/dist` of this checkout (from `dist/src/server/console/static.js` or `src/server/console/static.ts`). */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../../../console/dist/', import.meta.url));

/**
 * The console's Content Security Policy: only its own scripts, styles and API; no inline script or
 * style (Vite's build inlines nothing: console/vite.config.ts), no framing, no `<base>`.
 */
export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Headers on every console response, whatever its status. */
export const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ['content-security-policy', CONSOLE_CSP],
  ['referrer-policy', 'no-referrer'],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
];

/** Hashed assets never change under their name (a year, RFC 8246 `immutable`). */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** `index.html` names the current assets: revalidate every time. */
const NO_CACHE = 'no-cache';

/** Content types by extension (anything else is served as bytes, and `nosniff` keeps it so). */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** One file kept in memory. */
interface Asset {
  readonly body: Buffer;
  readonly type: string;
  readonly cacheControl: string;
}

/** The built console: every file by its URL path under `/console/`. */
export interface ConsoleAssets {
  readonly index: Asset;
  readonly files: ReadonlyMap<string, Asset>;
}

/** A plain answer (status, headers, body) written by `mountConsole` and asserted by tests without a socket. */
export interface StaticResponse {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
}

/**
 * Reads `dir` (the Vite output) into memory: `index.html` and every file under it.
 * @returns null when `dir` has no `index.html` (the console was not built).
 */
export function loadConsoleAssets(dir: string): ConsoleAssets | null {
  let index: Buffer;
  try {
    index = readFileSync(join(dir, 'index.html'));
  } catch {
    return null;
  }
  const files = new Map<string, Asset>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const rel = relative(dir, full).split(sep).join('/');
        files.set(`/${rel}`, {
          body: readFileSync(full),
          type: CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream',
          cacheControl: rel.startsWith('assets/') ? IMMUTABLE : NO_CACHE,
        });
      }
    }
  };
  walk(dir);
  return { index: { body: index, type: CONTENT_TYPES['.html']!, cacheControl: NO_CACHE }, files };
}

const text = (status: number, message: string, extra: readonly (readonly [string, string])[] = []): StaticResponse => ({
  status,
  headers: [['content-type', 'text/plain; charset=utf-8'], ['cache-control', 'no-store'], ...extra],
  body: Buffer.from(`${message}\n`),
});

const NOT_BUILT = text(
  503,
  'The console is not built on this server: run `npm run build:console` (part of `npm run build`).',
  [['retry-after', '60']],
);

/**
 * Answers `method path` (the raw path, without the query) under `/console`: a file, `index.html`
 * for `/console/` and any unknown sub-path (SPA routing), 404 for a missing file under
 * `/console/assets/`, 301 from `/console` to `/console/`, 405 for methods other than GET and HEAD,
 * 503 when the console is not built. Security headers are added by `mountConsole`.
 */
export function consoleResponse(assets: ConsoleAssets | null, method: string, path: string): StaticResponse {
  if (method !== 'GET' && method !== 'HEAD') return text(405, 'Method not allowed', [['allow', 'GET, HEAD']]);
  if (path === CONSOLE_PATH) return text(301, 'Moved to /console/', [['location', `${CONSOLE_PATH}/`]]);
  if (assets === null) return NOT_BUILT;
  const sub = path.slice(CONSOLE_PATH.length); // starts with '/'
  const file = sub === '/' || sub === '/index.html' ? assets.index : assets.files.get(sub);
  if (file === undefined) {
    if (sub.startsWith('/assets/')) return text(404, 'Not found');
    return fromAsset(assets.index);
  }
  return fromAsset(file);
}

function fromAsset(a: Asset): StaticResponse {
  return {
    status: 200,
    headers: [
      ['content-type', a.type],
      ['cache-control', a.cacheControl],
    ],
    body: a.body,
  };
}

/** Status lines of the statuses `consoleResponse` uses. */
const STATUS: Readonly<Record<number, string>> = {
  200: '200 OK',
  301: '301 Moved Permanently',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};

/** Writes `out` (status first: PITFALLS 5; HEAD gets the length and no body, as server/uws/response). */
function write(res: HttpResponse, method: string, out: StaticResponse): void {
  res.writeStatus(STATUS[out.status] ?? `${out.status} Status`);
  for (const [name, value] of SECURITY_HEADERS) res.writeHeader(name, value);
  for (const [name, value] of out.headers) res.writeHeader(name, value);
  if (method === 'HEAD') {
    res.writeHeader('content-length', String(out.body.length));
    res.endWithoutBody();
  } else res.end(out.body);
}

/** What `mountConsole` reports. */
export interface ConsoleMount {
  /** True when the built console was found and loaded. */
  readonly built: boolean;
}

/**
 * Registers `/console` and `/console/*` on `app` (uWS prefers these static segments to the API's
 * catch-all `/*`). Reads `dir` once now; a missing build is logged once (`warn`) and every console
 * request then gets 503 with the reason; the server runs on.
 * @param dir the Vite output; default `DEFAULT_CONSOLE_DIR`.
 */
export function mountConsole(
  app: TemplatedApp,
  warn: (message: string, dir: string) => void,
  dir: string = DEFAULT_CONSOLE_DIR,
): ConsoleMount {
  const assets = loadConsoleAssets(dir);
  if (assets === null) warn('console not built: /console/ answers 503 (run npm run build:console)', dir);
  const handle = (res: HttpResponse, req: HttpRequest): void => {
    // Copied synchronously (PITFALLS 2) and answered before returning (PITFALLS 1); a throw must not escape.
    let method = 'GET';
    try {
      method = req.getMethod().toUpperCase();
      write(res, method, consoleResponse(assets, method, req.getUrl()));
    } catch {
      try {
        write(res, method, text(500, 'Internal error'));
      } catch {
        res.close();
      }
    }
  };
  app.any(CONSOLE_PATH, handle);
  app.any(`${CONSOLE_PATH}/*`, handle);
  return { built: assets !== null };
}
