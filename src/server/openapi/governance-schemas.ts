/**
 * @module server/openapi/governance-schemas: the schemas of the governance controls (issue 17):
 * waivers, organization settings, custom rules and the effective catalog (JSON Schema 2020-12).
 * `components.ts` spreads them into `components.schemas`.
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = { type: 'string' } as const;
const nullableStr = { type: ['string', 'null'] } as const;
const int = { type: 'integer', minimum: 0 } as const;
/** A policy parameter's value: the catalog's parameter types are `integer` and `string-list`. */
const PARAMETER_VALUE = { oneOf: [{ type: 'integer' }, { type: 'array', items: { type: 'string' } }] } as const;
const code = { type: 'string', pattern: '^(?:[A-Z]{2,5}-\\d{1,4}|ORG-\\d{1,6})$' } as const;

/** The governance schemas. */
export const GOVERNANCE_SCHEMAS = {
  WaiverCreate: {
    type: 'object',
    required: ['scenario_id', 'policy', 'reason', 'expires_at'],
    additionalProperties: false,
    properties: {
      scenario_id: { type: 'string', maxLength: 128 },
      policy: code,
      fingerprint: { type: 'string', maxLength: 128, description: 'One finding (or the violation) to waive' },
      module_id: { type: 'string', maxLength: 64, description: "The policy's findings on this module" },
      reason: { type: 'string', minLength: 1, maxLength: 1000 },
      approver: { type: 'string', maxLength: 200, description: 'Free text' },
      expires_at: { type: 'string', format: 'date-time', description: 'In the future, at most one year ahead' },
    },
  },
  WaiverAuditEntry: {
    type: 'object',
    required: ['at', 'actor', 'action', 'detail'],
    properties: {
      at: str,
      actor: { type: 'string', description: '`key:<key_id>`, `user:<user_id>` or `system`' },
      action: { type: 'string', enum: ['created', 'revoked', 'expiring_notified', 'expired'] },
      detail: nullableStr,
    },
  },
  Waiver: {
    type: 'object',
    required: ['waiver_id', 'scenario_id', 'policy', 'reason', 'expires_at', 'status', 'created_at', 'created_by'],
    properties: {
      waiver_id: str,
      scenario_id: str,
      policy: str,
      fingerprint: nullableStr,
      module_id: nullableStr,
      reason: str,
      approver: nullableStr,
      expires_at: str,
      status: { type: 'string', enum: ['active', 'expired', 'revoked'] },
      created_at: str,
      created_by: str,
      revoked_at: nullableStr,
      audit: { type: 'array', items: ref('WaiverAuditEntry'), description: 'GET /waivers/{id} and changes only' },
      reevaluation_id: {
        type: ['string', 'null'],
        description: 'The evaluation the change started (POST, DELETE); null when nothing changes',
      },
    },
  },
  WaiverList: {
    type: 'object',
    required: ['waivers', 'next_after'],
    properties: {
      waivers: { type: 'array', items: ref('Waiver') },
      next_after: { type: ['string', 'null'], description: 'Pass as `after` for the next page' },
    },
  },
  GovernanceSettingsBody: {
    type: 'object',
    additionalProperties: false,
    properties: {
      disabled_policies: { type: 'array', items: code, uniqueItems: true },
      severity_overrides: { type: 'object', additionalProperties: ref('Severity') },
      parameters: {
        type: 'object',
        description:
          'Values of the parameters the catalog declares, by name (GET /governance/policies `parameters`: `integer` or `string-list`)',
        additionalProperties: PARAMETER_VALUE,
      },
    },
  },
  GovernanceSettings: {
    type: 'object',
    required: ['version', 'disabled_policies', 'severity_overrides', 'parameters'],
    properties: {
      version: { ...int, description: '0 = the defaults, never changed' },
      disabled_policies: { type: 'array', items: str },
      severity_overrides: { type: 'object', additionalProperties: ref('Severity') },
      parameters: { type: 'object', additionalProperties: PARAMETER_VALUE },
      updated_at: nullableStr,
      updated_by: nullableStr,
    },
  },
  CustomRule: {
    type: 'object',
    required: ['code', 'title', 'severity', 'match', 'created_at'],
    description: 'The rule body (docs/schemas/custom-rule.schema.json) with its code and creation metadata',
    properties: {
      code: { type: 'string', pattern: '^ORG-\\d+$' },
      title: str,
      description: str,
      severity: ref('Severity'),
      category: str,
      status: { type: 'string', enum: ['fail', 'warn'] },
      remediation: str,
      compliance_frameworks: { type: 'array', items: ref('FrameworkRef') },
      match: ref('CustomRuleCondition'),
      revision: int,
      created_at: str,
      created_by: str,
      deleted_at: nullableStr,
    },
  },
  CustomRuleList: {
    type: 'object',
    required: ['revision', 'rules'],
    properties: { revision: int, rules: { type: 'array', items: ref('CustomRule') } },
  },
  GovernancePin: {
    type: 'object',
    required: ['settings_version', 'rules_revision', 'catalog_revision'],
    description: 'The settings version, custom-rules revision and catalog revision an evaluation used',
    properties: { settings_version: int, rules_revision: int, catalog_revision: str },
  },
} satisfies Record<string, unknown>;
