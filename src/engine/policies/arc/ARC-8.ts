/** @module engine/policies/arc/ARC-8: filters without conditions. */
import type { Finding, Policy } from '../types.js';
import type { Analysis } from '../../analysis.js';
import type { ModuleNode } from '../../blueprint/types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { flowOf } from '../../blueprint/flows.js';
import { findingModules, moduleRef } from '../helpers.js';

const hasConditions = (m: ModuleNode): boolean => m.filter?.conditions.some((g) => g.length > 0) ?? false;

/**
 * True when a condition-less filter is only a label, not a gate that does nothing.
 * Make runs a router's fallback route (`parameters.else`, its route index) when no other route
 * matches, so its filter needs no condition (Make help, *Router*: "The fallback route"); an error
 * handler route runs only when its module fails; and when no route of a router has a condition, the
 * names label parallel branches that all run (make `anton-chernov` router 5). A condition-less route
 * beside filtered siblings (make `6302mohamed-agency` "valid", "Non duplicates") is still reported.
 */
function labelOnly(analysis: Analysis, m: ModuleNode): boolean {
  if (m.index !== 0 || m.parentId === null) return false;
  if (m.container === 'onerror') return true;
  if (m.container !== 'route' || m.routeIndex === null) return false;
  const router = analysis.module(m.parentId);
  if (router.parameters?.['else'] === m.routeIndex) return true;
  return !router.routes.some((r) => r.moduleIds[0] !== undefined && hasConditions(analysis.module(r.moduleIds[0])));
}

/** Words that do not name what a filter tests (`if second`, `only when paid`). */
const FILLER_WORDS: ReadonlySet<string> = new Set([
  'if',
  'when',
  'only',
  'is',
  'are',
  'the',
  'a',
  'an',
  'of',
  'for',
  'to',
]);

/** The words of a filter name that say what it tests, lower-case (letters and digits of any script). */
function nameWords(name: string): string[] {
  return (name.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !FILLER_WORDS.has(w));
}

/**
 * True when the empty filter's name says nothing an earlier gate's name does not: every word of it
 * (filler words aside) is a word of that gate's name ("if second" after "Second connection", "Valid
 * Path" after "Valid Path"). The bundle has already passed that gate; the name repeats it.
 */
function restates(words: readonly string[], gate: ModuleNode): boolean {
  if (!hasConditions(gate)) return false;
  const gateWords = new Set(nameWords(gate.filter!.name));
  return words.every((w) => gateWords.has(w));
}

/**
 * True when a module upstream on the path (earlier in its flow or an enclosing one) has a filter with
 * conditions whose name the empty filter's name repeats (`restates`): the empty filter restates a gate
 * the bundle has already passed (make `6302mohamed-e-commerce` 4 "Valid Path" after module 7's "Valid
 * Path" conditions).
 */
function restatesUpstreamGate(analysis: Analysis, m: ModuleNode): boolean {
  const words = nameWords(m.filter!.name);
  if (words.length === 0) return false;
  for (
    let cur: ModuleNode | undefined = m;
    cur;
    cur = cur.parentId === null ? undefined : analysis.module(cur.parentId)
  ) {
    const flow = flowOf(analysis.graph, cur);
    for (let i = 0; i < cur.index && i < flow.length; i++) {
      if (restates(words, analysis.module(flow[i]!))) return true;
    }
    if (cur !== m && restates(words, cur)) return true;
  }
  return false;
}

/** ARC-8: a named filter with no condition lets every bundle through. */
export const ARC_8: Policy = {
  code: 'ARC-8',
  title: 'Filter without conditions',
  category: 'ARC',
  severity: 'low',
  description:
    "A module has a named filter with no conditions: it looks like a gate on the canvas but lets every bundle through. A label on a router's fallback route, on the first module of an error handler, on parallel branches of a router none of whose routes has a condition, or restating a gate the bundle has already passed (its name's words are all in that gate's name) is not a gate and is not reported.",
  rationale:
    'Controls that look present but do nothing are worse than none (SOC 2 PI1.3 valid processing; ISO/IEC 27001 A.8.28).',
  compliance_frameworks: [ref(F.soc2, 'PI1.3'), ref(F.iso27001, 'A.8.28')],
  examples: {
    avoid: '`"filter": { "name": "Only paid orders", "conditions": [] }`',
    prefer:
      '`"filter": { "name": "Only paid orders", "conditions": [[{ "a": "{{1.status}}", "o": "text:equal", "b": "paid" }]] }`',
  },
  evaluate(analysis) {
    const findings: Finding[] = analysis.graph.modules
      .filter(
        (m) =>
          m.filter !== null &&
          m.filter.conditions.every((g) => g.length === 0) &&
          !labelOnly(analysis, m) &&
          !restatesUpstreamGate(analysis, m),
      )
      .map((m) => ({
        moduleId: m.id,
        reason: `filter "${m.filter!.name}" has no conditions and passes every bundle`,
        evidence: { pointer: `${m.pointer}/filter` },
      }));
    return findings.length === 0
      ? null
      : {
          status: 'warn',
          findings,
          summary: `${findings.length} filter${findings.length === 1 ? '' : 's'} without conditions`,
        };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      return findingModules(outcome, analysis).map(
        (m) => `Open the filter before ${moduleRef(m)} and add the condition its name promises, or delete the filter.`,
      );
    },
  },
};
