/** @module server/openapi/console-schemas: response schemas of the console's fleet reads (docs/console-api.md, issue 18). */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = { type: 'string' } as const;
const int = { type: 'integer', minimum: 0 } as const;
const nullableInt = { type: ['integer', 'null'], minimum: 0 } as const;
const badge = {
  type: ['string', 'null'],
  enum: ['critical', 'high', 'medium', 'low', 'info', 'clean', 'unknown', null],
  description: 'Worst badge of the latest results; `clean` without violation; null when never evaluated',
} as const;
const bySeverity = {
  type: 'object',
  required: ['critical', 'high', 'medium', 'low', 'info'],
  description: 'Counted violations by severity (null where a result stored before issue 18 does not tell)',
  properties: { critical: nullableInt, high: nullableInt, medium: nullableInt, low: nullableInt, info: nullableInt },
} as const;

/** The console's schemas, merged into `components.schemas`. */
export const CONSOLE_SCHEMAS = {
  ConsoleOverview: {
    type: 'object',
    required: ['rollup', 'badges', 'evaluations_by_day'],
    properties: {
      rollup: ref('Rollup'),
      badges: {
        type: 'object',
        description: 'Scenarios by worst badge; they sum to `rollup.scenarios_total` (`unknown` only when non-zero)',
        required: ['critical', 'high', 'medium', 'low', 'info', 'clean', 'not_evaluated'],
        properties: {
          critical: int,
          high: int,
          medium: int,
          low: int,
          info: int,
          clean: int,
          not_evaluated: int,
          unknown: int,
        },
        additionalProperties: int,
      },
      evaluations_by_day: {
        type: 'array',
        description: 'The last 30 UTC days, oldest first',
        items: {
          type: 'object',
          required: ['day', 'evaluations', 'scenarios'],
          properties: { day: { type: 'string', format: 'date' }, evaluations: int, scenarios: int },
        },
      },
    },
  },
  FleetRow: {
    type: 'object',
    required: ['scenario_id', 'name', 'score', 'badge', 'evaluated_at', 'violations', 'module_count'],
    properties: {
      scenario_id: str,
      name: str,
      score: { type: ['number', 'null'] },
      badge,
      evaluated_at: { type: ['string', 'null'], format: 'date-time' },
      violations: bySeverity,
      module_count: int,
    },
  },
  ScenarioList: {
    type: 'object',
    required: ['scenarios', 'total', 'next_cursor'],
    properties: {
      scenarios: { type: 'array', items: ref('FleetRow') },
      total: { ...int, description: 'Matches of the query over all pages' },
      total_exact: {
        const: false,
        description: 'Present when a `q` search stopped at its scan bound: `total` is a lower bound',
      },
      next_cursor: { type: ['string', 'null'] },
    },
  },
  ScenarioPage: {
    type: 'object',
    required: ['scenario', 'results', 'remediation', 'history', 'svg'],
    properties: {
      scenario: {
        type: 'object',
        required: ['scenario_id', 'name', 'version', 'imported_at', 'module_count'],
        properties: { scenario_id: str, name: str, version: int, imported_at: str, module_count: int },
      },
      results: ref('ScenarioResults'),
      remediation: { type: 'object', additionalProperties: { oneOf: [ref('Remediation'), { type: 'null' }] } },
      history: {
        type: 'array',
        description: 'Newest first, at most 50',
        items: {
          type: 'object',
          required: ['evaluation_id', 'evaluated_at', 'score', 'violations'],
          properties: { evaluation_id: str, evaluated_at: str, score: { type: 'number' }, violations: bySeverity },
        },
      },
      svg: { type: ['string', 'null'], description: 'The scenario drawn, failing modules marked' },
    },
  },
  AuditList: {
    type: 'object',
    required: ['entries', 'next_cursor'],
    properties: {
      entries: {
        type: 'array',
        description: 'Newest first',
        items: {
          type: 'object',
          required: ['at', 'actor', 'action', 'target', 'detail'],
          properties: {
            at: str,
            actor: { type: 'string', description: '`user:<id>`, `key:<id>` or `system`' },
            action: { type: 'string', description: 'e.g. `session.sign_in`, `key.revoke`, `waiver.create`' },
            target: { type: ['string', 'null'] },
            detail: { type: ['string', 'null'] },
          },
        },
      },
      next_cursor: { type: ['string', 'null'] },
    },
  },
  ConsoleUser: {
    type: 'object',
    required: ['user_id', 'org_id', 'email', 'role', 'created_at'],
    properties: {
      user_id: str,
      org_id: str,
      email: str,
      role: { type: 'string', enum: ['owner', 'admin', 'member'] },
      created_at: str,
      password: { type: 'string', description: 'Only in the creation response, when generated (shown once)' },
    },
  },
  ConsoleUserList: {
    type: 'object',
    required: ['users'],
    properties: { users: { type: 'array', items: ref('ConsoleUser') } },
  },
  ConsoleUserCreate: {
    type: 'object',
    required: ['email', 'role'],
    additionalProperties: false,
    properties: {
      email: { type: 'string', maxLength: 254 },
      role: { type: 'string', enum: ['owner', 'admin', 'member'] },
      password: { type: 'string', minLength: 12, maxLength: 1024, description: 'Generated when absent' },
    },
  },
} as const;
