/**
 * @module store/audit/repository: the audit log aggregate (docs/console-api.md "Audit log"): an
 * organization's entries in the order they were appended, numbered by a per-organization sequence.
 */
import type { Awaitable } from '../awaitable.js';

/** One audit entry as appended. */
export interface AuditEntry {
  readonly org_id: string;
  /** ISO 8601 time of the change. */
  readonly at: string;
  /** `user:<user_id>`, `key:<key_id>` or `system`. */
  readonly actor: string;
  /** What happened, `<thing>.<verb>`: `session.sign_in`, `key.create`, `webhook.delete`, … */
  readonly action: string;
  /** The id of what changed (key, webhook, waiver, rule, user, settings version), or null. */
  readonly target: string | null;
  /** A short human-readable detail (never a secret), or null. */
  readonly detail: string | null;
}

/** A stored entry: the appended one with its sequence number in its organization (1, 2, …). */
export interface StoredAuditEntry extends AuditEntry {
  readonly seq: number;
}

/** The audit log. Appends resolve once durable. */
export interface AuditRepository {
  /**
   * Appends an entry under the next sequence number of its organization, atomically: concurrent
   * appends (even within one millisecond) all get distinct numbers and are all kept.
   * @returns the entry's sequence number.
   */
  append(entry: AuditEntry): Promise<number>;
  /**
   * An organization's entries, newest (highest sequence) first, at most `limit`, only those with a
   * sequence below `before` when given (the previous page's last `seq`).
   */
  list(orgId: string, limit: number, before?: number): Awaitable<StoredAuditEntry[]>;
}
