/**
 * @module server/audit: records changes in the audit log (docs/console-api.md "Audit log"), one
 * line per call site. The change has already happened when it is recorded: a failed write is
 * reported (logged and counted in `gov_store_write_failures_total{actor="audit"}`), never thrown.
 */
import type { AuditRepository } from '../store/audit/repository.js';

/** What is audited: `<thing>.<verb>` (a table, so the console and tests share the strings). */
export const AUDIT_ACTIONS = [
  'session.sign_in',
  'session.sign_in_failed',
  'session.sign_out',
  'key.create',
  'key.rotate',
  'key.revoke',
  'webhook.create',
  'webhook.delete',
  'waiver.create',
  'waiver.revoke',
  'settings.update',
  'rule.create',
  'rule.delete',
  'user.create',
] as const;

/** One of AUDIT_ACTIONS. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The actor of a change made with an API key. */
export const keyActor = (keyId: string): string => `key:${keyId}`;
/** The actor of a change made in a console session. */
export const userActor = (userId: string): string => `user:${userId}`;

/** Appends audit entries stamped with the service clock. */
export class Audit {
  /**
   * @param repo the store's audit log.
   * @param now epoch ms clock.
   * @param onFailure reports a failed append (storeFailureReporter).
   */
  constructor(
    private readonly repo: AuditRepository,
    private readonly now: () => number,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  /**
   * Appends `{ at: now, actor, action, target, detail }` to `orgId`'s log. Resolves once written
   * (or once the failure was reported); never rejects.
   */
  async record(
    orgId: string,
    actor: string,
    action: AuditAction,
    target: string | null,
    detail: string | null = null,
  ): Promise<void> {
    try {
      await this.repo.append({ org_id: orgId, at: new Date(this.now()).toISOString(), actor, action, target, detail });
    } catch (error) {
      this.onFailure(error);
    }
  }

  /** `orgId`'s entries newest first (AuditRepository.list). */
  list(orgId: string, limit: number, before?: number) {
    return this.repo.list(orgId, limit, before);
  }
}
