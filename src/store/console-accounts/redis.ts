/**
 * @module store/console-accounts/redis: ConsoleAccountsRepository on Redis (`Puser:<id>`,
 * `Puser-emails`, `Psession:<token hash>`; store/redis/keys). Sessions keep no TTL: like the LMDB
 * backend, an expired session is still returned and the caller checks `expires_at`.
 */
import type { SessionRecord, UserRecord } from '../../model/records.js';
import type { ConsoleAccountsRepository } from './repository.js';
import type { RedisContext } from '../redis/context.js';
import { byCodePoint, packRecord, unpackRecord } from '../redis/codec.js';
import { luaScript, runScript } from '../redis/script.js';

/** KEYS: user-emails, user record. ARGV: e-mail, user id, record. The e-mail is claimed with HSETNX, so of concurrent sign-ups exactly one gets 1. */
const CREATE_USER = luaScript(
  'create-user',
  `if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('SET', KEYS[2], ARGV[3])
return 1`,
);

/** Console users and sessions in Redis. */
export class RedisConsoleAccounts implements ConsoleAccountsRepository {
  constructor(private readonly c: RedisContext) {}

  async createUser(user: UserRecord): Promise<boolean> {
    const k = this.c.keys;
    const created = await runScript(
      this.c.redis,
      CREATE_USER,
      [k.userEmails, k.user(user.user_id)],
      [user.email, user.user_id, packRecord(user)],
    );
    return created === 1;
  }

  async getUser(userId: string): Promise<UserRecord | undefined> {
    return unpackRecord<UserRecord>(await this.c.redis.getBuffer(this.c.keys.user(userId)));
  }

  /** Reads the e-mail index and the users it names: console accounts are few (tens per installation). */
  async usersOf(orgId: string): Promise<UserRecord[]> {
    const index = await this.c.redis.hgetall(this.c.keys.userEmails);
    const ids = Object.values(index);
    if (ids.length === 0) return [];
    const records = await this.c.redis.mgetBuffer(...ids.map((id) => this.c.keys.user(id)));
    return records
      .map((b) => unpackRecord<UserRecord>(b))
      .filter((u): u is UserRecord => u?.org_id === orgId)
      .sort((a, b) => byCodePoint(a.email, b.email));
  }

  async userByEmail(email: string): Promise<UserRecord | undefined> {
    const id = await this.c.redis.hget(this.c.keys.userEmails, email);
    return id === null ? undefined : this.getUser(id);
  }

  async createSession(tokenHash: string, session: SessionRecord): Promise<void> {
    await this.c.redis.set(this.c.keys.session(tokenHash), packRecord(session));
  }

  async session(tokenHash: string): Promise<SessionRecord | undefined> {
    return unpackRecord<SessionRecord>(await this.c.redis.getBuffer(this.c.keys.session(tokenHash)));
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.c.redis.del(this.c.keys.session(tokenHash));
  }
}
