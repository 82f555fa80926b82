/**
 * @module engine/rules/compile: custom rules (validated by `validateRule`) as policies, with the
 * built-in policies' shape and result, run by the same `runPolicy` in the same workers.
 */
import type { Finding, Policy } from '../policies/types.js';
import { findingModules, moduleRef } from '../policies/helpers.js';
import { compileCondition } from './conditions.js';
import { RULE_LIMITS, type CustomRule } from './types.js';

/** Custom rule codes (`ORG-1`, `ORG-2`...; assigned by the service, never reused). */
export const CUSTOM_RULE_CODE = /^ORG-[1-9]\d{0,8}$/;

/** The remediation text as steps: one per non-empty line. */
const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');

/**
 * The policy of one custom rule. `rule` must have passed `validateRule` (patterns are compiled
 * here, once). Each module that satisfies `match` is a finding, at most 200 per scenario (the
 * summary counts the rest), with the rule's severity and the field or module as evidence.
 * @throws RangeError when `code` is not `ORG-<n>` (a caller bug: the service assigns codes).
 */
export function compileRule(code: string, rule: CustomRule): Policy {
  if (!CUSTOM_RULE_CODE.test(code)) throw new RangeError(`custom rule code must be ORG-<n>, got ${code.slice(0, 20)}`);
  const test = compileCondition(rule.match);
  const steps = lines(rule.remediation);
  const description = rule.description ?? rule.title;
  const status = rule.status ?? 'fail';
  const match = JSON.stringify(rule.match);
  return {
    code,
    title: rule.title,
    category: rule.category,
    severity: rule.severity,
    subject: 'run',
    description,
    rationale: `Organization rule ${code}: ${description}`,
    compliance_frameworks: rule.compliance_frameworks ?? [],
    examples: {
      avoid: `A module matching \`${match.length > 200 ? `${match.slice(0, 199)}…` : match}\`.`,
      prefer: steps[0]!,
    },
    remediation: {
      effort: 'medium',
      steps(outcome, analysis) {
        const refs = findingModules(outcome, analysis).map(moduleRef);
        const shown = refs.slice(0, 20).join(', ') + (refs.length > 20 ? `, +${refs.length - 20} more` : '');
        return [...steps, `Modules: ${shown}.`];
      },
    },
    evaluate(analysis) {
      const findings: Finding[] = [];
      let matched = 0;
      for (const m of analysis.graph.modules) {
        const w = test(m, analysis);
        if (!w) continue;
        matched++;
        if (findings.length >= RULE_LIMITS.findings) continue;
        const evidence = w.pointer === undefined ? { pointer: m.pointer } : { pointer: w.pointer };
        findings.push({
          moduleId: m.id,
          reason: `${code} "${rule.title}": ${w.detail}`,
          severity: rule.severity,
          evidence: w.value === undefined ? evidence : { ...evidence, value: w.value },
        });
      }
      if (matched === 0) return null;
      const more = matched > findings.length ? ` (first ${findings.length} reported)` : '';
      return { status, findings, summary: `${rule.title}: ${matched} module${matched === 1 ? '' : 's'}${more}` };
    },
  };
}

/** The policies of an organization's rules, in the given order (each as `compileRule`). */
export function compileRules(records: readonly { readonly code: string; readonly rule: CustomRule }[]): Policy[] {
  return records.map((r) => compileRule(r.code, r.rule));
}
