/** @module engine/policies/di/DI-1: data-changing modules with no error handler. */
import type { ModuleNode } from '../../blueprint/types.js';
import type { Finding, Policy } from '../types.js';
import type { Severity } from '../../severity.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import type { Analysis } from '../../analysis.js';
import { classify, httpMethod } from '../../blueprint/classify.js';
import { movesMoney } from '../../money.js';
import { findingModules, moduleRef } from '../helpers.js';
import { errorRouteFilter, inAnyErrorRoute, outputRead } from './shared.js';

/** What a failure of the module leaves behind. */
type Change = 'money' | 'after-money' | 'write' | 'send' | 'delete' | 'reversible-delete';

/**
 * Reason and severity per change, by what a failure leaves behind: a failed delete leaves the data
 * in place (nothing is lost); a failed write or send leaves systems out of step until the run is
 * redone; only money is high: a payment call that fails is ambiguous (it may have gone through) and a
 * failure after a payment strands it: re-running pays twice, not re-running leaves it unrecorded
 * (Stripe API "Idempotent requests"; SOC 2 PI1.3).
 */
const CHANGES: Readonly<Record<Change, { readonly reason: string; readonly severity: Severity }>> = {
  money: {
    reason:
      'moves money and has no error-handler route: a failed payment call may still have gone through, and re-running the run can pay twice',
    severity: 'high',
  },
  'after-money': {
    reason:
      'changes data after a payment earlier in the run and has no error-handler route: its failure strands that payment (re-running pays again, not re-running leaves it unrecorded)',
    severity: 'high',
  },
  write: {
    reason:
      'writes data and has no error-handler route: a failure stops the run halfway and leaves the systems out of step',
    severity: 'medium',
  },
  send: {
    reason:
      'sends a message and has no error-handler route: a failure leaves it unsent, or sent twice when the run is redone',
    severity: 'medium',
  },
  delete: {
    reason: 'deletes data and has no error-handler route: a failed delete leaves the data in place, nothing is lost',
    severity: 'medium',
  },
  'reversible-delete': {
    reason: 'moves data to the trash and has no error-handler route: a failed move leaves the data in place',
    severity: 'medium',
  },
};

/**
 * DI-1: a write, send or delete in another system with no `onerror` route. What a module does comes
 * from the module table (`classify().effect`): AI completions, code and document conversions only
 * compute and are not reported (AI-3 covers AI calls). Severity is what its failure leaves behind
 * (`CHANGES`): high only for a payment (`money.ts`) and for a change that runs after one, medium
 * for every other write, send or delete.
 */
export const DI_1: Policy = {
  code: 'DI-1',
  title: 'Data written without an error handler',
  category: 'DI',
  severity: 'medium',
  description:
    'A module that creates, updates, sends or deletes data in another system has no error-handler route, so a failure stops the run halfway and leaves the systems out of step. Modules that only compute (AI completions, code, conversions) are not data changes. A payment, or a change after one, is high: its failure can lose or duplicate money.',
  rationale:
    'Without a handler a failed write aborts the run after earlier writes already happened: partial updates, duplicate sends on re-run. Make error handlers (Break with retry, Resume, Rollback) keep processing complete and accurate (SOC 2 PI1.3; NIST SP 800-53 SI-11). A failed delete leaves the data in place and loses nothing; a payment that fails or is followed by a failure is the costly case: payment APIs ask for retries that check the first attempt (Stripe API "Idempotent requests").',
  compliance_frameworks: [ref(F.soc2, 'PI1.3'), ref(F.nist, 'SI-11'), ref(F.iso27001, 'A.8.28')],
  examples: {
    avoid:
      'A `google-sheets:addRow` with no `onerror` route; an HTTP `POST /v1/transfers` with an `amount` and no handler.',
    prefer:
      'The same module with an `onerror` route ending in `builtin:Break` (retry 3 times, store as incomplete execution); a payment call with a stable idempotency key.',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    let payment: ModuleNode | null = null;
    for (const m of analysis.graph.modules) {
      const partial = m.errorHandlerIds.length > 0 ? errorRouteFilter(analysis, m) : null;
      const handled = m.container === 'onerror' || (m.errorHandlerIds.length > 0 && partial === null);
      const cls = classify(m);
      const money = !inAnyErrorRoute(analysis.graph.byId, m) && movesMoney(m);
      if (
        !handled &&
        (cls.role === 'write' || cls.role === 'delete') &&
        (cls.external || cls.datastore) &&
        !fetchesByPost(analysis, m)
      ) {
        const kind: Change = money
          ? 'money'
          : payment
            ? 'after-money'
            : cls.role === 'delete'
              ? cls.reversible
                ? 'reversible-delete'
                : 'delete'
              : cls.effect === 'send'
                ? 'send'
                : 'write';
        const { reason, severity } = CHANGES[kind];
        const text = partial
          ? reason.replace(
              'has no error-handler route',
              `handles only the errors its error route's filter "${partial.name || 'unnamed'}" lets through (any other error is unhandled)`,
            )
          : reason;
        findings.push({
          moduleId: m.id,
          reason: kind === 'after-money' ? `${text} (payment: module ${payment!.id})` : text,
          severity,
          evidence: { pointer: m.pointer },
        });
      }
      // Modules run in document order (a module, then its routes in order); a payment affects what follows it.
      if (money) payment ??= m;
    }
    if (findings.length === 0) return null;
    return {
      status: 'fail',
      findings,
      summary: `${findings.length} data-changing module${findings.length === 1 ? '' : 's'} without an error handler`,
    };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      const mods = findingModules(outcome, analysis);
      const steps = mods
        .slice(0, 10)
        .map(
          (m) =>
            `Right-click ${moduleRef(m)} → **Add error handler** and choose **Break** (enable *Automatically complete execution*, 3 attempts) so failed runs are retried and kept.`,
        );
      if (mods.length > 10)
        steps.push(`Do the same for the other ${mods.length - 10} modules listed in \`failing_modules\`.`);
      steps.push(
        'Enable **Allow storing of incomplete executions** in the scenario settings so Break handlers can keep failed runs.',
      );
      steps.push(
        'Where a write must not be half-done, use **Rollback** on transactional apps or a compensating step in the handler route.',
      );
      return steps;
    },
  },
};

/**
 * A POST that only fetches: nothing in its request comes from the run (URL, headers and body are
 * literal) and a later module reads its answer. It cannot record anything about the run; it asks a
 * service for a value (a generated code, a token for fixed credentials), like a GET would (make
 * `luxisoft-automatizacion-venta` 19/23/24/42 post a fixed TOTP seed to a code generator and send
 * the code). A POST that carries run data stays a write, whatever its path says.
 */
function fetchesByPost(analysis: Analysis, m: ModuleNode): boolean {
  if (!classify(m).http || httpMethod(m) !== 'POST') return false;
  return analysis.dataflow().refsOf(m.id).length === 0 && outputRead(analysis, m);
}
