/**
 * @module model/records: the records the service keeps (organizations, keys, scenarios, evaluations,
 * results, rollups, webhooks, console accounts): the data model shared by the store, which persists
 * them, and the views, which render them. Types only.
 */
import type { GovernanceSettingsBody as EngineGovernanceSettingsBody } from '../engine/governance/settings.js';

/** Permissions of an API key (design notes "Credentials"). */
export type Permission = 'governance:evaluate' | 'governance:read' | 'webhooks:manage' | 'governance:manage';
/**
 * All permissions; new keys get all four unless narrowed. `governance:manage` (issue 17: waivers,
 * organization settings, custom rules) is additive: keys created before it keep the three they had.
 */
export const ALL_PERMISSIONS: readonly Permission[] = [
  'governance:evaluate',
  'governance:read',
  'webhooks:manage',
  'governance:manage',
];

/** An organization (tenant boundary). */
export interface OrgRecord {
  readonly org_id: string;
  readonly name: string;
  readonly created_at: string;
}

/** An API key. The clear key is never stored: only its keyed hash (HMAC-SHA256 with the server pepper). */
export interface KeyRecord {
  readonly key_id: string;
  readonly org_id: string;
  readonly name: string;
  /** hex HMAC-SHA256(pepper, api_key). */
  readonly hash: string;
  /** First characters of the key for display (`gov_live_1a2b…`). */
  readonly display_prefix: string;
  readonly permissions: readonly Permission[];
  /** IPv4/IPv6 CIDRs; empty = any address. */
  readonly allow_ips: readonly string[];
  /** ISO time after which the key is expired, or null. */
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
  /** Requests per clock minute (default 60) and per clock hour (default 1000). */
  readonly per_minute: number;
  readonly per_hour: number;
  readonly created_at: string;
  /** Key this one replaced by rotation, if any. */
  readonly rotated_from: string | null;
}

/** A stored scenario (design notes: platform scenario id, name, blueprint, version, imported_at). */
export interface ScenarioRecord {
  readonly org_id: string;
  readonly scenario_id: string;
  readonly name: string;
  /** Increments on every re-import. */
  readonly version: number;
  readonly imported_at: string;
  readonly module_count: number;
}

/** Evaluation status values (spec §3). */
export type EvaluationStatus = 'pending' | 'processing' | 'complete' | 'error';

/** Per-scenario summary inside the evaluation status (spec §2 "Scenario summary entry"). */
export interface ScenarioSummary {
  readonly id: string;
  readonly name: string;
  readonly score: number;
  readonly violations: number;
  readonly critical: number;
  readonly compliance_gaps: readonly string[];
  readonly module_violations: readonly {
    module_id: string;
    module_name: string;
    module_type: string;
    badge: string;
    violation_count: number;
    policies: readonly string[];
  }[];
  readonly error?: string;
}

/** An evaluation batch. */
export interface EvaluationRecord {
  readonly evaluation_id: string;
  readonly org_id: string;
  /** `stored` (scenario_ids) or `ephemeral` (blueprints[]). */
  readonly kind: 'stored' | 'ephemeral';
  readonly status: EvaluationStatus;
  readonly scenario_ids: readonly string[];
  /** Blueprint version evaluated per stored scenario (same order as scenario_ids). */
  readonly versions: readonly number[];
  readonly total_scenarios: number;
  readonly completed: number;
  /** Per-scenario summaries by index; null until that scenario finished. */
  readonly scenarios: readonly (ScenarioSummary | null)[];
  readonly error: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly completed_at: string | null;
  /** Epoch ms after which an ephemeral evaluation is purged (then 404). */
  readonly expires_at: number | null;
  readonly key_id: string;
  /**
   * Governance context the evaluation used (issue 17); absent on evaluations stored before it:
   * the organization's settings version (0 = defaults), custom rules revision (0 = none) and the
   * built-in catalog revision.
   */
  readonly governance?: {
    readonly settings_version: number;
    readonly rules_revision: number;
    readonly catalog_revision: string;
  };
  /** Why it ran: `api` (a client's POST) or `waiver` (the service re-evaluating after a waiver change or expiry). Absent = `api`. */
  readonly trigger?: 'api' | 'waiver';
  /**
   * W3C trace context of the request that submitted it (`00-<trace-id>-<span-id>-<flags>`, the span
   * this service opened for that request; model/trace-context), when it carried a valid
   * `traceparent`; absent otherwise. Its webhook deliveries continue the trace.
   */
  readonly traceparent?: string;
}

/** What one evaluated scenario adds to its organization's rollup. */
export interface RollupContribution {
  readonly score: number;
  readonly violations: number;
  readonly critical: number;
  /** Findings (failing modules, at least 1) per violated policy code. */
  readonly policies: Readonly<Record<string, number>>;
  /** Compliance gaps (`"SOC 2 CC6.1"`). */
  readonly gaps: readonly string[];
  /** Violations waived (issue 17), by policy code: they count nowhere above. Absent in contributions stored before waivers. */
  readonly waived?: Readonly<Record<string, number>>;
  /**
   * The scenario's worst badge: the worst severity of its counted violations, or `clean` (issue 18).
   * Absent in contributions stored before it: store/fleet-keys `badgeOf` derives what it can.
   */
  readonly badge?: ScenarioBadge;
  /** Counted (unwaived) violations by severity (issue 18); absent in contributions stored before it. */
  readonly severities?: Readonly<Record<SeverityName, number>>;
}

/** Severities, worst first (the engine's `Severity`, repeated here so records import nothing from the engine's values). */
export type SeverityName = 'critical' | 'high' | 'medium' | 'low' | 'info';
/**
 * A scenario's worst badge: a severity, `clean` (evaluated, no counted violation), or `unknown` (an
 * older stored contribution with violations but none critical and no `badge`: re-evaluation tells).
 */
export type ScenarioBadge = SeverityName | 'clean' | 'unknown';

/** The organization rollup, maintained incrementally (design notes "Organization rollup"). */
export interface RollupRecord {
  readonly org_id: string;
  readonly scenarios_total: number;
  readonly scenarios_evaluated: number;
  readonly score_sum: number;
  readonly violations_total: number;
  readonly critical_total: number;
  /** Per policy: findings and scenarios. */
  readonly policies: Readonly<Record<string, { readonly count: number; readonly scenarios: number }>>;
  /** Per compliance gap label: scenarios failing it. */
  readonly gaps: Readonly<Record<string, number>>;
  /** Waived violations in all (issue 17: shown apart, never in the totals above); absent in rollups stored before waivers (= 0). */
  readonly waived_total?: number;
  /** Per policy code: scenarios with a waived violation of it; absent = none. */
  readonly waived?: Readonly<Record<string, number>>;
  /** Evaluated scenarios by their worst badge (issue 18; zero counts left out); rollups stored before it get them from the store migration at the first open (store/lmdb/migrate, store/redis/migrate). */
  readonly badges?: Readonly<Partial<Record<ScenarioBadge, number>>>;
  readonly updated_at: string;
}

/** Latest results of a stored scenario (its pre-rendered response is the `evaluationResults` entry `latestResults` points at). */
export interface ResultRecord {
  /** This scenario's share of the organization rollup. */
  readonly contribution: RollupContribution;
  readonly evaluation_id: string;
  readonly evaluated_at: string;
  readonly version: number;
  /**
   * Pre-rendered remediation `data` per violated policy code (null when generation failed): a
   * msgpack-packed RemediationMap as the worker produced it.
   */
  readonly remediation: Uint8Array;
}

/** Remediation `data` JSON per violated policy code; null when its generation failed (spec §2 Remediation). */
export type RemediationMap = Readonly<Record<string, string | null>>;

/** Console roles: owners and admins manage keys (spec §4 "API-key administration ... for admin/owner roles"). */
export type UserRole = 'owner' | 'admin' | 'member';

/** An operator account of the web console. The password is stored only as an scrypt hash. */
export interface UserRecord {
  readonly user_id: string;
  readonly org_id: string;
  readonly email: string;
  readonly role: UserRole;
  /** `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>` */
  readonly password_hash: string;
  readonly created_at: string;
}

/** A console session; stored under the SHA-256 of its token. */
export interface SessionRecord {
  readonly user_id: string;
  readonly org_id: string;
  readonly role: UserRole;
  readonly expires_at: number;
}

/** A registered webhook endpoint (design notes "Webhooks"). Its secret is derived, never stored. */
export interface WebhookRecord {
  readonly webhook_id: string;
  readonly org_id: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string | null;
  /** `active`, or `disabled` (the endpoint answered 410 Gone, or was disabled by an operator). */
  readonly status: 'active' | 'disabled';
  readonly disabled_reason: string | null;
  readonly created_at: string;
}

/** One attempt of a delivery. */
export interface DeliveryAttempt {
  readonly at: string;
  readonly status_code: number | null;
  readonly error: string | null;
  readonly duration_ms: number;
}

/** A webhook delivery (one event to one endpoint); `delivery_id` is the `webhook-id` header. */
export interface DeliveryRecord {
  readonly delivery_id: string;
  readonly webhook_id: string;
  readonly org_id: string;
  readonly event_type: string;
  readonly evaluation_id: string;
  /** The exact body sent (signed bytes). */
  readonly payload: string;
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly attempts: readonly DeliveryAttempt[];
  /** Epoch ms of the next attempt while pending. */
  readonly next_attempt_at: number | null;
  readonly created_at: string;
  /**
   * The `traceparent` header sent on every attempt: the triggering evaluation's trace-id and flags
   * with a parent-id of its own (model/trace-context `childTraceparent`). Absent when the
   * evaluation had no trace context.
   */
  readonly traceparent?: string;
}

/** One change of a waiver, appended to its audit log (issue 17). */
export interface WaiverAuditEntry {
  readonly at: string;
  /** Who: `key:<key_id>`, `user:<user_id>` or `system`. */
  readonly actor: string;
  readonly action: 'created' | 'revoked' | 'expiring_notified' | 'expired';
  /** Free text, e.g. the revocation reason. */
  readonly detail: string | null;
}

/**
 * A waiver (exception, issue 17): accepts the risk of one policy's findings on one stored scenario
 * until `expires_at`, optionally narrowed to one finding fingerprint or one module id. Never
 * deleted: revocation and expiry are kept for audit.
 */
export interface WaiverRecord {
  readonly waiver_id: string;
  readonly org_id: string;
  readonly scenario_id: string;
  readonly policy: string;
  readonly fingerprint: string | null;
  readonly module_id: string | null;
  readonly reason: string;
  /** Free-text approver. */
  readonly approver: string | null;
  /** ISO time; at most one year after `created_at`. */
  readonly expires_at: string;
  readonly created_at: string;
  /** Actor who created it (WaiverAuditEntry `actor`). */
  readonly created_by: string;
  /** `active` until revoked; expiry is computed from `expires_at` (an expired waiver stays `active` here). */
  readonly status: 'active' | 'revoked';
  readonly revoked_at: string | null;
  readonly audit: readonly WaiverAuditEntry[];
}

/**
 * An organization's governance settings body (issue 17), validated by the API before it is stored
 * (`validateSettings`). Defined by the engine, which reads it; the model names it for the store.
 */
export type GovernanceSettingsBody = EngineGovernanceSettingsBody;

/** One version of an organization's settings. Version 0 (never stored) is the defaults. */
export interface GovernanceSettingsRecord {
  readonly org_id: string;
  /** 1, 2, ... (every PUT stores a new version; older versions are kept). */
  readonly version: number;
  readonly settings: GovernanceSettingsBody;
  readonly updated_at: string;
  readonly updated_by: string;
}

/** An organization's custom rule (issue 17), as submitted (validated by engine/rules) plus its code. */
export interface CustomRuleRecord {
  readonly org_id: string;
  /** `ORG-<n>`, n = 1, 2, ... per organization, never reused. */
  readonly code: string;
  /** The rule body (engine/rules `CustomRule`), `code` excluded. */
  readonly rule: Readonly<Record<string, unknown>>;
  readonly created_at: string;
  readonly created_by: string;
  /** The organization's rules revision this rule entered at. */
  readonly created_revision: number;
  /** The revision it was deleted at, or null while in force (deleted rules are kept for pinned evaluations). */
  readonly deleted_revision: number | null;
  readonly deleted_at: string | null;
}
