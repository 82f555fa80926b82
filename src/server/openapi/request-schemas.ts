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
import { CUSTOM_RULE_SCHEMA } from '../../engine/rules/schema.js';

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

/** `#/definitions/condition` of the published schema → its component. */
const CONDITION_REF = '#/components/schemas/CustomRuleCondition';

/** `value` with every `$ref: '#/definitions/condition'` pointing at CustomRuleCondition instead (a deep copy). */
function rebased(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebased);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === '$ref' && v === '#/definitions/condition' ? CONDITION_REF : rebased(v),
    ]),
  );
}

const { $schema: _draft, definitions, ...ruleBody } = CUSTOM_RULE_SCHEMA;

/** The alternatives of an `if`/`then`/`else` chain: each `then`, and the last `else`. */
function alternatives(chain: Readonly<Record<string, unknown>>): unknown[] {
  const out: unknown[] = [];
  let at = chain;
  while ('if' in at) {
    out.push(at['then']);
    at = at['else'] as Readonly<Record<string, unknown>>;
  }
  return [...out, at];
}

/**
 * The custom rule body: the published draft-07 schema the server compiles (engine/rules/schema.ts,
 * docs/schemas/custom-rule.schema.json) with its one definition moved to `components.schemas`, for
 * generated types: `status` documents its default in words (a JSON Schema `default` makes
 * openapi-typescript mark the member required), and the condition's `if`/`then`/`else` chain
 * (which gives one error per mistake) is a `oneOf` of the same closed, mutually exclusive kinds,
 * which accepts the same objects and gives a union type.
 */
export const CUSTOM_RULE_SCHEMAS = {
  CustomRuleBody: {
    ...(rebased(ruleBody) as Record<string, unknown>),
    properties: {
      ...(rebased(ruleBody.properties) as Record<string, unknown>),
      status: { enum: ruleBody.properties.status.enum, description: 'Default `fail`' },
    },
  },
  CustomRuleCondition: {
    type: 'object',
    description:
      'One condition: `all`, `any`, `not`, `app`, `module`, `has_error_handler`, `followed_by_filter`, `is_trigger`, `value_from`, or `field` with one operator (docs/custom-rules.md)',
    oneOf: alternatives(definitions.condition).map(rebased),
  },
} satisfies Record<string, unknown>;
