/** @module engine/policies/di/DI-2: `Ignore` error handlers on writes. */
import type { JsonObject, ModuleNode } from '../../blueprint/types.js';
import type { Finding, Policy } from '../types.js';
import type { Analysis } from '../../analysis.js';
import type { RowId } from '../../risk/model.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify, moduleUrl, urlHost } from '../../blueprint/classify.js';
import { findingModules, moduleRef } from '../helpers.js';
import { audienceOf } from '../../risk/audience.js';
import { impactOf } from '../../risk/impact.js';
import { riskRow } from '../../risk/model.js';
import { errorRouteFilter } from './shared.js';
import { reselectedOnFailure } from './self-healing.js';

/** Why an ignored failure is reported. */
type Ignored = 'notified' | 'reversible' | 'filtered' | 'message' | 'notification' | 'unseen' | 'silent';

/**
 * Reason and risk-model row of an ignored failure (`risk/model.ts`, issue 32): high (R21) only when
 * a record write is dropped without any trace; medium (R22) when it is noticed, limited to some
 * errors, reversible, a message to people (lost, not corrupting records others depend on) or a change
 * the blueprint cannot show (an HTTP call to an address taken from the data); low (R23) for a
 * notification to the owner or team.
 */
const IGNORED: Readonly<Record<Ignored, { readonly reason: string; readonly row: RowId }>> = {
  notified: {
    reason: 'error handler notifies and then ignores the failed write (the run still reports success)',
    row: 'R22',
  },
  reversible: { reason: 'error handler ignores a failed reversible change (a reaction, a label, a move)', row: 'R22' },
  filtered: {
    reason:
      'error handler ignores the failed write for the errors its filter lets through (the run still reports success)',
    row: 'R22',
  },
  message: {
    reason: 'error handler ignores a failed message to people: it is not sent, but no record others depend on is lost',
    row: 'R22',
  },
  notification: {
    reason:
      'error handler ignores a failed notification to the owner or team: a notification is not a record others depend on',
    row: 'R23',
  },
  unseen: {
    reason:
      'error handler ignores a failed HTTP call to an address taken from the data: the blueprint cannot show what it changes',
    row: 'R22',
  },
  silent: { reason: 'error handler ignores the failed write without any record of it', row: 'R21' },
};

/** Why the failure of write `m` is ignored at its severity (`IGNORED`), from what it changes. */
function kindOf(analysis: Analysis, m: ModuleNode, notifies: boolean, filtered: boolean): Ignored {
  if (notifies) return 'notified';
  const cls = classify(m);
  if (cls.reversible) return 'reversible';
  if (filtered) return 'filtered';
  if (cls.effect === 'send') return audienceOf(analysis, m)?.audience === 'owner' ? 'notification' : 'message';
  if (cls.http && urlHost(moduleUrl(m) ?? '') === null) return 'unseen';
  return 'silent';
}

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
    'A data-changing module has an error handler that ends in **Ignore** (or in no directive at all, which Make treats the same), so a failed write is dropped without a trace and the run reports success: high for a record write (risk-model row R21); medium when the failure is notified, limited by a filter, reversible, a message to people or an HTTP call to an address from the data (R22); low for a notification to the owner or team (R23). A route that retries the same write, a filter that only lets through an "already done" error (a duplicate, `already_reacted`), and a write the trigger selects again next run (a searched row whose status column the write would have filled) are not reported: nothing is lost.',
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
      // A write the trigger selects again next run (a queue row whose status column stays empty) loses nothing.
      if (reselectedOnFailure(analysis, m)) continue;
      const notifies = (lastCls.directive === 'ignore' ? handlers.slice(0, -1) : handlers).some(
        (h) => classify(h).role === 'write',
      );
      const { reason, row } = IGNORED[kindOf(analysis, m, notifies, filter !== null)];
      const risk = riskRow(row, { impact: impactOf(m) });
      findings.push({
        moduleId: m.id,
        reason,
        severity: risk.severity,
        evidence: { pointer: last.pointer },
        risk,
        path: [
          { moduleId: m.id, role: 'source', note: 'the change that fails' },
          { moduleId: last.id, role: 'sink', note: 'ignores the error' },
        ],
      });
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
