/** @module engine/policies/di/DI-2: `Ignore` error handlers on writes. */
import type { Finding, Policy } from '../types.js';
import type { Severity } from '../../severity.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { findingModules, moduleRef } from '../helpers.js';

/** Reason and severity of an ignored failure: high only when nothing records it and the change cannot be redone by hand. */
const IGNORED: Readonly<Record<'notified' | 'reversible' | 'silent', { readonly reason: string; readonly severity: Severity }>> = {
  notified: { reason: 'error handler notifies and then ignores the failed write (the run still reports success)', severity: 'medium' },
  reversible: { reason: 'error handler ignores a failed reversible change (a reaction, a label, a move)', severity: 'medium' },
  silent: { reason: 'error handler ignores the failed write without any record of it', severity: 'high' },
};

/**
 * DI-2: a failed write is silently dropped by an `Ignore` directive. Writes, sends and deletes are
 * decided by the module table (`classify().role`); AI completions and code only compute.
 */
export const DI_2: Policy = {
  code: 'DI-2',
  title: 'Failed write silently ignored',
  category: 'DI',
  severity: 'high',
  description: 'A data-changing module has an error handler that ends in **Ignore**, so a failed write is dropped without a trace and the run reports success.',
  rationale: 'Ignore marks the run successful while the record was never written: silent data loss that no monitor sees. Processing must be complete and errors recorded (SOC 2 PI1.3 and CC7.2; NIST SP 800-53 SI-11).',
  compliance_frameworks: [ref(F.soc2, 'PI1.3'), ref(F.soc2, 'CC7.2'), ref(F.nist, 'SI-11'), ref(F.iso27001, 'A.8.16')],
  examples: { avoid: '`"onerror": [{ "module": "builtin:Ignore" }]` on `airtable:ActionCreateRecord`.', prefer: '`"onerror": [{ "module": "slack:CreateMessage" }, { "module": "builtin:Break" }]`' },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      const cls = classify(m);
      if ((cls.role !== 'write' && cls.role !== 'delete') || m.errorHandlerIds.length === 0) continue;
      const handlers = m.errorHandlerIds.map((id) => analysis.module(id));
      const last = handlers[handlers.length - 1]!;
      if (classify(last).directive !== 'ignore') continue;
      const notifies = handlers.slice(0, -1).some((h) => classify(h).role === 'write');
      findings.push({ moduleId: m.id, ...IGNORED[notifies ? 'notified' : cls.reversible ? 'reversible' : 'silent'], evidence: { pointer: last.pointer } });
    }
    if (findings.length === 0) return null;
    return { status: 'fail', findings, summary: `${findings.length} write${findings.length === 1 ? '' : 's'} with an Ignore error handler` };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map((m) => `In the error-handler route of ${moduleRef(m)}, replace **Ignore** with **Break** (retries, then stores an incomplete execution) or **Rollback**.`);
      steps.push('Keep a notification module before the directive so the team learns about the failure.');
      return steps;
    },
  },
};
