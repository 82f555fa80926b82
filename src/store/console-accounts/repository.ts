/** @module store/console-accounts/repository: the console aggregate: operator accounts (by id and e-mail) and sessions (by token hash). */
import type { SessionRecord, UserRecord } from '../../model/records.js';
import type { Awaitable } from '../awaitable.js';

/** Console users and sessions. Writes resolve once durable. */
export interface ConsoleAccountsRepository {
  /** Stores a user unless its (normalised) e-mail is taken, atomically. @returns false when the e-mail is taken. */
  createUser(user: UserRecord): Promise<boolean>;
  getUser(userId: string): Awaitable<UserRecord | undefined>;
  /** An organization's users, by e-mail. */
  usersOf(orgId: string): Awaitable<UserRecord[]>;
  /** The user with this normalised e-mail, or undefined. */
  userByEmail(email: string): Awaitable<UserRecord | undefined>;
  /** Stores a session under the hash of its token (the token itself is never stored). */
  createSession(tokenHash: string, session: SessionRecord): Promise<void>;
  /** The stored session (expired or not), or undefined. */
  session(tokenHash: string): Awaitable<SessionRecord | undefined>;
  deleteSession(tokenHash: string): Promise<void>;
}
