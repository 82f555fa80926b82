/** @module engine/policies/ops/OPS-4: polling triggers without a batch limit. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { moduleRef } from '../helpers.js';

/** Largest batch a polling trigger should fetch per run. */
export const OPS_4_MAX_BATCH = 1000;
const LIMIT_KEYS = ['limit', 'maxResults', 'max_results', 'maxRecords'];

/** OPS-4: a watch trigger fetches an unbounded (or very large) batch per run. */
export const OPS_4: Policy = {
  code: 'OPS-4',
  title: 'Polling trigger without a batch limit',
  category: 'OPS',
  severity: 'low',
  description: `The scenario's polling trigger sets no limit (or more than ${OPS_4_MAX_BATCH}) on how many records one run processes, so a backlog turns into one huge run that exhausts operations and hits rate limits.`,
  rationale:
    'Bounded batches keep runs predictable and failures small (NIST SP 800-53 SC-6 resource availability; ISO/IEC 27001 A.8.6 capacity management).',
  compliance_frameworks: [ref(F.nist, 'SC-6'), ref(F.iso27001, 'A.8.6')],
  examples: { avoid: '`google-sheets:watchRows` without `limit`.', prefer: '`"limit": 100`' },
  evaluate(analysis) {
    const t = analysis.first;
    if (!t || analysis.trigger !== 'watch') return null;
    const fields = { ...(t.parameters ?? {}), ...(t.mapper ?? {}) };
    const value = LIMIT_KEYS.map((k) => fields[k]).find((v) => v !== undefined && v !== null && v !== '');
    const n =
      typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : null;
    if (value !== undefined && (n === null || n <= OPS_4_MAX_BATCH)) return null;
    const finding: Finding = {
      moduleId: t.id,
      reason: n === null ? 'fetches every new record in one run (no limit)' : `fetches up to ${n} records per run`,
      evidence: { pointer: t.pointer },
    };
    return { status: 'warn', findings: [finding], summary: 'The polling trigger has no batch limit' };
  },
  remediation: {
    effort: 'low',
    steps(_o, analysis) {
      return [
        `In ${moduleRef(analysis.first!)}, set **Limit** (maximum number of returned records per run) to a value the rest of the scenario can process within its time and rate limits, e.g. 100.`,
      ];
    },
  },
};
