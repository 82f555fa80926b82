/** @module engine/policies/di/DI-7: unbounded repeaters. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { isMapped } from '../../secrets/scan.js';
import { findingModules, moduleRef } from '../helpers.js';

/** Most repeats accepted as a literal count. */
export const DI_7_MAX_REPEATS = 1000;

/**
 * A count that is the number of keys of one object (`{{length(keys(220.data)) - 1}}`, offset by a
 * literal at most): it counts the fields of a record, which its shape (the schema, the query's field
 * list) bounds, not the items of a list that grows with the data. Make's `keys()` returns an object's
 * keys (Make help, *Array functions*).
 */
const FIELD_COUNT = /^\{\{\s*length\s*\(\s*keys\s*\([^(){}]+\)\s*\)\s*(?:[-+]\s*\d+\s*)?\}\}$/;

/**
 * DI-7: a repeater runs a number of times taken from data, or an excessive fixed number. Low when the
 * count is the number of fields of a record (`FIELD_COUNT`): data-driven, but bounded by the record's shape.
 */
export const DI_7: Policy = {
  code: 'DI-7',
  title: 'Unbounded repeater',
  category: 'DI',
  severity: 'medium',
  description: `A repeater's count comes from input data or exceeds ${DI_7_MAX_REPEATS}, so one run can loop thousands of times, exhausting operations and hitting rate limits downstream. A count of a record's fields (\`length(keys(...))\`) is bounded by the record's shape and reported low.`,
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
      const fields = mapped && FIELD_COUNT.test(text.trim());
      findings.push({
        moduleId: m.id,
        reason: fields
          ? `repeat count is the number of fields of a record (\`${text.slice(0, 60)}\`): data-driven, but bounded by the record's shape`
          : mapped
            ? `repeat count comes from data (\`${text.slice(0, 60)}\`) without a bound`
            : `repeats ${text} times`,
        ...(fields ? { severity: 'low' as const } : {}),
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
