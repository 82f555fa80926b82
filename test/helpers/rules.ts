/** @module test/helpers/rules: runs one custom rule on a blueprint through validateRule, compileRule and runPolicy. */
import assert from 'node:assert/strict';
import { Analysis } from '../../src/engine/analysis.js';
import { parseBlueprint } from '../../src/engine/blueprint/parse.js';
import { runPolicy } from '../../src/engine/evaluate.js';
import type { PolicyOutcome } from '../../src/engine/policies/types.js';
import { compileRule, validateRule } from '../../src/engine/rules/index.js';

/** A valid rule body around a `match` (severity high, category SEC). */
export function ruleBody(match: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'Test rule', severity: 'high', category: 'SEC', remediation: 'Fix it.', match, ...extra };
}

/** The outcome of the rule `ORG-1` with this `match` on a blueprint (the rule must validate). */
export function ruleOutcome(
  match: unknown,
  blueprint: unknown,
  extra: Record<string, unknown> = {},
): PolicyOutcome | null {
  const v = validateRule(ruleBody(match, extra));
  assert.ok(v.ok, v.ok ? '' : JSON.stringify(v.detail));
  const parsed = parseBlueprint(blueprint);
  assert.ok(parsed.ok);
  const run = runPolicy(compileRule('ORG-1', v.rule), new Analysis(parsed.graph), {});
  assert.ok('outcome' in run, 'error' in run ? run.error : '');
  return run.outcome;
}

/** The module ids the rule reports, in order (empty when it passes). */
export function ruleFires(match: unknown, blueprint: unknown): string[] {
  return ruleOutcome(match, blueprint)?.findings.map((f) => f.moduleId) ?? [];
}
