/**
 * @module server/openapi/request-schemas: the documented request bodies of the evaluation endpoints,
 * built from the field schemas the server compiles (api/requests.ts), so the two cannot drift field
 * by field. They differ from the compiled ones in two ways only, both recorded in docs/api.md
 * ("Request schemas: validation and documentation"): a blueprint is `$ref: Blueprint` (the server
 * checks `{ type: object }` and leaves the shape to the engine, whose refusals Blueprint repeats),
 * and `POST /evaluate` is a `oneOf` of its two forms, discriminated by `required` (the server checks
 * "exactly one of" in the route, to answer with its own field error).
 */
import { evaluateRequestSchema, fetchRequestSchema, inlineRequestSchema } from '../../api/requests.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const { scenario_ids: scenarioIds, blueprints, org_id: orgId } = evaluateRequestSchema.properties;

/** The request schemas, spread into `components.schemas` by components.ts. */
export const REQUEST_SCHEMAS = {
  EvaluateRequest: {
    description:
      'Exactly one of `scenario_ids` (stored scenarios) or `blueprints` (ephemeral); a body with both or neither is refused (422).',
    oneOf: [ref('StoredBatchRequest'), ref('EphemeralBatchRequest')],
  },
  StoredBatchRequest: {
    type: 'object',
    description: 'Stored scenarios of the organization: a result token is returned, webhooks are delivered',
    required: ['scenario_ids'],
    properties: {
      scenario_ids: { ...scenarioIds, description: 'Every id must resolve in the organization (else 404)' },
      org_id: { ...orgId, description: "If given, must equal the key's organization (else 403)" },
    },
  },
  EphemeralBatchRequest: {
    type: 'object',
    description: 'Blueprints evaluated without storing them: ids `inline-1..n`, no result token, no webhook',
    required: ['blueprints'],
    properties: {
      blueprints: { ...blueprints, items: ref('Blueprint') },
      org_id: { ...orgId, description: "If given, must equal the key's organization (else 403)" },
    },
  },
  InlineEvaluationRequest: {
    ...inlineRequestSchema,
    properties: {
      ...inlineRequestSchema.properties,
      blueprint: ref('Blueprint'),
      include_remediation: { type: 'boolean', description: 'Add `remediation` by policy code' },
      save_to_workspace: { type: 'boolean', description: 'Store the blueprint as a scenario (`saved.scenario_id`)' },
      scenario_id: {
        ...inlineRequestSchema.properties.scenario_id,
        description: 'Id of the saved copy (with `save_to_workspace`); default `ws-<uuid>`',
      },
    },
  },
  ResultsFetchRequest: fetchRequestSchema,
} satisfies Record<string, unknown>;
