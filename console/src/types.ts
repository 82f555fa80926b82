/**
 * @module console/types: the console API's bodies as the browser reads them (docs/console-api.md);
 * the public views are the public client's declarations (src/client/responses.ts).
 */
import type { Rollup, Severity, ScenarioResults, Webhook } from '../../src/client/responses.js';

export type {
  Rollup,
  Severity,
  ScenarioResults,
  Violation,
  FailingModule,
  FindingEvidence,
  EvidencePathStep,
  RiskRow,
  Remediation,
  Webhook,
} from '../../src/client/responses.js';

/** A console user's role. */
export type Role = 'member' | 'admin' | 'owner';

/** The signed-in user. */
export interface SessionUser {
  readonly user_id: string;
  readonly org_id: string;
  readonly role: Role;
  readonly email: string;
}

/** `POST /session` / `GET /session` data (csrf_token absent on servers before the CSRF change). */
export interface SessionData {
  readonly expires_at: string;
  readonly csrf_token?: string;
  readonly user: SessionUser;
}

/** The key permissions (src/model/records.ts ALL_PERMISSIONS). */
export const PERMISSIONS = ['governance:evaluate', 'governance:read', 'webhooks:manage', 'governance:manage'] as const;

/** A key as the console lists it. */
export interface KeyView {
  readonly key_id: string;
  readonly name: string;
  readonly display_prefix: string;
  readonly permissions: readonly string[];
  readonly allow_ips: readonly string[];
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
  readonly state: 'active' | 'revoked' | 'expired';
  readonly per_minute: number;
  readonly per_hour: number;
  readonly created_at: string;
  readonly rotated_from: string | null;
  /** When the key was last used (ISO; null: never). Written by the server every KEY_USE_FLUSH_MS, so up to that much behind. */
  readonly last_used_at: string | null;
}

/** A key just created or rotated: the clear key and signing secret, shown once. */
export interface IssuedKey extends KeyView {
  readonly api_key: string;
  readonly signing_secret: string;
}

/**
 * Worst badge of a scenario. `unknown`: results stored before the fleet read model (issue 18) with
 * violations, none critical, which did not record their worst severity; evaluating the scenario
 * again gives it its badge.
 */
export type Badge = Severity | 'clean' | 'unknown' | 'not_evaluated';

/** Badges in display order, worst first. */
export const BADGES: readonly Badge[] = [
  'critical',
  'high',
  'medium',
  'low',
  'info',
  'unknown',
  'clean',
  'not_evaluated',
];

/** `GET /overview` data. */
export interface Overview {
  readonly rollup: Rollup;
  /** `unknown` only when non-zero. */
  readonly badges: Readonly<Record<Exclude<Badge, 'unknown'>, number> & { readonly unknown?: number }>;
  readonly evaluations_by_day: readonly {
    readonly day: string;
    readonly evaluations: number;
    readonly scenarios: number;
  }[];
}

/** Violations counted per severity. */
export type SeverityCounts = Readonly<Record<Severity, number>>;

/** One row of `GET /scenarios`. */
export interface ScenarioRow {
  readonly scenario_id: string;
  readonly name: string;
  readonly score: number | null;
  readonly badge: Badge | null;
  readonly evaluated_at: string | null;
  readonly violations: SeverityCounts;
  readonly module_count: number;
}

/** `GET /scenarios` data. */
export interface ScenarioPage {
  readonly scenarios: readonly ScenarioRow[];
  readonly total: number;
  readonly next_cursor: string | null;
}

/** `GET /scenarios/{id}` data. */
export interface ScenarioDetail {
  readonly scenario: {
    readonly scenario_id: string;
    readonly name: string;
    readonly version?: number;
    readonly imported_at?: string;
    readonly module_count: number;
  };
  readonly results: ScenarioResults;
  readonly remediation: Readonly<
    Record<string, { readonly steps: readonly string[]; readonly estimated_effort?: string } | null>
  >;
  readonly history: readonly {
    readonly evaluation_id: string;
    readonly evaluated_at: string;
    readonly score: number | null;
    readonly violations: number | SeverityCounts;
  }[];
  readonly svg: string;
}

/** A delivery of a webhook event. */
export interface Delivery {
  readonly delivery_id: string;
  readonly event?: string;
  readonly type?: string;
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly created_at?: string;
  readonly evaluation_id?: string;
  readonly attempts: readonly {
    readonly at: string;
    readonly status_code: number | null;
    readonly error: string | null;
    readonly duration_ms: number;
  }[];
}

/** `GET /webhooks` data. */
export interface WebhookList {
  readonly webhooks: readonly Webhook[];
}

/** A waiver as listed. */
export interface Waiver {
  readonly waiver_id: string;
  readonly scenario_id: string;
  readonly policy: string;
  readonly reason: string;
  readonly expires_at: string;
  readonly status: 'active' | 'expired' | 'revoked';
  readonly created_by?: string;
  readonly created_at?: string;
  readonly module_id?: string | null;
  readonly approver?: string | null;
}

/** Organization governance settings. */
export interface Settings {
  readonly version: number;
  readonly disabled_policies: readonly string[];
  readonly severity_overrides: Readonly<Record<string, Severity>>;
  readonly parameters: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly updated_at: string | null;
  readonly updated_by: string | null;
}

/** One audit entry. */
export interface AuditEntry {
  readonly at: string;
  readonly actor: string;
  readonly action: string;
  readonly target: string | null;
  readonly detail: unknown;
}

/** A console account as `GET /api/v1/users` lists it (owner only); `password` only when generated at creation. */
export interface ConsoleUser {
  readonly user_id: string;
  readonly org_id: string;
  readonly email: string;
  readonly role: Role;
  readonly created_at: string;
  readonly password?: string;
}
