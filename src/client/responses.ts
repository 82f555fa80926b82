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

/** One scenario of a complete evaluation (`ScenarioSummary`); `error` when it failed alone. */
export interface ScenarioSummary {
  readonly id: string;
  readonly name: string;
  readonly score: number;
  readonly violations: number;
  readonly critical: number;
  readonly compliance_gaps: readonly string[];
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

/** A compliance framework reference (`FrameworkRef`): a `control` or an `article`. */
export interface FrameworkRef {
  readonly framework: string;
  readonly control?: string;
  readonly article?: string;
}

/** A failing module of a violation (`FailingModule`). */
export interface FailingModule {
  readonly module_id: string;
  readonly module_name: string;
  readonly module_type: string;
  readonly reason: string;
  readonly badge: Severity;
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
}

/** `GET /scenarios/{id}/results` 200 (`ScenarioResults`); `score` absent for a scenario never evaluated. */
export interface ScenarioResults {
  readonly scenario_id: string;
  readonly scenario_name: string;
  readonly evaluation_status: 'evaluated' | 'not_evaluated';
  readonly violations: readonly Violation[];
  readonly passing_count: number;
  readonly failing_count: number;
  readonly score?: number;
  readonly compliance_gaps?: readonly string[];
}

/** `GET /violations/{scenario_id}:{policy_code}/remediation` 200 (`Remediation`). */
export interface Remediation {
  readonly policy?: string;
  readonly steps: readonly string[];
  readonly severity: Severity;
  readonly estimated_effort: 'low' | 'medium' | 'high';
  readonly compliance_frameworks: readonly FrameworkRef[];
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
  | { readonly evaluation_id?: string; readonly status: 'complete'; readonly scenarios: readonly unknown[] };

/** `POST /evaluate/inline` 200 (`InlineResult`). */
export interface InlineResult {
  readonly scenario: { readonly name: string; readonly score: number; readonly evaluation_status: 'evaluated' };
  readonly violations: readonly Violation[];
  readonly module_graph: { readonly nodes: readonly unknown[]; readonly edges: readonly unknown[] };
}

/** `POST /webhooks` 201 (`Webhook`, with the secret shown once). */
export interface WebhookCreated {
  readonly webhook_id: string;
  readonly url: string;
  readonly secret: string;
}

/** `GET /organization/rollup` 200 (`Rollup`). */
export interface Rollup {
  readonly score: number | null;
  readonly scenarios_total: number;
  readonly scenarios_evaluated: number;
  readonly violations_total: number;
  readonly critical_total: number;
  readonly updated_at: string;
}
