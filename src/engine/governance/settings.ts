/**
 * @module engine/governance/settings: an organization's governance settings body (issue 17,
 * "Organization policy settings") and its validation, for the API's `PUT` and the scanner's
 * `--settings`. The JSON Schema is built from the catalog's parameter declarations and compiled once
 * (ajv); semantic checks (known policy codes) follow it.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { PolicyParameter } from '../policies/types.js';
import type { Severity } from '../severity.js';
import { POLICIES } from '../policies/catalog.js';
import { SEVERITIES } from '../severity.js';

/**
 * An organization's settings (stored by the service, read by the engine). Every member is required
 * here; `validateSettings` fills a missing one with its empty value.
 */
export interface GovernanceSettingsBody {
  /** Policy codes (built-in or `ORG-<n>`) that do not run: absent from violations and `evaluated_codes`. */
  readonly disabled_policies: readonly string[];
  /** Severity per policy code replacing the catalog's and every finding's (docs/engine.md "Organization settings"). */
  readonly severity_overrides: Readonly<Record<string, Severity>>;
  /** Values of the parameters the catalog declares, by parameter name (`max_modules`, `allowed_zones`...). */
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** A field-level problem of a settings body: JSON Pointer into the body (`/parameters/max_modules`) and a message. */
export interface SettingsProblem {
  readonly path: string;
  readonly message: string;
}

/** Result of `validateSettings`. */
export type SettingsValidation =
  | { readonly ok: true; readonly settings: GovernanceSettingsBody }
  | { readonly ok: false; readonly detail: SettingsProblem[] };

/** Policy codes: `SEC-3`, `ORG-12`. */
const CODE_PATTERN = '^[A-Z]{2,8}-[0-9]{1,6}$';
/** Most codes a list or override map may name (the catalog and an organization's rules are far fewer). */
const MAX_CODES = 1000;

function parameterSchema(p: PolicyParameter): object {
  return p.type === 'integer'
    ? { type: 'integer', minimum: p.minimum, maximum: p.maximum }
    : {
        type: 'array',
        maxItems: p.maxItems,
        uniqueItems: true,
        items: { type: 'string', minLength: 1, maxLength: p.itemMaxLength, pattern: p.itemPattern },
      };
}

/** The JSON Schema of a settings body, from the catalog's parameter declarations. */
export function settingsSchema(): object {
  const parameters = POLICIES.flatMap((p) => p.parameters ?? []);
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      disabled_policies: {
        type: 'array',
        maxItems: MAX_CODES,
        uniqueItems: true,
        items: { type: 'string', pattern: CODE_PATTERN },
      },
      severity_overrides: {
        type: 'object',
        maxProperties: MAX_CODES,
        propertyNames: { pattern: CODE_PATTERN },
        additionalProperties: { type: 'string', enum: SEVERITIES },
      },
      parameters: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(parameters.map((p) => [p.name, parameterSchema(p)])),
      },
    },
  };
}

let compiled: ValidateFunction | undefined;
/** The compiled schema: once per process, on first use (the evaluation workers never pay for it). */
function validator(): ValidateFunction {
  return (compiled ??= new Ajv({ allErrors: true, strict: true }).compile(settingsSchema()));
}

/** RFC 6901 escaping of one reference token. */
const token = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** ajv errors → problems with the JSON Pointer of the offending member. */
function problems(errors: readonly ErrorObject[]): SettingsProblem[] {
  const out: SettingsProblem[] = [];
  for (const e of errors) {
    if (e.keyword === 'additionalProperties') {
      const name = (e.params as { additionalProperty: string }).additionalProperty;
      const what = e.instancePath === '/parameters' ? 'is not a parameter of any policy' : 'is not allowed';
      out.push({ path: `${e.instancePath}/${token(name)}`, message: what });
    } else if (e.keyword === 'propertyNames') {
      const name = (e.params as { propertyName: string }).propertyName;
      out.push({ path: `${e.instancePath}/${token(name)}`, message: 'is not a policy code' });
    } else if (e.keyword === 'pattern' && e.propertyName !== undefined) {
      continue; // reported once by `propertyNames`
    } else if (e.keyword === 'pattern') {
      const param = /^\/parameters\/([^/]+)\//.exec(e.instancePath)?.[1];
      out.push({ path: e.instancePath, message: param ? `is not a valid ${param} entry` : 'is not a policy code' });
    } else if (e.keyword === 'enum') {
      out.push({ path: e.instancePath, message: `must be one of ${SEVERITIES.join(', ')}` });
    } else {
      out.push({ path: e.instancePath || '/', message: e.message ?? 'is invalid' });
    }
  }
  return out;
}

/**
 * Validates a settings body (issue 17). Refuses members other than `disabled_policies`,
 * `severity_overrides` and `parameters`; a code that is not in `knownCodes` (the caller passes the
 * built-in codes and the organization's `ORG-<n>` codes); a severity outside `critical`, `high`,
 * `medium`, `low`, `info`; a parameter no policy declares; a value outside its declared type and
 * bounds. A missing member defaults to its empty value. Never throws.
 * @returns the body with every member present, or every problem with its JSON Pointer
 *   (`/parameters/max_modules`, `/disabled_policies/0`, `/severity_overrides/SEC-3`).
 * @example validateSettings({ disabled_policies: ['ARC-5'] }, new Set(['ARC-5'])) // { ok: true, settings: {...} }
 */
export function validateSettings(body: unknown, knownCodes: ReadonlySet<string>): SettingsValidation {
  const validate = validator();
  const detail = validate(body) ? [] : problems(validate.errors ?? []);
  // Unknown codes are reported beside the schema's problems, wherever the shape lets them be read.
  const given = (isObject(body) ? body : {}) as Partial<Record<keyof GovernanceSettingsBody, unknown>>;
  const codePattern = new RegExp(CODE_PATTERN);
  const unknown = (code: unknown): code is string =>
    typeof code === 'string' && codePattern.test(code) && !knownCodes.has(code);
  if (Array.isArray(given.disabled_policies))
    given.disabled_policies.forEach((code, i) => {
      if (unknown(code)) detail.push({ path: `/disabled_policies/${i}`, message: `unknown policy code ${code}` });
    });
  if (isObject(given.severity_overrides))
    for (const code of Object.keys(given.severity_overrides))
      if (unknown(code))
        detail.push({ path: `/severity_overrides/${token(code)}`, message: `unknown policy code ${code}` });
  if (detail.length > 0) return { ok: false, detail };
  const valid = body as Partial<GovernanceSettingsBody>;
  return {
    ok: true,
    settings: {
      disabled_policies: valid.disabled_policies ?? [],
      severity_overrides: valid.severity_overrides ?? {},
      parameters: valid.parameters ?? {},
    },
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
