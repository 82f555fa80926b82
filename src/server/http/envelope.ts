/** @module server/http/envelope: the spec's success and error envelopes (spec §2, §7), built by concatenation. */
import type { ApiErrorRow, FieldError } from '../errors.js';
import type { ApiResponse } from './types.js';
import type { RefusalReason } from '../refusal-reasons.js';
import { boundedMemo } from '../../engine/memo.js';

/**
 * Success envelope `{ ok: true, data, meta: { watermark } }`. `dataJson` is already-serialised JSON,
 * so pre-rendered results from the store are never parsed and re-serialised.
 */
export function okJson(
  dataJson: string,
  watermark: string,
  status = 200,
  headers?: ApiResponse['headers'],
): ApiResponse {
  return {
    status,
    body: `{"ok":true,"data":${dataJson},"meta":{"watermark":"${watermark}"}}`,
    ...(headers ? { headers } : {}),
  };
}

const OK_OPEN = Buffer.from('{"ok":true,"data":');

/**
 * Success envelope around already-serialised UTF-8 JSON bytes (a view read from the store as
 * bytes: no UTF-8 decode into a string and no re-encode on the way out). `members` is extra
 * top-level JSON text (`,"error":{...}`), empty by default.
 */
export function okBytes(dataJson: Uint8Array, watermark: string, members = ''): ApiResponse {
  const close =
    members === '' ? metaClose(watermark) : Buffer.from(`,"meta":{"watermark":"${watermark}"}${members}}`, 'utf8');
  return {
    status: 200,
    body: Buffer.concat([OK_OPEN, dataJson, close], OK_OPEN.length + dataJson.length + close.length),
  };
}

/** `,"meta":{"watermark":"…"}}` per watermark (one per key and day), encoded once. */
const metaClose = boundedMemo(10_000, (watermark) => Buffer.from(`,"meta":{"watermark":"${watermark}"}}`, 'utf8'));

/** Success envelope from a value. */
export function ok(data: unknown, watermark: string, status = 200, headers?: ApiResponse['headers']): ApiResponse {
  return okJson(JSON.stringify(data), watermark, status, headers);
}

/**
 * Error envelope `{ ok: false, error, detail?, message? }` (spec §7). A string `detail` is repeated as
 * the legacy `message`; a 422 `detail` is an array of field errors; 500s carry `request_id`. A 401, 403
 * or 429 carries its refusal code (`reason`: the row's, or `options.reason`) for the log line only.
 */
export function fail(
  row: ApiErrorRow,
  options: {
    detail?: string | readonly FieldError[];
    error?: string;
    requestId?: string;
    headers?: ApiResponse['headers'];
    close?: boolean;
    /** The refusal code when more precise than the row's (`replay` for `Invalid request signature`). */
    reason?: RefusalReason;
    /** The key a 401 concerns when the pipeline did not admit it (revoked, expired): logged, never sent. */
    keyId?: string;
  } = {},
): ApiResponse {
  const reason = options.reason ?? row.reason;
  const body: Record<string, unknown> = { ok: false, error: options.error ?? row.error };
  if (options.detail !== undefined) {
    body['detail'] = options.detail;
    if (typeof options.detail === 'string') body['message'] = options.detail;
  }
  if (row.status >= 500 && options.requestId) body['request_id'] = options.requestId;
  return {
    status: row.status,
    body: JSON.stringify(body),
    error: body['error'] as string,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.close ? { close: true } : {}),
    ...(reason ? { reason } : {}),
    ...(options.keyId ? { keyId: options.keyId } : {}),
  };
}
