/** @module engine/policies/di/DI-7: unbounded repeaters. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { isMapped } from '../../secrets/scan.js';
import { findingModules, moduleRef } from '../helpers.js';

/** Most repeats accepted as a literal count. */
export const DI_7_MAX_REPEATS = 1000;

/** DI-7: a repeater runs a number of times taken from data, or an excessive fixed number. */
export const DI_7: Policy = {
  code: 'DI-7',
  title: 'Unbounded repeater',
  category: 'DI',
  severity: 'medium',
  description: `A repeater's count comes from input data or exceeds ${DI_7_MAX_REPEATS}, so one run can loop thousands of times, exhausting operations and hitting rate limits downstream.`,
  rationale:
    'Loops whose bound is data-driven are a denial-of-wallet and rate-limit risk (CWE-400, CWE-606 unchecked input for loop condition). Bound every loop (NIST SP 800-53 SI-10).',
  compliance_frameworks: [ref(F.nist, 'SI-10'), ref(F.soc2, 'PI1.3')],
  examples: {
    avoid: '`builtin:BasicRepeater` with `"repeats": "{{1.pages}}"`.',
    prefer: '`"repeats": "{{min(1.pages; 50)}}"` or a fixed small count.',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      if (m.type !== 'builtin:BasicRepeater') continue;
      const repeats = m.mapper?.['repeats'];
      const text = typeof repeats === 'number' ? String(repeats) : typeof repeats === 'string' ? repeats : '';
      const mapped = isMapped(text) && !/\bmin\s*\(/.test(text);
      const tooMany = /^\d+$/.test(text.trim()) && Number(text) > DI_7_MAX_REPEATS;
      if (!mapped && !tooMany) continue;
      findings.push({
        moduleId: m.id,
        reason: mapped
          ? `repeat count comes from data (\`${text.slice(0, 60)}\`) without a bound`
          : `repeats ${text} times`,
        evidence: { pointer: `${m.pointer}/mapper/repeats`, value: text.slice(0, 100) },
      });
    }
    return findings.length === 0
      ? null
      : {
          status: 'fail',
          findings,
          summary: `${findings.length} unbounded repeater${findings.length === 1 ? '' : 's'}`,
        };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      return findingModules(outcome, analysis).map(
        (m) =>
          `In ${moduleRef(m)}, cap the count: \`{{min(<value>; ${DI_7_MAX_REPEATS})}}\` or a smaller fixed number, and stop early with a filter when there is no more data.`,
      );
    },
  },
};
