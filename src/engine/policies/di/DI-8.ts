/** @module engine/policies/di/DI-8: webhook scenarios that update records in parallel. */
import type { Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';

/** DI-8: instant scenarios without sequential processing run overlapping executions on the same records. */
export const DI_8: Policy = {
  code: 'DI-8',
  title: 'Parallel processing of instant updates',
  category: 'DI',
  severity: 'low',
  description: 'The scenario starts instantly (webhook or app event), updates or deletes records, and **Sequential processing** is off, so overlapping executions can process events out of order and overwrite each other.',
  rationale: 'Concurrent runs on the same records cause lost updates and duplicates; Make processes instant triggers in parallel unless sequential processing is on (SOC 2 PI1.3 processing is complete, valid and accurate).',
  compliance_frameworks: [ref(F.soc2, 'PI1.3'), ref(F.iso27001, 'A.8.28')],
  examples: { avoid: '`"instant": true`, `"sequential": false` with `google-sheets:updateRow`.', prefer: '`"sequential": true`, or idempotent upserts keyed by the event id.' },
  evaluate(analysis) {
    const s = analysis.graph.settings;
    const instant = s.instant === true || analysis.trigger === 'webhook' || analysis.trigger === 'mailhook';
    if (!instant || s.sequential === true) return null;
    const updates = analysis.graph.modules.filter((m) => {
      const role = classify(m).role;
      return classify(m).external && (role === 'delete' || (role === 'write' && /update|upsert|increment|decrement|patch|clear/i.test(m.action)));
    });
    if (updates.length === 0) return null;
    return {
      status: 'warn',
      findings: updates.map((m) => ({ moduleId: m.id, reason: 'updates records while instant executions run in parallel', evidence: { pointer: m.pointer } })),
      summary: `${updates.length} update${updates.length === 1 ? '' : 's'} in an instant scenario without sequential processing`,
      evidence: { pointer: '/metadata/scenario/sequential', value: String(s.sequential) },
    };
  },
  remediation: {
    effort: 'low',
    steps() {
      return [
        'Open **Scenario settings** and enable **Sequential processing**, so events are processed one at a time in arrival order.',
        'If throughput matters more than order, make each update idempotent (upsert keyed by the event id) instead.',
      ];
    },
  },
};
