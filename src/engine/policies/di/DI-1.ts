/** @module engine/policies/di/DI-1: data-changing modules with no error handler. */
import type { Json, ModuleNode } from '../../blueprint/types.js';
import type { Finding, Policy } from '../types.js';
import type { Severity } from '../../severity.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import type { Analysis } from '../../analysis.js';
import { classify, httpMethod, moduleUrl } from '../../blueprint/classify.js';
import { isCredentialName } from '../../secrets/patterns.js';
import { movesMoney } from '../../money.js';
import { findingModules, moduleRef } from '../helpers.js';
import { errorRouteFilter, flowOf, inAnyErrorRoute, outputRead, runsPerItem } from './shared.js';

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
 * for every other write, send or delete, low for the last step of a route whose failure costs
 * little (`lastStepNote`).
 */
export const DI_1: Policy = {
  code: 'DI-1',
  title: 'Data written without an error handler',
  category: 'DI',
  severity: 'medium',
  description:
    'A module that creates, updates, sends or deletes data in another system has no error-handler route, so a failure stops the run halfway and leaves the systems out of step. Modules that only compute (AI completions, code, conversions) are not data changes. A payment, or a change after one, is high: its failure can lose or duplicate money. The last step of a route, run once per run, is low when it sends a message (a failure loses only that message) or when incomplete executions are stored (the failed run is kept for retry). A POST that only fetches (an OAuth token request, a request carrying nothing about the run whose answer is read) is not a data change.',
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
        const last = kind === 'money' || kind === 'after-money' ? null : lastStepNote(analysis, m, kind);
        const base = last ?? reason;
        const text = partial
          ? base.replace(
              'has no error-handler route',
              `handles only the errors its error route's filter "${partial.name || 'unnamed'}" lets through (any other error is unhandled)`,
            )
          : base;
        findings.push({
          moduleId: m.id,
          reason: kind === 'after-money' ? `${text} (payment: module ${payment!.id})` : text,
          severity: last ? 'low' : severity,
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
 * The reason of a finding on the last step of a route whose failure costs little, or `null` when it
 * is not the last step or the reason does not hold. Nothing runs after it on its route, once per run
 * (not once per item of an iterator or repeater that no aggregator has closed): its failure stops no
 * later step and leaves no record half-written after it. A send there loses only that message (make-more `shivam-sy` 25, the
 * courtesy SMS after the event and the row are written); a write or delete there is kept and retried
 * when the scenario stores incomplete executions (`dlq`; Make help, "Automatic retry of incomplete
 * executions"; make-more `stonesatsuma` 26). Without stored executions a last write still loses its
 * record (make-more `shani-2006` 2): medium.
 */
function lastStepNote(analysis: Analysis, m: ModuleNode, kind: Change): string | null {
  if (!lastStepOnce(analysis, m)) return null;
  if (kind === 'send')
    return 'sends a message and has no error-handler route, as the last step of its route: a failure loses only this message and stops nothing after it';
  if (analysis.graph.settings.dlq === true)
    return `${kind === 'write' ? 'writes' : 'deletes'} data and has no error-handler route, as the last step of its route: a failure stops nothing after it, and the run is stored as an incomplete execution to retry`;
  return null;
}

/** True when nothing follows `m` on its own flow and it runs once per run, not per item of an open iteration. */
function lastStepOnce(analysis: Analysis, m: ModuleNode): boolean {
  if (m.container === 'onerror' || m.index !== flowOf(analysis, m).length - 1) return false;
  return !runsPerItem(analysis, m);
}

/**
 * A POST that only fetches: nothing about the run is in its request, and a later module reads its
 * answer. It cannot record anything about the run; it asks a service for a value (a generated code,
 * a token for fixed credentials), like a GET would (make `luxisoft-automatizacion-venta` 19/23/24/42
 * post a fixed TOTP seed to a code generator and send the code). Values mapped into the request only
 * to reach the service (a base address at the start of the URL, before a literal path) or to
 * authenticate (a credential header such as `Authorization`) say nothing about the run (make-more
 * `adityaxlego` 16 asks for a request digest with `{{base}}/contextinfo` and a bearer token; nothing
 * reads its answer, so it stays reported: a body-less POST to a fixed path can still act). An
 * OAuth 2.0 token request (`tokenRequest`) only obtains a token, whatever it carries. A POST that
 * carries run data stays a write, whatever its path says.
 */
function fetchesByPost(analysis: Analysis, m: ModuleNode): boolean {
  if (!classify(m).http || httpMethod(m) !== 'POST') return false;
  if (tokenRequest(m)) return true;
  const url = `${m.pointer}/mapper/url`;
  const base = BASE_ADDRESS.test(moduleUrl(m) ?? '');
  return (
    analysis
      .dataflow()
      .refsOf(m.id)
      .every((r) => (r.pointer === url && base) || (r.fieldName !== null && isCredentialName(r.fieldName))) &&
    outputRead(analysis, m)
  );
}

/** A URL whose only mapping is its base address: `{{13.baseUrl}}` then a literal path, query or nothing. */
const BASE_ADDRESS = /^\s*\{\{[^{}]+\}\}(?:[/?#][^{}]*)?$/;

/**
 * An OAuth 2.0 access-token request: its body names a `grant_type` (RFC 6749 §4.1.3, §4.3.2, §4.4.2,
 * §6 — every token request carries one). It exchanges credentials for a token and changes no data
 * (make-more `adityaxlego` 14 posts `client_id`, `client_secret` and `grant_type` form fields).
 */
function tokenRequest(m: ModuleNode): boolean {
  const stack: Json[] = m.mapper ? [m.mapper] : [];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('grant_type') && GRANT_TYPE_IN_BODY.test(v)) return true;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') {
      // A form field or pair named `grant_type` (`{ key: 'grant_type', value }`), or a key of a JSON body object.
      if (v['key'] === 'grant_type' || v['name'] === 'grant_type' || 'grant_type' in v) return true;
      stack.push(...Object.values(v));
    }
  }
  return false;
}

/** `grant_type=` in a form-encoded body, `"grant_type":` in a JSON one. */
const GRANT_TYPE_IN_BODY = /(?:^|[?&\s{,"'])grant_type["']?\s*[=:]/;
