/** @module server/pipeline/browser: refuses browsers (spec §5.5; design notes "Browser refusal", revised). */
import type { SyncStage } from './types.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';

/**
 * 403 `Browser access not allowed` for an OPTIONS preflight, an `Origin` header, or a
 * `Sec-Fetch-Site`, `Sec-Fetch-Dest` or `Sec-Fetch-User` header: browsers send `Sec-Fetch-Site` on
 * every request and scripts cannot remove it. `Sec-Fetch-Mode` alone is no sign of a browser:
 * Node's built-in `fetch` (undici) sends `Sec-Fetch-Mode: cors` on every request, and a tenant's
 * Node service using it is a server-to-server client (design notes, revised; issue 13, item 1).
 */
export function browserRefusal(): SyncStage {
  return function refuseBrowsers(req) {
    const h = req.headers;
    if (
      req.method === 'OPTIONS' ||
      h['origin'] !== undefined ||
      h['sec-fetch-site'] !== undefined ||
      h['sec-fetch-dest'] !== undefined ||
      h['sec-fetch-user'] !== undefined
    ) {
      return fail(API_ERRORS.browserRefused);
    }
    return null;
  };
}
