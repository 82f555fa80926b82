/**
 * @module server/console/sign-in-throttle: the console's sign-in throttling (docs/console-api.md
 * "Sign-in throttling"; OWASP Authentication Cheat Sheet, "Protect against automated attacks"):
 * attempts are counted per account and per client address in the store, so every node agrees. An
 * attempt is counted before its password is verified (issue 31, item 2): concurrent attempts cannot
 * verify more passwords than the limits, whatever their number.
 */
import type { ReservedKey, SignInThrottleRepository, ThrottleKey } from '../../store/sign-in/repository.js';

/** Failed sign-ins of one account within WINDOW_MS that lock it. */
export const ACCOUNT_FAILURES = 5;
/** Failed sign-ins from one client address within WINDOW_MS that lock it. */
export const ADDRESS_FAILURES = 20;
/** The counting window, in ms (15 minutes). */
export const WINDOW_MS = 15 * 60_000;
/** How long a locked account or address stays locked, in ms (15 minutes). */
export const LOCK_MS = 15 * 60_000;

const accountKey = (email: string): string => `account:${email.trim().toLowerCase()}`;
const addressKey = (address: string): string => `ip:${address}`;

/** An attempt the throttle admitted: settle it with its outcome once the password is verified. */
export interface SignInTicket {
  readonly keys: readonly ReservedKey[];
}

/** The throttle's answer to an attempt. */
export type SignInAdmission =
  | { readonly admitted: true; readonly ticket: SignInTicket }
  | { readonly admitted: false; readonly retryAfterS: number };

/** Seconds from `nowMs` to `untilMs`, at least 1 (a Retry-After value). */
const secondsUntil = (untilMs: number, nowMs: number): number => Math.max(1, Math.ceil((untilMs - nowMs) / 1000));

/** Decides whether a sign-in may be tried, counting it first, and settles it with its outcome. */
export class SignInThrottle {
  constructor(private readonly repo: SignInThrottleRepository) {}

  /** Seconds until the account or the address is unlocked (at least 1), or null when neither is locked. */
  async retryAfterS(email: string, address: string, nowMs: number): Promise<number | null> {
    const until = await this.repo.lockedUntil([accountKey(email), addressKey(address)], nowMs);
    return until === null ? null : secondsUntil(until, nowMs);
  }

  /**
   * Counts an attempt (also for an unknown e-mail) against its account and its address before its
   * password is verified, or refuses it while either is locked (then it counts nothing).
   */
  async attempt(email: string, address: string, nowMs: number): Promise<SignInAdmission> {
    const keys: ThrottleKey[] = [
      { key: addressKey(address), limit: ADDRESS_FAILURES, forgive: false },
      { key: accountKey(email), limit: ACCOUNT_FAILURES, forgive: true },
    ];
    const r = await this.repo.reserve(keys, nowMs, WINDOW_MS, LOCK_MS);
    return r.admitted
      ? { admitted: true, ticket: { keys: r.keys } }
      : { admitted: false, retryAfterS: secondsUntil(r.lockedUntil, nowMs) };
  }

  /**
   * Settles an admitted attempt: a failure stays counted; a success withdraws it from the address
   * and resets its account (the failures before it are forgiven, those of attempts concurrent with
   * it stay counted, and its lock, if any, is lifted).
   */
  async settle(ticket: SignInTicket, succeeded: boolean): Promise<void> {
    await this.repo.settle(ticket.keys, succeeded ? 'success' : 'failure');
  }
}
