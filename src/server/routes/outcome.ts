/**
 * @module server/routes/outcome: what a handler body shared by the public API and the console
 * (issue 18) answers, before either surface wraps it: the public envelope with its watermark, or the
 * console's plain envelope.
 */
import type { ApiResponse } from '../http/types.js';
import { ok } from '../http/envelope.js';

/** A success (`data`, status, headers) or a refusal (an error response, the same on both surfaces). */
export type Outcome =
  | { readonly data: unknown; readonly status?: 200 | 201 | 202; readonly headers?: ApiResponse['headers'] }
  | { readonly refused: ApiResponse };

/** A refusal. */
export const refuse = (response: ApiResponse): Outcome => ({ refused: response });

/** The public API's response: the envelope with `meta.watermark`. */
export function publicAnswer(o: Outcome, watermark: string): ApiResponse {
  return 'refused' in o ? o.refused : ok(o.data, watermark, o.status ?? 200, o.headers);
}

/** The console's response: `{ ok: true, data }` (no watermark: sessions are not keys). */
export function consoleAnswer(o: Outcome): ApiResponse {
  if ('refused' in o) return o.refused;
  return {
    status: o.status ?? 200,
    body: JSON.stringify({ ok: true, data: o.data }),
    ...(o.headers ? { headers: o.headers } : {}),
  };
}
