/**
 * @module store/governance/redis: GovernanceRepository on Redis (`P{org}:gov`, `P{org}:gov-settings`,
 * `P{org}:rules`, `P{org}:waivers`, `P{org}:waiver-order`, `P{org}:scenario-waivers:<scenario>`,
 * `P{org}:waivers-active`, `Pwaiver-due:<kind>`; store/redis/keys). Every write is one script of
 * store/governance/redis-scripts; writes that hand out a number read, build the msgpack record, and
 * let the script store it only if nothing changed meanwhile (else read again).
 */
import type { CustomRuleRecord, GovernanceSettingsBody, GovernanceSettingsRecord } from '../../model/records.js';
import type { WaiverAuditEntry, WaiverRecord } from '../../model/records.js';
import type {
  CreateRuleResult,
  DueWaiver,
  GovernanceCounters,
  GovernanceRepository,
  PutSettingsResult,
  WaiverDueKind,
  WaiverQuery,
} from './repository.js';
import type { RedisContext } from '../redis/context.js';
import { packRecord, unpackRecord } from '../redis/codec.js';
import { CommitContentionError, runScript } from '../redis/script.js';
import {
  byRuleNumber,
  dueTimes,
  inForceAt,
  MAX_WRITE_ATTEMPTS,
  revokedBy,
  ruleCode,
  ruleNumber,
  withAudit,
} from './records.js';
import {
  CLAIM_DUE,
  CREATE_RULE,
  CREATE_WAIVER,
  DELETE_RULE,
  LIST_WAIVERS,
  PUT_SETTINGS,
  REVOKE_WAIVER,
  SCENARIO_WAIVERS,
} from './redis-scripts.js';

/** Member of a due index: `<org>\0<waiver id>` (ids contain no U+0000). */
const dueMember = (orgId: string, waiverId: string): string => `${orgId}\u0000${waiverId}`;

/** Settings, custom rules and waivers in Redis. */
export class RedisGovernance implements GovernanceRepository {
  constructor(private readonly c: RedisContext) {}

  private contention(what: string): never {
    throw new CommitContentionError(`${what}: ${MAX_WRITE_ATTEMPTS} attempts conflicted`);
  }

  /** One HMGET of the organization's counter hash. */
  async counters(orgId: string): Promise<GovernanceCounters> {
    const [settings, rules, waivers] = await this.c.redis.hmget(
      this.c.keys.governance(orgId),
      'settings',
      'rules-rev',
      'waivers-seq',
    );
    return {
      settingsVersion: Number(settings ?? 0),
      rulesRevision: Number(rules ?? 0),
      waiversCreated: Number(waivers ?? 0),
    };
  }

  async getSettings(orgId: string): Promise<GovernanceSettingsRecord | undefined> {
    const version = await this.c.redis.hget(this.c.keys.governance(orgId), 'settings');
    return version === null ? undefined : this.settingsAt(orgId, Number(version));
  }

  async settingsAt(orgId: string, version: number): Promise<GovernanceSettingsRecord | undefined> {
    if (!Number.isSafeInteger(version) || version < 1) return undefined;
    const bytes = await this.c.redis.hgetBuffer(this.c.keys.govSettings(orgId), String(version));
    return unpackRecord<GovernanceSettingsRecord>(bytes);
  }

  /** With `expectedVersion` null: reads the current version and retries while other writers win. */
  async putSettings(
    orgId: string,
    expectedVersion: number | null,
    settings: GovernanceSettingsBody,
    at: string,
    by: string,
  ): Promise<PutSettingsResult> {
    const k = this.c.keys;
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const expected = expectedVersion ?? Number((await this.c.redis.hget(k.governance(orgId), 'settings')) ?? 0);
      const record = { org_id: orgId, version: expected + 1, settings, updated_at: at, updated_by: by };
      const keys = [k.governance(orgId), k.govSettings(orgId)];
      const outcome = await runScript(this.c.redis, PUT_SETTINGS, keys, [expected, expected + 1, packRecord(record)]);
      if (outcome === -1) return { ok: true, record };
      if (expectedVersion !== null) return { ok: false, currentVersion: Number(outcome) };
    }
    return this.contention(`settings of ${orgId}`);
  }

  async rulesRevision(orgId: string): Promise<number> {
    return Number((await this.c.redis.hget(this.c.keys.governance(orgId), 'rules-rev')) ?? 0);
  }

  async createRule(
    orgId: string,
    rule: Readonly<Record<string, unknown>>,
    at: string,
    by: string,
    maxActive: number,
  ): Promise<CreateRuleResult> {
    const k = this.c.keys;
    const keys = [k.governance(orgId), k.customRules(orgId), k.counts];
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const [seq, rev] = await this.c.redis.hmget(k.governance(orgId), 'rules-seq', 'rules-rev');
      const n = Number(seq ?? 0) + 1;
      const revision = Number(rev ?? 0) + 1;
      const record: CustomRuleRecord = {
        ...{ org_id: orgId, code: ruleCode(n), rule, created_at: at, created_by: by },
        ...{ created_revision: revision, deleted_revision: null, deleted_at: null },
      };
      const args = [seq ?? '0', rev ?? '0', n, revision, packRecord(record), maxActive];
      const outcome = await runScript(this.c.redis, CREATE_RULE, keys, args);
      if (outcome === 'ok') return { ok: true, record };
      if (outcome === 'limit') return { ok: false, reason: 'limit' };
    }
    return this.contention(`rules of ${orgId}`);
  }

  async getRule(orgId: string, code: string): Promise<CustomRuleRecord | undefined> {
    const n = ruleNumber(code);
    if (n === undefined) return undefined;
    return unpackRecord<CustomRuleRecord>(await this.c.redis.hgetBuffer(this.c.keys.customRules(orgId), String(n)));
  }

  async listRules(orgId: string): Promise<CustomRuleRecord[]> {
    const [rules, revision] = await Promise.all([this.allRules(orgId), this.rulesRevision(orgId)]);
    return rules.filter((r) => inForceAt(r, revision));
  }

  async rulesAt(orgId: string, revision: number): Promise<CustomRuleRecord[]> {
    return (await this.allRules(orgId)).filter((r) => inForceAt(r, revision));
  }

  /** Every stored rule of the organization (deleted ones too), by code number. */
  private async allRules(orgId: string): Promise<CustomRuleRecord[]> {
    const all = await this.c.redis.hgetallBuffer(this.c.keys.customRules(orgId));
    return Object.values(all)
      .map((b) => unpackRecord<CustomRuleRecord>(b)!)
      .sort(byRuleNumber);
  }

  async deleteRule(orgId: string, code: string, at: string, _by: string): Promise<CustomRuleRecord | undefined> {
    const n = ruleNumber(code);
    if (n === undefined) return undefined;
    const k = this.c.keys;
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const [bytes, rev] = await Promise.all([
        this.c.redis.hgetBuffer(k.customRules(orgId), String(n)),
        this.c.redis.hget(k.governance(orgId), 'rules-rev'),
      ]);
      const current = unpackRecord<CustomRuleRecord>(bytes);
      if (!bytes || !current || current.deleted_revision !== null) return undefined;
      const revision = Number(rev ?? 0) + 1;
      const deleted: CustomRuleRecord = { ...current, deleted_revision: revision, deleted_at: at };
      const keys = [k.governance(orgId), k.customRules(orgId)];
      const args = [n, bytes, packRecord(deleted), rev ?? '0', revision];
      if ((await runScript(this.c.redis, DELETE_RULE, keys, args)) === 'ok') return deleted;
    }
    return this.contention(`rule ${code} of ${orgId}`);
  }

  async createWaiver(record: WaiverRecord, noticeMs: number, maxActive: number, nowMs: number): Promise<boolean> {
    const k = this.c.keys;
    const org = record.org_id;
    const keys = [k.governance(org), k.waivers(org), k.waiverOrder(org), k.scenarioWaivers(org, record.scenario_id)];
    keys.push(k.activeWaivers(org), k.waiverDue('notice'), k.waiverDue('expiry'), k.counts);
    const due = dueTimes(record, noticeMs);
    const args = [record.waiver_id, packRecord(record), nowMs, maxActive, due.expiry, due.notice];
    args.push(dueMember(org, record.waiver_id));
    return (await runScript(this.c.redis, CREATE_WAIVER, keys, args)) === 1;
  }

  async getWaiver(orgId: string, waiverId: string): Promise<WaiverRecord | undefined> {
    return unpackRecord<WaiverRecord>(await this.c.redis.hgetBuffer(this.c.keys.waivers(orgId), waiverId));
  }

  /** One round trip; an unknown cursor gives an empty page. */
  async listWaivers(orgId: string, query: WaiverQuery): Promise<WaiverRecord[]> {
    if (query.limit <= 0) return [];
    const k = this.c.keys;
    const index = query.scenarioId === undefined ? k.waiverOrder(orgId) : k.scenarioWaivers(orgId, query.scenarioId);
    const keys = [index, k.waiverOrder(orgId), k.waivers(orgId)];
    const replies = await runScript(this.c.redis, LIST_WAIVERS, keys, [query.after ?? '', query.limit], true);
    return decodeAll(replies);
  }

  async scenarioWaivers(orgId: string, scenarioId: string): Promise<WaiverRecord[]> {
    const k = this.c.keys;
    const keys = [k.scenarioWaivers(orgId, scenarioId), k.waivers(orgId)];
    const records = decodeAll(await runScript(this.c.redis, SCENARIO_WAIVERS, keys, [], true));
    return records.filter((r) => r.status !== 'revoked');
  }

  async revokeWaiver(orgId: string, waiverId: string, entry: WaiverAuditEntry): Promise<WaiverRecord | undefined> {
    const k = this.c.keys;
    const keys = [k.waivers(orgId), k.activeWaivers(orgId), k.waiverDue('notice'), k.waiverDue('expiry')];
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const bytes = await this.c.redis.hgetBuffer(k.waivers(orgId), waiverId);
      const current = unpackRecord<WaiverRecord>(bytes);
      if (!bytes || !current || current.status === 'revoked') return current;
      const next = revokedBy(current, entry);
      const args = [waiverId, bytes, packRecord(next), dueMember(orgId, waiverId)];
      if ((await runScript(this.c.redis, REVOKE_WAIVER, keys, args)) === 'ok') return next;
    }
    return this.contention(`waiver ${waiverId} of ${orgId}`);
  }

  async dueWaivers(kind: WaiverDueKind, nowMs: number, limit: number): Promise<DueWaiver[]> {
    if (limit <= 0) return [];
    const reply = await this.c.redis.zrange(
      this.c.keys.waiverDue(kind),
      '-inf',
      nowMs,
      'BYSCORE',
      'LIMIT',
      0,
      limit,
      'WITHSCORES',
    );
    const out: DueWaiver[] = [];
    for (let i = 0; i + 1 < reply.length; i += 2) {
      const member = reply[i]!;
      const cut = member.indexOf('\u0000');
      out.push({ orgId: member.slice(0, cut), waiverId: member.slice(cut + 1), dueAtMs: Number(reply[i + 1]) });
    }
    return out;
  }

  async claimDue(
    kind: WaiverDueKind,
    orgId: string,
    waiverId: string,
    entry: WaiverAuditEntry,
  ): Promise<WaiverRecord | undefined> {
    const k = this.c.keys;
    const keys = [k.waiverDue(kind), k.waivers(orgId)];
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const bytes = await this.c.redis.hgetBuffer(k.waivers(orgId), waiverId);
      const current = unpackRecord<WaiverRecord>(bytes);
      const claimable = bytes !== null && current !== undefined && current.status !== 'revoked';
      const next = claimable ? withAudit(current, entry) : undefined;
      const args = [dueMember(orgId, waiverId), waiverId, claimable ? bytes : '', next ? packRecord(next) : ''];
      const outcome = await runScript(this.c.redis, CLAIM_DUE, keys, args);
      if (outcome === 'ok') return next;
      if (outcome === 'gone') return undefined;
    }
    return this.contention(`claim of waiver ${waiverId} of ${orgId}`);
  }
}

/** Waiver records of an HMGET reply (binary), skipping missing ones. */
function decodeAll(replies: unknown): WaiverRecord[] {
  const out: WaiverRecord[] = [];
  for (const bytes of replies as (Buffer | null)[]) {
    const record = unpackRecord<WaiverRecord>(bytes);
    if (record) out.push(record);
  }
  return out;
}
