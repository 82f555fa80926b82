/** @module test/helpers/policy-assert: assertions on one policy's outcome for a blueprint. */
import assert from 'node:assert/strict';
import { evaluateBlueprint, parseBlueprint, POLICY_BY_CODE, type Violation } from '../../src/engine/index.js';
import { Analysis } from '../../src/engine/analysis.js';
import type { Finding } from '../../src/engine/policies/types.js';

/** The violation of `code`, or undefined; fails the test when the engine rejects the blueprint. */
export function violationOf(blueprint: unknown, code: string): Violation | undefined {
  const r = evaluateBlueprint(blueprint, { scenarioId: 's1' });
  assert.ok(r.ok, r.ok ? '' : JSON.stringify(r.error));
  assert.deepEqual(r.evaluation.policy_errors, []);
  return r.evaluation.violations.find((v) => v.policy === code);
}

/** Asserts `code` fails (or warns) and returns its failing module ids in order. */
export function failingIds(blueprint: unknown, code: string): string[] {
  const v = violationOf(blueprint, code);
  assert.ok(v, `${code} expected to report`);
  return v.failing_modules.map((f) => f.module_id);
}

/** Asserts `code` reports nothing. */
export function passes(blueprint: unknown, code: string): void {
  const v = violationOf(blueprint, code);
  assert.equal(
    v,
    undefined,
    `${code} expected to pass, got ${JSON.stringify(v?.failing_modules.map((f) => f.reason) ?? v?.summary)}`,
  );
}

/**
 * The findings one policy returns for a blueprint, as the policy states them (with `locations`, which
 * the evaluation result does not carry): `[]` when it passes. Fails the test when the blueprint does not parse.
 */
export function findingsOf(blueprint: unknown, code: string): readonly Finding[] {
  const parsed = parseBlueprint(blueprint);
  assert.ok(parsed.ok, parsed.ok ? '' : JSON.stringify(parsed));
  const policy = POLICY_BY_CODE.get(code);
  assert.ok(policy, code);
  return policy.evaluate(new Analysis(parsed.graph), {})?.findings ?? [];
}

/** Every place (JSON Pointer) a policy's findings name: each finding's `locations`, else its evidence pointer. */
export function placesOf(blueprint: unknown, code: string): string[] {
  return findingsOf(blueprint, code).flatMap((f) =>
    f.locations ? f.locations.map((l) => l.pointer) : f.evidence ? [f.evidence.pointer] : [],
  );
}
