/** @module engine/rules: organization custom rules (issue 17): format, validation, compilation to policies (re-exports only). */
export { RULE_LIMITS, FIELD_OPERATORS } from './types.js';
export type { Condition, CustomRule, FieldOperator, NameOrList, ValueOrigin } from './types.js';
export { CUSTOM_RULE_SCHEMA } from './schema.js';
export { validateRule } from './validate.js';
export type { RuleIssue, RuleValidation } from './validate.js';
export { compileRule, compileRules, CUSTOM_RULE_CODE } from './compile.js';
export { compilePattern, PATTERN_ENGINE } from './linear-pattern.js';
export type { LinearPattern, PatternCompilation } from './linear-pattern.js';
