/** @module server/console/users: console operator accounts (scrypt passwords) and sessions. */
import { createHash, randomBytes, randomUUID, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { SessionRecord, UserRecord, UserRole } from '../../model/records.js';
import type { ConsoleAccountsRepository } from '../../store/console-accounts/repository.js';
import type { OrganizationsRepository } from '../../store/organizations/repository.js';

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** scrypt cost parameters (OWASP Password Storage Cheat Sheet: N=2^17, r=8, p=1). */
export const SCRYPT = { N: 1 << 17, r: 8, p: 1, keylen: 32 } as const;
/** Session lifetime in seconds (8 hours). */
export const SESSION_TTL_S = 8 * 3600;

/** Hashes a password: `scrypt$N$r$p$salt$hash` (base64). */
export async function hashPassword(password: string, params = SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, params.keylen, {
    N: params.N,
    r: params.r,
    p: params.p,
    maxmem: 256 * 1024 * 1024,
  });
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Verifies a password against its stored hash in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 256 * 1024 * 1024,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Why an account could not be created. */
export type UserErrorCode = 'organization_not_found' | 'user_exists';

/** A refused account operation; callers branch on `code`. */
export class UserError extends Error {
  override readonly name = 'UserError';
  constructor(readonly code: UserErrorCode) {
    super(code === 'organization_not_found' ? 'Organization not found' : 'User already exists');
  }
}

/** The outcome of a sign-in: a session, or the account the e-mail named (undefined when unknown). */
export type LoginResult =
  | { readonly ok: true; readonly token: string; readonly session: SessionRecord; readonly user: UserRecord }
  | { readonly ok: false; readonly user: UserRecord | undefined };

/** Account and session operations. */
export class Users {
  /** A dummy hash so that unknown e-mails cost as much as wrong passwords (no account enumeration by timing). */
  private dummy: Promise<string> | null = null;

  constructor(
    private readonly accounts: ConsoleAccountsRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly prefix: string,
  ) {}

  /** Creates an account. @throws UserError `organization_not_found` / `user_exists`. */
  async create(orgId: string, email: string, role: UserRole, password: string): Promise<UserRecord> {
    if (!(await this.organizations.getOrg(orgId))) throw new UserError('organization_not_found');
    const normalized = email.trim().toLowerCase();
    if (await this.accounts.userByEmail(normalized)) throw new UserError('user_exists');
    const user: UserRecord = {
      user_id: `usr_${randomBytes(8).toString('hex')}`,
      org_id: orgId,
      email: normalized,
      role,
      password_hash: await hashPassword(password),
      created_at: new Date().toISOString(),
    };
    if (!(await this.accounts.createUser(user))) throw new UserError('user_exists'); // taken meanwhile
    return user;
  }

  /**
   * Checks e-mail and password; on success opens a session and returns its token (shown once). A
   * failure names the account when the e-mail is known (its organization gets the audit entry).
   */
  async login(email: string, password: string, nowMs: number): Promise<LoginResult> {
    const user = await this.accounts.userByEmail(email.trim().toLowerCase());
    if (!user) {
      this.dummy ??= hashPassword(randomUUID());
      await verifyPassword(password, await this.dummy);
      return { ok: false, user: undefined };
    }
    if (!(await verifyPassword(password, user.password_hash))) return { ok: false, user };
    const token = `${this.prefix}_sess_${randomBytes(32).toString('hex')}`;
    const session: SessionRecord = {
      user_id: user.user_id,
      org_id: user.org_id,
      role: user.role,
      expires_at: nowMs + SESSION_TTL_S * 1000,
    };
    await this.accounts.createSession(sessionKey(token), session);
    return { ok: true, token, session, user };
  }

  /** An organization's accounts, by e-mail (with their password hashes: callers show a view). */
  async list(orgId: string): Promise<UserRecord[]> {
    return this.accounts.usersOf(orgId);
  }

  /** The account of a session, or undefined when it was removed meanwhile. */
  async user(userId: string): Promise<UserRecord | undefined> {
    return this.accounts.getUser(userId);
  }

  /** The live session of a token, or undefined (unknown or expired). */
  async session(token: string, nowMs: number): Promise<SessionRecord | undefined> {
    const s = await this.accounts.session(sessionKey(token));
    return s && s.expires_at > nowMs ? s : undefined;
  }

  /** Ends a session. */
  async logout(token: string): Promise<void> {
    await this.accounts.deleteSession(sessionKey(token));
  }
}

function sessionKey(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
