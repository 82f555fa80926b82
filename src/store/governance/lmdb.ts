/**
 * @module store/governance/lmdb: GovernanceRepository on LMDB (`gov-counters`, `gov-settings`,
 * `custom-rules`, `waivers`, `waiver-order`, `waiver-seqs`, `scenario-waivers`, `active-waivers`,
 * `waiver-due`, `waiver-due-at`; store/lmdb/tables). Every write is one transaction, which LMDB
 * serialises with every writer of every process, so its checks and counters hold across processes;
 * writes resolve once flushed (PITFALLS 18).
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
import type { LmdbTables } from '../lmdb/tables.js';
import { k, timeKey } from '../lmdb/tables.js';
import { prefixKeys, prefixRange } from '../lmdb/ranges.js';
import { DUE_KINDS, dueTimes, inForceAt, padded, revokedBy, ruleCode, ruleNumber, withAudit } from './records.js';

/** A counter of `gov-counters`. */
type Counter = 'settings' | 'rules-rev' | 'rules-seq' | 'rules-active' | 'waivers-seq';

const VERSION_DIGITS = 10;
const SEQ_DIGITS = 12;

/** Settings, custom rules and waivers in LMDB. */
export class LmdbGovernance implements GovernanceRepository {
  constructor(private readonly t: LmdbTables) {}

  private counter(orgId: string, name: Counter): number {
    return this.t.govCounters.get(k(orgId, name)) ?? 0;
  }

  private setCounter(orgId: string, name: Counter, value: number): void {
    void this.t.govCounters.put(k(orgId, name), value);
  }

  /** Runs `write` in one write transaction and waits for the flush when `changed` says it wrote. */
  private async write<T>(write: () => T, changed: (result: T) => boolean): Promise<T> {
    const result = await this.t.root.transaction(write);
    if (changed(result)) await this.t.flushed();
    return result;
  }

  counters(orgId: string): GovernanceCounters {
    return {
      settingsVersion: this.counter(orgId, 'settings'),
      rulesRevision: this.counter(orgId, 'rules-rev'),
      waiversCreated: this.counter(orgId, 'waivers-seq'),
    };
  }

  getSettings(orgId: string): GovernanceSettingsRecord | undefined {
    const version = this.counter(orgId, 'settings');
    return version === 0 ? undefined : this.settingsAt(orgId, version);
  }

  settingsAt(orgId: string, version: number): GovernanceSettingsRecord | undefined {
    if (!Number.isSafeInteger(version) || version < 1) return undefined;
    return this.t.govSettings.get(k(orgId, padded(version, VERSION_DIGITS)));
  }

  putSettings(
    orgId: string,
    expectedVersion: number | null,
    settings: GovernanceSettingsBody,
    at: string,
    by: string,
  ): Promise<PutSettingsResult> {
    return this.write(
      (): PutSettingsResult => {
        const current = this.counter(orgId, 'settings');
        if (expectedVersion !== null && expectedVersion !== current) return { ok: false, currentVersion: current };
        const version = current + 1;
        const record = { org_id: orgId, version, settings, updated_at: at, updated_by: by };
        void this.t.govSettings.put(k(orgId, padded(version, VERSION_DIGITS)), record);
        this.setCounter(orgId, 'settings', version);
        return { ok: true, record };
      },
      (r) => r.ok,
    );
  }

  rulesRevision(orgId: string): number {
    return this.counter(orgId, 'rules-rev');
  }

  createRule(
    orgId: string,
    rule: Readonly<Record<string, unknown>>,
    at: string,
    by: string,
    maxActive: number,
  ): Promise<CreateRuleResult> {
    return this.write(
      (): CreateRuleResult => {
        if (this.counter(orgId, 'rules-active') >= maxActive) return { ok: false, reason: 'limit' };
        const n = this.counter(orgId, 'rules-seq') + 1;
        const revision = this.counter(orgId, 'rules-rev') + 1;
        const record: CustomRuleRecord = {
          ...{ org_id: orgId, code: ruleCode(n), rule, created_at: at, created_by: by },
          ...{ created_revision: revision, deleted_revision: null, deleted_at: null },
        };
        void this.t.customRules.put(k(orgId, padded(n, VERSION_DIGITS)), record);
        this.setCounter(orgId, 'rules-seq', n);
        this.setCounter(orgId, 'rules-rev', revision);
        this.setCounter(orgId, 'rules-active', this.counter(orgId, 'rules-active') + 1);
        return { ok: true, record };
      },
      (r) => r.ok,
    );
  }

  getRule(orgId: string, code: string): CustomRuleRecord | undefined {
    const n = ruleNumber(code);
    return n === undefined ? undefined : this.t.customRules.get(k(orgId, padded(n, VERSION_DIGITS)));
  }

  listRules(orgId: string): CustomRuleRecord[] {
    return this.rulesAt(orgId, this.rulesRevision(orgId));
  }

  rulesAt(orgId: string, revision: number): CustomRuleRecord[] {
    return [...prefixRange(this.t.customRules, [orgId])].map((e) => e.value).filter((r) => inForceAt(r, revision));
  }

  deleteRule(orgId: string, code: string, at: string, _by: string): Promise<CustomRuleRecord | undefined> {
    const n = ruleNumber(code);
    if (n === undefined) return Promise.resolve(undefined);
    const key = k(orgId, padded(n, VERSION_DIGITS));
    return this.write(
      () => {
        const current = this.t.customRules.get(key);
        if (!current || current.deleted_revision !== null) return undefined;
        const revision = this.counter(orgId, 'rules-rev') + 1;
        const deleted: CustomRuleRecord = { ...current, deleted_revision: revision, deleted_at: at };
        void this.t.customRules.put(key, deleted);
        this.setCounter(orgId, 'rules-rev', revision);
        this.setCounter(orgId, 'rules-active', this.counter(orgId, 'rules-active') - 1);
        return deleted;
      },
      (r) => r !== undefined,
    );
  }

  createWaiver(record: WaiverRecord, noticeMs: number, maxActive: number, nowMs: number): Promise<boolean> {
    const org = record.org_id;
    const id = record.waiver_id;
    return this.write(
      () => {
        let active = 0;
        const expired: string[] = [];
        for (const key of prefixKeys(this.t.activeWaivers, [org])) {
          if (Number(key.slice(org.length + 1, org.length + 16)) <= nowMs) expired.push(key);
          else active++;
        }
        if (active >= maxActive) return false;
        for (const key of expired) void this.t.activeWaivers.remove(key);
        const seq = padded(this.counter(org, 'waivers-seq') + 1, SEQ_DIGITS);
        this.setCounter(org, 'waivers-seq', Number(seq));
        void this.t.waivers.put(k(org, id), record);
        void this.t.waiverOrder.put(k(org, seq), id);
        void this.t.waiverSeqs.put(k(org, id), seq);
        void this.t.scenarioWaivers.put(k(org, record.scenario_id, seq), id);
        const due = dueTimes(record, noticeMs);
        void this.t.activeWaivers.put(k(org, timeKey(due.expiry, id)), '');
        for (const kind of DUE_KINDS) {
          const at = padded(due[kind], 15);
          void this.t.waiverDue.put(k(kind, at, org, id), '');
          void this.t.waiverDueAt.put(k(kind, org, id), at);
        }
        return true;
      },
      (created) => created,
    );
  }

  getWaiver(orgId: string, waiverId: string): WaiverRecord | undefined {
    return this.t.waivers.get(k(orgId, waiverId));
  }

  /** Walks the creation index backwards from the cursor; an unknown cursor gives an empty page. */
  listWaivers(orgId: string, query: WaiverQuery): WaiverRecord[] {
    let below: string | undefined;
    if (query.after !== undefined) {
      below = this.t.waiverSeqs.get(k(orgId, query.after));
      if (below === undefined) return [];
    }
    if (query.limit <= 0) return [];
    const index = query.scenarioId === undefined ? this.t.waiverOrder : this.t.scenarioWaivers;
    const prefix = query.scenarioId === undefined ? [orgId] : [orgId, query.scenarioId];
    const out: WaiverRecord[] = [];
    for (const { key, value: id } of prefixRange(index, prefix, { reverse: true })) {
      if (below !== undefined && key.slice(key.length - SEQ_DIGITS) >= below) continue;
      const record = this.getWaiver(orgId, id);
      if (record) out.push(record);
      if (out.length >= query.limit) break;
    }
    return out;
  }

  scenarioWaivers(orgId: string, scenarioId: string): WaiverRecord[] {
    const out: WaiverRecord[] = [];
    for (const { value: id } of prefixRange(this.t.scenarioWaivers, [orgId, scenarioId])) {
      const record = this.getWaiver(orgId, id);
      if (record && record.status !== 'revoked') out.push(record);
    }
    return out;
  }

  revokeWaiver(orgId: string, waiverId: string, entry: WaiverAuditEntry): Promise<WaiverRecord | undefined> {
    let changed = false;
    return this.write(
      () => {
        const current = this.getWaiver(orgId, waiverId);
        if (!current || current.status === 'revoked') return current;
        const next = revokedBy(current, entry);
        void this.t.waivers.put(k(orgId, waiverId), next);
        void this.t.activeWaivers.remove(k(orgId, timeKey(Date.parse(current.expires_at), waiverId)));
        for (const kind of DUE_KINDS) this.dropDue(kind, orgId, waiverId);
        changed = true;
        return next;
      },
      () => changed,
    );
  }

  /** Removes a waiver's entry of the `kind` due index (inside a write transaction). @returns false when it had none. */
  private dropDue(kind: WaiverDueKind, orgId: string, waiverId: string): boolean {
    const at = this.t.waiverDueAt.get(k(kind, orgId, waiverId));
    if (at === undefined) return false;
    void this.t.waiverDue.remove(k(kind, at, orgId, waiverId));
    void this.t.waiverDueAt.remove(k(kind, orgId, waiverId));
    return true;
  }

  dueWaivers(kind: WaiverDueKind, nowMs: number, limit: number): DueWaiver[] {
    const out: DueWaiver[] = [];
    if (limit <= 0) return out;
    for (const key of prefixKeys(this.t.waiverDue, [kind])) {
      const [, at, orgId, waiverId] = key.split('\u0000') as [string, string, string, string];
      const dueAtMs = Number(at);
      if (dueAtMs > nowMs) break;
      out.push({ orgId, waiverId, dueAtMs });
      if (out.length >= limit) break;
    }
    return out;
  }

  claimDue(
    kind: WaiverDueKind,
    orgId: string,
    waiverId: string,
    entry: WaiverAuditEntry,
  ): Promise<WaiverRecord | undefined> {
    let changed = false;
    return this.write(
      () => {
        changed = this.dropDue(kind, orgId, waiverId);
        const current = changed ? this.getWaiver(orgId, waiverId) : undefined;
        if (!current || current.status === 'revoked') return undefined;
        const next = withAudit(current, entry);
        void this.t.waivers.put(k(orgId, waiverId), next);
        return next;
      },
      () => changed,
    );
  }
}
