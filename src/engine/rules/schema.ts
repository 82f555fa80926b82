/**
 * @module engine/rules/schema: the JSON Schema (draft-07, the draft of the project's ajv setup) of a
 * custom rule body, published as docs/schemas/custom-rule.schema.json (a test keeps the two equal).
 */
import { FRAMEWORKS } from '../frameworks/registry.js';
import { CATEGORY_NAMES } from '../policies/types.js';
import { SEVERITIES } from '../severity.js';
import { RULE_LIMITS as L } from './types.js';

/** Field paths: RFC 6901 JSON Pointer under `/mapper` or `/parameters` (`~0`, `~1` escapes; `*` is a wildcard segment). */
export const FIELD_PATH_PATTERN = '^/(?:mapper|parameters)(?:/(?:[^~/]|~[01])*)*$';
/** Host patterns of `domain_in` / `domain_not_in`: `example.com` or `*.example.com`. */
export const DOMAIN_PATTERN =
  '^(?:\\*\\.)?[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$';

const ref = (name: string) => ({ $ref: `#/definitions/${name}` }) as const;
/** One name, or a list of names: a union type (one error per mistake, where `oneOf` gives three). */
const names = {
  type: ['string', 'array'],
  minLength: 1,
  maxLength: 256,
  minItems: 1,
  maxItems: L.list,
  items: { type: 'string', minLength: 1, maxLength: 256 },
} as const;
const field = { type: 'string', maxLength: L.path, pattern: FIELD_PATH_PATTERN } as const;
const domains = {
  type: 'array',
  minItems: 1,
  maxItems: L.list,
  items: { type: 'string', maxLength: 253, pattern: DOMAIN_PATTERN },
} as const;
const conditions = { type: 'array', minItems: 1, maxItems: L.leaves, items: ref('condition') } as const;

/** An object schema with exactly these members (`required` lists the mandatory ones). */
const only = (properties: Record<string, unknown>, required: readonly string[]) => ({
  type: 'object',
  required,
  properties,
  additionalProperties: false,
});

/**
 * Condition kinds by their distinguishing member, tried in this order; a condition with none of
 * these members is a field condition. Each kind is its own closed object, so an error names the
 * member that is wrong, not every alternative (an `if` / `then` / `else` chain rather than `oneOf`).
 */
const KINDS: readonly (readonly [member: string, schema: Record<string, unknown>])[] = [
  ['all', only({ all: conditions }, ['all'])],
  ['any', only({ any: conditions }, ['any'])],
  ['not', only({ not: ref('condition') }, ['not'])],
  ['app', only({ app: names }, ['app'])],
  ['module', only({ module: names }, ['module'])],
  ['has_error_handler', only({ has_error_handler: { type: 'boolean' } }, ['has_error_handler'])],
  ['followed_by_filter', only({ followed_by_filter: { type: 'boolean' } }, ['followed_by_filter'])],
  ['is_trigger', only({ is_trigger: { type: 'boolean' } }, ['is_trigger'])],
  ['value_from', only({ value_from: { enum: ['untrusted', 'personal'] }, field }, ['value_from'])],
];

/** A field condition: `field` and exactly one operator. */
const fieldCondition = {
  ...only(
    {
      field,
      equals: { type: ['string', 'number', 'boolean'] },
      matches: { type: 'string', minLength: 1, maxLength: L.regex },
      present: { const: true },
      absent: { const: true },
      domain_in: domains,
      domain_not_in: domains,
    },
    ['field'],
  ),
  minProperties: 2,
  maxProperties: 2,
};

const condition = KINDS.reduceRight<Record<string, unknown>>(
  (otherwise, [member, schema]) => ({
    if: { type: 'object', required: [member], properties: { [member]: true } },
    then: schema,
    else: otherwise,
  }),
  fieldCondition,
);

/** The published JSON Schema of a custom rule body (docs/custom-rules.md). */
export const CUSTOM_RULE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Governance Evaluation Service custom rule',
  description:
    "An organization's declarative rule (issue 17). Its code ORG-<n> is assigned by the service; the body has no code member. Limits beyond this schema (nesting, condition count, patterns in RE2 syntax within a program size, body size) are checked by the service and listed in docs/custom-rules.md.",
  type: 'object',
  required: ['title', 'severity', 'category', 'remediation', 'match'],
  additionalProperties: false,
  properties: {
    title: { type: 'string', minLength: 1, maxLength: L.title },
    description: { type: 'string', maxLength: L.description },
    severity: { enum: [...SEVERITIES] },
    category: { enum: Object.keys(CATEGORY_NAMES) },
    status: { enum: ['fail', 'warn'], default: 'fail' },
    compliance_frameworks: {
      type: 'array',
      maxItems: L.frameworks,
      items: {
        type: 'object',
        required: ['framework'],
        additionalProperties: false,
        minProperties: 2,
        maxProperties: 2,
        properties: {
          framework: { enum: Object.values(FRAMEWORKS) },
          control: { type: 'string', minLength: 1, maxLength: 40 },
          article: { type: 'string', minLength: 1, maxLength: 40 },
        },
      },
    },
    remediation: { type: 'string', minLength: 1, maxLength: L.remediation },
    match: ref('condition'),
  },
  definitions: { condition: { type: 'object', ...condition } },
} as const;
