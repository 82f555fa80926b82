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

/** The `meta` of every success envelope: `{ watermark: "wm_<8 hex>" }` (spec §2). */
export type Meta = Schemas['Meta'];

export type SubmitEvaluationBody = RequestBody<'submitEvaluation'>;
export type SubmitResult = Schemas['SubmitResult'];
export type EvaluationStatus = Schemas['EvaluationStatus'];
export type ScenarioResults = Schemas['ScenarioResults'];
export type ResultsFetch = Schemas['ResultsFetch'];
export type FetchedScenario = Schemas['FetchedScenario'];
export type Remediation = Schemas['Remediation'];
export type InlineEvaluationBody = RequestBody<'evaluateInline'>;
export type InlineResult = Schemas['InlineResult'];
export type PolicyCatalog = Schemas['PolicyCatalog'];
export type Rollup = Schemas['Rollup'];
export type Violation = Schemas['Violation'];
export type WebhookCreate = Schemas['WebhookCreate'];
export type Webhook = Schemas['Webhook'];
export type WaiverCreate = Schemas['WaiverCreate'];
export type Waiver = Schemas['Waiver'];
export type ErrorResponse = Schemas['ErrorResponse'];
