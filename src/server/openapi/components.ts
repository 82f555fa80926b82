/** @module server/openapi/components: response schemas and headers of the public API (JSON Schema 2020-12, as OpenAPI 3.1 uses). */

import { GOVERNANCE_SCHEMAS } from './governance-schemas.js';
import { CONSOLE_SCHEMAS } from './console-schemas.js';
import { BLUEPRINT_SCHEMAS } from './blueprint-schemas.js';
import { CUSTOM_RULE_SCHEMAS, REQUEST_SCHEMAS } from './request-schemas.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = { type: 'string' } as const;
const int = { type: 'integer', minimum: 0 } as const;
const strings = { type: 'array', items: str } as const;

/** Every named schema of `components.schemas`. */
export const SCHEMAS = {
  ...GOVERNANCE_SCHEMAS,
  ...CONSOLE_SCHEMAS,
  ...BLUEPRINT_SCHEMAS,
  ...REQUEST_SCHEMAS,
  ...CUSTOM_RULE_SCHEMAS,
  Severity: {
    type: 'string',
    enum: ['critical', 'high', 'medium', 'low', 'info'],
    description: 'critical > high > medium > low > info; `medium` is the fallback',
  },
  EvaluationStatusValue: { type: 'string', enum: ['pending', 'processing', 'complete', 'error'] },
  Watermark: {
    type: 'string',
    pattern: '^wm_[0-9a-f]{8}$',
    description: 'Opaque leak-tracing mark; clients may ignore it',
  },
  Meta: { type: 'object', required: ['watermark'], properties: { watermark: ref('Watermark') } },
  FieldError: {
    type: 'object',
    required: ['path', 'message'],
    properties: { path: { type: 'string', description: 'JSON Pointer into the request body' }, message: str },
  },
  ErrorResponse: {
    type: 'object',
    required: ['ok', 'error'],
    properties: {
      ok: { const: false },
      error: { type: 'string', description: 'Short stable string; treat as an open set' },
      detail: {
        oneOf: [str, { type: 'array', items: ref('FieldError') }],
        description: 'String, or for 422 the field errors',
      },
      message: { type: 'string', description: 'Legacy alias of a string `detail`' },
      request_id: { type: 'string', description: 'Present on 500 responses; also in the server log' },
    },
  },
  FrameworkRef: {
    type: 'object',
    required: ['framework'],
    properties: { framework: str, control: str, article: str },
    oneOf: [{ required: ['control'] }, { required: ['article'] }],
  },
  Evidence: {
    type: 'object',
    required: ['pointer'],
    properties: {
      pointer: { type: 'string', description: 'RFC 6901 JSON Pointer into the blueprint' },
      value: { type: 'string', description: 'Excerpt; secrets redacted' },
    },
  },
  FindingEvidence: {
    type: 'object',
    required: ['pointer'],
    description:
      "A finding's evidence: where it is in the blueprint and, for a finding about data moving (issue 32), the path the data takes from its source to this module and the risk-model row that set the severity",
    properties: {
      pointer: { type: 'string', description: 'RFC 6901 JSON Pointer into the blueprint' },
      value: { type: 'string', description: 'Excerpt; secrets redacted' },
      locations: {
        type: 'array',
        minItems: 2,
        items: {
          type: 'object',
          required: ['module_id', 'pointer'],
          properties: { module_id: str, pointer: { type: 'string', description: 'RFC 6901 JSON Pointer' } },
        },
        description:
          'Every place of the one thing the finding reports, `pointer` first, when it is in more than one (a literal secret copied into several modules is one finding)',
      },
      path: {
        type: 'array',
        minItems: 1,
        items: ref('EvidencePathStep'),
        description:
          'The modules the data passes through, in data-flow order: the source first, this module (the sink) last; present when the policy reports a flow',
      },
      risk: ref('RiskRow'),
    },
  },
  EvidencePathStep: {
    type: 'object',
    required: ['module_id', 'module_name', 'role', 'note'],
    properties: {
      module_id: str,
      module_name: str,
      role: { type: 'string', enum: ['source', 'step', 'sink'] },
      note: {
        type: 'string',
        description: 'What happens to the data there, one line of Markdown (``maps `{{1.email}}` ``)',
      },
    },
  },
  RiskRow: {
    type: 'object',
    required: ['row', 'title', 'severity'],
    description:
      "The risk-model row (docs/engine.md, Risk model) that set the finding's severity, with the dimension values the policy observed. The finding's own `severity` may be lower: capped on a route that cannot run, or set by the organization",
    properties: {
      row: { type: 'string', description: 'Stable row id, e.g. `R7`' },
      title: { type: 'string', description: 'The row as stated in docs/engine.md' },
      severity: ref('Severity'),
      audience: { type: 'string', enum: ['owner', 'sender', 'third-party', 'public'] },
      trust: {
        type: 'string',
        enum: ['public-webhook', 'inbound-message', 'fetched-page', 'ai-output', 'internal-record', 'constant'],
      },
      sensitivity: { type: 'string', enum: ['special-category', 'personal', 'credential', 'none'] },
      impact: { type: 'string', enum: ['read', 'write-own', 'send', 'spend', 'change-access', 'delete'] },
    },
  },
  FailingModule: {
    type: 'object',
    required: ['module_id', 'module_name', 'module_type', 'reason', 'badge'],
    properties: {
      module_id: str,
      module_name: str,
      module_type: str,
      reason: str,
      badge: ref('Severity'),
      severity: ref('Severity'),
      evidence: ref('FindingEvidence'),
      fingerprint: str,
      waived: ref('WaiverMark'),
    },
  },
  WaiverMark: {
    type: 'object',
    required: ['waiver_id', 'expires_at'],
    description: 'Present on a waived violation or finding (issue 17): it counts in no score, badge or total',
    properties: { waiver_id: str, expires_at: str },
  },
  Violation: {
    type: 'object',
    required: ['policy', 'status', 'severity', 'title', 'description', 'failing_modules'],
    properties: {
      policy: str,
      status: { type: 'string', enum: ['fail', 'warn'] },
      severity: ref('Severity'),
      title: str,
      description: str,
      remediation_available: { type: 'boolean' },
      failing_modules: { type: 'array', items: ref('FailingModule') },
      source: str,
      summary: str,
      compliance_frameworks: { type: 'array', items: ref('FrameworkRef') },
      category: str,
      evidence: ref('Evidence'),
      fingerprint: str,
      waived: ref('WaiverMark'),
    },
  },
  ModuleViolation: {
    type: 'object',
    required: ['module_id', 'module_name', 'module_type', 'badge', 'violation_count', 'policies'],
    properties: {
      module_id: str,
      module_name: str,
      module_type: str,
      badge: ref('Severity'),
      violation_count: int,
      policies: strings,
    },
  },
  ScenarioSummary: {
    type: 'object',
    required: ['id', 'name', 'score', 'violations', 'critical', 'compliance_gaps', 'module_violations'],
    properties: {
      id: str,
      name: str,
      score: { type: 'integer', minimum: 0, maximum: 100 },
      violations: int,
      critical: int,
      compliance_gaps: strings,
      module_violations: { type: 'array', items: ref('ModuleViolation') },
      error: { type: 'string', description: 'Present when this scenario failed alone' },
    },
  },
  SubmitResult: {
    type: 'object',
    required: ['evaluation_id', 'status', 'total_scenarios'],
    properties: {
      evaluation_id: { type: 'string', format: 'uuid' },
      status: ref('EvaluationStatusValue'),
      total_scenarios: { type: 'integer', minimum: 1, maximum: 10 },
      result_token: { type: 'string', description: 'Single-use JWT (HS256), valid 900 s; stored batches only' },
    },
  },
  EvaluationStatus: {
    type: 'object',
    required: ['evaluation_id', 'status', 'total_scenarios', 'completed'],
    properties: {
      evaluation_id: str,
      status: ref('EvaluationStatusValue'),
      total_scenarios: int,
      completed: int,
      created_at: str,
      completed_at: { type: ['string', 'null'] },
      scenarios: { type: 'array', items: ref('ScenarioSummary') },
      error: { type: ['string', 'null'] },
      governance: ref('GovernancePin'),
      trigger: {
        type: 'string',
        enum: ['api', 'waiver'],
        description: '`waiver`: the service re-evaluated after a waiver change or expiry',
      },
    },
  },
  ScenarioResults: {
    type: 'object',
    required: [
      'scenario_id',
      'scenario_name',
      'violations',
      'module_summary',
      'evaluated_codes',
      'passing_count',
      'failing_count',
      'evaluation_status',
    ],
    properties: {
      scenario_id: str,
      scenario_name: str,
      name: str,
      evaluation_status: { type: 'string', enum: ['evaluated', 'not_evaluated'] },
      violations: { type: 'array', items: ref('Violation') },
      module_summary: { type: 'array', items: ref('ModuleViolation') },
      evaluated_codes: strings,
      passing_count: int,
      failing_count: int,
      score: { type: 'integer', minimum: 0, maximum: 100 },
      compliance_gaps: strings,
      waived_count: { ...int, description: 'Violations waived as a whole (issue 17)' },
      waivers_valid_until: {
        type: ['string', 'null'],
        description: 'When the first waiver applied lapses (the service re-evaluates then)',
      },
      governance: ref('GovernancePin'),
      evaluation_id: { type: ['string', 'null'] },
      evaluated_at: str,
    },
  },
  FetchedScenario: {
    type: 'object',
    required: [
      'scenario_id',
      'name',
      'violations',
      'module_summary',
      'evaluated_codes',
      'passing_count',
      'failing_count',
    ],
    description: 'The fields of ScenarioResults under `name`, or `error` when this scenario failed alone',
    properties: {
      scenario_id: str,
      name: str,
      scenario_name: str,
      evaluation_status: { type: 'string', enum: ['evaluated', 'not_evaluated'] },
      violations: { type: 'array', items: ref('Violation') },
      module_summary: { type: 'array', items: ref('ModuleViolation') },
      evaluated_codes: strings,
      passing_count: int,
      failing_count: int,
      score: { type: 'integer', minimum: 0, maximum: 100 },
      compliance_gaps: strings,
      waived_count: int,
      waivers_valid_until: { type: ['string', 'null'] },
      governance: ref('GovernancePin'),
      evaluation_id: { type: ['string', 'null'] },
      evaluated_at: str,
      error: str,
    },
  },
  ResultsFetch: {
    oneOf: [
      {
        type: 'object',
        required: ['status', 'message'],
        properties: { evaluation_id: str, status: { const: 'processing' }, message: str },
      },
      {
        type: 'object',
        required: ['status', 'message'],
        properties: {
          evaluation_id: str,
          status: { const: 'error' },
          error: { type: ['string', 'null'] },
          message: str,
        },
      },
      {
        type: 'object',
        required: ['status', 'scenarios'],
        properties: {
          evaluation_id: str,
          status: { const: 'complete' },
          scenarios: { type: 'array', items: ref('FetchedScenario') },
        },
      },
    ],
  },
  Remediation: {
    type: 'object',
    required: ['steps', 'severity', 'estimated_effort', 'compliance_frameworks'],
    properties: {
      policy: str,
      steps: { type: 'array', items: str, description: 'Ordered; may contain Markdown emphasis' },
      severity: ref('Severity'),
      estimated_effort: { type: 'string', enum: ['low', 'medium', 'high'] },
      compliance_frameworks: { type: 'array', items: ref('FrameworkRef') },
    },
  },
  GraphNode: {
    type: 'object',
    required: ['module_id', 'module_name', 'module_type', 'app', 'position', 'badge', 'violation_count', 'policies'],
    properties: {
      module_id: str,
      module_name: str,
      module_type: str,
      app: str,
      position: {
        oneOf: [
          { type: 'null' },
          { type: 'object', required: ['x', 'y'], properties: { x: { type: 'number' }, y: { type: 'number' } } },
        ],
      },
      badge: { oneOf: [{ type: 'null' }, ref('Severity')] },
      violation_count: int,
      policies: strings,
    },
  },
  GraphEdge: {
    type: 'object',
    required: ['from', 'to', 'kind'],
    properties: {
      from: str,
      to: str,
      kind: {
        type: 'string',
        enum: ['next', 'route', 'error', 'branch', 'merge', 'tool'],
        description:
          '`next`: neighbours in one flow; `route`: router to a route; `error`: module to its error handler; `branch`: if/else to a branch; `merge`: end of a branch to the Merge module; `tool`: AI agent to a tool',
      },
      route_index: {
        ...int,
        description: 'Index of the route, branch or tool (`route`, `branch`, `merge`, `tool` edges)',
      },
      filter: { ...str, description: "The route's filter name (`route`), the branch's label (`branch`)" },
    },
  },
  InlineResult: {
    type: 'object',
    required: ['scenario', 'violations', 'module_graph', 'evaluated_codes', 'passing_count', 'failing_count'],
    properties: {
      scenario: {
        type: 'object',
        required: ['name', 'score', 'evaluation_status'],
        properties: {
          name: str,
          score: { type: 'integer', minimum: 0, maximum: 100 },
          evaluation_status: { const: 'evaluated' },
        },
      },
      violations: { type: 'array', items: ref('Violation') },
      module_graph: {
        type: 'object',
        required: ['nodes', 'edges'],
        properties: {
          nodes: { type: 'array', items: ref('GraphNode') },
          edges: { type: 'array', items: ref('GraphEdge') },
        },
      },
      evaluated_codes: strings,
      passing_count: int,
      failing_count: int,
      compliance_gaps: strings,
      remediation: {
        type: 'object',
        additionalProperties: { oneOf: [{ type: 'null' }, ref('Remediation')] },
        description: 'By policy code; only with include_remediation',
      },
      saved: { type: 'object', required: ['scenario_id'], properties: { scenario_id: str } },
      governance: ref('GovernancePin'),
    },
  },
  PolicyEntry: {
    type: 'object',
    required: ['code', 'title', 'category', 'severity', 'compliance_frameworks'],
    properties: {
      code: str,
      title: str,
      category: str,
      severity: ref('Severity'),
      compliance_frameworks: { type: 'array', items: ref('FrameworkRef') },
      category_name: str,
      description: str,
      rationale: str,
      remediation_effort: str,
      docs: { type: ['string', 'null'], description: 'Documentation page; null for a custom rule' },
      effective_severity: {
        ...ref('Severity'),
        description: "The organization's override, else `severity` (issue 17)",
      },
      enabled: { type: 'boolean', description: 'False when the organization disabled it' },
      source: { type: 'string', enum: ['builtin', 'custom'] },
      parameters: {
        type: 'array',
        description: 'Parameters the policy declares, with the value in force and the default',
        items: {
          type: 'object',
          required: ['name', 'type', 'description', 'value', 'default'],
          properties: {
            name: str,
            type: { type: 'string', enum: ['integer', 'string-list'] },
            description: str,
            value: { oneOf: [{ type: 'integer' }, { type: 'array', items: str }] },
            default: { oneOf: [{ type: 'integer' }, { type: 'array', items: str }] },
            minimum: { type: 'integer' },
            maximum: { type: 'integer' },
            max_items: int,
            item_pattern: str,
            item_max_length: int,
          },
        },
      },
    },
  },
  PolicyCatalog: {
    type: 'object',
    required: ['policies'],
    properties: {
      revision: str,
      settings_version: { ...int, description: 'Present for an organization with settings or custom rules' },
      rules_revision: int,
      policies: { type: 'array', items: ref('PolicyEntry') },
    },
  },
  Rollup: {
    type: 'object',
    required: [
      'score',
      'scenarios_total',
      'scenarios_evaluated',
      'violations_total',
      'critical_total',
      'top_violations',
      'framework_coverage',
      'updated_at',
    ],
    properties: {
      score: { type: ['number', 'null'], description: 'Mean score over evaluated scenarios; null when none' },
      scenarios_total: int,
      scenarios_evaluated: int,
      violations_total: int,
      critical_total: int,
      top_violations: {
        type: 'array',
        items: {
          type: 'object',
          required: ['policy', 'title', 'severity', 'count', 'scenarios'],
          properties: { policy: str, title: str, severity: ref('Severity'), count: int, scenarios: int },
        },
      },
      framework_coverage: {
        type: 'array',
        items: {
          type: 'object',
          required: ['framework', 'controls_total', 'controls_met', 'coverage'],
          properties: {
            framework: str,
            controls_total: int,
            controls_met: int,
            coverage: { type: 'number', minimum: 0, maximum: 1 },
          },
        },
      },
      waived_total: { ...int, description: 'Waived findings (issue 17), counted in none of the totals above' },
      waived: {
        type: 'array',
        items: {
          type: 'object',
          required: ['policy', 'scenarios'],
          properties: { policy: str, scenarios: { ...int, description: 'Scenarios with a waived finding of it' } },
        },
      },
      updated_at: str,
    },
  },
  WebhookCreate: {
    type: 'object',
    required: ['url'],
    properties: {
      url: { type: 'string', maxLength: 2048 },
      events: { type: 'array', items: { enum: ['evaluation.complete', 'waiver.expiring'] }, minItems: 1 },
      description: { type: 'string', maxLength: 500 },
    },
  },
  Webhook: {
    type: 'object',
    required: ['webhook_id', 'url', 'events', 'status', 'created_at'],
    properties: {
      webhook_id: str,
      url: str,
      events: strings,
      description: { type: ['string', 'null'] },
      status: { type: 'string', enum: ['active', 'disabled'] },
      disabled_reason: { type: ['string', 'null'] },
      created_at: str,
      secret: { type: 'string', pattern: '^whsec_', description: 'Only in the registration response' },
    },
  },
  WebhookList: {
    type: 'object',
    required: ['webhooks'],
    properties: { webhooks: { type: 'array', items: ref('Webhook') } },
  },
  WebhookDeleted: {
    type: 'object',
    required: ['webhook_id', 'deleted'],
    properties: { webhook_id: str, deleted: { const: true } },
  },
  Delivery: {
    type: 'object',
    required: ['delivery_id', 'event_type', 'status', 'attempts'],
    properties: {
      delivery_id: str,
      event_type: str,
      evaluation_id: str,
      status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
      attempts: {
        type: 'array',
        items: {
          type: 'object',
          required: ['at', 'status_code', 'error', 'duration_ms'],
          properties: {
            at: str,
            status_code: { type: ['integer', 'null'] },
            error: { type: ['string', 'null'] },
            duration_ms: int,
          },
        },
      },
      next_attempt_at: { type: ['string', 'null'] },
      created_at: str,
    },
  },
  DeliveryList: {
    type: 'object',
    required: ['deliveries'],
    properties: { deliveries: { type: 'array', items: ref('Delivery') } },
  },
  Redelivery: {
    type: 'object',
    required: ['delivery_id', 'status'],
    properties: { delivery_id: str, status: { const: 'pending' } },
  },
} satisfies Record<string, unknown>;

/** A name of `components.schemas` (a typo is a compile error, not a dangling `$ref`). */
export type SchemaName = keyof typeof SCHEMAS;

/** A JSON Schema (2020-12) object, as request bodies and `components.schemas` hold them. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** `{ $ref: '#/components/schemas/<name>' }`. */
export const schemaRef = (name: SchemaName): JsonSchema => ref(name);

/** Every named header of `components.headers`. */
export const HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per clock minute', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': {
    description: 'Smaller of the remaining minute and hour budgets',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': { description: 'Unix seconds when the minute window resets', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
  'Cache-Control': { description: '`max-age=86400`', schema: { type: 'string' } },
  ETag: { description: 'Catalog revision', schema: { type: 'string' } },
  'Idempotent-Replayed': {
    description:
      '`true` when this is the stored response of an earlier request with the same `Idempotency-Key`, replayed byte for byte (docs/api.md "Idempotency keys")',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

/** The optional `Idempotency-Key` request header of every public POST (issue 19; draft-ietf-httpapi-idempotency-key-header). */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first response for this key and request (method, path with query, body) is stored for 24 h per API key and replayed with `Idempotent-Replayed: true`; re-sign each retry. 1 to 255 printable ASCII characters (docs/api.md "Idempotency keys")',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
} as const;

/**
 * The optional tracing request headers of every operation (issue 19; docs/api.md "Request ids and
 * trace context"): a valid `X-Request-Id` is kept as the request's id (response header, error bodies,
 * logs), an invalid one replaced; a valid W3C `traceparent` puts the trace in the logs and in the
 * webhook deliveries of an evaluation it submits.
 */
export const TRACING_PARAMETERS = [
  {
    name: 'X-Request-Id',
    in: 'header',
    required: false,
    description:
      "The caller's request id, kept and echoed in the `X-Request-Id` response header, in `request_id` of error bodies and in the service's logs when it is 1 to 128 characters of `A-Z a-z 0-9 . _ : -`; otherwise the service uses its own id (never a 400)",
    schema: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' },
  },
  {
    name: 'traceparent',
    in: 'header',
    required: false,
    description:
      'W3C Trace Context: the trace id goes into the log lines of this request (`trace_id`, `span_id`) and, for a submitted evaluation, into its webhook deliveries as a child `traceparent`; an invalid value is ignored',
    schema: { type: 'string', pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}' },
  },
] as const;

/** A name of `components.headers`. */
export type HeaderName = keyof typeof HEADERS;

/** `{ ok: true, data: <schema>, meta }`. */
export function envelope(dataSchema: SchemaName): JsonSchema {
  return {
    type: 'object',
    required: ['ok', 'data', 'meta'],
    properties: { ok: { const: true }, data: ref(dataSchema), meta: ref('Meta') },
  };
}

/** The document's tags, in its order; every operation names at least one. */
export const TAGS = [
  { name: 'evaluations', description: 'Batches, status, results, remediation, result tokens' },
  { name: 'catalog', description: 'Policy catalog and organization rollup' },
  { name: 'webhooks', description: 'evaluation.complete and waiver.expiring delivery (Standard Webhooks)' },
  { name: 'governance', description: 'Waivers, organization policy settings and custom rules' },
  { name: 'meta', description: 'This document' },
  {
    name: 'console',
    description:
      "The web console's session-authenticated API under /api/v1 (docs/console-api.md): not public API; a session token, not an API key, and no request signature",
  },
] as const;

/** A tag name of TAGS. */
export type TagName = (typeof TAGS)[number]['name'];
