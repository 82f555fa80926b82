/** @module engine/policies/di/DI-2: `Ignore` error handlers on writes. */
import type { JsonObject } from '../../blueprint/types.js';
import type { Finding, Policy } from '../types.js';
import type { Severity } from '../../severity.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { findingModules, moduleRef } from '../helpers.js';
import { errorRouteFilter } from './shared.js';

/** Reason and severity of an ignored failure: high only when nothing records it and the change cannot be redone by hand. */
const IGNORED: Readonly<
  Record<'notified' | 'reversible' | 'filtered' | 'silent', { readonly reason: string; readonly severity: Severity }>
> = {
  notified: {
    reason: 'error handler notifies and then ignores the failed write (the run still reports success)',
    severity: 'medium',
  },
  reversible: {
    reason: 'error handler ignores a failed reversible change (a reaction, a label, a move)',
    severity: 'medium',
  },
  filtered: {
    reason:
      'error handler ignores the failed write for the errors its filter lets through (the run still reports success)',
    severity: 'medium',
  },
  silent: { reason: 'error handler ignores the failed write without any record of it', severity: 'high' },
};

/**
 * Filter operands that single out the error of a change that is already in place: a duplicate
 * (`already_reacted`, `already exists`, `duplicate`, HTTP 409 Conflict). Ignoring it keeps the state
 * the write wanted (make `amrit-dash-amrit-s-cricket-bot` 39/41: Slack `already_reacted`).
 */
const ALREADY_DONE = /already|exists|duplicate|conflict|\b409\b/i;

/**
 * DI-2: a failed write is silently dropped by an `Ignore` directive, or by an error route that ends
 * without a directive (Make ignores the error once the route's modules succeed), unless that route
 * redoes the same write. A filter on the route's first module limits what is ignored to the errors it
 * lets through (other errors are unhandled, DI-1): a filter that singles out an "already done" error
 * (`already_reacted`, duplicate, 409) keeps the wanted state and is not reported; any other filter
 * drops only some failures, medium. Writes, sends and deletes are decided by the module table
 * (`classify().role`); AI completions and code only compute.
 */
export const DI_2: Policy = {
  code: 'DI-2',
  title: 'Failed write silently ignored',
  category: 'DI',
  severity: 'high',
  description:
    'A data-changing module has an error handler that ends in **Ignore** (or in no directive at all, which Make treats the same), so a failed write is dropped without a trace and the run reports success. A route that retries the same write, or whose filter only lets through an "already done" error (a duplicate, `already_reacted`), is not reported.',
  rationale:
    'Ignore marks the run successful while the record was never written: silent data loss that no monitor sees. Processing must be complete and errors recorded (SOC 2 PI1.3 and CC7.2; NIST SP 800-53 SI-11).',
  compliance_frameworks: [ref(F.soc2, 'PI1.3'), ref(F.soc2, 'CC7.2'), ref(F.nist, 'SI-11'), ref(F.iso27001, 'A.8.16')],
  examples: {
    avoid: '`"onerror": [{ "module": "builtin:Ignore" }]` on `airtable:ActionCreateRecord`.',
    prefer: '`"onerror": [{ "module": "slack:CreateMessage" }, { "module": "builtin:Break" }]`',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      const cls = classify(m);
      if ((cls.role !== 'write' && cls.role !== 'delete') || m.errorHandlerIds.length === 0) continue;
      const handlers = m.errorHandlerIds.map((id) => analysis.module(id));
      const last = handlers[handlers.length - 1]!;
      const lastCls = classify(last);
      // A route that ends without a directive ignores the error once its modules succeed (Make Help,
      // *Overview of error handling*); unless it redoes the same write (a retry), or a router decides further on.
      const implicit =
        lastCls.directive === null && lastCls.flow !== 'router' && !handlers.some((h) => h.type === m.type);
      if (lastCls.directive !== 'ignore' && !implicit) continue;
      const filter = errorRouteFilter(analysis, m);
      if (filter && filter.conditions.every((g) => g.some(singlesOutDone))) continue;
      const notifies = (lastCls.directive === 'ignore' ? handlers.slice(0, -1) : handlers).some(
        (h) => classify(h).role === 'write',
      );
      const kind = notifies ? 'notified' : cls.reversible ? 'reversible' : filter ? 'filtered' : 'silent';
      findings.push({ moduleId: m.id, ...IGNORED[kind], evidence: { pointer: last.pointer } });
    }
    if (findings.length === 0) return null;
    return {
      status: 'fail',
      findings,
      summary: `${findings.length} write${findings.length === 1 ? '' : 's'} with an Ignore error handler`,
    };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) =>
          `In the error-handler route of ${moduleRef(m)}, replace **Ignore** with **Break** (retries, then stores an incomplete execution) or **Rollback**.`,
      );
      steps.push('Keep a notification module before the directive so the team learns about the failure.');
      return steps;
    },
  },
};

/** A condition that matches (not excludes) an "already done" error: `{{39.error.message}}` contains `already_reacted`. */
function singlesOutDone(c: JsonObject): boolean {
  const op = typeof c['o'] === 'string' ? c['o'] : '';
  const b = typeof c['b'] === 'string' ? c['b'] : '';
  return !/:not/i.test(op) && ALREADY_DONE.test(b);
}
