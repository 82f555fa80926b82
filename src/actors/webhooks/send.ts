/** @module actors/webhooks/send: one HTTP POST of a signed webhook message, without following redirects. */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { guardedLookup, guardPeer, isBlockedError, hostTargetError } from './target-guard.js';

/** Outcome of one attempt. */
export interface SendResult {
  readonly statusCode: number | null;
  readonly error: string | null;
  /** True when the target guard refused the address (no request was sent); `error` then says why. */
  readonly blocked: boolean;
  /** `Retry-After` in ms when the receiver sent one. */
  readonly retryAfterMs: number | null;
  readonly durationMs: number;
}

/** Parses `Retry-After` (seconds or an HTTP date) into ms from `nowMs`. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/**
 * POSTs `body` to `url` with the given headers; never throws. Redirects are not followed (a 3xx is
 * the attempt's answer). Unless `allowPrivate`, the peer address is checked at connect time for
 * every target (target-guard): a literal before connecting (Node never calls `lookup` for one), a
 * name's resolved addresses in the `lookup` hook, and the connected socket's `remoteAddress` once
 * more; a refusal gives `blocked: true` and no request.
 * @param options.timeoutMs socket idle timeout in ms; options.allowPrivate (`WEBHOOK_ALLOW_PRIVATE_TARGETS`) disables the guard.
 */
export function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<SendResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...r, durationMs: Math.round(performance.now() - started) });
    };
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      done({ statusCode: null, error: 'invalid URL', blocked: false, retryAfterMs: null });
      return;
    }
    const refused = hostTargetError(u, options.allowPrivate);
    if (refused) {
      done({ statusCode: null, error: refused.message, blocked: true, retryAfterMs: null });
      return;
    }
    const request = u.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      u,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'GovernanceEvaluationService-Webhooks/1',
        },
        lookup: guardedLookup(options.allowPrivate),
        timeout: options.timeoutMs,
      },
      (res) => {
        res.resume(); // the body is not needed; drain it
        res.on('end', () =>
          done({
            statusCode: res.statusCode ?? null,
            error: null,
            blocked: false,
            retryAfterMs: parseRetryAfter(res.headers['retry-after'], Date.now()),
          }),
        );
        res.on('error', (err) =>
          done({ statusCode: res.statusCode ?? null, error: err.message, blocked: false, retryAfterMs: null }),
        );
      },
    );
    // Attached before `req.end` writes: 'socket' fires before the request flushes into the socket, so
    // the peer check's 'connect' listener runs before the queued request bytes are written.
    if (!options.allowPrivate) req.on('socket', (socket) => guardPeer(socket, (err) => req.destroy(err)));
    req.on('timeout', () => req.destroy(new Error(`timed out after ${options.timeoutMs} ms`)));
    req.on('error', (err) =>
      done({ statusCode: null, error: err.message, blocked: isBlockedError(err), retryAfterMs: null }),
    );
    req.end(body);
  });
}
