/** @module api/views/waiver: a waiver as the API shows it (`/waivers`, issue 17). */
import type { WaiverRecord } from '../../model/records.js';

/** A waiver's state at `nowIso`: `revoked`, `expired` (kept for audit) or `active`. */
export function waiverState(w: WaiverRecord, nowIso: string): 'active' | 'expired' | 'revoked' {
  if (w.status === 'revoked') return 'revoked';
  return w.expires_at <= nowIso ? 'expired' : 'active';
}

/** `data` of one waiver; the audit log (who, when, what) only for `GET /waivers/{id}`. */
export function waiverView(w: WaiverRecord, nowIso: string, withAudit: boolean): Record<string, unknown> {
  const view: Record<string, unknown> = {
    waiver_id: w.waiver_id,
    scenario_id: w.scenario_id,
    policy: w.policy,
    fingerprint: w.fingerprint,
    module_id: w.module_id,
    reason: w.reason,
    approver: w.approver,
    expires_at: w.expires_at,
    status: waiverState(w, nowIso),
    created_at: w.created_at,
    created_by: w.created_by,
    revoked_at: w.revoked_at,
  };
  if (withAudit) view['audit'] = w.audit;
  return view;
}
