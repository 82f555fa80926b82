/** @module server/console/users: console operator accounts (scrypt passwords) and sessions. */
import { createHash, randomBytes, randomUUID, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { SessionRecord, UserRecord, UserRole } from '../../store/records.js';
import type { Store } from '../../store/store.js';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;

/** scrypt cost parameters (OWASP Password Storage Cheat Sheet: N=2^17, r=8, p=1). */
export const SCRYPT = { N: 1 << 17, r: 8, p: 1, keylen: 32 } as const;
/** Session lifetime in seconds (8 hours). */
export const SESSION_TTL_S = 8 * 3600;

/** Hashes a password: `scrypt$N$r$p$salt$hash` (base64). */
export async function hashPassword(password: string, params = SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, params.keylen, { N: params.N, r: params.r, p: params.p, maxmem: 256 * 1024 * 1024 });
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Verifies a password against its stored hash in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: 256 * 1024 * 1024 });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Account and session operations. */
export class Users {
  /** A dummy hash so that unknown e-mails cost as much as wrong passwords (no account enumeration by timing). */
  private dummy: Promise<string> | null = null;

  constructor(private readonly store: Store, private readonly prefix: string) {}

  /** Creates an account. @throws Error `Organization not found` / `User already exists`. */
  async create(orgId: string, email: string, role: UserRole, password: string): Promise<UserRecord> {
    if (!this.store.orgs.get(orgId)) throw new Error('Organization not found');
    const normalized = email.trim().toLowerCase();
    if (this.store.userEmails.get(normalized)) throw new Error('User already exists');
    const user: UserRecord = { user_id: `usr_${randomBytes(8).toString('hex')}`, org_id: orgId, email: normalized, role, password_hash: await hashPassword(password), created_at: new Date().toISOString() };
    await this.store.root.transaction(() => {
      void this.store.users.put(user.user_id, user);
      void this.store.userEmails.put(normalized, user.user_id);
    });
    await this.store.flushed();
    return user;
  }

  /** Checks e-mail and password; on success opens a session and returns its token (shown once). */
  async login(email: string, password: string, nowMs: number): Promise<{ token: string; session: SessionRecord; user: UserRecord } | null> {
    const id = this.store.userEmails.get(email.trim().toLowerCase());
    const user = id ? this.store.users.get(id) : undefined;
    if (!user) {
      this.dummy ??= hashPassword(randomUUID());
      await verifyPassword(password, await this.dummy);
      return null;
    }
    if (!(await verifyPassword(password, user.password_hash))) return null;
    const token = `${this.prefix}_sess_${randomBytes(32).toString('hex')}`;
    const session: SessionRecord = { user_id: user.user_id, org_id: user.org_id, role: user.role, expires_at: nowMs + SESSION_TTL_S * 1000 };
    await this.store.sessions.put(sessionKey(token), session);
    return { token, session, user };
  }

  /** The live session of a token, or undefined (unknown or expired). */
  session(token: string, nowMs: number): SessionRecord | undefined {
    const s = this.store.sessions.get(sessionKey(token));
    return s && s.expires_at > nowMs ? s : undefined;
  }

  /** Ends a session. */
  async logout(token: string): Promise<void> {
    await this.store.sessions.remove(sessionKey(token));
  }
}

function sessionKey(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
