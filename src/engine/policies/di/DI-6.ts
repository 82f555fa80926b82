/** @module engine/policies/di/DI-6: iterators whose bundles are never aggregated. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { isMapped } from '../../secrets/scan.js';
import { downstreamOf, findingModules, moduleRef } from '../helpers.js';

/**
 * DI-6: an iterator splits a bundle and no aggregator gathers the results again. An iterator whose
 * array is listed item by item in the mapper with a single item emits one bundle (make
 * `shivanetha1-email-automation-agent` 2, `alexxrc-calendar-automatic-register` 24): not reported.
 * Nor is an iterator whose array is literal text with no mapping (`"array": "articles[]"`): a string
 * is one value, not a list of the run's data, so nothing fans out.
 */
export const DI_6: Policy = {
  code: 'DI-6',
  title: 'Iterator without aggregator',
  category: 'DI',
  severity: 'low',
  description:
    'An iterator splits an array into separate bundles and no aggregator after it gathers them, so every later module runs once per item, including writes and notifications, and a failure stops midway through the items. An iterator over one listed item or over literal text (no mapping) splits nothing and is not reported.',
  rationale:
    'Per-item fan-out multiplies operations and partial failures; aggregating (or processing items in a sub-scenario) keeps the run atomic and its cost bounded (SOC 2 PI1.3 complete and accurate processing).',
  compliance_frameworks: [ref(F.soc2, 'PI1.3'), ref(F.iso27001, 'A.8.25')],
  examples: {
    avoid: '`builtin:BasicFeeder` followed by `slack:CreateMessage` per item.',
    prefer: '`builtin:BasicFeeder` → transform → `builtin:BasicAggregator` (or `util:TextAggregator`) → one write.',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      if (classify(m).flow !== 'iterator') continue;
      // Items listed one by one (`"array": ["{{29.text}}"]`) are the bundles: one item is one bundle, nothing fans out.
      const items = m.mapper?.['array'];
      if (Array.isArray(items) && items.length <= 1) continue;
      // Literal text is not a mapping of any module's array: there is nothing to split.
      if (typeof items === 'string' && !isMapped(items)) continue;
      if (downstreamOf(m, analysis).some((x) => classify(x).flow === 'aggregator')) continue;
      findings.push({
        moduleId: m.id,
        reason: 'splits bundles that no later aggregator gathers',
        evidence: { pointer: m.pointer },
      });
    }
    return findings.length === 0
      ? null
      : {
          status: 'warn',
          findings,
          summary: `${findings.length} iterator${findings.length === 1 ? '' : 's'} without an aggregator`,
        };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) =>
          `After ${moduleRef(m)} and the per-item steps, add an **Array aggregator** (or *Text aggregator*) whose source module is this iterator, and move writes after it.`,
      );
      steps.push(
        'If each item must be written separately, add error handling to the per-item writes so one bad item does not stop the rest.',
      );
      return steps;
    },
  },
};
