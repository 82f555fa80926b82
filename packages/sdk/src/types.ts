/**
 * @module sdk/types: names for the generated OpenAPI types (`generated/openapi.ts`), derived per operation so
 * that a regenerated document changes them without edits here.
 */
import type { components, operations } from './generated/openapi.js';

/** Every schema of the OpenAPI document's `components.schemas`. */
export type Schemas = components['schemas'];
/** An `operationId` of the document. */
export type OperationId = keyof operations;

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Responses<Op extends OperationId> = operations[Op]['responses'];

/** The JSON body of an operation's 2xx answers (the success envelope `{ ok: true, data, meta }`). */
export type SuccessBody<Op extends OperationId> = {
  [S in keyof Responses<Op>]: S extends 200 | 201 | 202 ? JsonOf<Responses<Op>[S]> : never;
}[keyof Responses<Op>];

/** The `data` of an operation's success envelope. */
export type DataOf<Op extends OperationId> = SuccessBody<Op> extends { data: infer D } ? D : never;

/** The JSON request body of an operation. */
export type RequestBody<Op extends OperationId> = JsonOf<NonNullable<operations[Op]['requestBody']>>;

// Named by operation rather than by schema name, so a reworked document (new schema names, oneOf) keeps them.
/** The `meta` of every success envelope: `{ watermark: "wm_<8 hex>" }` (spec §2). */
export type Meta = SuccessBody<'getEvaluation'> extends { meta: infer M } ? M : never;
/** Body of `POST /evaluate`: exactly one of `scenario_ids` and `blueprints`. */
export type SubmitEvaluationBody = RequestBody<'submitEvaluation'>;
/** `data` of `POST /evaluate`. */
export type SubmitResult = DataOf<'submitEvaluation'>;
/** `data` of `GET /evaluations/{id}` (the status view). */
export type EvaluationStatus = DataOf<'getEvaluation'>;
/** `data` of `GET /scenarios/{id}/results`. */
export type ScenarioResults = DataOf<'getScenarioResults'>;
/** `data` of `POST /results/fetch`: `processing`, `error` or `complete` with `scenarios[]`. */
export type ResultsFetch = DataOf<'fetchResults'>;
/** One scenario of a complete `ResultsFetch`. */
export type FetchedScenario = Extract<ResultsFetch, { status: 'complete' }>['scenarios'][number];
/** `data` of `GET /violations/{id}/remediation`. */
export type Remediation = DataOf<'getRemediation'>;
/** Body of `POST /evaluate/inline`. */
export type InlineEvaluationBody = RequestBody<'evaluateInline'>;
/** `data` of `POST /evaluate/inline`. */
export type InlineResult = DataOf<'evaluateInline'>;
/** `data` of `GET /governance/policies`. */
export type PolicyCatalog = DataOf<'listPolicies'>;
/** `data` of `GET /organization/rollup`. */
export type Rollup = DataOf<'getOrganizationRollup'>;
/** One violation of a scenario's results. */
export type Violation = ScenarioResults['violations'][number];
/** One failing module (finding) of a violation. */
export type FailingModule = Violation['failing_modules'][number];
/** A finding's evidence: pointer, excerpt and, for a finding about data moving, `path` and `risk` (issue 32). */
export type FindingEvidence = NonNullable<FailingModule['evidence']>;
/** One step of a finding's evidence path, source first, the finding's module (the sink) last. */
export type EvidencePathStep = NonNullable<FindingEvidence['path']>[number];
/** The risk-model row that set a finding's severity. */
export type RiskRow = NonNullable<FindingEvidence['risk']>;
/** Body of `POST /webhooks`. */
export type WebhookCreate = RequestBody<'createWebhook'>;
/** `data` of `GET /webhooks/{id}`. */
export type Webhook = DataOf<'getWebhook'>;
/** Body of `POST /waivers`. */
export type WaiverCreate = RequestBody<'createWaiver'>;
/** `data` of `GET /waivers/{id}`. */
export type Waiver = DataOf<'getWaiver'>;
/** The error envelope of spec §7 (read through `GovernanceApiError`). */
export type ErrorResponse = Schemas['ErrorResponse'];
