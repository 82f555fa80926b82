/** @module store/console-accounts/lmdb: ConsoleAccountsRepository on LMDB (`users`, `user-emails`, `sessions`). */
import type { SessionRecord, UserRecord } from '../../model/records.js';
import type { ConsoleAccountsRepository } from './repository.js';
import type { LmdbTables } from '../lmdb/tables.js';

/** Console users (with the e-mail index) and sessions in LMDB. */
export class LmdbConsoleAccounts implements ConsoleAccountsRepository {
  constructor(private readonly t: LmdbTables) {}

  async createUser(user: UserRecord): Promise<boolean> {
    const created = await this.t.root.transaction(() => {
      if (this.t.userEmails.get(user.email) !== undefined) return false;
      void this.t.users.put(user.user_id, user);
      void this.t.userEmails.put(user.email, user.user_id);
      return true;
    });
    if (created) await this.t.flushed();
    return created;
  }

  getUser(userId: string): UserRecord | undefined {
    return this.t.users.get(userId);
  }

  /** Scans the e-mail index: console accounts are few (tens per installation). */
  usersOf(orgId: string): UserRecord[] {
    const out: UserRecord[] = [];
    for (const { value: id } of this.t.userEmails.getRange()) {
      const user = this.t.users.get(id);
      if (user?.org_id === orgId) out.push(user);
    }
    return out.sort((a, b) => Buffer.compare(Buffer.from(a.email), Buffer.from(b.email)));
  }

  userByEmail(email: string): UserRecord | undefined {
    const id = this.t.userEmails.get(email);
    return id === undefined ? undefined : this.t.users.get(id);
  }

  async createSession(tokenHash: string, session: SessionRecord): Promise<void> {
    await this.t.sessions.put(tokenHash, session);
    await this.t.flushed();
  }

  session(tokenHash: string): SessionRecord | undefined {
    return this.t.sessions.get(tokenHash);
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.t.sessions.remove(tokenHash);
    await this.t.flushed();
  }
}
