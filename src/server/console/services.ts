/** @module server/console/services: what the console's routes need, built once at the composition root (server/server). */
import type { Config } from '../config.js';
import type { KeyService } from '../auth/keys.js';
import type { CidrList } from '../pipeline/client-address.js';
import type { Audit } from '../audit.js';
import type { CsrfTokens } from './csrf.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import type { HashingGate } from './hashing-gate.js';
import type { Users } from './users.js';

/** The console routes' dependencies. */
export interface ConsoleServices {
  readonly users: Users;
  readonly keys: KeyService;
  /** Epoch ms clock. */
  readonly now: () => number;
  readonly csrf: CsrfTokens;
  readonly throttle: SignInThrottle;
  /** The bound on concurrent sign-in password verifications of this process (`SIGN_IN_CONCURRENCY`). */
  readonly hashing: HashingGate;
  readonly audit: Audit;
  /** The options the console reads (`CONSOLE_SECURE_COOKIE`). */
  readonly config: Pick<Config, 'consoleSecureCookie'>;
  /** TRUSTED_PROXIES, parsed: whose `X-Forwarded-Proto` is believed. */
  readonly trustedProxies: CidrList;
}
