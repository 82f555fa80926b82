/**
 * @module engine/rules/validate: checks a submitted custom rule body (issue 17): size, the published
 * JSON Schema (ajv, compiled once per process), then what a schema cannot say: nesting, condition
 * count, field paths, and patterns that the linear-time engine must compile (`linear-pattern.ts`).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { ARTICLE_FRAMEWORKS } from '../frameworks/registry.js';
import { pointerToken } from '../errors.js';
import { parseFieldPath } from './field-path.js';
import { compilePattern } from './linear-pattern.js';
import { CUSTOM_RULE_SCHEMA } from './schema.js';
import { RULE_LIMITS as L, type Condition, type CustomRule } from './types.js';

/** One problem of a body: the JSON Pointer of the member and what is wrong with it. */
export interface RuleIssue {
  readonly path: string;
  readonly message: string;
}

/** The outcome of `validateRule`. */
export type RuleValidation =
  { readonly ok: true; readonly rule: CustomRule } | { readonly ok: false; readonly detail: readonly RuleIssue[] };

/** JSON nesting refused before the schema runs (ajv recurses on `$ref`): far above what 4 combinator levels need. */
const MAX_JSON_DEPTH = 32;

let compiled: ValidateFunction | null = null;
/** The schema validator, compiled on first use and kept for the process (never per request). */
function validator(): ValidateFunction {
  compiled ??= new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(CUSTOM_RULE_SCHEMA);
  return compiled;
}

/**
 * Validates a custom rule body as submitted (`code` excluded: the service assigns `ORG-<n>`).
 * Never throws. Issues carry the JSON Pointer of the member at fault (`/match/all/0/matches`), `/`
 * for the whole body.
 * @example validateRule({ title: 'x', severity: 'low', category: 'OPS', remediation: 'y', match: { app: 'http' } })
 */
export function validateRule(body: unknown): RuleValidation {
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch {
    text = undefined;
  }
  if (text === undefined) return fail('/', 'is not a JSON value');
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > L.bodyBytes) return fail('/', `is ${bytes} bytes; a rule is at most ${L.bodyBytes} bytes`);
  const deep = deeperThan(body, MAX_JSON_DEPTH);
  if (deep !== null) return fail(deep, `nests deeper than ${MAX_JSON_DEPTH} levels`);
  const validate = validator();
  if (!validate(body)) return { ok: false, detail: schemaIssues(validate.errors) };
  const rule = body as CustomRule;
  const issues: RuleIssue[] = [];
  (rule.compliance_frameworks ?? []).forEach((r, i) => {
    const article = ARTICLE_FRAMEWORKS.has(r.framework);
    if (article !== 'article' in r)
      issues.push({
        path: `/compliance_frameworks/${i}`,
        message: `${r.framework} is cited by ${article ? '`article`' : '`control`'}`,
      });
  });
  let leaves = 0;
  walk(rule.match, '/match', 0, (c, path, depth) => {
    if (isCombinator(c)) {
      if (depth > L.depth) issues.push({ path, message: `nests all/any/not more than ${L.depth} levels deep` });
      return;
    }
    leaves++;
    if ('field' in c && c.field !== undefined) {
      const parsed = parseFieldPath(c.field);
      if (typeof parsed === 'string') issues.push({ path: `${path}/field`, message: parsed });
    }
    if ('matches' in c) {
      const compiled = compilePattern(c.matches);
      if (!compiled.ok) issues.push({ path: `${path}/matches`, message: compiled.message });
    }
  });
  if (leaves > L.leaves) issues.push({ path: '/match', message: `has ${leaves} conditions; at most ${L.leaves}` });
  return issues.length > 0 ? { ok: false, detail: issues } : { ok: true, rule };
}

const isCombinator = (c: Condition) => 'all' in c || 'any' in c || 'not' in c;

/** Visits every condition with its pointer and its combinator depth (1 for `match` itself). */
function walk(c: Condition, path: string, depth: number, visit: (c: Condition, path: string, depth: number) => void) {
  const level = isCombinator(c) ? depth + 1 : depth;
  visit(c, path, level);
  if ('all' in c) c.all.forEach((x, i) => walk(x, `${path}/all/${i}`, level, visit));
  else if ('any' in c) c.any.forEach((x, i) => walk(x, `${path}/any/${i}`, level, visit));
  else if ('not' in c) walk(c.not, `${path}/not`, level, visit);
}

/** The pointer of the first place nesting deeper than `max` levels, or `null` (iterative: any input is safe). */
function deeperThan(value: unknown, max: number): string | null {
  const stack: [unknown, string, number][] = [[value, '', 0]];
  while (stack.length > 0) {
    const [v, path, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return path || '/';
    for (const [k, child] of Object.entries(v as Record<string, unknown>))
      stack.push([child, `${path}/${pointerToken(k)}`, depth + 1]);
  }
  return null;
}

/**
 * ajv errors → issues: the `if` bookkeeping of the condition chain dropped, a missing or unknown
 * member named in the path, enum values listed, duplicates removed.
 */
function schemaIssues(errors: readonly ErrorObject[] | null | undefined): RuleIssue[] {
  const out = new Map<string, RuleIssue>();
  for (const e of errors ?? []) {
    let path = e.instancePath || '/';
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'if') continue;
    if (e.keyword === 'required') {
      path = `${e.instancePath}/${pointerToken((e.params as { missingProperty: string }).missingProperty)}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      const member = (e.params as { additionalProperty: string }).additionalProperty;
      path = `${e.instancePath}/${pointerToken(member)}`;
      message =
        e.instancePath === '' && member === 'code'
          ? 'is assigned by the service (ORG-<n>) and may not be part of the rule body'
          : 'is not a known member here';
    } else if (e.keyword === 'enum') {
      message = `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    } else if (e.keyword === 'pattern' && /\/field$/.test(path)) {
      message = 'must be a JSON Pointer under /mapper or /parameters (`/mapper/url`)';
    } else if (e.keyword === 'pattern') {
      message = 'must be a host name or *.host name (`api.example.com`, `*.example.com`)';
    } else if ((e.keyword === 'minProperties' || e.keyword === 'maxProperties') && path.includes('/match')) {
      message = `must have \`field\` and exactly one operator (equals, matches, present, absent, domain_in, domain_not_in)`;
    } else if (e.keyword === 'minProperties' || e.keyword === 'maxProperties') {
      message = 'must have `framework` and one of `control` or `article`';
    }
    out.set(`${path}\n${message}`, { path, message });
  }
  return [...out.values()];
}

function fail(path: string, message: string): RuleValidation {
  return { ok: false, detail: [{ path, message }] };
}
