/**
 * @module store/redis/unavailable: which ioredis failures mean "Redis cannot be reached right now"
 * (the request may be retried elsewhere or later: 503 with Retry-After, issue 16 "Redis outages").
 * ioredis rejects these with plain `Error`s; their messages are matched here and nowhere else,
 * pinned to ioredis 5 (built/Redis.js, built/Command.js, built/redis/event_handler.js, built/utils
 * CONNECTION_CLOSED_ERROR_MSG).
 */

/** Messages of ioredis 5 for a connection that is down, closed, or a command that got no answer in time. */
const UNAVAILABLE_MESSAGES = [
  "Stream isn't writeable and enableOfflineQueue options is false",
  'Connection is closed.',
  'Command timed out',
  'Reached the max retries per request limit',
  // A pipeline or transaction cut by the connection's close after part of its answers came (redis/event_handler abortError).
  'Command aborted due to connection close',
  // maxmemory reached under noeviction (the policy the service requires): writes are refused until
  // memory is freed or added; the request may be retried.
  'OOM command not allowed',
] as const;

/** True when `error` is ioredis's report of an unreachable or unresponsive server (or a connection error: ECONNREFUSED, ECONNRESET, ...). */
export function isRedisUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (UNAVAILABLE_MESSAGES.some((m) => error.message.startsWith(m))) return true;
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ETIMEDOUT' || code === 'EPIPE';
}
