/** @module server/console/reply: the console's success envelope (`{ ok: true, data }`, no watermark: sessions are not keys). */
import type { ApiResponse } from '../http/types.js';

/** `{ ok: true, data }` with `status` (default 200). */
export const okPlain = (data: unknown, status = 200): ApiResponse => ({
  status,
  body: JSON.stringify({ ok: true, data }),
});
