/** @module engine/policies/di/DI-1: data-changing modules with no error handler. */
import type { Finding, Policy } from '../types.js';
import type { Severity } from '../../severity.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { findingModules, moduleRef } from '../helpers.js';

/** Reason and severity per kind of change: only a change that cannot be undone is high. */
const CHANGES: Readonly<Record<'write' | 'send' | 'delete' | 'reversible-delete', { readonly reason: string; readonly severity: Severity }>> = {
  write: { reason: 'writes data and has no error-handler route', severity: 'medium' },
  send: { reason: 'sends a message and has no error-handler route', severity: 'medium' },
  delete: { reason: 'deletes data for good and has no error-handler route', severity: 'high' },
  'reversible-delete': { reason: 'moves data to the trash (reversible) and has no error-handler route', severity: 'medium' },
};

/**
 * DI-1: a write, send or delete in another system with no `onerror` route. What a module does comes
 * from the module table (`classify().effect`): AI completions, code and document conversions only
 * compute and are not reported (AI-3 covers AI calls); a delete that can be undone (trash,
 * `permanent: false`) is medium like a write, a permanent one high.
 */
export const DI_1: Policy = {
  code: 'DI-1',
  title: 'Data written without an error handler',
  category: 'DI',
  severity: 'medium',
  description: 'A module that creates, updates, sends or deletes data in another system has no error-handler route, so a failure stops the run halfway and leaves the systems out of step. Modules that only compute (AI completions, code, conversions) are not data changes.',
  rationale: 'Without a handler a failed write aborts the run after earlier writes already happened: partial updates, duplicate sends on re-run. Make error handlers (Break with retry, Resume, Rollback) keep processing complete and accurate (SOC 2 PI1.3; NIST SP 800-53 SI-11).',
  compliance_frameworks: [ref(F.soc2, 'PI1.3'), ref(F.nist, 'SI-11'), ref(F.iso27001, 'A.8.28')],
  examples: { avoid: 'A `google-sheets:addRow` with no `onerror` route.', prefer: 'The same module with an `onerror` route ending in `builtin:Break` (retry 3 times, store as incomplete execution).' },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      if (m.container === 'onerror' || m.errorHandlerIds.length > 0) continue;
      const cls = classify(m);
      if (cls.role !== 'write' && cls.role !== 'delete') continue;
      if (!cls.external && !cls.datastore) continue;
      const kind = cls.role === 'delete' ? (cls.reversible ? 'reversible-delete' : 'delete') : cls.effect === 'send' ? 'send' : 'write';
      findings.push({ moduleId: m.id, ...CHANGES[kind], evidence: { pointer: m.pointer } });
    }
    if (findings.length === 0) return null;
    return { status: 'fail', findings, summary: `${findings.length} data-changing module${findings.length === 1 ? '' : 's'} without an error handler` };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      const mods = findingModules(outcome, analysis);
      const steps = mods.slice(0, 10).map((m) => `Right-click ${moduleRef(m)} → **Add error handler** and choose **Break** (enable *Automatically complete execution*, 3 attempts) so failed runs are retried and kept.`);
      if (mods.length > 10) steps.push(`Do the same for the other ${mods.length - 10} modules listed in \`failing_modules\`.`);
      steps.push('Enable **Allow storing of incomplete executions** in the scenario settings so Break handlers can keep failed runs.');
      steps.push('Where a write must not be half-done, use **Rollback** on transactional apps or a compensating step in the handler route.');
      return steps;
    },
  },
};
