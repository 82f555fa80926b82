/**
 * @module server/openapi/examples: the examples of every operation, captured from a real run of the
 * server (ids and timestamps as they came; secrets replaced, long lists shortened, each example says
 * so) by `npm run docs:openapi-examples` (src/cli/gen-openapi-examples.ts) into examples.json, which
 * document.ts merges into the operations. docs/api.md "OpenAPI examples" tells how to regenerate.
 */
import captured from './examples.json' with { type: 'json' };

/** An OpenAPI Example Object. */
export interface Example {
  readonly summary: string;
  /** For an error: the request that got it. */
  readonly description?: string;
  readonly value: unknown;
}

/** Named examples of one media type. */
export type NamedExamples = Readonly<Record<string, Example>>;

/** The examples of one operation: of its request body, and of its responses by status code. */
export interface OperationExamples {
  readonly request?: NamedExamples;
  readonly responses: Readonly<Record<string, NamedExamples>>;
}

/** Examples by operationId (an operation without an entry has none: a test fails on that). */
export const OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = captured;
