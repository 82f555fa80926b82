/**
 * @module client/responses: the public API's response bodies as a client reads them, declared from
 * the OpenAPI document (`docs/openapi.json`, `components.schemas`; only the fields this repository's
 * callers read). Declared, not validated: the integration tests check real responses against the
 * OpenAPI document, and a body that breaks it is the server's bug. Pass one as `GovernanceClient.call<T>`.
 */

/** Severity of a policy or finding (`Severity`). */
export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info';

/** Success envelope (docs/api.md "Envelope"). */
export interface Ok<T> {
  readonly ok: true;
  readonly data: T;
  readonly meta: { readonly watermark: string };
}

/** Error envelope (`ErrorResponse`): `error` is the spec's exact string; `detail` a string or, for 422, field errors. */
export interface Failure {
  readonly ok: false;
  readonly error: string;
  readonly detail?: string | readonly { readonly path: string; readonly message: string }[];
  readonly message?: string;
  readonly request_id?: string;
}

/** Any answer of an endpoint whose success body is `T`: narrow on `ok`. */
export type Reply<T> = Ok<T> | Failure;

/** `POST /evaluate` 200 (`SubmitResult`); `result_token` only for stored batches. */
export interface SubmitResult {
  readonly evaluation_id: string;
  readonly status: EvaluationStatusValue;
  readonly total_scenarios: number;
  readonly result_token?: string;
}

/** `POST /evaluate` 200 for stored scenarios (`scenario_ids`): the result token is always there. */
export type StoredSubmitResult = SubmitResult & { readonly result_token: string };

/** `EvaluationStatusValue`. */
export type EvaluationStatusValue = 'pending' | 'processing' | 'complete' | 'error';

/** One module's violations in a scenario (`ModuleViolation`): its worst badge and the failing policy codes. */
export interface ModuleViolation {
  readonly module_id: string;
  readonly module_name: string;
  readonly module_type: string;
  readonly badge: Severity;
  readonly violation_count: number;
  readonly policies: readonly string[];
}

/** One scenario of a complete evaluation (`ScenarioSummary`); `error` when it failed alone. */
export interface ScenarioSummary {
  readonly id: string;
  readonly name: string;
  readonly score: number;
  readonly violations: number;
  readonly critical: number;
  readonly compliance_gaps: readonly string[];
  readonly module_violations: readonly ModuleViolation[];
  readonly error?: string;
}

/** `GET /evaluations/{id}` 200 (`EvaluationStatus`; docs/api.md "Endpoints"); `scenarios` once complete. */
export interface EvaluationStatus {
  readonly evaluation_id: string;
  readonly status: EvaluationStatusValue;
  readonly total_scenarios: number;
  readonly completed: number;
  /** ISO 8601. */
  readonly created_at: string;
  /** ISO 8601; `null` until terminal. */
  readonly completed_at: string | null;
  readonly scenarios?: readonly ScenarioSummary[];
  readonly error?: string | null;
}

/**
 * `GET /evaluations/{id}` 200 as sent: spec §2 lists a failed batch's `error` outside `data`, so the
 * envelope repeats `data.error` there (absent while there is none).
 */
export type EvaluationOk = Ok<EvaluationStatus> & { readonly error?: string };

/** Any answer of `GET /evaluations/{id}` (`pollEvaluation`'s last response): narrow on `ok`. */
export type EvaluationReply = EvaluationOk | Failure;

/** A compliance framework reference (`FrameworkRef`): a `control` or an `article`. */
export interface FrameworkRef {
  readonly framework: string;
  readonly control?: string;
  readonly article?: string;
}

/** Where a finding's evidence is in the blueprint (`Evidence`). */
export interface Evidence {
  /** RFC 6901 JSON Pointer into the blueprint. */
  readonly pointer: string;
  /** Excerpt; secrets redacted. */
  readonly value?: string;
}

/** One step of a finding's evidence path (`EvidencePathStep`). */
export interface EvidencePathStep {
  readonly module_id: string;
  readonly module_name: string;
  readonly role: 'source' | 'step' | 'sink';
  /** What happens to the data there: one line of Markdown. */
  readonly note: string;
}

/** The risk-model row that set a finding's severity (`RiskRow`, docs/engine.md "Risk model"). */
export interface RiskRow {
  /** Stable row id, e.g. `R7`. */
  readonly row: string;
  readonly title: string;
  /** The severity the row sets; the finding's own may be lower (capped, or set by the organization). */
  readonly severity: Severity;
  readonly audience?: 'owner' | 'sender' | 'third-party' | 'public';
  readonly trust?: 'public-webhook' | 'inbound-message' | 'fetched-page' | 'ai-output' | 'internal-record' | 'constant';
  readonly sensitivity?: 'special-category' | 'personal' | 'credential' | 'none';
  readonly impact?: 'read' | 'write-own' | 'send' | 'spend' | 'change-access' | 'delete';
}

/** A finding's evidence (`FindingEvidence`): `path` and `risk` for a finding about data moving (issue 32). */
export interface FindingEvidence extends Evidence {
  /** Every place of the one thing reported, `pointer` first, when it is in more than one (a copied secret). */
  readonly locations?: readonly { readonly module_id: string; readonly pointer: string }[];
  /** The modules the data passes through, the source first and the finding's module (the sink) last. */
  readonly path?: readonly EvidencePathStep[];
  readonly risk?: RiskRow;
}

/** A failing module of a violation (`FailingModule`). */
export interface FailingModule {
  readonly module_id: string;
  readonly module_name: string;
  readonly module_type: string;
  readonly reason: string;
  readonly badge: Severity;
  readonly severity?: Severity;
  readonly evidence?: FindingEvidence;
  readonly fingerprint?: string;
}

/** One violation (`Violation`). */
export interface Violation {
  readonly policy: string;
  readonly status: 'fail' | 'warn';
  readonly severity: Severity;
  readonly title: string;
  readonly description: string;
  readonly summary?: string;
  readonly failing_modules: readonly FailingModule[];
  readonly compliance_frameworks?: readonly FrameworkRef[];
  readonly remediation_available?: boolean;
  readonly source?: string;
  readonly category?: string;
  readonly evidence?: Evidence;
  readonly fingerprint?: string;
}

/**
 * `GET /scenarios/{id}/results` 200 (`ScenarioResults`); `score`, `evaluation_id` and `evaluated_at`
 * absent for a scenario never evaluated.
 */
export interface ScenarioResults {
  readonly scenario_id: string;
  readonly scenario_name: string;
  readonly name?: string;
  readonly evaluation_status: 'evaluated' | 'not_evaluated';
  readonly violations: readonly Violation[];
  readonly module_summary: readonly ModuleViolation[];
  /** The policy codes the engine ran: `passing_count + failing_count` of them. */
  readonly evaluated_codes: readonly string[];
  readonly passing_count: number;
  readonly failing_count: number;
  readonly score?: number;
  readonly compliance_gaps?: readonly string[];
  /** The evaluation that produced these results. */
  readonly evaluation_id?: string | null;
  /** ISO 8601. */
  readonly evaluated_at?: string;
}

/** `GET /violations/{scenario_id}:{policy_code}/remediation` 200 (`Remediation`). */
export interface Remediation {
  readonly policy?: string;
  readonly steps: readonly string[];
  readonly severity: Severity;
  readonly estimated_effort: 'low' | 'medium' | 'high';
  readonly compliance_frameworks: readonly FrameworkRef[];
}

/** One scenario redeemed by `POST /results/fetch` (`FetchedScenario`); `error` when it failed alone. */
export interface FetchedScenario {
  readonly scenario_id: string;
  readonly name: string;
  readonly violations: readonly Violation[];
  readonly module_summary: readonly ModuleViolation[];
  readonly evaluated_codes: readonly string[];
  readonly passing_count: number;
  readonly failing_count: number;
  readonly error?: string;
}

/** `POST /results/fetch` 200 (`ResultsFetch`): still processing, ended in error, or the scenarios. */
export type ResultsFetch =
  | { readonly evaluation_id?: string; readonly status: 'processing'; readonly message: string }
  | {
      readonly evaluation_id?: string;
      readonly status: 'error';
      readonly error?: string | null;
      readonly message: string;
    }
  | { readonly evaluation_id?: string; readonly status: 'complete'; readonly scenarios: readonly FetchedScenario[] };

/** A module of the inline module graph (`GraphNode`); `badge` null for a module without violations. */
export interface GraphNode {
  readonly module_id: string;
  readonly module_name: string;
  readonly module_type: string;
  readonly app: string;
  readonly position: { readonly x: number; readonly y: number } | null;
  readonly badge: Severity | null;
  readonly violation_count: number;
  readonly policies: readonly string[];
}

/** An edge of the inline module graph (`GraphEdge`). */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: 'next' | 'route' | 'error' | 'branch' | 'merge' | 'tool';
  readonly route_index?: number;
  readonly filter?: string;
}

/**
 * `POST /evaluate/inline` 200 (`InlineResult`); `remediation` (by policy code) only with
 * `include_remediation`, `saved` only with `save_to_workspace`.
 */
export interface InlineResult {
  readonly scenario: { readonly name: string; readonly score: number; readonly evaluation_status: 'evaluated' };
  readonly violations: readonly Violation[];
  readonly module_graph: { readonly nodes: readonly GraphNode[]; readonly edges: readonly GraphEdge[] };
  readonly evaluated_codes: readonly string[];
  readonly passing_count: number;
  readonly failing_count: number;
  readonly compliance_gaps?: readonly string[];
  readonly remediation?: Readonly<Record<string, Remediation | null>>;
  readonly saved?: { readonly scenario_id: string };
}

/** One policy of the catalog (`PolicyEntry`). */
export interface PolicyEntry {
  readonly code: string;
  readonly title: string;
  readonly category: string;
  readonly severity: Severity;
  readonly compliance_frameworks: readonly FrameworkRef[];
  readonly category_name?: string;
  readonly description?: string;
  readonly rationale?: string;
  readonly remediation_effort?: string;
  readonly docs?: string;
}

/** `GET /governance/policies` 200 (`PolicyCatalog`). */
export interface PolicyCatalog {
  readonly revision?: string;
  readonly policies: readonly PolicyEntry[];
}

/** A registered endpoint (`Webhook`); `secret` only in the registration response (see `WebhookCreated`). */
export interface Webhook {
  readonly webhook_id: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly description?: string | null;
  readonly status: 'active' | 'disabled';
  readonly disabled_reason?: string | null;
  /** ISO 8601. */
  readonly created_at: string;
  readonly secret?: string;
}

/** `POST /webhooks` 201 (`Webhook`, with the secret shown once). */
export interface WebhookCreated extends Webhook {
  readonly secret: string;
}

/** `GET /webhooks` 200 (`WebhookList`). */
export interface WebhookList {
  readonly webhooks: readonly Webhook[];
}

/** `DELETE /webhooks/{id}` 200 (`WebhookDeleted`). */
export interface WebhookDeleted {
  readonly webhook_id: string;
  readonly deleted: true;
}

/** One delivery of an event to an endpoint (`Delivery`), with every attempt so far. */
export interface Delivery {
  readonly delivery_id: string;
  readonly event_type: string;
  readonly evaluation_id?: string;
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly attempts: readonly {
    /** ISO 8601. */
    readonly at: string;
    /** The endpoint's HTTP status; null when no response came. */
    readonly status_code: number | null;
    readonly error: string | null;
    readonly duration_ms: number;
  }[];
  /** ISO 8601; null once delivered or failed. */
  readonly next_attempt_at?: string | null;
  readonly created_at?: string;
}

/** `GET /webhooks/{id}/deliveries` 200 (`DeliveryList`). */
export interface DeliveryList {
  readonly deliveries: readonly Delivery[];
}

/** `POST /webhooks/{id}/deliveries/{delivery_id}/redeliver` 202 (`Redelivery`). */
export interface Redelivery {
  readonly delivery_id: string;
  readonly status: 'pending';
}

/**
 * The body of an `evaluation.complete` webhook request (spec §6), as an endpoint receives it: not a
 * response, but declared here beside the evaluation it reports.
 */
export interface EvaluationCompleteEvent {
  readonly type: 'evaluation.complete';
  /** ISO 8601. */
  readonly timestamp: string;
  readonly data: {
    readonly evaluation_id: string;
    readonly status: 'complete';
    readonly total_scenarios: number;
    readonly scenarios: readonly ScenarioSummary[];
  };
}

/** `GET /organization/rollup` 200 (`Rollup`); `score` is the mean over evaluated scenarios, null when none. */
export interface Rollup {
  readonly score: number | null;
  readonly scenarios_total: number;
  readonly scenarios_evaluated: number;
  readonly violations_total: number;
  readonly critical_total: number;
  readonly top_violations: readonly {
    readonly policy: string;
    readonly title: string;
    readonly severity: Severity;
    readonly count: number;
    readonly scenarios: number;
  }[];
  readonly framework_coverage: readonly {
    readonly framework: string;
    readonly controls_total: number;
    readonly controls_met: number;
    /** Share of controls met, 0 to 1. */
    readonly coverage: number;
  }[];
  readonly updated_at: string;
}
