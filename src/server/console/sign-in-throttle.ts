/**
 * @module server/console/sign-in-throttle: the console's sign-in throttling (docs/console-api.md
 * "Sign-in throttling"; OWASP Authentication Cheat Sheet, "Protect against automated attacks"):
 * failures are counted per account and per client address in the store, so every node agrees.
 */
import type { SignInThrottleRepository } from '../../store/sign-in/repository.js';

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

/** Decides whether a sign-in may be tried, and counts its outcome. */
export class SignInThrottle {
  constructor(private readonly repo: SignInThrottleRepository) {}

  /** Seconds until the account or the address is unlocked (at least 1), or null when neither is locked. */
  async retryAfterS(email: string, address: string, nowMs: number): Promise<number | null> {
    const until = await this.repo.lockedUntil([accountKey(email), addressKey(address)], nowMs);
    return until === null ? null : Math.max(1, Math.ceil((until - nowMs) / 1000));
  }

  /** Counts a failed sign-in (also for an unknown e-mail) against the account and the address. */
  async failed(email: string, address: string, nowMs: number): Promise<void> {
    await this.repo.recordFailure(
      [
        { key: accountKey(email), limit: ACCOUNT_FAILURES },
        { key: addressKey(address), limit: ADDRESS_FAILURES },
      ],
      nowMs,
      WINDOW_MS,
      LOCK_MS,
    );
  }

  /** A successful sign-in resets its account's count (the address keeps its own). */
  async succeeded(email: string): Promise<void> {
    await this.repo.reset(accountKey(email));
  }
}
