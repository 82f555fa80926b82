/** @module test/helpers/policy-assert: assertions on one policy's outcome for a blueprint. */
import assert from 'node:assert/strict';
import { evaluateBlueprint, type Violation } from '../../src/engine/index.js';

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
