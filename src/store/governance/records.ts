/** @module store/governance/records: the pure parts of the governance aggregate both backends share (codes, revisions, due times, audit). */
import type { CustomRuleRecord, WaiverAuditEntry, WaiverRecord } from '../../model/records.js';
import type { WaiverDueKind } from './repository.js';

/** Both due indexes. */
export const DUE_KINDS: readonly WaiverDueKind[] = ['notice', 'expiry'];

/** Most attempts of an optimistic write (Redis: read, decide, compare-and-set) before it gives up. */
export const MAX_WRITE_ATTEMPTS = 100;

/** The code of custom rule number `n`: `ORG-<n>`. */
export function ruleCode(n: number): string {
  return `ORG-${n}`;
}

/** The number n of a code `ORG-<n>` (n ≥ 1, no leading zero), or undefined for any other string. */
export function ruleNumber(code: string): number | undefined {
  const m = /^ORG-([1-9]\d{0,14})$/.exec(code);
  return m ? Number(m[1]) : undefined;
}

/** True when `rule` is in force at `revision`: created at or before it, not deleted at or before it. */
export function inForceAt(rule: CustomRuleRecord, revision: number): boolean {
  return rule.created_revision <= revision && (rule.deleted_revision === null || rule.deleted_revision > revision);
}

/** Rules ordered by code number ascending. */
export function byRuleNumber(a: CustomRuleRecord, b: CustomRuleRecord): number {
  return (ruleNumber(a.code) ?? 0) - (ruleNumber(b.code) ?? 0);
}

/** Epoch ms at which a waiver is due in each index: the notice `noticeMs` before `expires_at`, the expiry at it. */
export function dueTimes(record: WaiverRecord, noticeMs: number): Readonly<Record<WaiverDueKind, number>> {
  const expiry = Date.parse(record.expires_at);
  return { notice: expiry - noticeMs, expiry };
}

/** `record` revoked by `entry` (status, `revoked_at` = the entry's time, the entry appended to the audit log). */
export function revokedBy(record: WaiverRecord, entry: WaiverAuditEntry): WaiverRecord {
  return { ...record, status: 'revoked', revoked_at: entry.at, audit: [...record.audit, entry] };
}

/** `record` with `entry` appended to its audit log. */
export function withAudit(record: WaiverRecord, entry: WaiverAuditEntry): WaiverRecord {
  return { ...record, audit: [...record.audit, entry] };
}

/** Zero-padded decimal of `n` to `width` digits (keys that sort by number). */
export function padded(n: number, width: number): string {
  return String(n).padStart(width, '0');
}
