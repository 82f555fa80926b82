/** @module server/pipeline/browser: refuses browsers (spec §5.5; design notes "Browser refusal"). */
import type { Stage } from './types.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';

/** 403 `Browser access not allowed` for an `Origin` header, any `Sec-Fetch-*` header, or an OPTIONS preflight. */
export function browserRefusal(): Stage {
  return function refuseBrowsers(req) {
    if (req.method === 'OPTIONS' || req.headers['origin'] !== undefined) return fail(API_ERRORS.browserRefused);
    for (const name in req.headers) if (name.startsWith('sec-fetch-')) return fail(API_ERRORS.browserRefused);
    return null;
  };
}
