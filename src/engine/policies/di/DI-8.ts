/** @module engine/policies/di/DI-8: webhook scenarios that update records in parallel. */
import type { ModuleNode } from '../../blueprint/types.js';
import type { Analysis } from '../../analysis.js';
import type { Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify, httpMethod } from '../../blueprint/classify.js';

/** Actions that change a record that exists (`updateRow`, `ActionUpdateRecords`, `upsertRecord`, `clearValuesFromRange`). */
const UPDATE_ACTION = /update|upsert|increment|decrement|patch|clear/i;
/** HTTP methods that change or remove a resource in place (RFC 9110 §9.3.4, §9.3.5; RFC 5789). */
const UPDATE_METHODS: ReadonlySet<string> = new Set(['PUT', 'PATCH', 'DELETE']);
/** Fields that choose which record a module changes, not what it writes (`rowNumber`, `recordId`, `id`, an HTTP `url`). */
const KEY_FIELD = /^(?:id|key|url|uri|row|rowNumber|range)$|(?:Id|_id|ID)$/;

/**
 * DI-8: instant scenarios without sequential processing run overlapping executions on the same
 * records. Updates are update-like actions (data-store records included), deletes, and HTTP (or *Make an API call*) `PUT`, `PATCH`
 * and `DELETE` requests. Not reported: a change keyed only by the event that started the run and
 * writing literal values (make `sergibuendia-community-manager-rrss-parte-2` 6/9/11 mark the
 * triggering row "Publicado"): every run touches its own record, and repeated runs for one record
 * write the same thing in any order.
 */
export const DI_8: Policy = {
  code: 'DI-8',
  title: 'Parallel processing of instant updates',
  category: 'DI',
  severity: 'low',
  description:
    'The scenario starts instantly (webhook or app event), updates or deletes records (an update action, a Make data-store record included, or an HTTP `PUT`/`PATCH`/`DELETE`), and **Sequential processing** is off, so overlapping executions can process events out of order and overwrite each other. An update of the triggering record to fixed values is idempotent and not reported.',
  rationale:
    'Concurrent runs on the same records cause lost updates and duplicates; Make processes instant triggers in parallel unless sequential processing is on (SOC 2 PI1.3 processing is complete, valid and accurate).',
  compliance_frameworks: [ref(F.soc2, 'PI1.3'), ref(F.iso27001, 'A.8.28')],
  examples: {
    avoid: '`"instant": true`, `"sequential": false` with `google-sheets:updateRow`.',
    prefer: '`"sequential": true`, or idempotent upserts keyed by the event id.',
  },
  evaluate(analysis) {
    const s = analysis.graph.settings;
    const instant = s.instant === true || analysis.trigger === 'webhook' || analysis.trigger === 'mailhook';
    if (!instant || s.sequential === true) return null;
    const updates = analysis.graph.modules.filter((m) => isUpdate(m) && !idempotentOnTrigger(analysis, m));
    if (updates.length === 0) return null;
    return {
      status: 'warn',
      findings: updates.map((m) => ({
        moduleId: m.id,
        reason: 'updates records while instant executions run in parallel',
        evidence: { pointer: m.pointer },
      })),
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

/**
 * True for a change to a record that exists: in another system, or in a Make data store (a record
 * there is state shared by every run of every scenario that uses the store; make-more `zayonbr` 14
 * appends to a conversation history keyed by the sender's phone, read by 12 in the same run).
 */
function isUpdate(m: ModuleNode): boolean {
  const cls = classify(m);
  if (!cls.external && !cls.datastore) return false;
  if (cls.role === 'delete') return true;
  if (cls.role !== 'write') return false;
  return cls.http || /api.?call/i.test(m.action) ? UPDATE_METHODS.has(httpMethod(m)) : UPDATE_ACTION.test(m.action);
}

/** True when every mapping of the module is a key field taken from the trigger: it changes the triggering record to literal values. */
function idempotentOnTrigger(analysis: Analysis, m: ModuleNode): boolean {
  const trigger = analysis.first;
  const refs = analysis.dataflow().refsOf(m.id);
  return (
    trigger !== undefined &&
    refs.length > 0 &&
    refs.every((r) => r.moduleId === trigger.id && r.fieldName !== null && KEY_FIELD.test(r.fieldName))
  );
}
